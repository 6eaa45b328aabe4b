import { addDays, calendarDate, NETWORK } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { createFixture, createIssue, type Fixture, stateOf } from "../issues/test-support.ts";
import { createProject } from "../projects/test-support.ts";

let t: TestApp;
let f: Fixture;
let ws: string;
/** Items of the shared project, see beforeAll. */
const ids: Record<string, string> = {};
let secretId: string;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  ws = `/api/workspaces/${f.w.slug}`;
  const completed = await stateOf(t, f.project.id, "completed");
  const started = await stateOf(t, f.project.id, "started");
  const me = f.w.member.id;
  ids.done = (
    await createIssue(t, f.w.member, f.project.url, { state_id: completed, priority: "high", assignee_ids: [me] })
  ).id;
  ids.late = (
    await createIssue(t, f.w.member, f.project.url, {
      state_id: started,
      priority: "urgent",
      assignee_ids: [me],
      target_date: "2020-01-06",
    })
  ).id;
  ids.mine = (await createIssue(t, f.w.member, f.project.url)).id;
  ids.given = (await createIssue(t, f.w.admin, f.project.url, { assignee_ids: [me] })).id;
  ids.other = (await createIssue(t, f.w.admin, f.project.url)).id;
  // A private project the member is not in: the admin's work there must never show to them.
  const secret = await createProject(t, f.w.admin, f.w.slug, { network: NETWORK.private });
  secretId = (
    await createIssue(t, f.w.admin, `${ws}/projects/${secret.id}`, {
      name: "Secret plan",
      assignee_ids: [f.w.admin.id],
    })
  ).id;
});
afterAll(() => t.close());

type Issue = { id: string };
const idsOf = (results: Issue[]) => results.map((i) => i.id).sort();

describe("GET user-stats/{userId}/", () => {
  it("counts the member's work by state group and priority", async () => {
    const res = await client(t.app, f.w.member).get(`${ws}/user-stats/${f.w.member.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      assigned_issues: 3,
      created_issues: 3,
      completed_issues: 1,
      pending_issues: 2,
      subscribed_issues: 4,
      overdue_issues: 1,
      state_distribution: [
        { state_group: "backlog", state_count: 1 },
        { state_group: "started", state_count: 1 },
        { state_group: "completed", state_count: 1 },
      ],
      priority_distribution: [
        { priority: "urgent", priority_count: 1 },
        { priority: "high", priority_count: 1 },
        { priority: "none", priority_count: 1 },
      ],
      present_cycles: [],
      upcoming_cycles: [],
    });
    const chart = res.json().completed_by_date;
    expect(chart).toHaveLength(1);
    expect(chart[0].completed_count).toBe(1);
    // The list's filters narrow it.
    const urgent = await client(t.app, f.w.member).get(`${ws}/user-stats/${f.w.member.id}/?priority=urgent`);
    expect(urgent.json()).toMatchObject({ assigned_issues: 1, overdue_issues: 1 });
    expect((await client(t.app, f.w.member).get(`${ws}/user-stats/${f.w.member.id}/?priority=bad`)).statusCode).toBe(
      400,
    );
  });

  it("never counts what the caller may not see", async () => {
    const admin = (await client(t.app, f.w.admin).get(`${ws}/user-stats/${f.w.admin.id}/`)).json();
    expect(admin.assigned_issues).toBe(1);
    const byMember = (await client(t.app, f.w.member).get(`${ws}/user-stats/${f.w.admin.id}/`)).json();
    expect(byMember).toMatchObject({ assigned_issues: 0, created_issues: 2 });
    // A restricted project guest sees only items they created: none.
    const byGuest = (await client(t.app, f.w.guest).get(`${ws}/user-stats/${f.w.member.id}/`)).json();
    expect(byGuest).toMatchObject({ assigned_issues: 0, created_issues: 0, subscribed_issues: 0 });
  });

  it("is 401 anonymous and 404 across workspaces", async () => {
    expect((await client(t.app, null).get(`${ws}/user-stats/${f.w.member.id}/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(`${ws}/user-stats/${f.w.member.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${ws}/user-stats/${f.w.stranger.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${ws}/user-stats/nope/`)).statusCode).toBe(404);
  });
});

describe("GET user-profile/{userId}/", () => {
  it("answers the user and per project of the caller their counts", async () => {
    const res = await client(t.app, f.w.member).get(`${ws}/user-profile/${f.w.member.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.user_data).toMatchObject({ id: f.w.member.id, email: f.w.member.email });
    expect(body.project_data).toEqual([
      expect.objectContaining({
        id: f.project.id,
        created_issues: 3,
        assigned_issues: 3,
        completed_issues: 1,
        pending_issues: 2,
      }),
    ]);
    const admin = (await client(t.app, f.w.admin).get(`${ws}/user-profile/${f.w.admin.id}/`)).json();
    expect(admin.project_data).toHaveLength(2);
    const seenByMember = (await client(t.app, f.w.member).get(`${ws}/user-profile/${f.w.admin.id}/`)).json();
    expect(seenByMember.project_data.map((p: { id: string }) => p.id)).toEqual([f.project.id]);
    // Workspace guests get the user only, as the reference answers them.
    const guest = (await client(t.app, f.w.guest).get(`${ws}/user-profile/${f.w.member.id}/`)).json();
    expect(guest.project_data).toEqual([]);
    expect((await client(t.app, null).get(`${ws}/user-profile/${f.w.member.id}/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(`${ws}/user-profile/${f.w.member.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${ws}/user-profile/${f.w.stranger.id}/`)).statusCode).toBe(404);
  });
});

