import { type DomainEvent, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  type TestApp,
  type TestUser,
} from "../../../test/harness.ts";
import { notifications, states, workspaceMembers } from "../../db/schema.ts";
import {
  apiComment,
  apiCreate,
  apiPatch,
  createNotifyFixture,
  mention,
  type NotifyFixture,
  rowsOf,
} from "../../notifications/test-support.ts";
import { createLabel, stateOf } from "../issues/test-support.ts";
import { addMember } from "../projects/test-support.ts";

let t: TestApp;
let f: NotifyFixture;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  f = await createNotifyFixture(t);
  base = `/api/workspaces/${f.slug}/users/notifications`;
});
afterAll(() => t.close());

const as = (user?: TestUser | null) => client(t.app, user ?? null);
type Listed = { id: string; read_at: string | null; is_mentioned_notification: boolean; entity_identifier: string };
type Page = {
  results: Listed[];
  count: number;
  total_count: number;
  next_cursor: string;
  prev_cursor: string;
  next_page_results: boolean;
  prev_page_results: boolean;
};

async function list(user: TestUser, query = ""): Promise<Page> {
  const res = await as(user).get(`${base}/${query ? `?${query}` : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function unread(user: TestUser) {
  const res = await as(user).get(`${base}/unread/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { total_unread_notifications_count: number; mention_unread_notifications_count: number };
}

const rowOf = async (id: string) => (await t.db.select().from(notifications).where(eq(notifications.id, id)))[0];

/** A fresh user in the project, with one work item assigned to them by the admin plus `comments` comments on it. */
async function freshReceiver(comments = 0) {
  const user = await createUser(t.db);
  await t.db.insert(workspaceMembers).values({ workspaceId: f.w.workspaceId, memberId: user.id, role: ROLE.member });
  await addMember(t, f.w.admin, f.slug, f.project.id, user, ROLE.member);
  const item = await apiCreate(t, f, f.w.admin, { assignee_ids: [user.id] });
  for (let i = 0; i < comments; i++) await apiComment(t, f, f.w.admin, item.id, `<p>comment ${i}</p>`);
  return { user, item };
}

describe("GET users/notifications/unread/", () => {
  it("counts unread, not archived, not snoozed now; mentions in the total and apart; never below 0", async () => {
    const { user, item } = await freshReceiver(2);
    await apiComment(t, f, f.w.admin, item.id, `<p>${mention(user)}</p>`);
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 4, mention_unread_notifications_count: 1 });
    const [a, b, c] = (await list(user, "mentioned=false")).results;
    if (!a || !b || !c) throw new Error("expected three");
    expect((await as(user).post(`${base}/${a.id}/read/`)).statusCode).toBe(200);
    expect((await as(user).post(`${base}/${a.id}/read/`)).statusCode).toBe(200);
    expect((await as(user).post(`${base}/${b.id}/archive/`)).statusCode).toBe(200);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await as(user).patch(`${base}/${c.id}/`, { snoozed_till: future })).statusCode).toBe(200);
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 1, mention_unread_notifications_count: 1 });
    // Unreading an unread one, reading a read one: the counts stay true, never negative.
    expect((await as(user).delete(`${base}/${c.id}/read/`)).statusCode).toBe(200);
    expect((await as(user).post(`${base}/${a.id}/read/`)).statusCode).toBe(200);
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 1, mention_unread_notifications_count: 1 });
    // A snooze that has passed counts again.
    const past = new Date(Date.now() - 1000).toISOString();
    expect((await as(user).patch(`${base}/${c.id}/`, { snoozed_till: past })).statusCode).toBe(200);
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 2, mention_unread_notifications_count: 1 });
  });

  it("401 anonymous, 404 outside the workspace, zero for a member with none", async () => {
    expect((await as(null).get(`${base}/unread/`)).statusCode).toBe(401);
    expect((await as(f.w.stranger).get(`${base}/unread/`)).statusCode).toBe(404);
    expect(await unread(f.w.outsider)).toEqual({
      total_unread_notifications_count: 0,
      mention_unread_notifications_count: 0,
    });
  });
});

