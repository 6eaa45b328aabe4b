import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STATE_GROUPS, type StateGroup } from "../constants/project.ts";
import {
  type BurndownItem,
  type BurndownPoint,
  burndownBaseline,
  type CycleHistoryEvent,
  compareCycles,
  completionChart,
  computeBurndown,
  cycleDatesOverlap,
  cycleDaysLeft,
  cycleStatus,
  daysOf,
  inCycleView,
} from "./cycles.ts";
import { addDays } from "./issue-filters.ts";

const TODAY = "2026-03-10";

describe("cycleStatus and categories", () => {
  it("draft without both dates, upcoming, current on both end days, completed after the end", () => {
    expect(cycleStatus({ start_date: null, end_date: null }, TODAY)).toBe("draft");
    expect(cycleStatus({ start_date: "2026-03-01", end_date: null }, TODAY)).toBe("draft");
    expect(cycleStatus({ start_date: "2026-03-11", end_date: "2026-03-20" }, TODAY)).toBe("upcoming");
    expect(cycleStatus({ start_date: "2026-03-10", end_date: "2026-03-20" }, TODAY)).toBe("current");
    expect(cycleStatus({ start_date: "2026-03-01", end_date: "2026-03-10" }, TODAY)).toBe("current");
    expect(cycleStatus({ start_date: "2026-03-01", end_date: "2026-03-09" }, TODAY)).toBe("completed");
  });

  it("days left count today and the end day", () => {
    expect(cycleDaysLeft({ start_date: "2026-03-01", end_date: "2026-03-10" }, TODAY)).toBe(1);
    expect(cycleDaysLeft({ start_date: "2026-03-01", end_date: "2026-03-12" }, TODAY)).toBe(3);
    expect(cycleDaysLeft({ start_date: "2026-03-11", end_date: "2026-03-12" }, TODAY)).toBe(0);
  });

  it("views: incomplete = not completed and not archived; archived cycles are in no view", () => {
    const done = { start_date: "2026-01-01", end_date: "2026-01-02", archived_at: null };
    const draft = { start_date: null, end_date: null, archived_at: null };
    expect(inCycleView("incomplete", done, TODAY)).toBe(false);
    expect(inCycleView("incomplete", draft, TODAY)).toBe(true);
    expect(inCycleView("completed", done, TODAY)).toBe(true);
    expect(inCycleView("all", { ...draft, archived_at: "2026-03-01T00:00:00Z" }, TODAY)).toBe(false);
  });

  it("orders current, upcoming by start date, draft, completed; names within a status", () => {
    const c = (id: string, name: string, start: string | null, end: string | null) => ({
      id,
      name,
      start_date: start,
      end_date: end,
    });
    const list = [
      c("1", "b done", "2026-01-01", "2026-01-05"),
      c("2", "z draft", null, null),
      c("3", "a draft", null, null),
      c("4", "late", "2026-04-01", "2026-04-05"),
      c("5", "soon", "2026-03-12", "2026-03-15"),
      c("6", "now", "2026-03-09", "2026-03-11"),
      c("7", "a done", "2026-02-01", "2026-02-05"),
    ];
    expect(list.sort((a, b) => compareCycles(a, b, TODAY)).map((x) => x.name)).toEqual([
      "now",
      "soon",
      "late",
      "a draft",
      "z draft",
      "a done",
      "b done",
    ]);
  });

  it("overlap shares at least one day; drafts never overlap", () => {
    const a = { start_date: "2026-03-01", end_date: "2026-03-10" };
    expect(cycleDatesOverlap(a, { start_date: "2026-03-10", end_date: "2026-03-12" })).toBe(true);
    expect(cycleDatesOverlap(a, { start_date: "2026-03-11", end_date: "2026-03-12" })).toBe(false);
    expect(cycleDatesOverlap(a, { start_date: "2026-02-01", end_date: "2026-04-12" })).toBe(true);
    expect(cycleDatesOverlap(a, { start_date: null, end_date: null })).toBe(false);
  });
});

