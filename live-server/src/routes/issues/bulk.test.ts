import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueSubscribers } from "../../db/schema.ts";
import {
  activitiesOf,
  createFixture,
  createIssue,
  createLabel,
  eventsOf,
  type Fixture,
  issueRow,
  stateOf,
} from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const bulk = () => `${f.project.url}/bulk-operation-issues/`;

describe("POST /bulk-operation-issues/", () => {
  it("updates every item, adds assignees and labels, with history and one event per item", async () => {
    const keep = await createLabel(t, f.project.id);
    const add = await createLabel(t, f.project.id);
    const a = await createIssue(t, f.w.admin, f.project.url, { label_ids: [keep] });
    const b = await createIssue(t, f.w.admin, f.project.url, { assignee_ids: [f.w.admin.id] });
    const started = await stateOf(t, f.project.id, "started");
    const res = await client(t.app, f.w.member, { "x-client-mutation-id": "m-bulk" }).post(bulk(), {
      issue_ids: [a.id, b.id],
      properties: {
        state_id: started,
        priority: "high",
        assignee_ids: [f.w.member.id],
        label_ids: [add],
        start_date: "2026-02-01",
        target_date: "2026-02-10",
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [ra, rb] = res.json();
    expect(ra).toMatchObject({
      state_id: started,
      priority: "high",
      assignee_ids: [f.w.member.id],
      target_date: "2026-02-10",
    });
    expect(ra.label_ids.sort()).toEqual([keep, add].sort());
    expect(rb.assignee_ids.sort()).toEqual([f.w.admin.id, f.w.member.id].sort());
    expect(rb.label_ids).toEqual([add]);
    for (const id of [a.id, b.id]) {
      const events = eventsOf(f, "issue.updated", id);
      expect(events).toHaveLength(1);
      expect(events[0]?.client_mutation_id).toBe("m-bulk");
      const fields = (await activitiesOf(t, id)).filter((x) => x.verb === "updated").map((x) => x.field);
      expect(fields).toEqual(
        expect.arrayContaining(["state", "priority", "assignees", "labels", "start_date", "target_date"]),
      );
    }
  });

  it("is all or nothing", async () => {
    const a = await createIssue(t, f.w.admin, f.project.url, { target_date: "2026-01-10" });
    const b = await createIssue(t, f.w.admin, f.project.url, { target_date: "2026-03-10" });
    const foreign = await createIssue(t, f.w.stranger, f.foreign.url);
    const cases = [
      // b's own due date is before the new start date: the whole batch is refused.
      { issue_ids: [b.id, a.id], properties: { start_date: "2026-02-01", priority: "urgent" } },
      { issue_ids: [a.id, foreign.id], properties: { priority: "urgent" } },
      { issue_ids: [a.id], properties: { priority: "whenever" } },
      { issue_ids: [a.id], properties: { estimate_point: 5 } },
      { issue_ids: [], properties: { priority: "urgent" } },
    ];
    for (const body of cases) {
      const res = await client(t.app, f.w.member).post(bulk(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await issueRow(t, a.id))?.priority).toBe("none");
    expect((await issueRow(t, b.id))?.priority).toBe("none");
    expect((await issueRow(t, a.id))?.startDate).toBeNull();
    expect(eventsOf(f, "issue.updated", a.id)).toHaveLength(0);
  });

  it("answers 401, 403 to guests, 404 elsewhere", async () => {
    const a = await createIssue(t, f.w.admin, f.project.url);
    const body = { issue_ids: [a.id], properties: { priority: "low" } };
    expect((await client(t.app, null).post(bulk(), body)).statusCode).toBe(401);
    expect((await client(t.app, f.w.guest).post(bulk(), body)).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(bulk(), body)).statusCode).toBe(404);
    expect((await issueRow(t, a.id))?.priority).toBe("none");
  });
});

describe("DELETE /bulk-delete-issues/", () => {
  it("soft-deletes all, announcing each; a member may only delete their own", async () => {
    const mine = await createIssue(t, f.w.member, f.project.url);
    const theirs = await createIssue(t, f.w.admin, f.project.url);
    const url = `${f.project.url}/bulk-delete-issues/`;
    const refused = await client(t.app, f.w.member).delete(url, { issue_ids: [mine.id, theirs.id] });
    expect(refused.statusCode).toBe(403);
    expect((await issueRow(t, mine.id))?.deletedAt).toBeNull();
    expect((await client(t.app, f.w.guest).delete(url, { issue_ids: [mine.id] })).statusCode).toBe(403);
    expect((await client(t.app, null).delete(url, { issue_ids: [mine.id] })).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).delete(url, { issue_ids: [mine.id] })).statusCode).toBe(404);
    expect((await client(t.app, f.w.admin).delete(url, { issue_ids: ["x"] })).statusCode).toBe(400);
    const ok = await client(t.app, f.w.admin).delete(url, { issue_ids: [mine.id, theirs.id] });
    expect(ok.statusCode, ok.body).toBe(204);
    expect((await issueRow(t, mine.id))?.deletedAt).not.toBeNull();
    expect((await issueRow(t, theirs.id))?.deletedAt).not.toBeNull();
    expect(eventsOf(f, "issue.deleted", mine.id)).toHaveLength(1);
    expect(eventsOf(f, "issue.deleted", theirs.id)).toHaveLength(1);
  });
});

describe("POST /bulk-subscribe-issues/", () => {
  it("subscribes the caller (guests too, to what they can see)", async () => {
    const p = await client(t.app, f.w.admin).patch(`/api/workspaces/${f.w.slug}/projects/${f.project.id}/`, {
      guest_view_all_features: true,
    });
    expect(p.statusCode, p.body).toBe(200);
    const a = await createIssue(t, f.w.admin, f.project.url);
    const b = await createIssue(t, f.w.admin, f.project.url);
    const url = `${f.project.url}/bulk-subscribe-issues/`;
    const res = await client(t.app, f.w.guest).post(url, { issue_ids: [a.id, b.id] });
    expect(res.statusCode, res.body).toBe(200);
    const subs = await t.db.select().from(issueSubscribers).where(eq(issueSubscribers.subscriberId, f.w.guest.id));
    expect(subs.map((s) => s.issueId).sort()).toEqual([a.id, b.id].sort());
    expect(eventsOf(f, "subscription.created", a.id)).toHaveLength(1);
    expect((await client(t.app, null).post(url, { issue_ids: [a.id] })).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).post(url, { issue_ids: [a.id] })).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).post(url, { issue_ids: "nope" })).statusCode).toBe(400);
  });
});

