/**
 * What the cycles screens decide without the server: which tab a cycle is listed under, the
 * search, the order, which counters to show (local or the server's), and what the menu offers.
 * The server enforces every rule; these only decide what the UI shows.
 */
import { type CycleStatus, daysBetween, EMPTY_PROGRESS_COUNTERS, type ProgressCounters, ROLE } from "@tideline/shared";
import { type ProgressItem, progressFromItems } from "../../lib/progress";

export const CYCLE_TABS = ["active", "upcoming", "completed", "all"] as const;
export type CycleTab = (typeof CYCLE_TABS)[number];

export function isCycleTab(value: string | null | undefined): value is CycleTab {
  return CYCLE_TABS.includes(value as CycleTab);
}

/** The fields of a cycle these rules read (stores/cycles.ts has the whole shape). */
export type CycleFacts = {
  id: string;
  name: string;
  status: CycleStatus;
  start_date: string | null;
  end_date: string | null;
  archived_at?: string | null;
};

const STATUS_RANK: Record<CycleStatus, number> = { current: 0, upcoming: 1, draft: 2, completed: 3 };

/**
 * The server's list order (product-domain §4): current, upcoming by start date, draft, then
 * completed (latest end first would be the reference's; the spec says by name within), by name
 * within a status. It uses the status the server computed in the project's timezone, so the
 * browser's own clock never reorders anything.
 */
export function compareByStatus(a: CycleFacts, b: CycleFacts): number {
  const rank = STATUS_RANK[a.status] - STATUS_RANK[b.status];
  if (rank) return rank;
  if (a.status === "upcoming" && a.start_date !== b.start_date)
    return (a.start_date ?? "") < (b.start_date ?? "") ? -1 : 1;
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Tabs: Active = current, Upcoming, Completed, All (drafts show only under All). */
export function inTab(cycle: CycleFacts, tab: CycleTab): boolean {
  if (tab === "all") return true;
  if (tab === "active") return cycle.status === "current";
  return cycle.status === tab;
}

/** Case-insensitive name match; every word of the query must appear. */
export function matchesSearch(cycle: Pick<CycleFacts, "name">, search: string): boolean {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const name = cycle.name.toLowerCase();
  return words.every((w) => name.includes(w));
}

/** The cycles of a tab matching the search, in the list order. */
export function filterCycles<T extends CycleFacts>(list: readonly T[], tab: CycleTab, search: string): T[] {
  return list.filter((c) => inTab(c, tab) && matchesSearch(c, search)).sort(compareByStatus);
}

export function tabCounts(list: readonly CycleFacts[]): Record<CycleTab, number> {
  const out: Record<CycleTab, number> = { active: 0, upcoming: 0, completed: 0, all: list.length };
  for (const c of list) {
    if (c.status === "current") out.active += 1;
    else if (c.status === "upcoming") out.upcoming += 1;
    else if (c.status === "completed") out.completed += 1;
  }
  return out;
}

/**
 * Count a cycle's progress from the local cache? When it is loaded and the cycle is not completed
 * (its progress is frozen at its end date server-side; the cache only knows "now"). The cache
 * holds what the caller may see, and the server counts the same: a guest limited to their own
 * items holds and is counted only those (their cycle events come without counts).
 */
export function countsLocally(input: { cacheReady: boolean; status: CycleStatus }): boolean {
  return input.status !== "completed" && input.cacheReady;
}

/** The local cache holds every item of the project (loaded, and not a guest limited to their own). */
export function seesWholeProject(input: {
  cacheReady: boolean;
  projectRole: number;
  guestViewAll: boolean | undefined;
}): boolean {
  if (!input.cacheReady) return false;
  return input.projectRole >= ROLE.member || Boolean(input.guestViewAll);
}

type CacheItem = ProgressItem & { cycle_id: string | null };

/**
 * Counters of every cycle at once, in one pass over the project's items (a page of cycle rows
 * would otherwise scan 10,000 cached items once per row).
 */
export function countersByCycle<T extends CacheItem>(
  items: Iterable<T>,
  pointValue: (pointId: string) => number,
): Map<string, ProgressCounters> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    if (!item.cycle_id) continue;
    const list = groups.get(item.cycle_id);
    if (list) list.push(item);
    else groups.set(item.cycle_id, [item]);
  }
  const out = new Map<string, ProgressCounters>();
  for (const [id, list] of groups)
    out.set(
      id,
      progressFromItems(list, () => true, pointValue),
    );
  return out;
}

