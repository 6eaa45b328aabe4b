import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { intakeIssues, issues } from "../../db/schema.ts";
import {
  countIssues,
  createFixture,
  createIssue,
  createLabel,
  eventsOf,
  type Fixture,
} from "../issues/test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  const on = await client(t.app, f.w.admin).patch(`${f.project.url}/`, { inbox_view: true });
  expect(on.statusCode, on.body).toBe(200);
  // The other workspace's project has intake on too: its admin asking for our requests is a 404, not the switch's 400.
  expect((await client(t.app, f.w.stranger).patch(`${f.foreign.url}/`, { inbox_view: true })).statusCode).toBe(200);
});
afterAll(() => t.close());

const url = (base = "inbox-issues") => `${f.project.url}/${base}/`;
const submit = async (user = f.w.guest, name = "Please add dark mode", extra: Record<string, unknown> = {}) => {
  const res = await client(t.app, user).post(url(), { source: "IN_APP", issue: { name, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; status: number; issue: { id: string; name: string }; created_by: string };
};
const intakeCount = async () => (await t.db.select().from(intakeIssues)).length;
/**
 * What requests announced since `from`: their domain events, not the notifications the
 * notification service makes of earlier ones in its own background work, at its own time
 * (notifications/intake.test.ts checks those).
 */
const announced = (from: number) => f.events.slice(from).filter((e) => !e.type.startsWith("notification."));
const listIds = async (user = f.w.admin, query = "") =>
  ((await client(t.app, user).get(`${url()}${query}`)).json().results as { id: string }[]).map((r) => r.id);

describe("POST inbox-issues/", () => {
  it("a guest submits a pending IN_APP request: intake.created, no issue.created", async () => {
    const before = f.events.length;
    const r = await submit(f.w.guest, "Guest request", { priority: "high", assignee_ids: [f.w.admin.id] });
    expect(r).toMatchObject({ status: -2, source: "IN_APP", created_by: f.w.guest.id, duplicate_to: null });
    expect(r.issue).toMatchObject({ name: "Guest request", priority: "high", assignee_ids: [] });
    const fresh = announced(before);
    expect(fresh.map((e) => e.type)).toEqual(["intake.created"]);
    expect(fresh[0]).toMatchObject({ project_id: f.project.id, entity_id: r.id, data: { created_by: f.w.guest.id } });
  });

  it("also answers at intake-issues/", async () => {
    const res = await client(t.app, f.w.member).post(url("intake-issues"), { issue: { name: "Via intake path" } });
    expect(res.statusCode).toBe(201);
  });

  it("400 without a name, nothing stored", async () => {
    const [n, items] = [await intakeCount(), await countIssues(t, f.project.id)];
    const res = await client(t.app, f.w.member).post(url(), { issue: { name: "  " } });
    expect(res.statusCode).toBe(400);
    expect((await client(t.app, f.w.member).post(url(), { issue: { name: "x", priority: "wild" } })).statusCode).toBe(
      400,
    );
    expect(await intakeCount()).toBe(n);
    expect(await countIssues(t, f.project.id)).toBe(items);
  });

  it("401 signed out, 404 for another workspace's project, 404 for a non-member", async () => {
    expect((await client(t.app, null).post(url(), { issue: { name: "x" } })).statusCode).toBe(401);
    expect(
      (await client(t.app, f.w.admin).post(`${f.foreign.url}/inbox-issues/`, { issue: { name: "x" } })).statusCode,
    ).toBe(404);
    expect((await client(t.app, f.w.stranger).post(url(), { issue: { name: "x" } })).statusCode).toBe(404);
  });
});

describe("GET inbox-issues/", () => {
  it("pages by 10 with cursor 10:0:0, newest first; guests see only their own", async () => {
    for (let i = 0; i < 11; i++) await submit(f.w.member, `Paged ${i}`);
    const first = await client(t.app, f.w.admin).get(`${url()}?status=-2&cursor=10:0:0`);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.results).toHaveLength(10);
    expect(body.next_page_results).toBe(true);
    expect(body.next_cursor).toBe("10:1:0");
    expect(body.results[0].issue.name).toBe("Paged 10");
    const second = (await client(t.app, f.w.admin).get(`${url()}?status=-2&cursor=${body.next_cursor}`)).json();
    expect(second.results.length).toBe(body.total_results - 10);
    expect(second.next_page_results).toBe(false);
    const guest = (await client(t.app, f.w.guest).get(`${url()}?per_page=100`)).json();
    expect(guest.results.length).toBeGreaterThan(0);
    expect(guest.results.every((r: { created_by: string }) => r.created_by === f.w.guest.id)).toBe(true);
    const asc = (await client(t.app, f.w.admin).get(`${url()}?order_by=issue__created_at&per_page=1`)).json();
    expect(asc.results[0].issue.name).toBe("Guest request");
  });

  it("narrows by the work-item filters the screen offers: labels, assignees, submitter", async () => {
    const label = await createLabel(t, f.project.id, "Intake filter label");
    const tagged = await submit(f.w.member, "Tagged request", { label_ids: [label], assignee_ids: [f.w.admin.id] });
    const byGuest = await submit(f.w.guest, "Guest's filtered request");
    const ids = async (query: string) =>
      ((await client(t.app, f.w.admin).get(`${url()}?per_page=100&${query}`)).json().results as { id: string }[]).map(
        (r) => r.id,
      );
    expect(await ids(`labels=${label}`)).toEqual([tagged.id]);
    expect(await ids(`assignees=${f.w.admin.id}`)).toEqual([tagged.id]);
    const submitted = await ids(`created_by=${f.w.guest.id}`);
    expect(submitted).toContain(byGuest.id);
    expect(submitted).not.toContain(tagged.id);
    expect((await client(t.app, f.w.admin).get(`${url()}?labels=not-an-id`)).statusCode).toBe(400);
  });

  it("400 on a bad status or order_by; 401; 404 across workspaces", async () => {
    expect((await client(t.app, f.w.admin).get(`${url()}?status=7`)).statusCode).toBe(400);
    expect((await client(t.app, f.w.admin).get(`${url()}?order_by=nope`)).statusCode).toBe(400);
    expect((await client(t.app, null).get(url())).statusCode).toBe(401);
    expect((await client(t.app, f.w.admin).get(`${f.foreign.url}/inbox-issues/`)).statusCode).toBe(404);
  });
});

describe("GET inbox-issues/:id/", () => {
  it("by the request's id or its work item's id; a guest only their own (404 otherwise)", async () => {
    const mine = await submit(f.w.guest, "Mine");
    const theirs = await submit(f.w.member, "Theirs");
    const a = await client(t.app, f.w.admin).get(`${url()}${mine.issue.id}/?expand=issue_inbox`);
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ id: mine.id, issue: { id: mine.issue.id, name: "Mine" } });
    expect((await client(t.app, f.w.guest).get(`${url()}${mine.id}/`)).statusCode).toBe(200);
    expect((await client(t.app, f.w.guest).get(`${url()}${theirs.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, null).get(`${url()}${mine.id}/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(`${f.foreign.url}/inbox-issues/${mine.id}/`)).statusCode).toBe(404);
  });
});

