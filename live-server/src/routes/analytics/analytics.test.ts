/**
 * Analytics (advance-analytics, -stats, -charts at workspace and project level) on a real
 * database: the reference's shapes, the numbers of a small known workspace (state groups,
 * overdue, custom chart by every axis with a segment, estimate points), what is not counted
 * (archived, draft, intake, deleted, epics, private projects the caller is not in, another
 * workspace), filters (projects, period, cycle, module), who may ask, and bad input.
 */
import { ROLE } from "@tideline/shared";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { estimatePoints, estimates, issues, projects } from "../../db/schema.ts";
import {
  anotherProject,
  createFixture,
  createIssue,
  createLabel,
  type Fixture,
  stateOf,
} from "../issues/test-support.ts";
import { createProject } from "../projects/test-support.ts";

let t: TestApp;
let f: Fixture;
let second: { id: string; url: string };
let secretProject: { id: string };
let labelA: string;
let labelB: string;
let cycleId: string;
let moduleId: string;
const ids: Record<string, string> = {};

const ws = (slug = f.w.slug) => `/api/workspaces/${slug}`;
const as = (user: TestUser | null) => client(t.app, user);

async function get(user: TestUser, path: string, params: Record<string, string> = {}) {
  const res = await as(user).get(`${path}?${new URLSearchParams(params)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  second = await anotherProject(t, f);
  const p = f.project;
  const [backlog, started, completed, cancelled] = await Promise.all(
    ["backlog", "started", "completed", "cancelled"].map((g) => stateOf(t, p.id, g)),
  );
  labelA = await createLabel(t, p.id, "Alpha");
  labelB = await createLabel(t, p.id, "Beta");
  const item = async (key: string, body: Record<string, unknown>, url = p.url) => {
    ids[key] = (await createIssue(t, f.w.admin, url, body)).id;
  };
  await item("urgentOpen", { name: "Urgent open", priority: "urgent", state_id: backlog, label_ids: [labelA, labelB] });
  await item("highStarted", {
    name: "High started",
    priority: "high",
    state_id: started,
    assignee_ids: [f.w.member.id],
    label_ids: [labelA],
    target_date: "2020-01-01",
  });
  await item("done", {
    name: "Done",
    priority: "high",
    state_id: completed,
    assignee_ids: [f.w.member.id, f.w.admin.id],
  });
  await item("dropped", { name: "Dropped", priority: "none", state_id: cancelled, target_date: "2020-01-01" });
  await item("elsewhere", { name: "In the second project", priority: "low" }, second.url);
  // Not counted: archived, draft, deleted, an epic, and an intake request (counted as intake).
  for (const key of ["archived", "draft", "intake", "deleted", "epic"]) await item(key, { name: key });
  expect((await as(f.w.admin).patch(`${p.url}/`, { inbox_view: true })).statusCode).toBe(200);
  const request = await as(f.w.guest).post(`${p.url}/intake-issues/`, { issue: { name: "A request" } });
  expect(request.statusCode, request.body).toBe(201);
  await t.db
    .update(issues)
    .set({ archivedAt: new Date() })
    .where(eq(issues.id, ids.archived ?? ""));
  await t.db
    .update(issues)
    .set({ isDraft: true })
    .where(eq(issues.id, ids.draft ?? ""));
  await t.db
    .update(issues)
    .set({ inIntake: true })
    .where(eq(issues.id, ids.intake ?? ""));
  await t.db
    .update(issues)
    .set({ deletedAt: new Date() })
    .where(eq(issues.id, ids.deleted ?? ""));
  await t.db
    .update(issues)
    .set({ isEpic: true })
    .where(eq(issues.id, ids.epic ?? ""));
  // An old item: outside every period.
  await t.db
    .update(issues)
    .set({ createdAt: new Date("2021-03-10T12:00:00Z") })
    .where(eq(issues.id, ids.dropped ?? ""));

  // Estimate points: 3 on "Urgent open", 5 on "Done", a category on "High started" (counts 0).
  const [estimate] = await t.db
    .insert(estimates)
    .values({ workspaceId: f.w.workspaceId, projectId: p.id, name: "Points", type: "points" })
    .returning();
  const points = await t.db
    .insert(estimatePoints)
    .values(
      ["3", "5", "XL"].map((value, i) => ({
        workspaceId: f.w.workspaceId,
        projectId: p.id,
        estimateId: estimate?.id ?? "",
        key: i + 1,
        value,
      })),
    )
    .returning();
  await t.db.update(projects).set({ estimateId: estimate?.id }).where(eq(projects.id, p.id));
  const point = (value: string) => points.find((x) => x.value === value)?.id;
  await t.db
    .update(issues)
    .set({ estimatePointId: point("3") })
    .where(eq(issues.id, ids.urgentOpen ?? ""));
  await t.db
    .update(issues)
    .set({ estimatePointId: point("5") })
    .where(eq(issues.id, ids.done ?? ""));
  await t.db
    .update(issues)
    .set({ estimatePointId: point("XL") })
    .where(eq(issues.id, ids.highStarted ?? ""));

  const cycle = await as(f.w.admin).post(`${p.url}/cycles/`, {
    name: "Sprint 1",
    start_date: "2099-01-05",
    end_date: "2099-01-11",
  });
  expect(cycle.statusCode, cycle.body).toBe(201);
  cycleId = cycle.json().id;
  const added = await as(f.w.admin).post(`${p.url}/cycles/${cycleId}/cycle-issues/`, {
    issues: [ids.urgentOpen, ids.done],
  });
  expect(added.statusCode, added.body).toBeLessThan(300);
  const mod = await as(f.w.admin).post(`${p.url}/modules/`, { name: "Payments" });
  expect(mod.statusCode, mod.body).toBe(201);
  moduleId = mod.json().id;
  const linked = await as(f.w.admin).post(`${p.url}/modules/${moduleId}/issues/`, { issues: [ids.highStarted] });
  expect(linked.statusCode, linked.body).toBeLessThan(300);

  // A project the member is not in, with an item of its own.
  secretProject = await createProject(t, f.w.admin, f.w.slug, { name: "Secret analytics" });
  await createIssue(t, f.w.admin, `${ws()}/projects/${secretProject.id}`, { name: "Secret" });
});
afterAll(() => t.close());

describe("GET advance-analytics/", () => {
  it("tab=work-items: totals by state group, overdue and cancelled, in the reference's {count} shape", async () => {
    const member = await get(f.w.member, `${ws()}/advance-analytics/`, { tab: "work-items" });
    expect(member).toEqual({
      total_work_items: { count: 5 },
      started_work_items: { count: 1 },
      // The second project's item is in its default state, Backlog.
      backlog_work_items: { count: 2 },
      un_started_work_items: { count: 0 },
      completed_work_items: { count: 1 },
      cancelled_work_items: { count: 1 },
      overdue_work_items: { count: 1 },
    });
    // The admin is also in the secret project: one more.
    const admin = await get(f.w.admin, `${ws()}/advance-analytics/`, { tab: "work-items" });
    expect(admin.total_work_items).toEqual({ count: 6 });
  });

  it("tab=overview (the default): people by role, projects, work items, cycles, intake", async () => {
    const overview = await get(f.w.member, `${ws()}/advance-analytics/`);
    expect(overview).toMatchObject({
      total_admins: { count: 1 },
      total_members: { count: 2 },
      total_guests: { count: 1 },
      total_users: { count: 4 },
      total_projects: { count: 2 },
      total_work_items: { count: 5 },
      total_cycles: { count: 1 },
      total_intake: { count: 1 },
    });
    const narrowed = await get(f.w.member, `${ws()}/advance-analytics/`, { project_ids: second.id });
    expect(narrowed.total_projects).toEqual({ count: 1 });
    expect(narrowed.total_work_items).toEqual({ count: 1 });
  });

  it("project_ids of projects out of sight count nothing; a period counts by creation time", async () => {
    const secret = await get(f.w.member, `${ws()}/advance-analytics/`, {
      tab: "work-items",
      project_ids: secretProject.id,
    });
    expect(secret.total_work_items).toEqual({ count: 0 });
    const recent = await get(f.w.member, `${ws()}/advance-analytics/`, {
      tab: "work-items",
      date_filter: "last_30_days",
    });
    expect(recent.total_work_items).toEqual({ count: 4 });
    const custom = await get(f.w.member, `${ws()}/advance-analytics/`, {
      tab: "work-items",
      date_filter: "custom",
      start_date: "2021-03-01",
      end_date: "2021-03-31",
    });
    expect(custom.total_work_items).toEqual({ count: 1 });
  });
});

describe("GET advance-analytics-stats/", () => {
  it("workspace: each project's work items by state group", async () => {
    const rows = (await get(f.w.member, `${ws()}/advance-analytics-stats/`)) as Record<string, unknown>[];
    const first = rows.find((r) => r.project_id === f.project.id);
    expect(first).toMatchObject({
      project__name: expect.any(String),
      backlog_work_items: 1,
      started_work_items: 1,
      completed_work_items: 1,
      cancelled_work_items: 1,
      un_started_work_items: 0,
    });
    expect(rows.map((r) => r.project_id).sort()).toEqual([f.project.id, second.id].sort());
  });

  it("project: each assignee's work items by state group, the unassigned as nulls", async () => {
    const rows = (await get(f.w.member, `${f.project.url}/advance-analytics-stats/`)) as Record<string, unknown>[];
    expect(rows.find((r) => r.assignee_id === f.w.member.id)).toMatchObject({
      display_name: f.w.member.displayName,
      started_work_items: 1,
      completed_work_items: 1,
    });
    expect(rows.find((r) => r.assignee_id === null)).toMatchObject({ backlog_work_items: 1, cancelled_work_items: 1 });
  });
});

describe("GET advance-analytics-charts/", () => {
  const chart = (user: TestUser, params: Record<string, string>, base = ws()) =>
    get(user, `${base}/advance-analytics-charts/`, params);

  it("type=projects: the counts of things, as key/name/count", async () => {
    const rows = (await chart(f.w.member, {})) as { key: string; name: string; count: number }[];
    expect(rows.map((r) => r.key)).toEqual(["work_items", "cycles", "modules", "intake", "members", "pages", "views"]);
    expect(rows.find((r) => r.key === "work_items")).toEqual({ key: "work_items", name: "Work Items", count: 5 });
    expect(rows.find((r) => r.key === "modules")?.count).toBe(1);
    expect(rows.find((r) => r.key === "intake")?.count).toBe(1);
  });

  it("type=custom-work-items: by priority in the product's order, one bar per value", async () => {
    const { data, schema } = await chart(f.w.member, { type: "custom-work-items", x_axis: "PRIORITY" });
    expect(schema).toEqual({});
    expect(data).toEqual([
      { key: "urgent", name: "urgent", count: 1 },
      { key: "high", name: "high", count: 2 },
      { key: "low", name: "low", count: 1 },
      { key: "none", name: "none", count: 1 },
    ]);
  });

  it("segmented by state group: a count per group key, and the schema naming them", async () => {
    const { data, schema } = await chart(f.w.member, {
      type: "custom-work-items",
      x_axis: "PRIORITY",
      group_by: "STATE_GROUPS",
    });
    expect(schema).toMatchObject({ backlog: "backlog", started: "started", completed: "completed" });
    expect(data.find((b: { key: string }) => b.key === "high")).toEqual({
      key: "high",
      name: "high",
      count: 2,
      started: 1,
      completed: 1,
    });
  });

  it("labels and assignees count an item under each of its own; items without one are None", async () => {
    const labels = (await chart(f.w.member, { type: "custom-work-items", x_axis: "LABELS" })).data;
    expect(labels).toEqual(
      expect.arrayContaining([
        { key: labelA, name: "Alpha", count: 2 },
        { key: labelB, name: "Beta", count: 1 },
        { key: "None", name: "None", count: 3 },
      ]),
    );
    expect(labels.at(-1).key).toBe("None");
    const assignees = (await chart(f.w.member, { type: "custom-work-items", x_axis: "ASSIGNEES" })).data;
    expect(assignees).toEqual(
      expect.arrayContaining([
        { key: f.w.member.id, name: f.w.member.displayName, count: 2 },
        { key: f.w.admin.id, name: f.w.admin.displayName, count: 1 },
      ]),
    );
  });

  it("y_axis=ESTIMATE_POINT_COUNT sums the points (a category counts nothing)", async () => {
    const { data } = await chart(f.w.member, {
      type: "custom-work-items",
      x_axis: "STATE_GROUPS",
      y_axis: "ESTIMATE_POINT_COUNT",
    });
    expect(data.find((b: { key: string }) => b.key === "backlog")?.count).toBe(3);
    expect(data.find((b: { key: string }) => b.key === "completed")?.count).toBe(5);
    expect(data.find((b: { key: string }) => b.key === "started")?.count).toBe(0);
  });

  it("every axis answers, cycles and modules by name", async () => {
    for (const x of [
      "STATES",
      "ESTIMATE_POINTS",
      "START_DATE",
      "TARGET_DATE",
      "CREATED_AT",
      "COMPLETED_AT",
      "CREATED_BY",
    ]) {
      const { data } = await chart(f.w.member, { type: "custom-work-items", x_axis: x, group_by: "PRIORITY" });
      expect(
        data.reduce((n: number, b: { count: number }) => n + b.count, 0),
        x,
      ).toBe(5);
    }
    const cycles = (await chart(f.w.member, { type: "custom-work-items", x_axis: "CYCLES" })).data;
    expect(cycles).toContainEqual({ key: cycleId, name: "Sprint 1", count: 2 });
    const modules = (await chart(f.w.member, { type: "custom-work-items", x_axis: "MODULES" })).data;
    expect(modules).toContainEqual({ key: moduleId, name: "Payments", count: 1 });
  });

  it("type=work-items: created vs resolved per month, every month from the first, in the reference's shape", async () => {
    const { data, schema } = await chart(f.w.member, { type: "work-items" });
    expect(schema).toEqual({ completed_issues: "completed_issues", created_issues: "created_issues" });
    expect(data[0]).toEqual({
      key: "2021-03-01",
      name: "2021-03-01",
      count: 1,
      created_issues: 1,
      completed_issues: 0,
    });
    const thisMonth = `${new Date().toISOString().slice(0, 7)}-01`;
    expect(data.at(-1)).toMatchObject({ key: thisMonth, created_issues: 4, completed_issues: 1 });
    // Months in between are present with zeros.
    expect(data.length).toBeGreaterThan(12);
    expect(data[1]).toMatchObject({ key: "2021-04-01", count: 0 });
  });

  it("project level, a cycle: its work items, day by day over the cycle's dates", async () => {
    const { data } = await chart(f.w.member, { type: "work-items", cycle_id: cycleId }, f.project.url);
    expect(data.map((d: { key: string }) => d.key)).toEqual([
      "2099-01-05",
      "2099-01-06",
      "2099-01-07",
      "2099-01-08",
      "2099-01-09",
      "2099-01-10",
      "2099-01-11",
    ]);
    const totals = await get(f.w.member, `${f.project.url}/advance-analytics/`, { cycle_id: cycleId });
    expect(totals.total_work_items).toEqual({ count: 2 });
    const custom = await chart(
      f.w.member,
      { type: "custom-work-items", x_axis: "PRIORITY", module_id: moduleId },
      f.project.url,
    );
    expect(custom.data).toEqual([{ key: "high", name: "high", count: 1 }]);
  });
});

describe("who may ask, and bad input", () => {
  it("401 signed out; 403 for a guest; 404 for another workspace, a project one is not in, another project's cycle", async () => {
    expect((await as(null).get(`${ws()}/advance-analytics/`)).statusCode).toBe(401);
    expect((await as(f.w.guest).get(`${ws()}/advance-analytics/`)).statusCode).toBe(403);
    expect((await as(f.w.guest).get(`${f.project.url}/advance-analytics-charts/`)).statusCode).toBe(403);
    expect((await as(f.w.stranger).get(`${ws()}/advance-analytics-stats/`)).statusCode).toBe(404);
    expect((await as(f.w.member).get(`${ws(f.w.otherSlug)}/advance-analytics/`)).statusCode).toBe(404);
    expect((await as(f.w.member).get(`${ws()}/projects/${secretProject.id}/advance-analytics/`)).statusCode).toBe(404);
    expect((await as(f.w.member).get(`${f.foreign.url}/advance-analytics/`)).statusCode).toBe(404);
    const otherCycle = await as(f.w.admin).get(`${second.url}/advance-analytics/?cycle_id=${cycleId}`);
    expect(otherCycle.statusCode, otherCycle.body).toBe(404);
  });

  it("400 with a message for an unknown tab, type, axis, metric or a malformed id", async () => {
    const bad = [
      `${ws()}/advance-analytics/?tab=everything`,
      `${ws()}/advance-analytics-stats/?type=pages`,
      `${ws()}/advance-analytics-charts/?type=pie`,
      `${ws()}/advance-analytics-charts/?type=custom-work-items&x_axis=COLOUR`,
      `${ws()}/advance-analytics-charts/?type=custom-work-items&group_by=drop table`,
      `${ws()}/advance-analytics-charts/?type=custom-work-items&y_axis=SUM`,
      `${ws()}/advance-analytics/?project_ids=not-an-id`,
      `${f.project.url}/advance-analytics/?cycle_id=1`,
      `${ws()}/advance-analytics/?date_filter=custom&start_date=yesterday&end_date=2026-01-01`,
    ];
    for (const url of bad) {
      const res = await as(f.w.member).get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toEqual(expect.any(String));
    }
  });

  it("a member of a project with guest rights there sees analytics of it only for their own items", async () => {
    // The guest of the workspace is no analytics reader at all; a member made a project guest is.
    const p = await createProject(t, f.w.admin, f.w.slug, { name: "Guest here" });
    const add = await as(f.w.admin).post(`${ws()}/projects/${p.id}/members/`, {
      members: [{ member_id: f.w.outsider.id, role: ROLE.guest }],
    });
    expect(add.statusCode, add.body).toBeLessThan(300);
    await createIssue(t, f.w.admin, `${ws()}/projects/${p.id}`, { name: "Not theirs" });
    const totals = await get(f.w.outsider, `${ws()}/advance-analytics/`, { tab: "work-items", project_ids: p.id });
    expect(totals.total_work_items).toEqual({ count: 0 });
    const rows = await t.db
      .select()
      .from(issues)
      .where(inArray(issues.projectId, [p.id]));
    expect(rows).toHaveLength(1);
  });
});