describe("the All tab, the Mentions tab and their counts agree", () => {
  it("a user with N unread, some of them mentions: the All list has N, the total says N; Mentions has the mentions", async () => {
    const { user, item } = await freshReceiver(3);
    await apiComment(t, f, f.w.admin, item.id, `<p>look ${mention(user)}</p>`);
    await apiComment(t, f, f.w.member, item.id, `<p>and ${mention(user)}</p>`);
    // assigned + 3 comments + 2 mentions
    const counts = await unread(user);
    const all = await list(user);
    const unreadAll = await list(user, "read=false");
    const mentions = await list(user, "mentioned=true");
    expect(counts).toEqual({ total_unread_notifications_count: 6, mention_unread_notifications_count: 2 });
    expect(all.total_count).toBe(6);
    expect(all.results.filter((n) => n.is_mentioned_notification)).toHaveLength(2);
    expect(unreadAll.total_count).toBe(counts.total_unread_notifications_count);
    expect(mentions.total_count).toBe(counts.mention_unread_notifications_count);
    // Reading a mention moves both counts; the All tab still lists it, read.
    const firstMention = mentions.results[0];
    if (!firstMention) throw new Error("expected a mention");
    expect((await as(user).post(`${base}/${firstMention.id}/read/`)).statusCode).toBe(200);
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 5, mention_unread_notifications_count: 1 });
    expect((await list(user, "read=false")).total_count).toBe(5);
    expect((await list(user, "read=false&mentioned=true")).total_count).toBe(1);
    expect((await list(user)).total_count).toBe(6);
  });
});

describe("what each notification says changed", () => {
  it("carries the field with old and new values by name (state, priority, dates, labels, assignees) and the comment", async () => {
    const { user, item } = await freshReceiver(0);
    const started = await stateOf(t, f.project.id, "started");
    const label = await createLabel(t, f.project.id, "needs-review");
    await apiPatch(t, f, f.w.admin, item.id, { state_id: started });
    await apiPatch(t, f, f.w.admin, item.id, { priority: "high" });
    await apiPatch(t, f, f.w.admin, item.id, { target_date: "2026-12-24" });
    await apiPatch(t, f, f.w.admin, item.id, { label_ids: [label] });
    // Another person assigned: they hear it alone (by name in their own notification).
    await apiPatch(t, f, f.w.admin, item.id, { assignee_ids: [user.id, f.member2.id] });
    await apiComment(t, f, f.w.admin, item.id, "<p>Shipping this <strong>today</strong>, please check</p>");
    type Activity = { field: string; verb: string; old_value: string | null; new_value: string | null };
    const entries = (await list(user)).results as unknown as {
      sender: string;
      message_stripped: string;
      data: { issue_activity: Activity };
    }[];
    const what = entries
      .map((n) => [
        n.sender.split(":").pop(),
        n.data.issue_activity.field,
        n.data.issue_activity.old_value,
        n.data.issue_activity.new_value,
      ])
      .reverse();
    const [startedState] = await t.db.select().from(states).where(eq(states.id, started));
    // The history rows as the reference writes them: "" on an added list item's or a set date's
    // empty side, a comment's HTML.
    expect(what).toEqual([
      ["assigned", "assignees", "", user.displayName],
      ["state_change", "state", expect.any(String), startedState?.name],
      ["property_change", "priority", "none", "high"],
      ["property_change", "target_date", "", "2026-12-24"],
      ["property_change", "labels", "", "needs-review"],
      ["comment", "comment", null, "<p>Shipping this <strong>today</strong>, please check</p>"],
    ]);
    expect(entries[0]?.message_stripped).toBe("Shipping this today, please check");
    const theirs = (await list(f.member2)).results.filter((n) => n.entity_identifier === item.id) as unknown as {
      data: { issue_activity: Activity };
    }[];
    expect(theirs.map((n) => n.data.issue_activity)).toContainEqual(
      expect.objectContaining({ field: "assignees", old_value: "", new_value: f.member2.displayName }),
    );
  });
});

