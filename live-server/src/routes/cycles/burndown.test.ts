/**
 * The completion chart is computed from the work-item history: random sequences of state
 * changes, additions to the cycle, moves to another cycle and removals go through the real API,
 * each one dated on a day of the cycle (its history rows are moved to that day in the table),
 * and the chart served by analytics/ must equal an independent replay of those operations (the
 * days before the cycle first held work count the work it held then: the baseline).
 */
import { addDays, calendarDate, daysOf, type StateGroup } from "@tideline/shared";
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueActivities } from "../../db/schema.ts";
import { anotherProject, createFixture, createIssue, type Fixture, stateOf } from "../issues/test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

const GROUPS: StateGroup[] = ["backlog", "unstarted", "started", "completed", "cancelled"];
const ITEMS = 4;

type Op = {
  item: number;
  advance: number;
  action: { kind: "state"; to: StateGroup } | { kind: "add" | "other" | "remove" };
};

const opArb: fc.Arbitrary<Op> = fc.record({
  item: fc.integer({ min: 0, max: ITEMS - 1 }),
  advance: fc.integer({ min: 0, max: 2 }),
  action: fc.oneof(
    fc.record({ kind: fc.constant("state" as const), to: fc.constantFrom(...GROUPS) }),
    fc.record({ kind: fc.constantFrom("add" as const, "other" as const, "remove" as const) }),
  ),
});

describe("burndown from history (fast-check, fixed seed, through the API)", () => {
  it("analytics completion chart and scope equal a replay of the operations", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 14 }), async (ops) => {
        const today = calendarDate(new Date(), "UTC");
        const start = addDays(today, -8);
        const end = addDays(today, 3);
        const p = await anotherProject(t, f);
        const api = client(t.app, f.w.member);
        const cycle = (await api.post(`${p.url}/cycles/`, { name: "C", start_date: start, end_date: end })).json();
        const other = (await api.post(`${p.url}/cycles/`, { name: "Other" })).json();
        const stateIds = Object.fromEntries(
          await Promise.all(GROUPS.map(async (g) => [g, await stateOf(t, p.id, g)] as const)),
        ) as Record<StateGroup, string>;
        const items = [];
        for (let i = 0; i < ITEMS; i++) items.push(await createIssue(t, f.w.member, p.url, { name: `I${i}` }));
        // Everything so far happened long before the cycle.
        await t.db
          .update(issueActivities)
          .set({ createdAt: new Date(`${addDays(start, -30)}T12:00:00Z`) })
          .where(eq(issueActivities.projectId, p.id));

        const model = items.map((i) => ({
          group: i.state__group as StateGroup,
          where: "none" as "none" | "c" | "other",
        }));
        const timeline: { day: string; snapshot: { group: StateGroup; where: string }[] }[] = [];
        let day = addDays(start, -2);
        for (const [n, op] of ops.entries()) {
          day = addDays(day, op.advance);
          if (day > today) day = today;
          const item = items[op.item] as { id: string };
          const m = model[op.item] as (typeof model)[number];
          const clock = (await t.db.execute(sql`select clock_timestamp()::text as now`)) as unknown as {
            rows: { now: string }[];
          };
          const now = (clock.rows[0] as { now: string }).now;
          if (op.action.kind === "state") {
            const res = await api.patch(`${p.url}/issues/${item.id}/`, { state_id: stateIds[op.action.to] });
            expect(res.statusCode, res.body).toBe(200);
            m.group = op.action.to;
          } else if (op.action.kind === "add" || op.action.kind === "other") {
            const target = op.action.kind === "add" ? cycle.id : other.id;
            const res = await api.post(`${p.url}/cycles/${target}/cycle-issues/`, { issues: [item.id] });
            expect(res.statusCode, res.body).toBe(200);
            m.where = op.action.kind === "add" ? "c" : "other";
          } else {
            const res = await api.patch(`${p.url}/issues/${item.id}/`, { cycle_id: null });
            expect(res.statusCode, res.body).toBe(200);
            m.where = "none";
          }
          // This operation's history rows move to its day, keeping their order. Today's stay where
          // the clock put them: a time of day picked for them could still be in the future (the
          // chart counts today as it stands now), which made this test fail before 10:00 UTC.
          const at = new Date(`${day}T10:00:00Z`).getTime() + n * 1000;
          if (day < today)
            await t.db
              .update(issueActivities)
              .set({
                createdAt: sql`${new Date(at).toISOString()}::timestamptz + (${issueActivities.createdAt} - ${now}::timestamptz)`,
              })
              .where(
                and(eq(issueActivities.projectId, p.id), sql`${issueActivities.createdAt} >= ${now}::timestamptz`),
              );
          timeline.push({ day, snapshot: model.map((x) => ({ ...x })) });
        }

        const res = await api.get(`${p.url}/cycles/${cycle.id}/analytics/?type=issues`);
        expect(res.statusCode, res.body).toBe(200);
        const chart = res.json() as {
          completion_chart: Record<string, number | null>;
          progress: { date: string; scope: number | null; completed: number | null }[];
        };
        // Independent replay: the model as it stood after the last operation of each day. Days
        // before the first one with work in the cycle (the baseline) count the baseline's work
        // with their own states.
        let current = items.map((i) => ({ group: i.state__group as StateGroup, where: "none" }));
        let next = 0;
        const byDay: { group: StateGroup; where: string }[][] = [];
        for (const d of daysOf(start, end)) {
          while (next < timeline.length && (timeline[next]?.day ?? "") <= d)
            current = (timeline[next++] as (typeof timeline)[number]).snapshot;
          byDay.push(current);
        }
        const days = daysOf(start, end);
        const base = days.findIndex((d, n) => d <= today && (byDay[n] ?? []).some((x) => x.where === "c"));
        const expectedPending: Record<string, number | null> = {};
        const expectedScope: (number | null)[] = [];
        for (const [n, d] of days.entries()) {
          if (d > today) {
            expectedPending[d] = null;
            expectedScope.push(null);
            continue;
          }
          const members = byDay[base >= 0 && n < base ? base : n] ?? [];
          const inCycle = (byDay[n] ?? []).filter((_, i) => members[i]?.where === "c");
          expectedScope.push(inCycle.length);
          expectedPending[d] = inCycle.filter((x) => x.group !== "completed" && x.group !== "cancelled").length;
        }
        expect(chart.completion_chart).toEqual(expectedPending);
        expect(chart.progress.map((x) => x.scope)).toEqual(expectedScope);
        // Today's counters agree with the chart's last measured day.
        const progress = (await api.get(`${p.url}/cycles/${cycle.id}/progress/`)).json();
        expect(progress.total_issues).toBe(expectedScope[daysOf(start, today).length - 1]);
      }),
      { seed: 4242, numRuns: 6 },
    );
  });
});