describe("POST /issue-dates/", () => {
  it("moves dates of several items, refusing the batch on a bad pair", async () => {
    const a = await createIssue(t, f.w.admin, f.project.url);
    const b = await createIssue(t, f.w.admin, f.project.url, { start_date: "2026-05-01" });
    const url = `${f.project.url}/issue-dates/`;
    const ok = await client(t.app, f.w.member).post(url, {
      updates: [
        { id: a.id, start_date: "2026-04-01", target_date: "2026-04-05" },
        { id: b.id, target_date: "2026-05-09" },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().map((i: { target_date: string }) => i.target_date)).toEqual(["2026-04-05", "2026-05-09"]);
    expect(eventsOf(f, "issue.updated", b.id)[0]?.data.changed_fields).toEqual(["target_date"]);
    const bad = await client(t.app, f.w.member).post(url, {
      updates: [
        { id: a.id, target_date: "2026-04-30" },
        { id: b.id, target_date: "2026-04-01" },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect((await issueRow(t, a.id))?.targetDate).toBe("2026-04-05");
    expect((await client(t.app, f.w.guest).post(url, { updates: [{ id: a.id, target_date: null }] })).statusCode).toBe(
      403,
    );
    expect((await client(t.app, null).post(url, { updates: [{ id: a.id, target_date: null }] })).statusCode).toBe(401);
    expect(
      (await client(t.app, f.w.stranger).post(url, { updates: [{ id: a.id, target_date: null }] })).statusCode,
    ).toBe(404);
  });
});
