/**
 * Notifications about intake requests (notifications/service.ts, routes/intake): made while the
 * work item is a request, they carry is_inbox_issue = true and data.intake.id (the request);
 * triage tells no one; accepting turns the flag off (notification.updated). Rights: a guest
 * hears only of their own requests; nobody outside the project or the workspace hears anything.
 */
import type { DomainEvent } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../test/harness.ts";
import { notifications } from "../db/schema.ts";
import { anotherProject } from "../routes/issues/test-support.ts";
import {
  apiCreate,
  apiPatch,
  createNotifyFixture,
  mention,
  type NotifyFixture,
  rowsAbout,
  rowsOf,
  settle,
} from "./test-support.ts";

let t: TestApp;
let f: NotifyFixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createNotifyFixture(t);
  const on = await client(t.app, f.w.admin).patch(`${f.project.url}/`, { inbox_view: true });
  expect(on.statusCode, on.body).toBe(200);
});
afterAll(() => t.close());

type Request = { id: string; issue: { id: string; sequence_id: number } };

async function submit(by: TestUser, issue: Record<string, unknown>, url = f.project.url): Promise<Request> {
  const res = await client(t.app, by).post(`${url}/inbox-issues/`, { source: "IN_APP", issue });
  expect(res.statusCode, res.body).toBe(201);
  await settle(t);
  return res.json();
}

async function triage(by: TestUser, r: Request, body: Record<string, unknown>, url = f.project.url) {
  const res = await client(t.app, by).patch(`${url}/inbox-issues/${r.id}/`, body);
  expect(res.statusCode, res.body).toBe(200);
  await settle(t);
  return res.json();
}