describe("GET users/notifications/", () => {
  it("lists newest first with the notification fields; mentions alone or left out when asked", async () => {
    const { user, item } = await freshReceiver(1);
    await apiComment(t, f, f.w.member, item.id, `<p>hey ${mention(user)}</p>`);
    const page = await list(user, "mentioned=false");
    expect(page).toMatchObject({ count: 2, total_count: 2, next_page_results: false, prev_page_results: false });
    const [newest, oldest] = page.results;
    expect(newest).toMatchObject({
      title: `${f.w.admin.displayName} commented on ${f.key(item.sequence_id)}`,
      entity_name: "issue",
      entity_identifier: item.id,
      message_html: "<p>comment 0</p>",
      message_stripped: "comment 0",
      message: "comment 0",
      sender: "in_app:issue_activities:comment",
      receiver: user.id,
      triggered_by: f.w.admin.id,
      triggered_by_details: { id: f.w.admin.id, display_name: f.w.admin.displayName },
      read_at: null,
      archived_at: null,
      snoozed_till: null,
      is_inbox_issue: false,
      is_mentioned_notification: false,
      workspace: f.w.workspaceId,
      project: f.project.id,
      created_by: f.w.admin.id,
      data: { issue: { id: item.id, identifier: f.project.identifier, sequence_id: item.sequence_id } },
    });
    expect(oldest).toMatchObject({ sender: "in_app:issue_activities:assigned" });
    const mentions = await list(user, "mentioned=true");
    expect(mentions.results).toHaveLength(1);
    expect(mentions.results[0]).toMatchObject({ is_mentioned_notification: true, triggered_by: f.w.member.id });
    expect((await list(user, "mentioned=false")).total_count).toBe(2);
  });

  it("pages with count:offset:0 cursors (per_page wins over the cursor's size)", async () => {
    const { user } = await freshReceiver(6);
    const all = (await list(user)).results.map((r) => r.id);
    expect(all).toHaveLength(7);
    const p0 = await list(user, "per_page=3");
    expect(p0).toMatchObject({ count: 3, total_count: 7, next_cursor: "3:1:0", next_page_results: true });
    expect(p0.prev_page_results).toBe(false);
    const p1 = await list(user, `cursor=${p0.next_cursor}`);
    expect(p1).toMatchObject({ count: 3, next_cursor: "3:2:0", prev_cursor: "3:0:1", prev_page_results: true });
    const p2 = await list(user, `per_page=3&cursor=${p1.next_cursor}`);
    expect(p2).toMatchObject({ count: 1, next_page_results: false });
    expect([...p0.results, ...p1.results, ...p2.results].map((r) => r.id)).toEqual(all);
    expect((await list(user, "cursor=300:5:0")).results).toEqual([]);
  });

  it("filters by type, read, archived and snoozed", async () => {
    const { user, item } = await freshReceiver(0);
    // Another item the user created, and one they follow by commenting on it.
    const own = await apiCreate(t, f, user, {});
    await apiComment(t, f, f.w.admin, own.id, "<p>on yours</p>");
    const followed = await apiCreate(t, f, f.w.admin, {});
    await apiComment(t, f, user, followed.id, "<p>me too</p>");
    await apiComment(t, f, f.w.admin, followed.id, "<p>reply</p>");
    const about = async (q: string) => (await list(user, q)).results.map((r) => r.entity_identifier).sort();
    expect(await about("")).toEqual([item.id, own.id, followed.id].sort());
    expect(await about("type=assigned")).toEqual([item.id]);
    expect(await about("type=created")).toEqual([own.id]);
    expect(await about("type=subscribed")).toEqual([item.id, own.id, followed.id].sort());
    expect(await about("type=assigned,created")).toEqual([item.id, own.id].sort());
    const first = (await list(user, "type=created")).results[0];
    if (!first) throw new Error("missing");
    await as(user).post(`${base}/${first.id}/read/`);
    expect(await about("read=true")).toEqual([own.id]);
    expect(await about("read=false")).toEqual([item.id, followed.id].sort());
    await as(user).post(`${base}/${first.id}/archive/`);
    expect(await about("")).toEqual([item.id, followed.id].sort());
    expect(await about("archived=true")).toEqual([own.id]);
    const second = (await list(user, "type=assigned")).results[0];
    if (!second) throw new Error("missing");
    await as(user).patch(`${base}/${second.id}/`, { snoozed_till: new Date(Date.now() + 60_000).toISOString() });
    expect(await about("")).toEqual([followed.id]);
    expect(await about("snoozed=true")).toEqual([item.id]);
  });

  it("400 on bad parameters, 401 anonymous, 404 outside the workspace", async () => {
    for (const q of [
      "type=everything",
      "snoozed=yes",
      "archived=1",
      "read=maybe",
      "mentioned=TRUE",
      "per_page=0",
      "per_page=abc",
      "cursor=abc",
      "cursor=300:-1:1",
      "cursor=0:0:0",
    ]) {
      const res = await as(f.w.member).get(`${base}/?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe("VALIDATION_ERROR");
    }
    expect((await as(null).get(`${base}/`)).statusCode).toBe(401);
    expect((await as(f.w.stranger).get(`${base}/`)).statusCode).toBe(404);
    expect((await as(f.w.member).get(`/api/workspaces/${f.w.otherSlug}/users/notifications/`)).statusCode).toBe(404);
  });
});

describe("changing one notification", () => {
  it("read / unread / archive / restore / PATCH change only the receiver's own, and announce it", async () => {
    const { user } = await freshReceiver(0);
    const [n] = (await list(user)).results;
    if (!n) throw new Error("missing");
    const seen: DomainEvent[] = [];
    const stop = t.app.ctx.events.subscribe((e) => {
      if (e.type === "notification.updated") seen.push(e);
    });
    const read = await as(user).post(`${base}/${n.id}/read/`, {}, { "x-client-mutation-id": "m-1" });
    expect(read.statusCode).toBe(200);
    expect(read.json().read_at).toEqual(expect.any(String));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      entity_id: n.id,
      workspace_id: f.w.workspaceId,
      project_id: f.project.id,
      actor_id: user.id,
      client_mutation_id: "m-1",
      data: {
        id: n.id,
        receiver_id: user.id,
        unread_counts: { total_unread_notifications_count: 0, mention_unread_notifications_count: 0 },
      },
    });
    // Already read: no change, no event, the first read time kept.
    const again = await as(user).post(`${base}/${n.id}/read/`);
    expect(again.json().read_at).toBe(read.json().read_at);
    expect(seen).toHaveLength(1);
    expect((await as(user).delete(`${base}/${n.id}/read/`)).json().read_at).toBeNull();
    expect((await as(user).post(`${base}/${n.id}/archive/`)).json().archived_at).toEqual(expect.any(String));
    expect((await as(user).delete(`${base}/${n.id}/archive/`)).json().archived_at).toBeNull();
    const when = "2031-02-03T04:30:00.000Z";
    const patched = await as(user).patch(`${base}/${n.id}/`, { snoozed_till: when, read_at: when });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ snoozed_till: when, read_at: when, archived_at: null });
    expect((await rowOf(n.id))?.updatedById).toBe(user.id);
    expect((await as(user).patch(`${base}/${n.id}/`, { snoozed_till: null })).json().snoozed_till).toBeNull();
    stop();
    expect(seen.map((e) => e.entity_id)).toEqual(Array(6).fill(n.id));
  });

  it("404 for another user's notification, another workspace's path, or a bad id; 401 anonymous", async () => {
    const { user } = await freshReceiver(0);
    const [n] = (await list(user)).results;
    if (!n) throw new Error("missing");
    const before = await rowOf(n.id);
    const calls = (path: string) =>
      [
        ["POST", `${path}/read/`],
        ["DELETE", `${path}/read/`],
        ["POST", `${path}/archive/`],
        ["DELETE", `${path}/archive/`],
        ["PATCH", `${path}/`],
      ] as const;
    const send = (who: TestUser | null, method: string, url: string) => {
      const c = as(who);
      if (method === "POST") return c.post(url, {});
      if (method === "DELETE") return c.delete(url);
      return c.patch(url, { read_at: new Date().toISOString() });
    };
    for (const [method, url] of calls(`${base}/${n.id}`)) {
      expect((await send(f.w.member, method, url)).statusCode, `${method} ${url} as another member`).toBe(404);
      expect((await send(f.w.stranger, method, url)).statusCode, `${method} ${url} as a stranger`).toBe(404);
      expect((await send(null, method, url)).statusCode).toBe(401);
    }
    // The receiver's own notification is not reachable under another workspace's slug.
    const other = await createWorkspace(t.db, user);
    for (const [method, url] of calls(`/api/workspaces/${other.slug}/users/notifications/${n.id}`)) {
      expect((await send(user, method, url)).statusCode, `${method} ${url}`).toBe(404);
    }
    for (const [method, url] of calls(`${base}/not-a-uuid`)) {
      expect((await send(user, method, url)).statusCode).toBe(404);
    }
    expect(await rowOf(n.id)).toEqual(before);
  });

  it("PATCH: 400 on unknown fields or bad dates, with nothing changed", async () => {
    const { user } = await freshReceiver(0);
    const [n] = (await list(user)).results;
    if (!n) throw new Error("missing");
    const before = await rowOf(n.id);
    for (const body of [
      { read_at: "yesterday" },
      { snoozed_till: "2031-02-03" },
      { archived_at: 12 },
      { read_at: [new Date().toISOString()] },
    ]) {
      const res = await as(user).patch(`${base}/${n.id}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await rowOf(n.id)).toEqual(before);
  });
});

describe("POST users/notifications/mark-all-read/", () => {
  it("marks the filtered set read (mentions included unless filtered), and announces it once", async () => {
    const { user, item } = await freshReceiver(2);
    await apiComment(t, f, f.w.admin, item.id, `<p>${mention(user)}</p>`);
    const own = await apiCreate(t, f, user, {});
    await apiComment(t, f, f.w.admin, own.id, "<p>on yours</p>");
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 5, mention_unread_notifications_count: 1 });

    const created = await as(user).post(`${base}/mark-all-read/`, { type: "created" });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ count: 1 });
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 4, mention_unread_notifications_count: 1 });

    const notMentions = await as(user).post(`${base}/mark-all-read/`, { mentioned: false });
    expect(notMentions.json()).toMatchObject({ count: 3 });
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 1, mention_unread_notifications_count: 1 });

    const seen: DomainEvent[] = [];
    const stop = t.app.ctx.events.subscribe((e) => {
      if (e.type === "notification.updated") seen.push(e);
    });
    const rest = await as(user).post(`${base}/mark-all-read/`, {});
    stop();
    expect(rest.json()).toMatchObject({ count: 1 });
    expect(await unread(user)).toEqual({ total_unread_notifications_count: 0, mention_unread_notifications_count: 0 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      entity_id: user.id,
      project_id: null,
      data: { receiver_id: user.id, mark_all_read: true, ids: [expect.any(String)] },
    });
    // Nothing left: count 0, no event.
    expect((await as(user).post(`${base}/mark-all-read/`, {})).json()).toMatchObject({ count: 0 });
  });

  it("leaves snoozed and archived ones alone unless asked", async () => {
    const { user } = await freshReceiver(2);
    const [a, b] = (await list(user)).results;
    if (!a || !b) throw new Error("missing");
    await as(user).post(`${base}/${a.id}/archive/`);
    await as(user).patch(`${base}/${b.id}/`, { snoozed_till: new Date(Date.now() + 60_000).toISOString() });
    expect((await as(user).post(`${base}/mark-all-read/`, {})).json()).toMatchObject({ count: 1 });
    expect((await rowOf(a.id))?.readAt).toBeNull();
    expect((await rowOf(b.id))?.readAt).toBeNull();
    expect((await as(user).post(`${base}/mark-all-read/`, { archived: true })).json()).toMatchObject({ count: 1 });
    expect((await as(user).post(`${base}/mark-all-read/`, { snoozed: "true" })).json()).toMatchObject({ count: 1 });
    expect((await rowOf(b.id))?.readAt).not.toBeNull();
  });

  it("400 on bad input with nothing changed; 401 anonymous; 404 outside the workspace; only the caller's", async () => {
    const { user } = await freshReceiver(1);
    const rows = async () => (await rowsOf(t, user.id)).map((r) => r.readAt);
    const before = await rows();
    expect(before.every((r) => r === null)).toBe(true);
    for (const body of [{ type: "nope" }, { snoozed: "yes" }, { archived: 1 }, { mentioned: "maybe" }, { read: [] }]) {
      const res = await as(user).post(`${base}/mark-all-read/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await as(null).post(`${base}/mark-all-read/`, {})).statusCode).toBe(401);
    expect((await as(f.w.stranger).post(`${base}/mark-all-read/`, {})).statusCode).toBe(404);
    // Someone else marking all read in the same workspace doesn't touch this user's.
    expect((await as(f.w.member).post(`${base}/mark-all-read/`, {})).statusCode).toBe(200);
    expect(await rows()).toEqual(before);
  });
});
