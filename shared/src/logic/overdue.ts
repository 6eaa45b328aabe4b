/**
 * Overdue work items (product-domain §4): the target date is on or before today while the
 * state is neither completed nor cancelled. "Today" is a calendar date (yyyy-MM-dd) so the
 * client can pass the viewer's local day and the server the project's.
 */
import type { StateGroup } from "../constants/project.ts";
import { calendarDate, toDateOnly } from "./issue-filters.ts";

const CLOSED_GROUPS: readonly string[] = ["completed", "cancelled"] satisfies StateGroup[];

export function isClosedStateGroup(group: string | null | undefined): boolean {
  return group ? CLOSED_GROUPS.includes(group) : false;
}

/** `today` is a yyyy-MM-dd day or a moment (read as the local calendar day of this runtime). */
export function isOverdue(
  issue: { target_date: string | null | undefined; state__group?: string | null },
  today: string | Date,
): boolean {
  const target = toDateOnly(issue.target_date);
  if (!target) return false;
  if (isClosedStateGroup(issue.state__group)) return false;
  const day = typeof today === "string" ? toDateOnly(today) : calendarDate(today);
  if (!day) return false;
  return target <= day;
}
