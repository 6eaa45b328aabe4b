/**
 * A restricted guest (project guest, guest_view_all_features off) sees only the work items they
 * created: every count of a cycle they read is over those items, and no other person is named
 * (assignees of hidden items, their labels). Members and admins still count every item. Covers
 * the project and workspace cycle lists, the detail, progress/, cycle-progress/, analytics/
 * (both types), a completed cycle's frozen progress_snapshot and the archived detail.
 */
import { addDays, calendarDate } from "@tideline/shared";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { cycles, estimatePoints, estimates, issueActivities, issues, projects, users } from "../../db/schema.ts";
import {
  anotherProject,
  createFixture,
  createIssue,
  createLabel,
  type Fixture,
  stateOf,
} from "../issues/test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const today = () => calendarDate(new Date(), "UTC");

type Setup = Awaited<ReturnType<typeof setup>>;

/**
 * A fresh project with a points estimate, a current cycle and three work items in it: the
 * guest's own (label "Mine", 2 points, unassigned) and two of the admin's, assigned to the
 * member and labelled "Hidden" (3 points each, one completed).
 */
async function setup(dates: { start_date: string; end_date: string }) {
  const p = await anotherProject(t, f);
  const [project] = await t.db.select().from(projects).where(eq(projects.id, p.id));
  if (!project) throw new Error("no project");
  const [estimate] = await t.db
    .insert(estimates)
    .values({ workspaceId: project.workspaceId, projectId: p.id, name: "Points", type: "points" })
    .returning();
  if (!estimate) throw new Error("no estimate");
  const [two, three] = await t.db
    .insert(estimatePoints)
    .values(
      [2, 3].map((key) => ({
        workspaceId: project.workspaceId,
        projectId: p.id,
        estimateId: estimate.id,
        key,
        value: String(key),
      })),
    )
    .returning();
  await t.db.update(projects).set({ estimateId: estimate.id }).where(eq(projects.id, p.id));
  const mine = await createLabel(t, p.id, "Mine");
  const hidden = await createLabel(t, p.id, "Hidden");
  const cycle = (await client(t.app, f.w.admin).post(`${p.url}/cycles/`, { name: "Sprint", ...dates })).json();
  const done = await stateOf(t, p.id, "completed");
  const own = await createIssue(t, f.w.admin, p.url, { label_ids: [mine], estimate_point: two?.id });
  await t.db.update(issues).set({ createdById: f.w.guest.id }).where(eq(issues.id, own.id));
  const other = { assignee_ids: [f.w.member.id], label_ids: [hidden], estimate_point: three?.id };
  const a = await createIssue(t, f.w.admin, p.url, other);
  const b = await createIssue(t, f.w.admin, p.url, { ...other, state_id: done });
  const added = await client(t.app, f.w.admin).post(`${p.url}/cycles/${cycle.id}/cycle-issues/`, {
    issues: [own.id, a.id, b.id],
  });
  expect(added.statusCode, added.body).toBe(200);
  const [member] = await t.db.select().from(users).where(eq(users.id, f.w.member.id));
  return { p, cycle, url: `${p.url}/cycles/${cycle.id}/`, ids: [own.id, a.id, b.id], names: member };
}

/** The response never names the member (the assignee of the hidden items) nor their label. */
function namesNobodyElse(body: unknown, s: Setup) {
  const text = JSON.stringify(body);
  expect(text).not.toContain(f.w.member.id);
  expect(text).not.toContain(String(s.names?.displayName));
  expect(text).not.toContain("Hidden");
}

