/**
 * Fixtures for the notification tests: the work-items world (admin, member, restricted guest in
 * one project; an outsider in the workspace but not the project; a stranger elsewhere) plus a
 * second member, and helpers that produce source events through the real API and wait until the
 * notification service has handled them.
 */
import { ROLE } from "@tideline/shared";
import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { client, createUser, type TestApp, type TestUser } from "../../test/harness.ts";
import { notifications, workspaceMembers } from "../db/schema.ts";
import { createFixture, type Fixture } from "../routes/issues/test-support.ts";
import { addMember } from "../routes/projects/test-support.ts";
import { notificationServiceOf } from "./service.ts";

export type NotifyFixture = Fixture & { member2: TestUser; slug: string; key: (seq: number) => string };

export async function createNotifyFixture(t: TestApp): Promise<NotifyFixture> {
  const f = await createFixture(t);
  const member2 = await createUser(t.db);
  await t.db.insert(workspaceMembers).values({ workspaceId: f.w.workspaceId, memberId: member2.id, role: ROLE.member });
  await addMember(t, f.w.admin, f.w.slug, f.project.id, member2, ROLE.member);
  return { ...f, member2, slug: f.w.slug, key: (seq) => `${f.project.identifier}-${seq}` };
}

/** Wait until every event heard so far has been turned into notifications. */
export async function settle(t: TestApp): Promise<void> {
  const service = notificationServiceOf(t.app.ctx);
  if (!service) throw new Error("notification service not running");
  await service.idle();
}

/** Notification rows of a user, oldest first. */
export async function rowsOf(t: TestApp, userId: string) {
  await settle(t);
  return t.db
    .select()
    .from(notifications)
    .where(eq(notifications.receiverId, userId))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));
}

/** Notification rows about one work item, oldest first. */
export async function rowsAbout(t: TestApp, issueId: string) {
  await settle(t);
  return t.db
    .select()
    .from(notifications)
    .where(eq(notifications.entityIdentifier, issueId))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));
}

export const mention = (user: { id: string; displayName: string }) =>
  `<mention-component entity_name="user_mention" entity_identifier="${user.id}" label="${user.displayName}"></mention-component>`;

/** Create a work item through the API and wait for its notifications. */
export async function apiCreate(t: TestApp, f: NotifyFixture, by: TestUser, body: Record<string, unknown> = {}) {
  const res = await client(t.app, by).post(`${f.project.url}/issues/`, { name: "A work item", ...body });
  expect(res.statusCode, res.body).toBe(201);
  await settle(t);
  return res.json() as { id: string; sequence_id: number; name: string };
}

export async function apiPatch(t: TestApp, f: NotifyFixture, by: TestUser, id: string, body: Record<string, unknown>) {
  const res = await client(t.app, by).patch(`${f.project.url}/issues/${id}/`, body);
  expect(res.statusCode, res.body).toBe(200);
  await settle(t);
  return res.json();
}

export async function apiComment(t: TestApp, f: NotifyFixture, by: TestUser, id: string, html: string) {
  const res = await client(t.app, by).post(`${f.project.url}/issues/${id}/comments/`, { comment_html: html });
  expect(res.statusCode, res.body).toBe(201);
  await settle(t);
  return res.json() as { id: string };
}

export async function setPreferences(t: TestApp, user: TestUser, prefs: Record<string, boolean>) {
  const res = await client(t.app, user).patch("/api/users/me/notification-preferences/", prefs);
  expect(res.statusCode, res.body).toBe(200);
}
