/**
 * Cycle rules shared by the server and the client (product-domain §3 Cycle, §4 "Cycle status",
 * "Cycle list order"): status and categories from the dates and today's date in the project's
 * timezone, the list order, the overlap check, and the burndown computed from work-item history.
 *
 * Dates are calendar days (yyyy-MM-dd), both ends inclusive: a cycle from 2026-03-02 to
 * 2026-03-15 is current on both of those days. "today" is the project's calendar day
 * (calendarDate(now, project.timezone)).
 */
import type { StateGroup } from "../constants/project.ts";
import { addDays } from "./issue-filters.ts";

export const CYCLE_STATUSES = ["current", "upcoming", "completed", "draft"] as const;
export type CycleStatus = (typeof CYCLE_STATUSES)[number];

/** The `cycle_view` values of the project cycle list. */
export const CYCLE_VIEWS = ["all", "current", "upcoming", "completed", "draft", "incomplete"] as const;
export type CycleView = (typeof CYCLE_VIEWS)[number];

export type CycleDates = { start_date: string | null; end_date: string | null };

/**
 * draft: no dates; completed: the end date has passed; upcoming: starts after today; current:
 * today is within the dates (in progress, with days left).
 */
export function cycleStatus(cycle: CycleDates, today: string): CycleStatus {
  if (!cycle.start_date || !cycle.end_date) return "draft";
  if (cycle.end_date < today) return "completed";
  if (cycle.start_date > today) return "upcoming";
  return "current";
}

/** Days from today to the end date, both counted (1 on the last day); 0 when not current. */
export function cycleDaysLeft(cycle: CycleDates, today: string): number {
  if (cycleStatus(cycle, today) !== "current" || !cycle.end_date) return 0;
  return daysBetween(today, cycle.end_date) + 1;
}

/** Whole days from `a` to `b` (negative when b is before a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Completed: its status is completed (the end date has passed). */
export function isCycleCompleted(cycle: CycleDates, today: string): boolean {
  return cycleStatus(cycle, today) === "completed";
}

/** Incomplete: not completed and not archived. */
export function isCycleIncomplete(cycle: CycleDates & { archived_at: string | null }, today: string): boolean {
  return !cycle.archived_at && !isCycleCompleted(cycle, today);
}

/** Whether a cycle belongs to a `cycle_view` of the list (archived ones are never listed there). */
export function inCycleView(view: CycleView, cycle: CycleDates & { archived_at: string | null }, today: string) {
  if (cycle.archived_at) return false;
  if (view === "all") return true;
  if (view === "incomplete") return isCycleIncomplete(cycle, today);
  return cycleStatus(cycle, today) === view;
}

const STATUS_RANK: Record<CycleStatus, number> = { current: 0, upcoming: 1, draft: 2, completed: 3 };

type Sortable = CycleDates & { name: string; id: string; sort_order?: number };

/**
 * The list order: current, upcoming (by start date), draft, then completed; within a status by
 * name (case-insensitive), then id. `bySortOrder` orders by sort_order instead (then name).
 */
export function compareCycles(a: Sortable, b: Sortable, today: string, bySortOrder = false): number {
  if (bySortOrder) return (a.sort_order ?? 0) - (b.sort_order ?? 0) || byName(a, b);
  const sa = cycleStatus(a, today);
  const sb = cycleStatus(b, today);
  if (sa !== sb) return STATUS_RANK[sa] - STATUS_RANK[sb];
  if (sa === "upcoming" && a.start_date !== b.start_date) return (a.start_date ?? "") < (b.start_date ?? "") ? -1 : 1;
  return byName(a, b);
}

function byName(a: Sortable, b: Sortable): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Two dated ranges overlap when they share at least one day (ends inclusive). */
export function cycleDatesOverlap(a: CycleDates, b: CycleDates): boolean {
  if (!a.start_date || !a.end_date || !b.start_date || !b.end_date) return false;
  return a.start_date <= b.end_date && b.start_date <= a.end_date;
}

/** Every day from `start` to `end`, both included. */
export function daysOf(start: string, end: string): string[] {
  const out: string[] = [];
  for (let day = start; day <= end && out.length < 3700; day = addDays(day, 1)) out.push(day);
  return out;
}

// ───────────────────────────── burndown ─────────────────────────────

/**
 * One change in a work item's history, on the project's calendar day it happened. State
 * changes carry state groups; cycle changes whether the item was in this cycle before/after.
 * A list of them is in the order they happened.
 */
export type CycleHistoryEvent =
  | { day: string; kind: "state"; from: StateGroup | null; to: StateGroup | null }
  | { day: string; kind: "cycle"; from: boolean; to: boolean };

export type BurndownItem = {
  id: string;
  /** Its state group now. */
  group: StateGroup | null;
  /** Whether it is in the cycle now. */
  inCycle: boolean;
  /** Estimate value (used when counting points). */
  points: number;
  /** State and cycle changes, oldest first. */
  history: CycleHistoryEvent[];
};

/** A point of the chart. Measured values are null on days after today. */
export type BurndownPoint = {
  date: string;
  scope: number | null;
  completed: number | null;
  cancelled: number | null;
  started: number | null;
  unstarted: number | null;
  backlog: number | null;
  pending: number | null;
  actual: number | null;
  ideal: number;
};