const get = async (user: TestUser, url: string) => {
  const res = await client(t.app, user).get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe("a restricted guest's cycle numbers count only their own work items", () => {
  it("current cycle: lists, detail, progress/, cycle-progress/, analytics/ (issues and points)", async () => {
    const s = await setup({ start_date: addDays(today(), -3), end_date: addDays(today(), 3) });
    const mine = { total_issues: 1, backlog_issues: 1, completed_issues: 0, total_estimate_points: 2 };
    const all = { total_issues: 3, backlog_issues: 2, completed_issues: 1, total_estimate_points: 8 };

    // The list of the project, the workspace's cycles and the active cycles.
    const listed = (await get(f.w.guest, `${s.p.url}/cycles/`)).find((c: { id: string }) => c.id === s.cycle.id);
    expect(listed).toMatchObject({ ...mine, assignee_ids: [] });
    namesNobodyElse(listed, s);
    const ws = await get(f.w.guest, `/api/workspaces/${f.w.slug}/cycles/`);
    expect(ws.find((c: { id: string }) => c.id === s.cycle.id)).toMatchObject(mine);
    const active = await get(f.w.guest, `/api/workspaces/${f.w.slug}/active-cycles/?per_page=100`);
    expect(active.results.find((c: { id: string }) => c.id === s.cycle.id)).toMatchObject(mine);

    // The detail and its distributions.
    const detail = await get(f.w.guest, s.url);
    expect(detail).toMatchObject(mine);
    expect(detail.distribution.assignees).toEqual([expect.objectContaining({ assignee_id: null, total_issues: 1 })]);
    expect(detail.distribution.labels).toEqual([
      expect.objectContaining({ label_name: "Mine", total_issues: 1, pending_issues: 1 }),
    ]);
    namesNobodyElse(detail, s);

    expect(await get(f.w.guest, `${s.url}progress/`)).toMatchObject(mine);
    const full = await get(f.w.guest, `${s.url}cycle-progress/`);
    expect(full).toMatchObject(mine);
    namesNobodyElse(full, s);

    const issues = await get(f.w.guest, `${s.url}analytics/?type=issues`);
    expect(issues.completion_chart[today()]).toBe(1);
    expect(issues.progress.find((x: { date: string }) => x.date === today())).toMatchObject({ scope: 1, pending: 1 });
    namesNobodyElse(issues, s);
    const points = await get(f.w.guest, `${s.url}analytics/?type=points`);
    expect(points.assignees).toEqual([expect.objectContaining({ assignee_id: null, total_estimates: 2 })]);
    expect(points.completion_chart[today()]).toBe(2);
    namesNobodyElse(points, s);

    // Members and admins still count everything.
    for (const user of [f.w.member, f.w.admin]) {
      expect(await get(user, `${s.url}progress/`)).toMatchObject(all);
      const seen = await get(user, s.url);
      expect(seen).toMatchObject({ ...all, assignee_ids: [f.w.member.id] });
      expect(seen.distribution.assignees.map((x: { assignee_id: string | null }) => x.assignee_id)).toContain(
        f.w.member.id,
      );
      expect((await get(user, `${s.url}analytics/?type=points`)).completion_chart[today()]).toBe(5);
    }

    // With guest_view_all_features on, the guest counts everything too.
    await t.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, s.p.id));
    expect(await get(f.w.guest, `${s.url}progress/`)).toMatchObject(all);
    expect(await get(f.w.guest, s.url)).toMatchObject(all);
  });

  it("completed cycle: the frozen snapshot is everyone's, the guest reads their own (lists, detail, archive)", async () => {
    const s = await setup({ start_date: addDays(today(), 40), end_date: addDays(today(), 45) });
    // Move the cycle and its items' history into the past: added on its first day.
    const start = addDays(today(), -20);
    await t.db
      .update(cycles)
      .set({ startDate: start, endDate: addDays(today(), -15) })
      .where(eq(cycles.id, s.cycle.id));
    await t.db
      .update(issueActivities)
      .set({ createdAt: new Date(`${start}T12:00:00Z`) })
      .where(inArray(issueActivities.issueId, s.ids));
    // The member's read freezes everyone's progress.
    const frozen = await get(f.w.member, s.url);
    expect(frozen).toMatchObject({ status: "completed", total_issues: 3, completed_issues: 1 });
    expect(frozen.progress_snapshot).toMatchObject({ total_issues: 3 });

    const mine = { total_issues: 1, backlog_issues: 1, completed_issues: 0, total_estimate_points: 2 };
    const listed = (await get(f.w.guest, `${s.p.url}/cycles/?cycle_view=completed`)).find(
      (c: { id: string }) => c.id === s.cycle.id,
    );
    expect(listed).toMatchObject({ ...mine, progress_snapshot: mine });
    namesNobodyElse(listed, s);
    const detail = await get(f.w.guest, s.url);
    expect(detail).toMatchObject({ ...mine, progress_snapshot: mine });
    namesNobodyElse(detail, s);
    expect(await get(f.w.guest, `${s.url}progress/`)).toMatchObject(mine);
    const full = await get(f.w.guest, `${s.url}cycle-progress/`);
    expect(full).toMatchObject(mine);
    namesNobodyElse(full, s);
    const chart = await get(f.w.guest, `${s.url}analytics/?type=issues`);
    expect(Object.values(chart.completion_chart)).toEqual([1, 1, 1, 1, 1, 1]);
    namesNobodyElse(chart, s);

    // Archived: the archived list and detail too; the member still reads the frozen numbers.
    expect((await client(t.app, f.w.admin).post(`${s.url}archive/`, {})).statusCode).toBe(200);
    const archived = (await get(f.w.guest, `${s.p.url}/archived-cycles/`)).find(
      (c: { id: string }) => c.id === s.cycle.id,
    );
    expect(archived).toMatchObject({ ...mine, progress_snapshot: mine });
    const archivedDetail = await get(f.w.guest, `${s.p.url}/archived-cycles/${s.cycle.id}/`);
    expect(archivedDetail).toMatchObject(mine);
    namesNobodyElse(archivedDetail, s);
    expect(await get(f.w.member, `${s.url}progress/`)).toMatchObject({ total_issues: 3, completed_issues: 1 });
    expect(await get(f.w.admin, `${s.p.url}/archived-cycles/${s.cycle.id}/`)).toMatchObject({
      total_issues: 3,
      progress_snapshot: { total_issues: 3 },
    });
  });
});