describe("burndown against scope (through the API)", () => {
  it("a cycle filled after its start counts that work from day one; later additions step the scope", async () => {
    const today = calendarDate(new Date(), "UTC");
    const start = addDays(today, -6);
    const p = await anotherProject(t, f);
    const api = client(t.app, f.w.member);
    const cycle = (
      await api.post(`${p.url}/cycles/`, { name: "Late", start_date: start, end_date: addDays(today, 3) })
    ).json();
    const done = await stateOf(t, p.id, "completed");
    const planned = [];
    for (let i = 0; i < 3; i++) planned.push(await createIssue(t, f.w.member, p.url, { name: `P${i}` }));
    const at = async (ids: string[], day: string, fields: string[]) =>
      t.db
        .update(issueActivities)
        .set({ createdAt: new Date(`${day}T12:00:00Z`) })
        .where(
          and(
            sql`${issueActivities.issueId} = any(${`{${ids.join(",")}}`}::uuid[])`,
            sql`field = any(${`{${fields.join(",")}}`}::text[])`,
          ),
        );
    const ids = planned.map((x) => x.id);
    await t.db
      .update(issueActivities)
      .set({ createdAt: new Date(`${addDays(start, -30)}T12:00:00Z`) })
      .where(eq(issueActivities.projectId, p.id));
    // Filled on its third day, one completed on the fifth, two more added today.
    expect((await api.post(`${p.url}/cycles/${cycle.id}/cycle-issues/`, { issues: ids })).statusCode).toBe(200);
    await at(ids, addDays(start, 2), ["cycles"]);
    expect((await api.patch(`${p.url}/issues/${ids[0]}/`, { state_id: done })).statusCode).toBe(200);
    await at([ids[0] as string], addDays(start, 4), ["state"]);
    const late = [await createIssue(t, f.w.member, p.url), await createIssue(t, f.w.member, p.url)];
    const added = await api.post(`${p.url}/cycles/${cycle.id}/cycle-issues/`, { issues: late.map((x) => x.id) });
    expect(added.statusCode).toBe(200);

    const res = await api.get(`${p.url}/cycles/${cycle.id}/analytics/?type=issues`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      completion_chart: Record<string, number | null>;
      progress: { date: string; scope: number | null; pending: number | null; ideal: number }[];
    };
    expect(body.progress.map((x) => [x.scope, x.pending])).toEqual([
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 2],
      [3, 2],
      [5, 4],
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect(Object.values(body.completion_chart)).toEqual([3, 3, 3, 3, 2, 2, 4, null, null, null]);
    // The ideal line runs from today's scope (the reference's current total) to 0.
    expect(body.progress[0]?.ideal).toBe(5);
    expect(body.progress.at(-1)?.ideal).toBe(0);
  });
});