describe("GET user-activity/{userId}/ and /api/users/me/activities/", () => {
  it("pages the member's history with the items and projects", async () => {
    const first = await client(t.app, f.w.admin).get(`${ws}/user-activity/${f.w.member.id}/?per_page=2`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json();
    expect(page.results).toHaveLength(2);
    expect(page).toMatchObject({ next_page_results: true, prev_page_results: false, next_cursor: "2:1:0" });
    expect(page.total_results).toBeGreaterThanOrEqual(3);
    expect(page.results[0]).toMatchObject({
      actor: f.w.member.id,
      project_detail: { id: f.project.id, identifier: f.project.identifier },
    });
    expect(page.results[0].issue_detail.sequence_id).toBeGreaterThan(0);
    // Each row reads as the history's: `comment` is the reference's sentence, never an id.
    for (const row of page.results) {
      expect(typeof row.comment).toBe("string");
      expect(row.comment).not.toMatch(/^[0-9a-f-]{36}$/);
      expect(row).toHaveProperty("issue_comment");
      expect(row.epoch).toBe(Math.floor(Date.parse(row.created_at) / 1000));
    }
    const times = page.results.map((r: { created_at: string }) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const next = (
      await client(t.app, f.w.admin).get(`${ws}/user-activity/${f.w.member.id}/?cursor=${page.next_cursor}`)
    ).json();
    expect(next.prev_page_results).toBe(true);
    expect(next.results.map((r: { id: string }) => r.id)).not.toContain(page.results[0].id);
  });

  it("leaves out private projects and the guest rule's items", async () => {
    const own = (await client(t.app, f.w.admin).get(`${ws}/user-activity/${f.w.admin.id}/?per_page=100`)).json();
    expect(own.results.some((r: { issue: string }) => r.issue === secretId)).toBe(true);
    const seen = (await client(t.app, f.w.member).get(`${ws}/user-activity/${f.w.admin.id}/?per_page=100`)).json();
    expect(seen.results.some((r: { issue: string }) => r.issue === secretId)).toBe(false);
    expect(seen.total_results).toBeGreaterThan(0);
    const byGuest = (await client(t.app, f.w.guest).get(`${ws}/user-activity/${f.w.admin.id}/`)).json();
    expect(byGuest.total_results).toBe(0);
    const filtered = (
      await client(t.app, f.w.admin).get(`${ws}/user-activity/${f.w.admin.id}/?project=${f.project.id}&per_page=100`)
    ).json();
    expect(filtered.results.every((r: { project: string }) => r.project === f.project.id)).toBe(true);
  });

  it("is 401 anonymous, 404 across workspaces, 400 on a bad cursor", async () => {
    expect((await client(t.app, null).get(`${ws}/user-activity/${f.w.member.id}/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(`${ws}/user-activity/${f.w.member.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${ws}/user-activity/${f.w.stranger.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${ws}/user-activity/${f.w.member.id}/?cursor=x`)).statusCode).toBe(
      400,
    );
    expect((await client(t.app, f.w.member).get(`${ws}/user-activity/${f.w.member.id}/?project=x`)).statusCode).toBe(
      400,
    );
  });

  it("lists the caller's own history across workspaces", async () => {
    const res = await client(t.app, f.w.member).get("/api/users/me/activities/?per_page=100");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.length).toBeGreaterThanOrEqual(3);
    expect(res.json().results.every((r: { actor: string }) => r.actor === f.w.member.id)).toBe(true);
    expect((await client(t.app, f.w.stranger).get("/api/users/me/activities/")).json().results).toEqual([]);
    expect((await client(t.app, null).get("/api/users/me/activities/")).statusCode).toBe(401);
  });
});

describe("POST user-activity/{userId}/export/", () => {
  const url = () => `${ws}/user-activity/${f.w.member.id}/export/`;

  it("answers the day's history as CSV", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await client(t.app, f.w.admin).post(url(), { date: today });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toContain("workspace-user-activity.csv");
    const lines = res.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      '"Actor name","Issue ID","Project","Created at","Updated at","Action","Field","Old value","New value"',
    );
    expect(lines.length).toBeGreaterThan(3);
    expect(lines[1]).toContain(`"${f.project.identifier}-`);
    // The actor is named as on every screen: by their display name (shared personName).
    expect(lines[1]?.startsWith(`"${f.w.member.displayName}",`)).toBe(true);
    const empty = await client(t.app, f.w.admin).post(url(), { date: "2001-01-01" });
    expect(empty.body.trim().split("\r\n")).toHaveLength(1);
  });

  it("needs a date and a member role", async () => {
    expect((await client(t.app, f.w.member).post(url(), {})).statusCode).toBe(400);
    expect((await client(t.app, f.w.member).post(url(), { date: "yesterday" })).statusCode).toBe(400);
    expect((await client(t.app, f.w.guest).post(url(), { date: "2026-01-01" })).statusCode).toBe(403);
    expect((await client(t.app, null).post(url(), { date: "2026-01-01" })).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).post(url(), { date: "2026-01-01" })).statusCode).toBe(404);
  });
});

describe("GET user-issues/{userId}/", () => {
  const url = (query = "") => `${ws}/user-issues/${f.w.member.id}/${query}`;

  it("lists the assigned, created and subscribed tabs", async () => {
    const member = client(t.app, f.w.member);
    const assigned = await member.get(url("?type=assigned"));
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(idsOf(assigned.json().results)).toEqual([ids.done, ids.late, ids.given].sort());
    expect(idsOf((await member.get(url("?type=created"))).json().results)).toEqual(
      [ids.done, ids.late, ids.mine].sort(),
    );
    expect(idsOf((await member.get(url("?type=subscribed"))).json().results)).toEqual(
      [ids.done, ids.late, ids.mine, ids.given].sort(),
    );
    // The reference's filter form works too, and no tab means any involvement; newest first.
    expect(idsOf((await member.get(url(`?assignees=${f.w.member.id}`))).json().results)).toEqual(
      [ids.done, ids.late, ids.given].sort(),
    );
    const all = (await member.get(url())).json();
    expect(all.results.map((i: Issue) => i.id)).toEqual([ids.given, ids.mine, ids.late, ids.done]);
    const grouped = (await member.get(url("?type=assigned&group_by=priority"))).json();
    expect(Object.keys(grouped.results)).toEqual(["urgent", "high", "medium", "low", "none"]);
    expect(grouped.results.urgent.results.map((i: Issue) => i.id)).toEqual([ids.late]);
    const active = (await member.get(url("?type=active"))).json();
    expect(idsOf(active.results)).toEqual([ids.late]);
  });

  it("shows only what the caller may see", async () => {
    const admin = (await client(t.app, f.w.admin).get(`${ws}/user-issues/${f.w.admin.id}/`)).json();
    expect(admin.results.map((i: Issue) => i.id)).toContain(secretId);
    const byMember = (await client(t.app, f.w.member).get(`${ws}/user-issues/${f.w.admin.id}/`)).json();
    expect(byMember.results.map((i: Issue) => i.id)).not.toContain(secretId);
    expect(byMember.total_count).toBe(2);
    const byGuest = (await client(t.app, f.w.guest).get(url())).json();
    expect(byGuest.total_count).toBe(0);
  });

  it("is 401 anonymous, 404 across workspaces, 400 on bad parameters", async () => {
    expect((await client(t.app, null).get(url())).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(url())).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${ws}/user-issues/${f.w.stranger.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(url("?group_by=colour"))).statusCode).toBe(400);
    expect((await client(t.app, f.w.member).get(url("?type=mine"))).statusCode).toBe(400);
    expect((await client(t.app, f.w.member).get(url("?layout=board"))).statusCode).toBe(400);
  });
});

describe("user-stats/ cycles", () => {
  it("names the cycles holding the member's work, running now or later", async () => {
    const today = calendarDate(new Date(), "UTC");
    const cycle = async (name: string, start: number, end: number) => {
      const res = await client(t.app, f.w.admin).post(`${f.project.url}/cycles/`, {
        name,
        start_date: addDays(today, start),
        end_date: addDays(today, end),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const now = await cycle("Now", -2, 5);
    const later = await cycle("Later", 10, 20);
    await client(t.app, f.w.member).patch(`${f.project.url}/issues/${ids.late}/`, { cycle_id: now });
    await client(t.app, f.w.member).patch(`${f.project.url}/issues/${ids.given}/`, { cycle_id: later });
    await client(t.app, f.w.member).patch(`${f.project.url}/issues/${ids.other}/`, { cycle_id: later });
    const stats = (await client(t.app, f.w.member).get(`${ws}/user-stats/${f.w.member.id}/`)).json();
    expect(stats.present_cycles).toEqual([{ cycle__name: "Now", cycle__id: now, cycle__project_id: f.project.id }]);
    expect(stats.upcoming_cycles).toEqual([
      { cycle__name: "Later", cycle__id: later, cycle__project_id: f.project.id },
    ]);
    // The guest sees none of those items, so no cycles either.
    const byGuest = (await client(t.app, f.w.guest).get(`${ws}/user-stats/${f.w.member.id}/`)).json();
    expect(byGuest.present_cycles).toEqual([]);
  });
});