/**
 * The value of one history kind at the end of `day`: the last change on or before that day,
 * else what the first later change started from, else the value now.
 */
function valueAt<K extends "state" | "cycle">(
  item: BurndownItem,
  kind: K,
  day: string,
): K extends "state" ? StateGroup | null : boolean {
  let last: CycleHistoryEvent | undefined;
  let firstAfter: CycleHistoryEvent | undefined;
  for (const e of item.history) {
    if (e.kind !== kind) continue;
    if (e.day <= day) last = e;
    else if (!firstAfter) firstAfter = e;
  }
  const pick = last ? last.to : firstAfter ? firstAfter.from : kind === "state" ? item.group : item.inCycle;
  return pick as K extends "state" ? StateGroup | null : boolean;
}

export type BurndownInput = {
  start_date: string;
  end_date: string;
  today: string;
  items: readonly BurndownItem[];
  /** Count work items, or sum their estimate points. */
  unit: "issues" | "points";
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Counts per state group of the items in the cycle at the end of `day`. `memberDay` reads the
 * membership on another day than the states (the burndown's days before its baseline).
 */
export function countsAt(
  items: readonly BurndownItem[],
  day: string,
  unit: "issues" | "points",
  memberDay: string = day,
) {
  const out = { scope: 0, backlog: 0, unstarted: 0, started: 0, completed: 0, cancelled: 0 };
  for (const item of items) {
    if (!valueAt(item, "cycle", memberDay)) continue;
    const weight = unit === "points" ? item.points : 1;
    out.scope += weight;
    const group = valueAt(item, "state", day) ?? "backlog";
    out[group] += weight;
  }
  for (const key of Object.keys(out) as (keyof typeof out)[]) out[key] = round2(out[key]);
  return out;
}

/**
 * The baseline of a burndown: the first day from `start` to `last` (both included) on which
 * the cycle (or module) held any work item, or null when it held none. Work planned on that
 * day counts as the cycle's scope from its start: a cycle created (or filled) a few days after
 * its start date has nothing in it on its first days, and those days are not "nothing to do".
 */
export function burndownBaseline(items: readonly BurndownItem[], start: string, last: string): string | null {
  for (const day of daysOf(start, last)) if (items.some((item) => valueAt(item, "cycle", day))) return day;
  return null;
}

/**
 * The burndown: one point per day from start to end, replayed from the items' history.
 * - scope: the work in the cycle at the end of the day; its steps are scope changes (work added
 *   or removed), drawn as their own line, never as work burnt or created.
 * - pending (= actual): the remaining work, scope − completed − cancelled.
 * - Days before the baseline (burndownBaseline: the first day the cycle held work) count the
 *   baseline's work with each day's states, as the reference counts the scope from the first
 *   day: remaining work never starts at 0 and jumps on the day the cycle was filled.
 * - ideal: a straight line from the scope of the last measured day (today, or the end date once
 *   passed: the reference's current total) down to 0 on the end date.
 * Days after today have null measurements.
 */
export function computeBurndown(input: BurndownInput): BurndownPoint[] {
  const days = daysOf(input.start_date, input.end_date);
  if (!days.length) return [];
  // Dates as strings: the earlier of today and the end date.
  const reference = [input.today, input.end_date].sort()[0] as string;
  const refScope = countsAt(input.items, reference, input.unit).scope;
  const baseline = burndownBaseline(input.items, input.start_date, reference);
  const steps = Math.max(days.length - 1, 1);
  return days.map((date, i) => {
    const ideal = round2((refScope * (days.length - 1 - i)) / steps);
    if (date > input.today) {
      return {
        date,
        scope: null,
        completed: null,
        cancelled: null,
        started: null,
        unstarted: null,
        backlog: null,
        pending: null,
        actual: null,
        ideal,
      };
    }
    const memberDay = baseline && date < baseline ? baseline : date;
    const c = countsAt(input.items, date, input.unit, memberDay);
    const pending = round2(c.scope - c.completed - c.cancelled);
    return { date, ...c, pending, actual: pending, ideal };
  });
}

/** The reference's completion_chart: pending per day, null on days still to come. */
export function completionChart(points: readonly BurndownPoint[]): Record<string, number | null> {
  return Object.fromEntries(points.map((p) => [p.date, p.pending]));
}

/** Per state-group counts of work items and estimate points, as cycles and modules carry them (TProgressSnapshot without distributions). */
export type ProgressCounters = {
  total_issues: number;
  backlog_issues: number;
  unstarted_issues: number;
  started_issues: number;
  completed_issues: number;
  cancelled_issues: number;
  total_estimate_points: number;
  backlog_estimate_points: number;
  unstarted_estimate_points: number;
  started_estimate_points: number;
  completed_estimate_points: number;
  cancelled_estimate_points: number;
};

export const EMPTY_PROGRESS_COUNTERS: Readonly<ProgressCounters> = Object.freeze({
  total_issues: 0,
  backlog_issues: 0,
  unstarted_issues: 0,
  started_issues: 0,
  completed_issues: 0,
  cancelled_issues: 0,
  total_estimate_points: 0,
  backlog_estimate_points: 0,
  unstarted_estimate_points: 0,
  started_estimate_points: 0,
  completed_estimate_points: 0,
  cancelled_estimate_points: 0,
});
