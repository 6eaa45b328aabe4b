import { addDays, calendarDate } from "@tideline/shared";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { cycleIssues, cycles, issueActivities, userFavorites } from "../../db/schema.ts";
import {
  activitiesOf,
  anotherProject,
  createFixture,
  createIssue,
  eventsOf,
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
const day = (offset: number) => addDays(today(), offset);
const cyclesUrl = () => `${f.project.url}/cycles/`;
const cycleUrl = (id: string) => `${f.project.url}/cycles/${id}/`;
const storedCycles = () => t.db.select().from(cycles).where(eq(cycles.projectId, f.project.id));

/** Dated cycles must not overlap: each test takes its own window of days, far apart. */
let windowStart = 1000;
const windowOf = (length = 5) => {
  const start = windowStart;
  windowStart += length + 10;
  return { start_date: day(start), end_date: day(start + length - 1) };
};

async function createCycle(body: Record<string, unknown> = {}, user = f.w.member) {
  const res = await client(t.app, user).post(cyclesUrl(), { name: `Cycle ${windowStart}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; status: string; name: string } & Record<string, unknown>;
}

/** A cycle whose end date has passed: created with future dates, then moved into the past in the table. */
async function completedCycle(name = "Done") {
  const c = await createCycle({ name });
  const back = windowStart;
  windowStart += 20;
  await t.db
    .update(cycles)
    .set({ startDate: day(-back - 10), endDate: day(-back - 5) })
    .where(eq(cycles.id, c.id));
  return c;
}

describe("create, get, patch, delete", () => {
  it("creates a dated cycle (201, owner = creator, status upcoming) and emits cycle.created", async () => {
    const dates = windowOf();
    const c = await createCycle({ name: "Sprint 1", description: "First", ...dates });
    expect(c).toMatchObject({
      name: "Sprint 1",
      description: "First",
      ...dates,
      status: "upcoming",
      owned_by_id: f.w.member.id,
      project_id: f.project.id,
      total_issues: 0,
      is_favorite: false,
      archived_at: null,
    });
    expect(eventsOf(f, "cycle.created", c.id)).toHaveLength(1);
    const got = await client(t.app, f.w.guest).get(cycleUrl(c.id));
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: c.id, distribution: { assignees: [], labels: [] } });
    expect(Object.keys(got.json().distribution.completion_chart)).toHaveLength(5);
  });

  it("a cycle without dates is a draft; the reference's timestamps are read as days", async () => {
    expect((await createCycle({ name: "Later" })).status).toBe("draft");
    const dates = windowOf(2);
    const c = await createCycle({
      start_date: `${dates.start_date}T00:00:00Z`,
      end_date: `${dates.end_date}T23:59:59Z`,
    });
    expect([c.start_date, c.end_date]).toEqual([dates.start_date, dates.end_date]);
  });

  it("a current cycle has days left (today and the end day counted)", async () => {
    const c = await createCycle({ name: "Now", start_date: day(-1), end_date: day(2) });
    expect(c).toMatchObject({ status: "current", days_left: 3 });
    await client(t.app, f.w.admin).delete(cycleUrl(c.id));
  });

  it("end before start, one date only, overlapping dates, bad fields: 400 with nothing stored", async () => {
    const taken = windowOf();
    const existing = await createCycle({ name: "Taken", ...taken });
    const before = await storedCycles();
    const bad: [Record<string, unknown>, string][] = [
      [{ name: "x", start_date: day(500), end_date: day(499) }, "CYCLE_END_BEFORE_START"],
      [{ name: "x", start_date: day(500) }, "CYCLE_DATES_INCOMPLETE"],
      [{ name: "x", start_date: taken.end_date, end_date: addDays(taken.end_date, 3) }, "CYCLE_DATES_OVERLAP"],
      [
        { name: "x", start_date: addDays(taken.start_date, -3), end_date: addDays(taken.end_date, 3) },
        "CYCLE_DATES_OVERLAP",
      ],
      [{ name: "" }, "VALIDATION_ERROR"],
      [{ name: "x", start_date: "2026-02-30", end_date: "2026-03-01" }, "VALIDATION_ERROR"],
      [{ name: "x", owned_by_id: f.w.outsider.id }, ""],
    ];
    for (const [body, code] of bad) {
      const res = await client(t.app, f.w.member).post(cyclesUrl(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (code && code !== "VALIDATION_ERROR") expect(res.json().code).toBe(code);
    }
    const overlap = await client(t.app, f.w.member).post(cyclesUrl(), { name: "x", ...taken });
    expect(overlap.json().error).toContain('"Taken"');
    // Patch: end before start, overlap with another cycle.
    const other = await createCycle({ name: "Other", ...windowOf() });
    for (const body of [{ end_date: addDays(String(other.start_date), -1) }, { ...taken }]) {
      const res = await client(t.app, f.w.member).patch(cycleUrl(other.id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Its own dates do not overlap itself.
    expect((await client(t.app, f.w.member).patch(cycleUrl(existing.id), { ...taken, name: "Taken" })).statusCode).toBe(
      200,
    );
    expect((await storedCycles()).filter((c) => !before.some((b) => b.id === c.id)).map((c) => c.name)).toEqual([
      "Other",
    ]);
    const stored = (await storedCycles()).find((c) => c.id === other.id);
    expect([stored?.startDate, stored?.endDate]).toEqual([other.start_date, other.end_date]);
  });

  it("patches name and dates (cycle.updated); a completed cycle only takes sort_order", async () => {
    const c = await createCycle({ name: "Rename me", ...windowOf() });
    const res = await client(t.app, f.w.member).patch(cycleUrl(c.id), {
      name: "Renamed",
      logo_props: { emoji: "1f680" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Renamed", logo_props: { emoji: "1f680" } });
    expect(eventsOf(f, "cycle.updated", c.id).length).toBeGreaterThan(0);
    const done = await completedCycle();
    const refused = await client(t.app, f.w.member).patch(cycleUrl(done.id), { name: "No" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("CYCLE_COMPLETED");
    expect((await client(t.app, f.w.member).patch(cycleUrl(done.id), { sort_order: 5 })).json().sort_order).toBe(5);
  });

  it("deletes (admin or creator): items leave the cycle with history, cycle.deleted", async () => {
    const c = await createCycle({ name: "To delete" });
    const item = await createIssue(t, f.w.member, f.project.url, { cycle_id: c.id });
    expect(item.cycle_id).toBe(c.id);
    const other = await createCycle({ name: "Not mine" }, f.w.admin);
    expect((await client(t.app, f.w.member).delete(cycleUrl(other.id))).statusCode).toBe(403);
    expect((await client(t.app, f.w.member).delete(cycleUrl(c.id))).statusCode).toBe(204);
    expect(await t.db.select().from(cycles).where(eq(cycles.id, c.id))).toEqual([]);
    expect(await t.db.select().from(cycleIssues).where(eq(cycleIssues.issueId, item.id))).toEqual([]);
    const history = (await activitiesOf(t, item.id)).filter((a) => a.field === "cycles");
    expect(history.map((h) => [h.oldIdentifier, h.newIdentifier])).toEqual([
      [null, c.id],
      [c.id, null],
    ]);
    expect(eventsOf(f, "cycle.deleted", c.id)).toHaveLength(1);
    expect(eventsOf(f, "issue.updated", item.id).at(-1)?.data).toMatchObject({ cycle_id: null });
  });
});

describe("access", () => {
  it("401 without a session, 404 from another workspace, 403 for guests on every write", async () => {
    const c = await createCycle({ name: "Guarded" });
    expect((await client(t.app, null).get(cyclesUrl())).statusCode).toBe(401);
    expect((await client(t.app, null).post(cyclesUrl(), { name: "x" })).statusCode).toBe(401);
    const anonymous = client(t.app, null) as unknown as Record<
      string,
      (u: string, b?: unknown) => Promise<{ statusCode: number }>
    >;
    const every: [string, string][] = [
      ["get", `/api/workspaces/${f.w.slug}/cycles/`],
      ["get", `/api/workspaces/${f.w.slug}/active-cycles/`],
      ["post", `${cyclesUrl()}date-check/`],
      ["get", cycleUrl(c.id)],
      ["patch", cycleUrl(c.id)],
      ["delete", cycleUrl(c.id)],
      ...["progress/", "cycle-progress/", "analytics/", "cycle-issues/", "user-properties/"].map(
        (x) => ["get", `${cycleUrl(c.id)}${x}`] as [string, string],
      ),
      ["post", `${cycleUrl(c.id)}cycle-issues/`],
      ["delete", `${cycleUrl(c.id)}cycle-issues/${c.id}/`],
      ["post", `${cycleUrl(c.id)}transfer-issues/`],
      ["post", `${cycleUrl(c.id)}archive/`],
      ["delete", `${cycleUrl(c.id)}archive/`],
      ["patch", `${cycleUrl(c.id)}user-properties/`],
      ["get", `${f.project.url}/archived-cycles/`],
      ["post", `${f.project.url}/user-favorite-cycles/`],
      ["delete", `${f.project.url}/user-favorite-cycles/${c.id}/`],
    ];
    for (const [method, url] of every) {
      const call = anonymous[method] as (u: string, b?: unknown) => Promise<{ statusCode: number }>;
      expect(
        (await call(url, method === "get" || method === "delete" ? undefined : {})).statusCode,
        `${method} ${url}`,
      ).toBe(401);
    }
    // The stranger's own workspace path with our ids, and our path: 404 both ways.
    expect((await client(t.app, f.w.stranger).get(cycleUrl(c.id))).statusCode).toBe(404);
    expect((await client(t.app, f.w.stranger).get(`${f.foreign.url}/cycles/${c.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, f.w.stranger).get(`${f.foreign.url}/cycles/${c.id}/progress/`)).statusCode).toBe(404);
    const before = await storedCycles();
    const writes: [string, string, unknown][] = [
      ["post", cyclesUrl(), { name: "guest" }],
      ["patch", cycleUrl(c.id), { name: "guest" }],
      ["delete", cycleUrl(c.id), undefined],
      ["post", `${cycleUrl(c.id)}cycle-issues/`, { issues: [c.id] }],
      ["post", `${cycleUrl(c.id)}archive/`, {}],
      ["post", `${cycleUrl(c.id)}transfer-issues/`, { new_cycle_id: c.id }],
      ["post", `${f.project.url}/user-favorite-cycles/`, { cycle: c.id }],
      ["post", `${cyclesUrl()}date-check/`, windowOf()],
    ];
    for (const [method, url, body] of writes) {
      const api = client(t.app, f.w.guest) as unknown as Record<
        string,
        (u: string, b?: unknown) => Promise<{ statusCode: number }>
      >;
      const res = await (api[method] as (u: string, b?: unknown) => Promise<{ statusCode: number }>)(url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await storedCycles()).toEqual(before);
    // Guests read.
    for (const path of [
      "",
      "progress/",
      "cycle-progress/",
      "analytics/?type=points",
      "cycle-issues/",
      "user-properties/",
    ]) {
      expect((await client(t.app, f.w.guest).get(`${cycleUrl(c.id)}${path}`)).statusCode, path).toBe(200);
    }
    expect((await client(t.app, f.w.member).get(`${f.project.url}/cycles/not-an-id/`)).statusCode).toBe(404);
  });
});

