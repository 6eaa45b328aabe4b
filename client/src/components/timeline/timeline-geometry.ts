/**
 * The timeline's geometry as pure functions: which days the chart spans for a scale, where a day
 * sits (x), and what a drag or a resize of a bar means in days (product-domain §9: week — about 4
 * months, 60 px a day; month — 6 months, 20 px; quarter — 24 months, 5 px).
 */
import { addDays, addMonths, differenceInCalendarDays, endOfMonth, max, min, startOfMonth } from "date-fns";
import { parseDay, toDay } from "../ui/days";

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

/**
 * What a row shows: a bar from start to end; with only one of the two dates (and markers asked
 * for) a one-day marker on that date; without dates nothing (null: the row is listed apart).
 */
export function rowDates(
  row: { start: string | null; end: string | null },
  markers: boolean,
): { start: string; end: string; marker: boolean } | null {
  if (row.start && row.end) return { start: row.start, end: row.end, marker: false };
  if (!markers) return null;
  const day = row.start ?? row.end;
  return day ? { start: day, end: day, marker: true } : null;
}

/** Dates a dropped undated row gets: from the day it was dropped on, `span` days long. */
export function scheduledDates(day: string, span: number): { start: string; end: string } {
  return { start: day, end: shift(day, Math.max(1, span) - 1) };
}

export type ArrowEnds = { x1: number; y1: number; x2: number; y2: number };

/**
 * A blocking arrow goes from the blocker's end (the right edge of its bar, the middle of its row)
 * to the blocked item's start (the left edge of its bar). x from the chart's left edge, y from
 * the top of the rows (rows are `rowHeight` tall, in order).
 */
export function arrowEnds(
  range: TimelineRange,
  from: { start: string; end: string; index: number },
  to: { start: string; end: string; index: number },
  rowHeight: number,
): ArrowEnds {
  const a = barGeometry(range, from.start, from.end);
  const b = barGeometry(range, to.start, to.end);
  return {
    x1: a.left + a.width,
    y1: from.index * rowHeight + rowHeight / 2,
    x2: b.left,
    y2: to.index * rowHeight + rowHeight / 2,
  };
}

/**
 * The arrow's path: out of the blocker to the right, down (or up) to the blocked row, into its
 * start from the left. When the blocked item starts before the blocker ends there is no room to
 * go straight, so the path turns back between the two rows.
 */
export function arrowPath({ x1, y1, x2, y2 }: ArrowEnds, gap = 10): string {
  if (y1 === y2 && x2 - x1 >= 2 * gap) return `M${x1} ${y1}H${x2}`;
  if (x2 - x1 >= 2 * gap) {
    const mid = x1 + gap;
    return `M${x1} ${y1}H${mid}V${y2}H${x2}`;
  }
  const between = y1 + (y2 >= y1 ? 1 : -1) * Math.max(8, Math.abs(y2 - y1) / 2);
  return `M${x1} ${y1}H${x1 + gap}V${between}H${x2 - gap}V${y2}H${x2}`;
}

export type TimelineEntry<T> =
  | { kind: "row"; row: T; dates: { start: string; end: string; marker: boolean } | null }
  | { kind: "section"; count: number };

/**
 * The timeline's rows in display order. With `undatedApart`, the rows without dates follow the
 * dated ones (each part in the given order) under a heading entry counting them; otherwise every
 * row stays where it is.
 */
export function timelineEntries<T extends { start: string | null; end: string | null }>(
  rows: readonly T[],
  options: { undatedApart: boolean; markers: boolean },
): TimelineEntry<T>[] {
  const all = rows.map((row) => ({ kind: "row" as const, row, dates: rowDates(row, options.markers) }));
  if (!options.undatedApart) return all;
  const dated = all.filter((e) => e.dates);
  const undated = all.filter((e) => !e.dates);
  return undated.length ? [...dated, { kind: "section", count: undated.length }, ...undated] : dated;
}
