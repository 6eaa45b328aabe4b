/**
 * The completion chart is computed from the work-item history: random sequences of state
 * changes, additions to the cycle, moves to another cycle and removals go through the real API,
 * each one dated on a day of the cycle (its history rows are moved to that day in the table),
 * and the chart served by analytics/ must equal an independent replay of those operations.
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
        // Independent replay: the model as it stood after the last operation of each day.
        let current = items.map((i) => ({ group: i.state__group as StateGroup, where: "none" }));
        let next = 0;
        const expectedPending: Record<string, number | null> = {};
        const expectedScope: (number | null)[] = [];
        for (const d of daysOf(start, end)) {
          while (next < timeline.length && (timeline[next]?.day ?? "") <= d)
            current = (timeline[next++] as (typeof timeline)[number]).snapshot;
          if (d > today) {
            expectedPending[d] = null;
            expectedScope.push(null);
            continue;
          }
          const inCycle = current.filter((x) => x.where === "c");
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