describe("list, order and views", () => {
  it("orders current, upcoming by start date, draft, completed; cycle_view filters; bad view 400", async () => {
    const t2 = await anotherProject(t, f);
    const mk = async (name: string, dates: Record<string, unknown> = {}) => {
      const res = await client(t.app, f.w.member).post(`${t2.url}/cycles/`, { name, ...dates });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string };
    };
    await mk("B draft");
    await mk("A draft");
    await mk("Later", { start_date: day(30), end_date: day(35) });
    await mk("Sooner", { start_date: day(10), end_date: day(15) });
    await mk("Now", { start_date: day(-2), end_date: day(2) });
    const past = await mk("Past", { start_date: day(40), end_date: day(45) });
    await t.db
      .update(cycles)
      .set({ startDate: day(-20), endDate: day(-10) })
      .where(eq(cycles.id, past.id));
    const list = async (q = "") => {
      const res = await client(t.app, f.w.guest).get(`${t2.url}/cycles/${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { name: string; status: string }[]).map((c) => c.name);
    };
    expect(await list()).toEqual(["Now", "Sooner", "Later", "A draft", "B draft", "Past"]);
    expect(await list("?cycle_view=current")).toEqual(["Now"]);
    expect(await list("?cycle_view=upcoming")).toEqual(["Sooner", "Later"]);
    expect(await list("?cycle_view=completed")).toEqual(["Past"]);
    expect(await list("?cycle_view=draft")).toEqual(["A draft", "B draft"]);
    expect(await list("?cycle_view=incomplete")).toEqual(["Now", "Sooner", "Later", "A draft", "B draft"]);
    expect((await client(t.app, f.w.guest).get(`${t2.url}/cycles/?cycle_view=soon`)).statusCode).toBe(400);
    // The completed one's progress was frozen on that first read.
    const [stored] = await t.db.select().from(cycles).where(eq(cycles.id, past.id));
    expect(stored?.progressSnapshot).toMatchObject({ total_issues: 0 });
  });

  it("workspace /cycles/ and paged /active-cycles/ show only my projects' cycles", async () => {
    const all = await client(t.app, f.w.member).get(`/api/workspaces/${f.w.slug}/cycles/`);
    expect(all.statusCode).toBe(200);
    expect(all.json().length).toBeGreaterThan(3);
    const active = await client(t.app, f.w.member).get(`/api/workspaces/${f.w.slug}/active-cycles/?per_page=1`);
    expect(active.statusCode).toBe(200);
    expect(active.json()).toMatchObject({ count: 1, total_results: 1, next_page_results: false });
    expect(active.json().results[0]).toMatchObject({
      name: "Now",
      status: "current",
      project_detail: { id: expect.any(String) },
    });
    expect((await client(t.app, f.w.stranger).get(`/api/workspaces/${f.w.slug}/active-cycles/`)).statusCode).toBe(404);
    expect(
      (await client(t.app, f.w.member).get(`/api/workspaces/${f.w.slug}/active-cycles/?cursor=x`)).statusCode,
    ).toBe(400);
  });
});

describe("date-check", () => {
  it("status true for free dates, false with the overlapping cycle's name; 400 for missing or reversed dates", async () => {
    const taken = windowOf();
    const c = await createCycle({ name: "Occupied", ...taken });
    const check = (body: Record<string, unknown>) => client(t.app, f.w.member).post(`${cyclesUrl()}date-check/`, body);
    expect((await check(windowOf())).json()).toEqual({ status: true });
    const clash = await check(taken);
    expect(clash.statusCode).toBe(200);
    expect(clash.json()).toMatchObject({ status: false, code: "CYCLE_DATES_OVERLAP", cycle_id: c.id });
    expect(clash.json().error).toContain("Occupied");
    expect((await check({ ...taken, cycle_id: c.id })).json()).toEqual({ status: true });
    expect((await check({ start_date: taken.start_date })).statusCode).toBe(400);
    expect((await check({ start_date: taken.end_date, end_date: taken.start_date })).statusCode).toBe(400);
  });
});

describe("cycle work items", () => {
  it("adds many, moves between cycles (one cycle per item), removes one; history and events", async () => {
    const a = await createCycle({ name: "A" });
    const b = await createCycle({ name: "B" });
    const x = await createIssue(t, f.w.member, f.project.url);
    const y = await createIssue(t, f.w.member, f.project.url);
    const add = await client(t.app, f.w.member).post(`${cycleUrl(a.id)}cycle-issues/`, { issues: [x.id, y.id] });
    expect(add.statusCode, add.body).toBe(200);
    // (A guest of this project sees only their own work items: the member lists.)
    const listed = await client(t.app, f.w.member).get(
      `${cycleUrl(a.id)}cycle-issues/?group_by=state__group&per_page=10`,
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json().total_count).toBe(2);
    expect(listed.json().results.backlog.results.map((i: { cycle_id: string }) => i.cycle_id)).toEqual([a.id, a.id]);
    // Moving x to B moves it.
    await client(t.app, f.w.member).post(`${cycleUrl(b.id)}cycle-issues/`, { issues: [x.id] });
    const rows = await t.db.select().from(cycleIssues).where(eq(cycleIssues.issueId, x.id));
    expect(rows.map((r) => r.cycleId)).toEqual([b.id]);
    const history = (await activitiesOf(t, x.id)).filter((h) => h.field === "cycles");
    // As the reference writes them: joining is "created" ("" → A), moving "updated" (A → B).
    expect(history.map((h) => [h.verb, h.oldValue, h.newValue])).toEqual([
      ["created", "", "A"],
      ["updated", "A", "B"],
    ]);
    expect(eventsOf(f, "issue.updated", x.id).at(-1)?.data).toMatchObject({
      cycle_id: b.id,
      changed_fields: ["cycle_id"],
    });
    // Both cycles got fresh counters.
    expect(eventsOf(f, "cycle.updated", a.id).at(-1)?.data).toMatchObject({ total_issues: 1, progress_changed: true });
    expect(eventsOf(f, "cycle.updated", b.id).at(-1)?.data).toMatchObject({ total_issues: 1 });
    const del = await client(t.app, f.w.member).delete(`${cycleUrl(b.id)}cycle-issues/${x.id}/`);
    expect(del.statusCode).toBe(204);
    expect((await client(t.app, f.w.member).delete(`${cycleUrl(b.id)}cycle-issues/${x.id}/`)).statusCode).toBe(404);
    const listFiltered = await client(t.app, f.w.member).get(`${f.project.url}/issues/?cycle=${a.id}`);
    expect(listFiltered.json().results.map((i: { id: string }) => i.id)).toEqual([y.id]);
    const none = await client(t.app, f.w.member).get(`${f.project.url}/issues/?cycle=None&per_page=100`);
    expect(none.json().results.map((i: { id: string }) => i.id)).toContain(x.id);
    const grouped = await client(t.app, f.w.member).get(`${f.project.url}/issues/?group_by=cycle_id`);
    expect(grouped.json().results[a.id].total_results).toBe(1);
    expect(Object.keys(grouped.json().results)).toContain("None");
  });

  it("a work item of another project, a completed or unknown cycle: 400 and nothing stored", async () => {
    const c = await createCycle({ name: "Strict" });
    const elsewhere = await anotherProject(t, f);
    const foreignItem = await createIssue(t, f.w.member, elsewhere.url);
    const res = await client(t.app, f.w.member).post(`${cycleUrl(c.id)}cycle-issues/`, { issues: [foreignItem.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("ISSUE_NOT_IN_PROJECT");
    const done = await completedCycle("Closed");
    const mine = await createIssue(t, f.w.member, f.project.url);
    expect(
      (await client(t.app, f.w.member).post(`${cycleUrl(done.id)}cycle-issues/`, { issues: [mine.id] })).statusCode,
    ).toBe(400);
    expect((await client(t.app, f.w.member).post(`${cycleUrl(c.id)}cycle-issues/`, { issues: "x" })).statusCode).toBe(
      400,
    );
    expect(await t.db.select().from(cycleIssues).where(eq(cycleIssues.cycleId, c.id))).toEqual([]);
    // cycle_id on a work item: a cycle of another project is a 400 with nothing stored.
    const foreignCycle = await client(t.app, f.w.member).post(`${elsewhere.url}/cycles/`, { name: "Theirs" });
    const before = (await activitiesOf(t, mine.id)).length;
    const patch = await client(t.app, f.w.member).patch(`${f.project.url}/issues/${mine.id}/`, {
      cycle_id: foreignCycle.json().id,
      name: "changed",
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().code).toBe("CYCLE_NOT_IN_PROJECT");
    expect((await activitiesOf(t, mine.id)).length).toBe(before);
    const create = await client(t.app, f.w.member).post(`${f.project.url}/issues/`, {
      name: "n",
      cycle_id: foreignCycle.json().id,
    });
    expect(create.statusCode).toBe(400);
  });

  it("an epic is refused (400 ISSUE_IS_EPIC naming it); nothing is stored, its work items neither", async () => {
    const on = await client(t.app, f.w.admin).patch(`${f.project.url}/`, { is_epic_enabled: true });
    expect(on.statusCode, on.body).toBe(200);
    const epic = await client(t.app, f.w.member).post(`${f.project.url}/epics/`, { name: "Checkout revamp" });
    expect(epic.statusCode, epic.body).toBe(201);
    const epicId: string = epic.json().id;
    const item = await createIssue(t, f.w.member, f.project.url, { name: "Beside the epic" });
    const c = await createCycle({ name: "No epics" });
    const before = (await activitiesOf(t, item.id)).length;
    const updates = eventsOf(f, "issue.updated", item.id).length;
    const res = await client(t.app, f.w.member).post(`${cycleUrl(c.id)}cycle-issues/`, { issues: [item.id, epicId] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "ISSUE_IS_EPIC" });
    expect(res.json().fields.issues).toEqual([`${epicId} is an epic; a cycle takes work items only.`]);
    expect(await t.db.select().from(cycleIssues).where(eq(cycleIssues.cycleId, c.id))).toEqual([]);
    expect(await activitiesOf(t, item.id)).toHaveLength(before);
    expect(eventsOf(f, "issue.updated", item.id)).toHaveLength(updates);
    // The work item alone still goes in.
    const ok = await client(t.app, f.w.member).post(`${cycleUrl(c.id)}cycle-issues/`, { issues: [item.id] });
    expect(ok.statusCode, ok.body).toBeLessThan(300);
  });

  it('cycle_id on create, patch ("" = none), bulk, quick add and drafts', async () => {
    const c = await createCycle({ name: "Fields" });
    const created = await createIssue(t, f.w.member, f.project.url, { cycle_id: c.id });
    expect(created.cycle_id).toBe(c.id);
    const cleared = await client(t.app, f.w.member).patch(`${f.project.url}/issues/${created.id}/`, { cycle_id: "" });
    expect(cleared.json().cycle_id).toBeNull();
    // Quick add from a cycle's None group sends "None": no cycle.
    expect((await createIssue(t, f.w.member, f.project.url, { cycle_id: "None" })).cycle_id).toBeNull();
    const other = await createIssue(t, f.w.member, f.project.url);
    const bulk = await client(t.app, f.w.member).post(`${f.project.url}/bulk-operation-issues/`, {
      issue_ids: [created.id, other.id],
      properties: { cycle_id: c.id },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const rows = await t.db.select().from(cycleIssues).where(eq(cycleIssues.cycleId, c.id));
    expect(rows.map((r) => r.issueId).sort()).toEqual([created.id, other.id].sort());
    const draft = await client(t.app, f.w.member).post(`${f.project.url}/issue-drafts/`, { name: "d", cycle_id: c.id });
    expect(draft.statusCode, draft.body).toBe(201);
    expect(draft.json().cycle_id).toBe(c.id);
    // Drafts do not count; publishing records "added to cycle" and counts it.
    expect((await client(t.app, f.w.member).get(`${cycleUrl(c.id)}progress/`)).json().total_issues).toBe(2);
    const published = await client(t.app, f.w.member).patch(`${f.project.url}/issue-drafts/${draft.json().id}/`, {
      is_draft: false,
    });
    expect(published.statusCode, published.body).toBe(200);
    expect((await client(t.app, f.w.member).get(`${cycleUrl(c.id)}progress/`)).json().total_issues).toBe(3);
    const history = (await activitiesOf(t, draft.json().id)).filter((h) => h.field === "cycles");
    expect(history.map((h) => h.newIdentifier)).toEqual([c.id]);
  });
});

describe("progress", () => {
  // (A guest of this project is restricted to their own items: guest-counts.test.ts.)
  it("counts per state group and estimate points; distribution by assignee and label; analytics types", async () => {
    const c = await createCycle({ name: "Measured", start_date: day(-3), end_date: day(3) });
    const done = await stateOf(t, f.project.id, "completed");
    const started = await stateOf(t, f.project.id, "started");
    const i1 = await createIssue(t, f.w.member, f.project.url, { cycle_id: c.id, assignee_ids: [f.w.member.id] });
    await createIssue(t, f.w.member, f.project.url, { cycle_id: c.id, state_id: started });
    await client(t.app, f.w.member).patch(`${f.project.url}/issues/${i1.id}/`, { state_id: done });
    const progress = (await client(t.app, f.w.member).get(`${cycleUrl(c.id)}progress/`)).json();
    expect(progress).toMatchObject({
      total_issues: 2,
      completed_issues: 1,
      started_issues: 1,
      backlog_issues: 0,
      total_estimate_points: 0,
    });
    const issues = (await client(t.app, f.w.member).get(`${cycleUrl(c.id)}analytics/?type=issues`)).json();
    expect(issues.assignees).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          assignee_id: f.w.member.id,
          total_issues: 1,
          completed_issues: 1,
          pending_issues: 0,
        }),
        expect.objectContaining({ assignee_id: null, total_issues: 1, pending_issues: 1 }),
      ]),
    );
    expect(issues.completion_chart[today()]).toBe(1);
    expect(issues.completion_chart[day(1)]).toBeNull();
    expect(issues.progress).toHaveLength(7);
    const points = (await client(t.app, f.w.member).get(`${cycleUrl(c.id)}analytics/?type=points`)).json();
    expect(points.assignees[0]).toHaveProperty("total_estimates");
    expect((await client(t.app, f.w.member).get(`${cycleUrl(c.id)}analytics/?type=x`)).statusCode).toBe(400);
    const full = (await client(t.app, f.w.member).get(`${cycleUrl(c.id)}cycle-progress/`)).json();
    expect(full).toMatchObject({ total_issues: 2, distribution: { completion_chart: expect.any(Object) } });
    // A state change of an item in the cycle announces fresh counters.
    expect(eventsOf(f, "cycle.updated", c.id).at(-1)?.data).toMatchObject({ completed_issues: 1, total_issues: 2 });
    await client(t.app, f.w.admin).delete(cycleUrl(c.id));
  });
});

describe("transfer, archive, favorites, user properties", () => {
  it("transfers the unfinished items of a completed cycle; refuses an unfinished source or a completed target", async () => {
    const from = await createCycle({ name: "Old" });
    const done = await stateOf(t, f.project.id, "completed");
    const open = await createIssue(t, f.w.member, f.project.url, { cycle_id: from.id });
    const closed = await createIssue(t, f.w.member, f.project.url, { cycle_id: from.id, state_id: done });
    const to = await createCycle({ name: "New" });
    const early = await client(t.app, f.w.member).post(`${cycleUrl(from.id)}transfer-issues/`, { new_cycle_id: to.id });
    expect(early.statusCode).toBe(400);
    expect(early.json().code).toBe("CYCLE_NOT_COMPLETED");
    const back = windowStart;
    windowStart += 20;
    await t.db
      .update(cycles)
      .set({ startDate: day(-back - 9), endDate: day(-back - 4) })
      .where(eq(cycles.id, from.id));
    // Their history moves back with it: both were added (and one completed) on the first day.
    await t.db
      .update(issueActivities)
      .set({ createdAt: new Date(`${day(-back - 9)}T12:00:00Z`) })
      .where(inArray(issueActivities.issueId, [open.id, closed.id]));
    const completedTarget = await completedCycle("Also done");
    const wrong = await client(t.app, f.w.member).post(`${cycleUrl(from.id)}transfer-issues/`, {
      new_cycle_id: completedTarget.id,
    });
    expect(wrong.statusCode).toBe(400);
    const res = await client(t.app, f.w.member).post(`${cycleUrl(from.id)}transfer-issues/`, { new_cycle_id: to.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ transferred: 1, issues: [open.id] });
    const where = (id: string) => t.db.select().from(cycleIssues).where(eq(cycleIssues.issueId, id));
    expect((await where(open.id))[0]?.cycleId).toBe(to.id);
    expect((await where(closed.id))[0]?.cycleId).toBe(from.id);
    // The old cycle's progress was frozen before the move: it still shows both items.
    expect((await client(t.app, f.w.member).get(`${cycleUrl(from.id)}progress/`)).json()).toMatchObject({
      total_issues: 2,
      completed_issues: 1,
    });
  });

  it("archives only completed cycles (the favorite goes), lists and restores them", async () => {
    const running = await createCycle({ name: "Running", ...windowOf() });
    const refused = await client(t.app, f.w.member).post(`${cycleUrl(running.id)}archive/`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("CYCLE_NOT_COMPLETED");
    expect((await storedCycles()).find((c) => c.id === running.id)?.archivedAt).toBeNull();
    const done = await completedCycle("Archive me");
    expect(
      (await client(t.app, f.w.member).post(`${f.project.url}/user-favorite-cycles/`, { cycle: done.id })).statusCode,
    ).toBe(204);
    expect((await client(t.app, f.w.member).get(cycleUrl(done.id))).json().is_favorite).toBe(true);
    const res = await client(t.app, f.w.member).post(`${cycleUrl(done.id)}archive/`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().archived_at).toEqual(expect.any(String));
    expect(
      await t.db
        .select()
        .from(userFavorites)
        .where(and(eq(userFavorites.entityType, "cycle"), eq(userFavorites.entityIdentifier, done.id))),
    ).toEqual([]);
    expect((await client(t.app, f.w.member).get(cycleUrl(done.id))).statusCode).toBe(404);
    const archived = await client(t.app, f.w.guest).get(`${f.project.url}/archived-cycles/`);
    expect(archived.json().map((c: { id: string }) => c.id)).toContain(done.id);
    expect((await client(t.app, f.w.guest).get(`${f.project.url}/archived-cycles/${done.id}/`)).statusCode).toBe(200);
    expect((await client(t.app, f.w.member).patch(cycleUrl(done.id), { sort_order: 1 })).statusCode).toBe(400);
    expect((await client(t.app, f.w.member).post(`${cycleUrl(done.id)}archive/`, {})).statusCode).toBe(400);
    expect(eventsOf(f, "cycle.archived", done.id)).toHaveLength(1);
    expect((await client(t.app, f.w.member).delete(`${cycleUrl(done.id)}archive/`)).statusCode).toBe(204);
    expect(eventsOf(f, "cycle.restored", done.id)).toHaveLength(1);
    expect((await client(t.app, f.w.member).get(cycleUrl(done.id))).statusCode).toBe(200);
    expect((await client(t.app, f.w.member).delete(`${cycleUrl(done.id)}archive/`)).statusCode).toBe(400);
  });

  it("favorites: add (idempotent), remove, second remove 404; another workspace's cycle 404", async () => {
    const c = await createCycle({ name: "Fav" });
    const fav = () => client(t.app, f.w.member).post(`${f.project.url}/user-favorite-cycles/`, { cycle: c.id });
    expect((await fav()).statusCode).toBe(204);
    expect((await fav()).statusCode).toBe(204);
    expect(
      (await client(t.app, f.w.member).get(cyclesUrl())).json().find((x: { id: string }) => x.id === c.id).is_favorite,
    ).toBe(true);
    expect((await client(t.app, f.w.admin).get(cycleUrl(c.id))).json().is_favorite).toBe(false);
    expect((await client(t.app, f.w.member).delete(`${f.project.url}/user-favorite-cycles/${c.id}/`)).statusCode).toBe(
      204,
    );
    expect((await client(t.app, f.w.member).delete(`${f.project.url}/user-favorite-cycles/${c.id}/`)).statusCode).toBe(
      404,
    );
    const theirs = await client(t.app, f.w.stranger).post(`${f.foreign.url}/cycles/`, { name: "Theirs" });
    expect(
      (await client(t.app, f.w.member).post(`${f.project.url}/user-favorite-cycles/`, { cycle: theirs.json().id }))
        .statusCode,
    ).toBe(404);
  });

  it("user-properties per user and cycle: created on first read, patched, validated", async () => {
    const c = await createCycle({ name: "Props" });
    const url = `${cycleUrl(c.id)}user-properties/`;
    const first = await client(t.app, f.w.guest).get(url);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ cycle: c.id, user: f.w.guest.id, filters: {} });
    const patched = await client(t.app, f.w.guest).patch(url, {
      filters: { priority: ["high"] },
      display_filters: { layout: "kanban", group_by: "state" },
      display_properties: { labels: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ filters: { priority: ["high"] }, display_properties: { labels: false } });
    expect(patched.json().display_filters.layout).toBe("kanban");
    expect((await client(t.app, f.w.member).get(url)).json().filters).toEqual({});
    expect((await client(t.app, f.w.guest).patch(url, { filters: { nope: ["x"] } })).statusCode).toBe(400);
    expect((await client(t.app, f.w.guest).get(url)).json().filters).toEqual({ priority: ["high"] });
  });
});