describe("PATCH inbox-issues/:id/", () => {
  it("snooze (a date makes it snoozed, clearing returns it to pending), decline, duplicate, accept", async () => {
    const r = await submit(f.w.guest, "To triage");
    const patch = (body: Record<string, unknown>, user = f.w.member) =>
      client(t.app, user).patch(`${url()}${r.issue.id}/`, body);
    const till = new Date(Date.now() + 86_400_000).toISOString();
    const snoozed = await patch({ snoozed_till: till });
    expect(snoozed.json()).toMatchObject({ status: 0 });
    expect(await listIds(f.w.admin, "?status=0")).toContain(r.id);
    expect(await listIds(f.w.admin, "?status=-2&per_page=100")).not.toContain(r.id);
    // A snoozed request whose date has passed counts as pending.
    await t.db
      .update(intakeIssues)
      .set({ snoozedTill: new Date(Date.now() - 1000) })
      .where(eq(intakeIssues.id, r.id));
    expect(await listIds(f.w.admin, "?status=-2&per_page=100")).toContain(r.id);
    expect((await patch({ snoozed_till: null })).json()).toMatchObject({ status: -2, snoozed_till: null });
    expect((await patch({ status: -1 })).json()).toMatchObject({ status: -1 });
    // Duplicate needs an existing work item of the project.
    const [n] = [await intakeCount()];
    expect((await patch({ status: 2 })).statusCode).toBe(400);
    expect((await patch({ status: 2, duplicate_to: f.project.id })).statusCode).toBe(400);
    const other = await submit(f.w.member, "Another request");
    expect((await patch({ status: 2, duplicate_to: other.issue.id })).statusCode).toBe(400);
    expect(await intakeCount()).toBe(n + 1);
    const target = await createIssue(t, f.w.admin, f.project.url, { name: "Existing" });
    const dup = await patch({ status: 2, duplicate_to: target.id });
    expect(dup.json()).toMatchObject({ status: 2, duplicate_to: target.id, duplicate_issue_detail: { id: target.id } });
    // Accept: the work item joins the project's lists and is announced.
    const before = f.events.length;
    const accepted = await patch({ status: 1 }, f.w.admin);
    expect(accepted.json()).toMatchObject({ status: 1, duplicate_to: null });
    expect(announced(before).map((e) => e.type)).toEqual(["issue.created", "intake.updated"]);
    expect((await issueRow(r.issue.id))?.inIntake).toBe(false);
    // Accepting is final.
    expect((await patch({ status: -1 })).statusCode).toBe(400);
  });

  it("guests edit only their own request's text (403 for triage); 400 keeps the row; 404 across workspaces", async () => {
    const r = await submit(f.w.guest, "Guest text");
    const edited = await client(t.app, f.w.guest).patch(`${url()}${r.id}/`, { issue: { name: "Guest text v2" } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().issue.name).toBe("Guest text v2");
    expect((await client(t.app, f.w.guest).patch(`${url()}${r.id}/`, { status: 1 })).statusCode).toBe(403);
    const [row] = await t.db.select().from(intakeIssues).where(eq(intakeIssues.id, r.id));
    const bad = await client(t.app, f.w.member).patch(`${url()}${r.id}/`, { status: 5 });
    expect(bad.statusCode).toBe(400);
    expect(
      (await client(t.app, f.w.member).patch(`${url()}${r.id}/`, { snoozed_till: "2001-01-01T00:00:00Z" })).statusCode,
    ).toBe(400);
    const [after] = await t.db.select().from(intakeIssues).where(eq(intakeIssues.id, r.id));
    expect(after).toEqual(row);
    expect((await client(t.app, null).patch(`${url()}${r.id}/`, { status: 1 })).statusCode).toBe(401);
    expect(
      (await client(t.app, f.w.stranger).patch(`${f.foreign.url}/inbox-issues/${r.id}/`, { status: 1 })).statusCode,
    ).toBe(404);
  });
});

describe("DELETE inbox-issues/:id/", () => {
  it("members delete (the pending work item goes with it); guests 403; 401; 404 across workspaces", async () => {
    const r = await submit(f.w.guest, "To delete");
    expect((await client(t.app, null).delete(`${url()}${r.id}/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.guest).delete(`${url()}${r.id}/`)).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).delete(`${f.foreign.url}/inbox-issues/${r.id}/`)).statusCode).toBe(404);
    const res = await client(t.app, f.w.member).delete(`${url()}${r.id}/`);
    expect(res.statusCode).toBe(204);
    expect(eventsOf(f, "intake.deleted", r.id)).toHaveLength(1);
    expect((await issueRow(r.issue.id))?.deletedAt).not.toBeNull();
    expect((await client(t.app, f.w.member).get(`${url()}${r.id}/`)).statusCode).toBe(404);
  });
});

describe("intake-state/, intake-count/, the feature switch", () => {
  it("answers the default state and the pending count; 400 INTAKE_DISABLED when intake is off", async () => {
    const state = await client(t.app, f.w.guest).get(`${f.project.url}/intake-state/`);
    expect(state.statusCode).toBe(200);
    expect(state.json()).toMatchObject({ default: true });
    const count = (await client(t.app, f.w.admin).get(`${f.project.url}/intake-count/`)).json();
    expect(count.pending_count).toBeGreaterThan(0);
    await client(t.app, f.w.admin).patch(`${f.project.url}/`, { inbox_view: false });
    const off = await client(t.app, f.w.member).post(url(), { issue: { name: "x" } });
    expect(off.statusCode).toBe(400);
    expect(off.json()).toMatchObject({
      code: "INTAKE_DISABLED",
      error: expect.stringContaining("Intake is turned off"),
    });
    await client(t.app, f.w.admin).patch(`${f.project.url}/`, { inbox_view: true });
  });
});

describe("requests stay out of work-item lists until accepted", () => {
  it("list, v2 sync, search, detail, sub-issue parent and workspace views leave pending requests out", async () => {
    const r = await submit(f.w.member, "Hidden request zebra");
    const admin = client(t.app, f.w.admin);
    const listed = (await admin.get(`${f.project.url}/issues/?per_page=1000`)).json();
    expect(JSON.stringify(listed)).not.toContain(r.issue.id);
    const v2 = await admin.get(`${f.project.url}/v2/issues/?per_page=1000`);
    expect(v2.statusCode).toBe(200);
    expect(JSON.stringify(v2.json())).not.toContain(r.issue.id);
    const search = await admin.get(`${f.project.url}/search-issues/?search=zebra`);
    expect(JSON.stringify(search.json())).not.toContain(r.issue.id);
    expect((await admin.get(`${f.project.url}/issues/${r.issue.id}/`)).statusCode).toBe(404);
    const ws = await admin.get(`/api/workspaces/${f.w.slug}/issues/?per_page=1000`);
    expect(JSON.stringify(ws.json())).not.toContain(r.issue.id);
    expect((await admin.post(`${f.project.url}/issues/`, { name: "child", parent_id: r.issue.id })).statusCode).toBe(
      400,
    );
    await admin.patch(`${url()}${r.id}/`, { status: 1 });
    expect(JSON.stringify((await admin.get(`${f.project.url}/v2/issues/?per_page=1000`)).json())).toContain(r.issue.id);
    expect((await admin.get(`${f.project.url}/issues/${r.issue.id}/`)).statusCode).toBe(200);
  });
});

async function issueRow(id: string) {
  const [row] = await t.db.select().from(issues).where(eq(issues.id, id));
  return row;
}