describe("computeBurndown", () => {
  it("counts scope and pending per day, null after today, an ideal line to zero", () => {
    const item = (id: string, history: CycleHistoryEvent[], group: StateGroup, inCycle = true): BurndownItem => ({
      id,
      group,
      inCycle,
      points: 2,
      history,
    });
    const items = [
      item("a", [{ day: "2026-03-08", kind: "cycle", from: false, to: true }], "completed"),
      item(
        "b",
        [
          { day: "2026-03-07", kind: "cycle", from: false, to: true },
          { day: "2026-03-09", kind: "state", from: "started", to: "completed" },
        ],
        "completed",
      ),
    ];
    // a: added on the 8th, already completed before (no state change recorded).
    const points = computeBurndown({
      start_date: "2026-03-07",
      end_date: "2026-03-11",
      today: TODAY,
      items,
      unit: "issues",
    });
    expect(points.map((p) => [p.date, p.scope, p.pending])).toEqual([
      ["2026-03-07", 1, 1],
      ["2026-03-08", 2, 1],
      ["2026-03-09", 2, 0],
      ["2026-03-10", 2, 0],
      ["2026-03-11", null, null],
    ]);
    expect(points.map((p) => p.ideal)).toEqual([2, 1.5, 1, 0.5, 0]);
    expect(completionChart(points)["2026-03-11"]).toBeNull();
    const byPoints = computeBurndown({
      start_date: "2026-03-07",
      end_date: "2026-03-08",
      today: TODAY,
      items,
      unit: "points",
    });
    expect(byPoints.map((p) => p.scope)).toEqual([2, 4]);
  });

  it("counts the work planned after the start from the first day; later additions are scope steps", () => {
    // A cycle from the 1st to the 10th, filled on the 4th (created late), one item done on the
    // 5th, two more added on the 7th.
    const planned = (id: string, history: CycleHistoryEvent[], group: StateGroup): BurndownItem => ({
      id,
      group,
      inCycle: true,
      points: 3,
      history: [{ day: "2026-03-04", kind: "cycle", from: false, to: true }, ...history],
    });
    const added = (id: string): BurndownItem => ({
      id,
      group: "unstarted",
      inCycle: true,
      points: 1,
      history: [{ day: "2026-03-07", kind: "cycle", from: false, to: true }],
    });
    const items = [
      planned("a", [{ day: "2026-03-05", kind: "state", from: "started", to: "completed" }], "completed"),
      planned("b", [], "started"),
      planned("c", [], "backlog"),
      added("d"),
      added("e"),
    ];
    const points = computeBurndown({
      start_date: "2026-03-01",
      end_date: "2026-03-10",
      today: "2026-03-08",
      items,
      unit: "issues",
    });
    expect(burndownBaseline(items, "2026-03-01", "2026-03-08")).toBe("2026-03-04");
    // Never 0 then a jump: the 1st–3rd count the three items planned on the 4th.
    expect(points.map((p) => [p.date.slice(8), p.scope, p.pending])).toEqual([
      ["01", 3, 3],
      ["02", 3, 3],
      ["03", 3, 3],
      ["04", 3, 3],
      ["05", 3, 2],
      ["06", 3, 2],
      ["07", 5, 4],
      ["08", 5, 4],
      ["09", null, null],
      ["10", null, null],
    ]);
    // The ideal line runs from today's scope (the reference's current total) to 0.
    expect(points[0]?.ideal).toBe(5);
    expect(points.at(-1)?.ideal).toBe(0);
    const byPoints = computeBurndown({
      start_date: "2026-03-01",
      end_date: "2026-03-10",
      today: "2026-03-08",
      items,
      unit: "points",
    });
    expect(byPoints.map((p) => p.scope).slice(0, 8)).toEqual([9, 9, 9, 9, 9, 9, 11, 11]);
    expect(byPoints.map((p) => p.pending).slice(0, 8)).toEqual([9, 9, 9, 9, 6, 6, 8, 8]);
    // A cycle that never held work: zeros, no baseline.
    expect(burndownBaseline([], "2026-03-01", "2026-03-08")).toBeNull();
    expect(
      computeBurndown({ start_date: "2026-03-01", end_date: "2026-03-02", today: TODAY, items: [], unit: "issues" }),
    ).toMatchObject([
      { scope: 0, pending: 0, ideal: 0 },
      { scope: 0, pending: 0, ideal: 0 },
    ]);
  });

  /**
   * Property: for random sequences of state changes, additions and removals over days, the chart
   * equals a forward replay (start from the initial values, apply each change day by day).
   */
  it("equals a day-by-day replay of the history (fast-check, fixed seed)", () => {
    const START = "2026-03-01";
    const op = fc.record({
      item: fc.integer({ min: 0, max: 5 }),
      dayOffset: fc.integer({ min: 0, max: 3 }),
      change: fc.oneof(
        fc.record({ kind: fc.constant("state" as const), to: fc.constantFrom(...STATE_GROUPS) }),
        fc.record({ kind: fc.constant("cycle" as const), to: fc.boolean() }),
      ),
    });
    const scenario = fc.record({
      initial: fc.array(fc.record({ group: fc.constantFrom(...STATE_GROUPS), inCycle: fc.boolean() }), {
        minLength: 6,
        maxLength: 6,
      }),
      ops: fc.array(op, { maxLength: 40 }),
      length: fc.integer({ min: 1, max: 20 }),
      todayOffset: fc.integer({ min: -2, max: 40 }),
      before: fc.integer({ min: 0, max: 5 }),
    });
    fc.assert(
      fc.property(scenario, ({ initial, ops, length, todayOffset, before }) => {
        // Changes start `before` days ahead of the cycle's start and move forward in time.
        let day = addDays(START, -before);
        const live = initial.map((v) => ({ ...v }));
        const items: BurndownItem[] = initial.map((v, i) => ({
          id: String(i),
          group: v.group,
          inCycle: v.inCycle,
          points: i + 1,
          history: [],
        }));
        const timeline: { day: string; item: number; kind: "state" | "cycle"; to: StateGroup | boolean }[] = [];
        for (const o of ops) {
          day = addDays(day, o.dayOffset);
          const cur = live[o.item] as { group: StateGroup; inCycle: boolean };
          const target = items[o.item] as BurndownItem;
          if (o.change.kind === "state") {
            if (o.change.to === cur.group) continue; // no change, no history row
            target.history.push({ day, kind: "state", from: cur.group, to: o.change.to });
            cur.group = o.change.to;
          } else {
            if (o.change.to === cur.inCycle) continue;
            target.history.push({ day, kind: "cycle", from: cur.inCycle, to: o.change.to });
            cur.inCycle = o.change.to;
          }
          timeline.push({ day, item: o.item, kind: o.change.kind, to: o.change.to });
        }
        for (const [i, v] of live.entries()) {
          const target = items[i] as BurndownItem;
          target.group = v.group;
          target.inCycle = v.inCycle;
        }
        const end = addDays(START, length - 1);
        const today = addDays(START, todayOffset);
        for (const unit of ["issues", "points"] as const) {
          const chart = computeBurndown({ start_date: START, end_date: end, today, items, unit });
          // Independent replay: walk the days, applying every change of the day in order, and
          // keep each day's state.
          const state = initial.map((v) => ({ ...v }));
          let next = 0;
          const byDay: { group: StateGroup; inCycle: boolean }[][] = [];
          const days = daysOf(START, end);
          for (const d of days) {
            while (next < timeline.length && (timeline[next]?.day ?? "") <= d) {
              const c = timeline[next++] as (typeof timeline)[number];
              const s = state[c.item] as { group: StateGroup; inCycle: boolean };
              if (c.kind === "state") s.group = c.to as StateGroup;
              else s.inCycle = c.to as boolean;
            }
            byDay.push(state.map((s) => ({ ...s })));
          }
          // The baseline: the first measured day with any item in the cycle; days before it
          // count its membership (with their own states).
          const measured = days.map((d, i) => ({ d, i })).filter(({ d }) => d <= today);
          const base = measured.find(({ i }) => (byDay[i] ?? []).some((s) => s.inCycle))?.i ?? -1;
          const expected: (number | null)[] = [];
          const scopes: (number | null)[] = [];
          for (const [n, d] of days.entries()) {
            if (d > today) {
              expected.push(null);
              scopes.push(null);
              continue;
            }
            const states = byDay[n] ?? [];
            const members = byDay[Math.max(n, base)] ?? [];
            let scope = 0;
            let closed = 0;
            for (const [i, s] of states.entries()) {
              if (!members[i]?.inCycle) continue;
              const w = unit === "points" ? i + 1 : 1;
              scope += w;
              if (s.group === "completed" || s.group === "cancelled") closed += w;
            }
            expected.push(scope - closed);
            scopes.push(scope);
          }
          expect(chart.map((p) => p.pending)).toEqual(expected);
          expect(chart.map((p) => p.scope)).toEqual(scopes);
          // Remaining work lies within the scope; completed + cancelled + open = scope.
          for (const p of chart) {
            if (p.scope === null) continue;
            expect(p.pending).toBeGreaterThanOrEqual(0);
            expect(p.pending).toBeLessThanOrEqual(p.scope);
            const parts = (p.backlog ?? 0) + (p.unstarted ?? 0) + (p.started ?? 0) + (p.completed ?? 0);
            expect(parts + (p.cancelled ?? 0)).toBeCloseTo(p.scope, 6);
          }
          const shown = chart.filter((p) => p.scope !== null);
          if (unit === "issues" && shown.some((p) => (p.scope ?? 0) > 0)) {
            // Never "0 until the day work was added": the first measured day already has it.
            expect(shown[0]?.scope).toBeGreaterThan(0);
          }
          // After the baseline the scope changes only on a day some item joined or left the cycle.
          for (let i = Math.max(base, 0) + 1; i < shown.length; i++) {
            const p = shown[i] as BurndownPoint;
            if (p.scope === (shown[i - 1] as BurndownPoint).scope) continue;
            expect(timeline.some((c) => c.kind === "cycle" && c.day === p.date)).toBe(true);
          }
        }
      }),
      { seed: 20261125, numRuns: 300 },
    );
  });
});
