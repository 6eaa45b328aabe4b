/**
 * The work-items timeline's rules as pure functions (the chart's geometry is in
 * components/timeline/timeline-geometry.ts): an item's row (start date → target date), what a
 * drag on the chart changes on the item, the blocking arrows from the items' relations, and
 * which projects a board of several projects' items reads them from.
 */
import type { TimelineArrow, TimelineChangeMode, TimelineRow } from "../../components/timeline/timeline";
import type { WorkItem } from "../../stores/work-items";

/** Days a work item dragged onto the chart from the undated list spans (a week). */
export const SCHEDULE_SPAN = 7;

/** Row height on the work-items timeline (the reference's block height). */
export const ROW_HEIGHT = 44;

export function itemRow(item: Pick<WorkItem, "id" | "name" | "start_date" | "target_date">): TimelineRow {
  return { id: item.id, name: item.name, start: item.start_date, end: item.target_date };
}

/**
 * The projects whose relations the timeline reads: the board's own project, or on a board of
 * several projects (its `projectId` is "") each project of the items shown, once, in a stable
 * order (so the same set of projects is the same list).
 */
export function timelineProjects(boardProjectId: string, items: readonly Pick<WorkItem, "project_id">[]): string[] {
  if (boardProjectId) return [boardProjectId];
  return [...new Set(items.map((item) => item.project_id).filter(Boolean))].sort();
}

/** The project a change of this item is sent to: the board's, or on a board of several projects the item's own. */
export function itemProjectId(boardProjectId: string, item: Pick<WorkItem, "project_id">): string {
  return boardProjectId || item.project_id;
}

export type DatesPatch = { start_date?: string | null; target_date?: string | null };

/**
 * What the item's dates become after a change on the chart. An item with both dates (or none,
 * scheduled from the undated list) gets both. An item with one date shows a one-day marker:
 * moving it moves that date alone (the other stays unset); pulling either end of it makes it a
 * range (both dates).
 */
export function datesPatch(
  item: Pick<WorkItem, "start_date" | "target_date">,
  dates: { start: string; end: string },
  mode: TimelineChangeMode,
): DatesPatch {
  const single = Boolean(item.start_date) !== Boolean(item.target_date);
  if (single && mode === "move") {
    return item.start_date ? { start_date: dates.start } : { target_date: dates.end };
  }
  return { start_date: dates.start, target_date: dates.end };
}

/** Only the fields that change (an unchanged patch sends nothing). */
export function changedDates(item: Pick<WorkItem, "start_date" | "target_date">, patch: DatesPatch): DatesPatch {
  const out: DatesPatch = {};
  if (patch.start_date !== undefined && patch.start_date !== item.start_date) out.start_date = patch.start_date;
  if (patch.target_date !== undefined && patch.target_date !== item.target_date) out.target_date = patch.target_date;
  return out;
}

/**
 * The blocking arrows between the items shown: each pair once (blocker → blocked), and only when
 * both items are on the chart.
 */
export function blockingArrows(
  pairs: Iterable<{ from: string; to: string }>,
  shown: ReadonlySet<string>,
): TimelineArrow[] {
  const seen = new Set<string>();
  const out: TimelineArrow[] = [];
  for (const { from, to } of pairs) {
    if (from === to || !shown.has(from) || !shown.has(to)) continue;
    const key = `${from}>${to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ from, to });
  }
  return out;
}