export function pickCounters(source: ProgressCounters): ProgressCounters {
  const out = { ...EMPTY_PROGRESS_COUNTERS };
  for (const key of Object.keys(out) as (keyof ProgressCounters)[]) out[key] = source[key] ?? 0;
  return out;
}

/** The burndown's measure for today (moved to the charts with the module burndown; kept here for callers). */
export { pendingOf } from "../../components/charts/burndown-data";

/** Unfinished work items (what a transfer moves). */
export function unfinishedOf(counters: ProgressCounters): number {
  return counters.backlog_issues + counters.unstarted_issues + counters.started_issues;
}

/**
 * The server's "today" as its chart says it: the last day with a measured value (days to come
 * are null). Undefined when the chart has no measured day (an upcoming cycle) or is empty.
 */
export function chartToday(chart: Record<string, number | null>, status: CycleStatus): string | undefined {
  if (status !== "current") return undefined;
  let last: string | undefined;
  for (const [day, value] of Object.entries(chart)) if (value !== null && (!last || day > last)) last = day;
  return last;
}

export type CycleActions = {
  edit: boolean;
  archive: boolean;
  /** Why archive is unavailable (shown on the disabled item), when it is. */
  archiveReason: "notCompleted" | null;
  transfer: boolean;
  delete: boolean;
  favorite: boolean;
};

/**
 * What the menu offers. Completed cycles take no edits (the server refuses every change but
 * sort_order), so edit is not offered; archive needs a completed cycle; transfer a completed
 * one with unfinished items; delete the project admin or the cycle's creator.
 */
export function cycleActions(
  cycle: CycleFacts & { created_by: string | null },
  ctx: { projectRole: number; userId: string | undefined; unfinished: number },
): CycleActions {
  const member = ctx.projectRole >= ROLE.member;
  const completed = cycle.status === "completed";
  const archived = Boolean(cycle.archived_at);
  return {
    edit: member && !completed && !archived,
    archive: member && completed && !archived,
    archiveReason: member && !completed ? "notCompleted" : null,
    transfer: member && completed && !archived && ctx.unfinished > 0,
    delete: ctx.projectRole >= ROLE.admin || (member && Boolean(ctx.userId) && cycle.created_by === ctx.userId),
    favorite: member && !archived,
  };
}

/** Cycles a transfer may go to: not completed (current, upcoming, draft), not the source, by the list order. */
export function transferTargets<T extends CycleFacts>(list: readonly T[], sourceId: string, search: string): T[] {
  return list
    .filter((c) => c.id !== sourceId && c.status !== "completed" && !c.archived_at && matchesSearch(c, search))
    .sort(compareByStatus);
}

/** The modal's local date rule (the server checks overlaps): both or neither, end on or after start. */
export function dateRangeProblem(start: string | null, end: string | null): "incomplete" | "endBeforeStart" | null {
  if (Boolean(start) !== Boolean(end)) return "incomplete";
  if (start && end && end < start) return "endBeforeStart";
  return null;
}

/** When a not-yet-running cycle starts, as a row says it (i18n key under cycles.when). */
export type CycleWhen =
  | { key: "startsToday" }
  | { key: "startsTomorrow" }
  | { key: "startsIn"; count: number }
  | { key: "noDates" };

/**
 * "Starts in 5 days" / "Starts tomorrow" for an upcoming cycle, "No dates" for a draft, nothing
 * for current and completed ones (they show days left or nothing). The status is the server's;
 * `today` is the project's calendar day, so the count agrees with it. A start that the status
 * calls upcoming but the clock has reached (the day turned since the list came) says "today".
 */
export function cycleWhen(cycle: Pick<CycleFacts, "status" | "start_date">, today: string): CycleWhen | null {
  if (cycle.status === "draft") return { key: "noDates" };
  if (cycle.status !== "upcoming" || !cycle.start_date) return null;
  const days = daysBetween(today, cycle.start_date);
  if (days <= 0) return { key: "startsToday" };
  if (days === 1) return { key: "startsTomorrow" };
  return { key: "startsIn", count: days };
}