/** The caller's notification list as the API answers it. */
async function listed(user: TestUser) {
  const res = await client(t.app, user).get(`/api/workspaces/${f.slug}/users/notifications/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as {
    id: string;
    entity_identifier: string;
    is_inbox_issue: boolean;
    sender: string;
    data: { intake?: { id: string } };
  }[];
}

const notificationEvents = (from: number) =>
  f.events.slice(from).filter((e) => e.type.startsWith("notification.")) as DomainEvent[];

describe("notifications about an intake request", () => {
  it("a guest's request: its mentions and a triager's edits reach members and the submitter, marked is_inbox_issue", async () => {
    const r = await submit(f.w.guest, {
      name: "Dark mode please",
      description_html: `<p>${mention(f.w.member)} ${mention(f.w.outsider)} ${mention(f.w.stranger)} ${mention(f.w.guest)}</p>`,
    });
    let rows = await rowsAbout(t, r.issue.id);
    expect(rows.map((n) => [n.receiverId, n.sender])).toEqual([[f.w.member.id, "in_app:issue_activities:mentioned"]]);
    expect(rows[0]).toMatchObject({
      isInboxIssue: true,
      workspaceId: f.w.workspaceId,
      projectId: f.project.id,
      triggeredById: f.w.guest.id,
      title: `${f.w.guest.displayName} mentioned you in ${f.key(r.issue.sequence_id)}`,
    });
    expect(rows[0]?.data).toMatchObject({ intake: { id: r.id }, issue: { id: r.issue.id } });

    // A triager edits the request: its followers (the submitter is subscribed) hear of it.
    const before = f.events.length;
    await triage(f.w.admin, r, { issue: { priority: "high", assignee_ids: [f.member2.id] } });
    const updated = f.events.slice(before).find((e) => e.type === "intake.updated");
    expect([...((updated?.data.changed_fields ?? []) as string[])].sort()).toEqual(["assignee_ids", "priority"]);
    rows = await rowsAbout(t, r.issue.id);
    const told = (from: number) => rows.slice(from).map((n) => `${n.receiverId} ${n.sender} ${n.isInboxIssue}`);
    expect(told(1).sort()).toEqual(
      [
        `${f.member2.id} in_app:issue_activities:assigned true`,
        `${f.w.guest.id} in_app:issue_activities:property_change true`,
        `${f.member2.id} in_app:issue_activities:property_change true`,
      ].sort(),
    );
    const created = notificationEvents(before).filter((e) => e.type === "notification.created");
    expect(created).toHaveLength(3);
    expect(created.every((e) => (e.data as { is_inbox_issue: boolean }).is_inbox_issue)).toBe(true);

    // The guest's own list says so too, with the request to open.
    const mine = (await listed(f.w.guest)).filter((n) => n.entity_identifier === r.issue.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ is_inbox_issue: true, data: { intake: { id: r.id } } });

    // Triage alone tells no one (snooze, un-snooze, decline, reopen, duplicate), as in the reference.
    const target = await apiCreate(t, f, f.w.admin, { name: "Dark theme" });
    const count = rows.length;
    const triaged = f.events.length;
    await triage(f.w.admin, r, { snoozed_till: new Date(Date.now() + 86_400_000).toISOString() });
    await triage(f.w.admin, r, { snoozed_till: null });
    await triage(f.w.member, r, { status: -1 });
    await triage(f.w.member, r, { status: -2 });
    await triage(f.w.member, r, { status: 2, duplicate_to: target.id });
    expect(await rowsAbout(t, r.issue.id)).toHaveLength(count);
    expect(notificationEvents(triaged)).toEqual([]);

    // The guest edits their own request's text: followers hear of it, not the guest.
    await triage(f.w.guest, r, { issue: { name: "Dark mode, please" } });
    rows = await rowsAbout(t, r.issue.id);
    expect(told(count)).toEqual([`${f.member2.id} in_app:issue_activities:property_change true`]);

    // Accepting tells no one new and turns the flag off on every notification about it, live.
    const accepting = f.events.length;
    await triage(f.w.admin, r, { status: 1 });
    const after = await rowsAbout(t, r.issue.id);
    expect(after).toHaveLength(rows.length);
    expect(after.every((n) => !n.isInboxIssue)).toBe(true);
    const events = notificationEvents(accepting);
    expect(events.map((e) => e.type).every((type) => type === "notification.updated")).toBe(true);
    expect(events.map((e) => e.entity_id).sort()).toEqual(after.map((n) => n.id).sort());
    for (const e of events) {
      const n = after.find((row) => row.id === e.entity_id);
      expect(e.data).toMatchObject({ is_inbox_issue: false, receiver_id: n?.receiverId, unread_counts: {} });
      expect(e.client_mutation_id).toBeNull();
    }
    expect((await listed(f.w.guest)).find((n) => n.entity_identifier === r.issue.id)?.is_inbox_issue).toBe(false);

    // Now an ordinary work item: what it makes is not marked.
    await apiPatch(t, f, f.w.admin, r.issue.id, { priority: "low" });
    const last = (await rowsAbout(t, r.issue.id)).slice(after.length);
    expect(last.map((n) => n.receiverId).sort()).toEqual([f.w.guest.id, f.member2.id].sort());
    expect(last.every((n) => !n.isInboxIssue && !("intake" in (n.data as object)))).toBe(true);
  });

  it("a member's request: the assignees hear at once; a guest never hears of someone else's request", async () => {
    // Even in a project that shows guests every work item: requests stay their submitters' own.
    const open = await anotherProject(t, f);
    const on = await client(t.app, f.w.admin).patch(`${open.url}/`, {
      inbox_view: true,
      guest_view_all_features: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ guest_view_all_features: true });
    const r = await submit(
      f.w.member,
      { name: "Faster exports", assignee_ids: [f.w.admin.id], description_html: `<p>${mention(f.w.guest)}</p>` },
      open.url,
    );
    let rows = await rowsAbout(t, r.issue.id);
    expect(rows.map((n) => [n.receiverId, n.sender, n.isInboxIssue])).toEqual([
      [f.w.admin.id, "in_app:issue_activities:assigned", true],
    ]);
    // The guest is not told of edits either, even when assigned.
    await triage(f.w.admin, r, { issue: { assignee_ids: [f.w.admin.id, f.w.guest.id], priority: "urgent" } }, open.url);
    rows = await rowsAbout(t, r.issue.id);
    expect(rows.some((n) => n.receiverId === f.w.guest.id)).toBe(false);
    expect(rows.slice(1).map((n) => [n.receiverId, n.sender])).toEqual([
      [f.w.member.id, "in_app:issue_activities:property_change"],
    ]);
    // An ordinary work item of that project mentioning the guest does reach them, unmarked.
    const plain = await client(t.app, f.w.member).post(`${open.url}/issues/`, {
      name: "Open item",
      description_html: `<p>${mention(f.w.guest)}</p>`,
    });
    expect(plain.statusCode, plain.body).toBe(201);
    const seen = await rowsAbout(t, plain.json().id);
    expect(seen.map((n) => [n.receiverId, n.isInboxIssue])).toEqual([[f.w.guest.id, false]]);
  });

  it("an edit accepted in the same call is told outside intake; declined requests stay intake ones", async () => {
    const r = await submit(f.w.guest, { name: "Export to CSV" });
    await triage(f.w.member, r, { status: -1 });
    await triage(f.w.admin, r, { issue: { priority: "medium" } });
    let rows = await rowsAbout(t, r.issue.id);
    // Declined, it is still a request (its work-item paths answer 404): the notification opens intake.
    expect(rows.map((n) => [n.receiverId, n.isInboxIssue])).toEqual([[f.w.guest.id, true]]);
    await triage(f.w.admin, r, { status: 1, issue: { priority: "high" } });
    rows = await rowsAbout(t, r.issue.id);
    expect(rows.map((n) => [n.receiverId, n.isInboxIssue])).toEqual([
      [f.w.guest.id, false],
      [f.w.guest.id, false],
    ]);
  });

  it("ordinary work-item notifications are not marked, and nothing reaches another workspace", async () => {
    const item = await apiCreate(t, f, f.w.admin, { name: "Plain", assignee_ids: [f.w.member.id] });
    const [n] = await rowsAbout(t, item.id);
    expect(n).toMatchObject({ receiverId: f.w.member.id, isInboxIssue: false });
    expect(n?.data).not.toHaveProperty("intake");

    // The other workspace's admin, mentioned in requests and edits above, has no notification at all.
    expect(await rowsOf(t, f.w.stranger.id)).toEqual([]);
    expect(await rowsOf(t, f.w.outsider.id)).toEqual([]);
    const everyone = await t.db.select().from(notifications).where(eq(notifications.isInboxIssue, true));
    expect(everyone.every((row) => row.workspaceId === f.w.workspaceId)).toBe(true);
    const foreign = await client(t.app, f.w.stranger).get(`/api/workspaces/${f.w.otherSlug}/users/notifications/`);
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json().results).toEqual([]);
  });
});
