/**
 * Fixtures for the work-item detail tests: a workspace with admin, member and guest in one
 * project, a private project the member and guest are not in, a project of another workspace,
 * work items inserted straight into the table (the factory the core API's tests don't need),
 * and a recorder for domain events.
 */

import type { DomainEvent } from "@tideline/shared";
import { NETWORK, ROLE } from "@tideline/shared";
import { and, eq, sql } from "drizzle-orm";
import { client, type TestApp, type TestUser } from "../../../test/harness.ts";
import { issueActivities, issues, projects, states } from "../../db/schema.ts";
import { notificationServiceOf } from "../../notifications/service.ts";
import { addMember, createProject, createWorld, type World } from "../projects/test-support.ts";

export type ItemRow = typeof issues.$inferSelect;
export type TestProject = { id: string; identifier: string; url: string; slug: string };

let counter = 0;

/**
 * A work item of `project`, numbered from the project's counter like the real create does,
 * in the project's default state unless told otherwise.
 */
export async function createItem(
  t: TestApp,
  project: { id: string },
  creator: TestUser,
  overrides: Partial<typeof issues.$inferInsert> = {},
): Promise<ItemRow> {
  const [bumped] = await t.db
    .update(projects)
    .set({ lastSequenceId: sql`${projects.lastSequenceId} + 1` })
    .where(eq(projects.id, project.id))
    .returning();
  if (!bumped) throw new Error("project not found");
  const [state] = await t.db
    .select()
    .from(states)
    .where(and(eq(states.projectId, project.id), eq(states.isDefault, true)))
    .limit(1);
  const [row] = await t.db
    .insert(issues)
    .values({
      workspaceId: bumped.workspaceId,
      projectId: project.id,
      sequenceId: bumped.lastSequenceId,
      name: `Work item ${++counter}`,
      stateId: state?.id ?? null,
      createdById: creator.id,
      updatedById: creator.id,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("issue insert failed");
  return row;
}

/** The id of the project's state in `group` (the default five exist in every project). */
export async function stateIn(t: TestApp, projectId: string, group: string): Promise<string> {
  const [row] = await t.db
    .select({ id: states.id })
    .from(states)
    .where(and(eq(states.projectId, projectId), eq(states.group, group)))
    .limit(1);
  if (!row) throw new Error(`no ${group} state`);
  return row.id;
}

export type Fixture = {
  w: World;
  /** Admin (project admin), member and guest are in it; guests may see every item in it. */
  project: TestProject;
  /** A private project of the admin that member and guest are not in. */
  hidden: TestProject;
  /** A project of another workspace (the stranger's). */
  foreign: TestProject;
  /** Every domain event published since the fixture was built. */
  events: DomainEvent[];
};

export async function createFixture(t: TestApp, options: { guestViewAll?: boolean } = {}): Promise<Fixture> {
  const w = await createWorld(t);
  const made = await createProject(t, w.admin, w.slug);
  await addMember(t, w.admin, w.slug, made.id, w.member, ROLE.member);
  await addMember(t, w.admin, w.slug, made.id, w.guest, ROLE.guest);
  if (options.guestViewAll ?? true) {
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, made.id));
  }
  const hidden = await createProject(t, w.admin, w.slug, { network: NETWORK.private });
  const foreign = await createProject(t, w.stranger, w.otherSlug);
  const at = (slug: string, p: { id: string; identifier: string }): TestProject => ({
    id: p.id,
    identifier: p.identifier,
    slug,
    url: `/api/workspaces/${slug}/projects/${p.id}`,
  });
  const events: DomainEvent[] = [];
  t.app.ctx.events.subscribe((e) => {
    events.push(e);
  });
  return {
    w,
    project: at(w.slug, made),
    hidden: at(w.slug, hidden),
    foreign: at(w.otherSlug, foreign),
    events,
  };
}

/**
 * The domain events `work` published. Notifications are made from the event stream after each
 * request commits, so earlier work's `notification.created` events may still be on their way:
 * wait for the notification service to settle first, and leave notification events out (their
 * own tests are in notifications/).
 */
export async function eventsDuring<T>(
  t: TestApp,
  f: Fixture,
  work: () => Promise<T>,
): Promise<{ result: T; events: DomainEvent[] }> {
  await notificationServiceOf(t.app.ctx)?.idle();
  const start = f.events.length;
  const result = await work();
  return { result, events: f.events.slice(start).filter((e) => !e.type.startsWith("notification.")) };
}

/** Activity rows of an item, oldest first. */
export async function activityOf(t: TestApp, issueId: string) {
  return t.db
    .select()
    .from(issueActivities)
    .where(eq(issueActivities.issueId, issueId))
    .orderBy(issueActivities.createdAt, issueActivities.id);
}

/** Item URL under its project for `{type}` (issues by default). */
export function itemUrl(project: TestProject, item: { id: string }, type: "issues" | "epics" = "issues") {
  return `${project.url}/${type}/${item.id}`;
}

export const as = (t: TestApp, user?: TestUser | null) => client(t.app, user ?? null);
