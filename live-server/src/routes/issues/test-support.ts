/**
 * Fixtures for the work-items API tests: a workspace with admin, member and guest in a
 * project (created through the projects API, so it has its five default states), a project of
 * another workspace, helpers to create items through the API, labels straight in the table,
 * and a recorder of domain events.
 */
import type { DomainEvent } from "@tideline/shared";
import { and, count, eq } from "drizzle-orm";
import { expect } from "vitest";
import { client, type TestApp, type TestUser } from "../../../test/harness.ts";
import { issueActivities, issues, labels, projects, states } from "../../db/schema.ts";
import { createProject, createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import type { PresentedIssue } from "./query.ts";

export type Fixture = {
  w: World;
  /** admin (project admin), member and guest are in it. */
  project: { id: string; identifier: string; url: string };
  /** A project of the stranger's workspace. */
  foreign: { id: string; url: string; slug: string };
  events: DomainEvent[];
};

export async function createFixture(t: TestApp, body: Record<string, unknown> = {}): Promise<Fixture> {
  const w = await createWorld(t);
  const project = await projectWithTeam(t, w, body);
  const other = await createProject(t, w.stranger, w.otherSlug);
  const events: DomainEvent[] = [];
  t.app.ctx.events.subscribe((e) => {
    events.push(e);
  });
  return {
    w,
    project: { id: project.id, identifier: project.identifier, url: project.url },
    foreign: { id: other.id, slug: w.otherSlug, url: `/api/workspaces/${w.otherSlug}/projects/${other.id}` },
    events,
  };
}

/** A fresh project in the fixture's workspace with the same team. */
export async function anotherProject(t: TestApp, f: Fixture, body: Record<string, unknown> = {}) {
  const project = await projectWithTeam(t, f.w, body);
  return { id: project.id, identifier: project.identifier, url: project.url };
}

export async function stateOf(t: TestApp, projectId: string, group: string): Promise<string> {
  const [row] = await t.db
    .select({ id: states.id })
    .from(states)
    .where(and(eq(states.projectId, projectId), eq(states.group, group)))
    .limit(1);
  if (!row) throw new Error(`no ${group} state`);
  return row.id;
}

let labelCounter = 0;
export async function createLabel(t: TestApp, projectId: string, name?: string): Promise<string> {
  const [project] = await t.db.select().from(projects).where(eq(projects.id, projectId));
  if (!project) throw new Error("project missing");
  const [row] = await t.db
    .insert(labels)
    .values({
      workspaceId: project.workspaceId,
      projectId,
      name: name ?? `Label ${++labelCounter}`,
      sortOrder: 65535 + labelCounter,
    })
    .returning();
  if (!row) throw new Error("label insert failed");
  return row.id;
}

/** Create a work item through the API (201 expected). */
export async function createIssue(
  t: TestApp,
  user: TestUser,
  projectUrl: string,
  body: Record<string, unknown> = {},
  type = "issues",
): Promise<PresentedIssue> {
  const res = await client(t.app, user).post(`${projectUrl}/${type}/`, { name: "A work item", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function countIssues(t: TestApp, projectId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(issues).where(eq(issues.projectId, projectId));
  return row?.n ?? 0;
}

export async function issueRow(t: TestApp, id: string) {
  const [row] = await t.db.select().from(issues).where(eq(issues.id, id));
  return row;
}

export async function activitiesOf(t: TestApp, issueId: string) {
  return t.db.select().from(issueActivities).where(eq(issueActivities.issueId, issueId));
}

/** Wait a little for events (they are published synchronously after commit; this is a guard). */
export const eventsOf = (f: Fixture, type: string, entityId?: string) =>
  f.events.filter((e) => e.type === type && (!entityId || e.entity_id === entityId));
