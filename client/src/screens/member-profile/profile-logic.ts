/**
 * Pure helpers of a member's profile (/:ws/profile/:userId/…): the activity's paging, the chart
 * series, the colours of state groups and priorities, and the export's file name. Kept free of
 * React and the stores so they are unit-tested (profile-logic.test.ts).
 */
import { PRIORITIES, type Priority, STATE_GROUPS, type StateGroup } from "@tideline/shared";

/** The profile's sub-tabs (product-domain §2); "" is the summary (the empty route). */
export const PROFILE_TABS = ["", "assigned", "created", "subscribed", "activity"] as const;
export type ProfileTab = (typeof PROFILE_TABS)[number];
export type IssueTab = "assigned" | "created" | "subscribed";

/** Rows per page of the activity ("Load more" asks for the next page). */
export const ACTIVITY_PER_PAGE = 30;

/** The reference's cursor: `perPage:page:0`. */
export function pageCursor(perPage: number, page: number): string {
  return `${perPage}:${page}:0`;
}

export type Distribution<K extends string> = { key: K; count: number }[];

/** Every state group in display order, with 0 where the server left a group out. */
export function stateGroupRows(
  rows: readonly { state_group: string; state_count: number }[],
): Distribution<StateGroup> {
  const counts = new Map(rows.map((r) => [r.state_group, r.state_count]));
  return STATE_GROUPS.map((key) => ({ key, count: counts.get(key) ?? 0 }));
}

/** Every priority in display order (urgent first), with 0 where the server left one out. */
export function priorityRows(
  rows: readonly { priority: string | null; priority_count: number }[],
): Distribution<Priority> {
  const counts = new Map(rows.map((r) => [r.priority ?? "none", r.priority_count]));
  return PRIORITIES.map((key) => ({ key, count: counts.get(key) ?? 0 }));
}

/** State groups in the colours the progress bars use (components/progress/progress.css). */
export const STATE_GROUP_COLOR: Record<StateGroup, string> = {
  backlog: "var(--color-border-strong)",
  unstarted: "var(--color-text-subtle)",
  started: "var(--color-warning)",
  completed: "var(--color-success)",
  cancelled: "var(--color-danger)",
};

/** Priorities in the colours of their icons (screens/work-items/work-items.css). */
export const PRIORITY_COLOR: Record<Priority, string> = {
  urgent: "var(--color-danger)",
  high: "var(--color-warning)",
  medium: "color-mix(in srgb, var(--color-warning) 75%, var(--color-text-subtle))",
  low: "var(--color-primary)",
  none: "var(--color-border-strong)",
};

/** "yyyy-MM-dd" of a UTC time plus `days`. */
function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export type CompletedPoint = { date: string; count: number };

/**
 * `completed_by_date` (days without completions left out) as one point per day for the last
 * `days` days ending `today`, so the chart's axis is even and quiet days read as zero.
 */
export function completedSeries(
  rows: readonly { date: string; completed_count: number }[],
  today: string,
  days = 90,
): CompletedPoint[] {
  const counts = new Map(rows.map((r) => [r.date.slice(0, 10), r.completed_count]));
  const series: CompletedPoint[] = [];
  for (let i = days - 1; i >= 0; i -= 1) {
    const date = shiftDay(today, -i);
    series.push({ date, count: counts.get(date) ?? 0 });
  }
  return series;
}

/** The file the activity export is saved as: the member and the day, safe for every file system. */
export function exportFileName(name: string, day: string): string {
  const safe = name
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .toLowerCase();
  return `${safe || "member"}-activity-${day}.csv`;
}

/** The role's word key (admin 20, member 15, guest 5; anything else reads as a guest). */
export function roleKey(role: number | null | undefined): "admin" | "member" | "guest" | "former" {
  if (role === null || role === undefined) return "former";
  if (role >= 20) return "admin";
  if (role >= 15) return "member";
  return "guest";
}

/** Activity rows grouped under their day (rows come newest first), keeping the server's order. */
export function groupByDay<T extends { created_at: string }>(
  rows: readonly T[],
  dayOf: (iso: string) => string,
): { day: string; rows: T[] }[] {
  const groups: { day: string; rows: T[] }[] = [];
  for (const row of rows) {
    const day = dayOf(row.created_at);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.rows.push(row);
    else groups.push({ day, rows: [row] });
  }
  return groups;
}
