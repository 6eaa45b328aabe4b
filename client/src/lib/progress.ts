/**
 * Cycle and module progress counted from the local work-items cache. The rule is the server's
 * (routes/cycles/progress.ts, routes/modules/progress.ts): items that are not archived or drafts,
 * by their state's group, with the numeric value of their estimate point. Counting locally lets a
 * state or cycle change made on this screen move the numbers at once (and back if the server
 * refuses it) instead of after the round trip of a `cycle.updated` event.
 */
import { EMPTY_PROGRESS_COUNTERS, type ProgressCounters, STATE_GROUPS, type StateGroup } from "@tideline/shared";

export type ProgressItem = {
  state__group: string | null;
  estimate_point: string | null;
  archived_at: string | null;
  is_draft: boolean;
};

const round2 = (n: number) => Math.round(n * 100) / 100;
const GROUPS = new Set<string>(STATE_GROUPS);

/** The numeric value of an estimate point's text, else 0 (categories, "XL"). */
export function numericPoint(value: string | undefined): number {
  if (value === undefined || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return 0;
  return Number(value);
}

/** Counters of the items that `belongs` keeps; `pointValue` maps an estimate point id to its value. */
export function progressFromItems<T extends ProgressItem>(
  items: Iterable<T>,
  belongs: (item: T) => boolean,
  pointValue: (pointId: string) => number,
): ProgressCounters {
  const out: ProgressCounters = { ...EMPTY_PROGRESS_COUNTERS };
  for (const item of items) {
    if (item.archived_at || item.is_draft || !belongs(item)) continue;
    const group = item.state__group && GROUPS.has(item.state__group) ? (item.state__group as StateGroup) : "backlog";
    const points = item.estimate_point ? pointValue(item.estimate_point) : 0;
    out.total_issues += 1;
    out[`${group}_issues`] += 1;
    out.total_estimate_points = round2(out.total_estimate_points + points);
    out[`${group}_estimate_points`] = round2(out[`${group}_estimate_points`] + points);
  }
  return out;
}

/** Share of the work done (completed over total, cancelled left out of neither), 0–100. */
export function percentDone(counters: Pick<ProgressCounters, "total_issues" | "completed_issues">): number {
  return counters.total_issues ? Math.round((counters.completed_issues / counters.total_issues) * 100) : 0;
}
