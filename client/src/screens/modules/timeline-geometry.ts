/**
 * The timeline's geometry as pure functions: which days the chart spans for a scale, where a day
 * sits (x), and what a drag or a resize of a bar means in days (product-domain §9: week — about 4
 * months, 60 px a day; month — 6 months, 20 px; quarter — 24 months, 5 px).
 */
import { addDays, addMonths, differenceInCalendarDays, endOfMonth, max, min, startOfMonth } from "date-fns";
import { parseDay, toDay } from "../../components/ui/days";

export const TIMELINE_SCALES = ["week", "month", "quarter"] as const;
export type TimelineScale = (typeof TIMELINE_SCALES)[number];

export const SCALE_CONFIG: Record<TimelineScale, { dayWidth: number; months: number }> = {
  week: { dayWidth: 60, months: 4 },
  month: { dayWidth: 20, months: 6 },
  quarter: { dayWidth: 5, months: 24 },
};

export type TimelineRange = { start: Date; days: number; dayWidth: number };

/**
 * The span shown: the scale's months around today (a third before), widened to hold every dated
 * row, from the first of a month to the end of a month.
 */
export function timelineRange(
  scale: TimelineScale,
  today: Date,
  rows: readonly { start: string | null; end: string | null }[] = [],
): TimelineRange {
  const { dayWidth, months } = SCALE_CONFIG[scale];
  const before = Math.max(1, Math.round(months / 3));
  let from = startOfMonth(addMonths(today, -before));
  let to = endOfMonth(addMonths(today, months - before));
  for (const row of rows) {
    for (const value of [row.start, row.end]) {
      const day = parseDay(value);
      if (!day) continue;
      if (day < from) from = startOfMonth(addMonths(day, -1));
      if (day > to) to = endOfMonth(addMonths(day, 1));
    }
  }
  return { start: from, days: differenceInCalendarDays(to, from) + 1, dayWidth };
}

/** Left edge (px) of a day. */
export function dayToX(range: TimelineRange, day: string | Date): number {
  const date = typeof day === "string" ? parseDay(day) : day;
  if (!date) return 0;
  return differenceInCalendarDays(date, range.start) * range.dayWidth;
}

/** The day under an x (px), snapped to whole days. */
export function xToDay(range: TimelineRange, x: number): string {
  return toDay(addDays(range.start, Math.floor(x / range.dayWidth)));
}

/** A bar's left and width: from the start day's left edge to the end day's right edge. */
export function barGeometry(range: TimelineRange, start: string, end: string): { left: number; width: number } {
  const left = dayToX(range, start);
  const right = dayToX(range, end) + range.dayWidth;
  return { left, width: Math.max(range.dayWidth, right - left) };
}

/** A pointer movement (px) in whole days (rounded to the nearest day: snapping). */
export function deltaDays(range: TimelineRange, dx: number): number {
  return Math.round(dx / range.dayWidth);
}

const shift = (day: string, by: number): string => {
  const date = parseDay(day);
  return date ? toDay(addDays(date, by)) : day;
};

export type DragMode = "move" | "start" | "end";

/**
 * The dates after dragging a bar by `days`: moving shifts both; resizing moves one end and never
 * past the other (start ≤ end, a bar is at least one day).
 */
export function draggedDates(mode: DragMode, start: string, end: string, days: number): { start: string; end: string } {
  if (mode === "move") return { start: shift(start, days), end: shift(end, days) };
  if (mode === "start") {
    const next = shift(start, days);
    return { start: next > end ? end : next, end };
  }
  const next = shift(end, days);
  return { start, end: next < start ? start : next };
}

export type TimelineHeaderCell = { key: string; label: string; left: number; width: number };

/** The months across the chart (top header row). */
export function monthCells(range: TimelineRange, label: (date: Date) => string): TimelineHeaderCell[] {
  const out: TimelineHeaderCell[] = [];
  let cursor = startOfMonth(range.start);
  const last = addDays(range.start, range.days - 1);
  while (cursor <= last) {
    const from = max([cursor, range.start]);
    const to = min([endOfMonth(cursor), last]);
    out.push({
      key: toDay(cursor),
      label: label(cursor),
      left: dayToX(range, from),
      width: (differenceInCalendarDays(to, from) + 1) * range.dayWidth,
    });
    cursor = addMonths(cursor, 1);
  }
  return out;
}
