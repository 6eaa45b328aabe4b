/**
 * Pure data building for the burndown chart (kept apart from recharts so it is unit-tested and
 * the main chunk does not need the chart library to know what it will draw).
 */
import { daysOf, type ProgressCounters } from "@tideline/shared";

export type BurndownRow = {
  date: string;
  /** Short axis label, e.g. "Nov 3". */
  label: string;
  /** Work remaining at the end of the day; null on days still to come. */
  pending: number | null;
  /**
   * The work in the cycle (module) at the end of the day: its steps are scope changes (work
   * added or taken out), drawn as their own line. Null on days to come, or when the server sent
   * no per-day points.
   */
  scope: number | null;
  /** The ideal straight line from the scope on the first day to 0 on the last. */
  ideal: number;
};

/** One day of the server's burndown (the reference's TCycleProgress; only what the chart reads). */
export type BurndownPointInput = { date: string; scope: number | null };

export type BurndownDataInput = {
  chart: Record<string, number | null>;
  /** The server's per-day points (`progress`), for the scope line. */
  points?: readonly BurndownPointInput[] | null;
  start: string;
  end: string;
  /** Today's scope (total work items or points): the ideal line starts from it. */
  total: number;
  todayPending?: number;
  today?: string;
};

const round2 = (n: number) => Math.round(n * 100) / 100;

const SHORT = new Intl.DateTimeFormat("en", { month: "short", day: "numeric", timeZone: "UTC" });

/** "2026-11-03" → "Nov 3" (calendar days, read in UTC so no zone shifts them). */
export function shortDay(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? day : SHORT.format(time);
}

/**
 * One row per day from start to end. The pending value comes from the server's chart, except on
 * `today` when `todayPending` is given: the local counts then win (today's scope is then the
 * local `total`), so a change made (or heard) here moves today's point before the server's chart
 * is fetched again.
 */
export function buildBurndownRows(input: BurndownDataInput): BurndownRow[] {
  if (!input.start || !input.end || input.end < input.start) return [];
  const days = daysOf(input.start, input.end);
  const steps = Math.max(days.length - 1, 1);
  const scopeOf = new Map((input.points ?? []).map((p) => [p.date, p.scope]));
  const local = input.today !== undefined && input.todayPending !== undefined;
  return days.map((date, i) => {
    let pending = input.chart[date] ?? null;
    let scope = scopeOf.get(date) ?? null;
    if (local && date === input.today) {
      pending = input.todayPending ?? pending;
      if (scopeOf.size) scope = input.total;
    }
    return {
      date,
      label: shortDay(date),
      pending,
      scope,
      ideal: round2((input.total * (days.length - 1 - i)) / steps),
    };
  });
}

/** Whether the rows have a scope line to draw (the server sent per-day points). */
export function hasScope(rows: readonly BurndownRow[]): boolean {
  return rows.some((r) => r.scope !== null);
}

/** Work still pending (not completed, not cancelled): the burndown's measure for today. */
export function pendingOf(counters: ProgressCounters, unit: "issues" | "points"): number {
  if (unit === "points") {
    return (
      Math.round(
        (counters.total_estimate_points - counters.completed_estimate_points - counters.cancelled_estimate_points) *
          100,
      ) / 100
    );
  }
  return counters.total_issues - counters.completed_issues - counters.cancelled_issues;
}
