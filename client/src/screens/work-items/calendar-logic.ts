/**
 * The calendar layout's pure logic (product-domain §2: month mode or a week grid, weeks of 7 days
 * starting Sunday, weekends hidden by default): the grid of days for a month or a week, the items
 * bucketed by target date once per render, a day's overflow ("+N more"), and moving the shown
 * period. Days are yyyy-MM-dd strings throughout — a work item's target date is a calendar day, not
 * a moment, so nothing here depends on the viewer's time zone except "today", which the board passes.
 */
import {
  addDays,
  addMonths,
  addWeeks,
  endOfMonth,
  endOfWeek,
  format,
  isValid,
  parse,
  startOfMonth,
  startOfWeek,
} from "date-fns";

export type CalendarMode = "month" | "week";

export type CalendarDay = {
  /** yyyy-MM-dd */
  date: string;
  /** Day of the month (1–31). */
  dayOfMonth: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  /** In the shown month (always true in week mode); leading and trailing days are not. */
  inPeriod: boolean;
};

export type CalendarWeek = { key: string; days: CalendarDay[] };

const DAY = "yyyy-MM-dd";
/** Weeks start on Sunday (product-domain §2). */
const WEEK = { weekStartsOn: 0 } as const;

/** A yyyy-MM-dd day as a local Date at midnight (null when it isn't a real day). */
export function parseDay(value: string | null | undefined): Date | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = parse(value, DAY, new Date(2000, 0, 1));
  return isValid(date) && format(date, DAY) === value ? date : null;
}

export function formatDay(date: Date): string {
  return format(date, DAY);
}

/** The day a ?date= parameter names, or `fallback` (today) when it is missing or not a real day. */
export function anchorFromParam(param: string | null, fallback: string): string {
  return parseDay(param) ? (param as string) : fallback;
}

export function isWeekend(weekday: number): boolean {
  return weekday === 0 || weekday === 6;
}

function daysBetween(first: Date, last: Date, inPeriod: (d: Date) => boolean): CalendarDay[] {
  const out: CalendarDay[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) {
    out.push({ date: formatDay(d), dayOfMonth: d.getDate(), weekday: d.getDay(), inPeriod: inPeriod(d) });
  }
  return out;
}

/**
 * The weeks shown for the period around `anchor`: in month mode every Sunday-to-Saturday week
 * touching the anchor's month (with the leading days of the previous month and the trailing days of
 * the next one, 4–6 weeks); in week mode the one week holding the anchor. Without weekends each
 * week keeps Monday to Friday only — and a month's week whose weekdays all fall outside the month
 * (e.g. a month starting on a Saturday) is dropped, so no row is made only of other months' days.
 */
export function calendarWeeks(anchor: string, mode: CalendarMode, showWeekends: boolean): CalendarWeek[] {
  const day = parseDay(anchor) ?? new Date();
  let days: CalendarDay[];
  if (mode === "week") {
    days = daysBetween(startOfWeek(day, WEEK), endOfWeek(day, WEEK), () => true);
  } else {
    const month = day.getMonth();
    days = daysBetween(
      startOfWeek(startOfMonth(day), WEEK),
      endOfWeek(endOfMonth(day), WEEK),
      (d) => d.getMonth() === month,
    );
  }
  const weeks: CalendarWeek[] = [];
  for (let i = 0; i < days.length; i += 7) {
    const week = days.slice(i, i + 7);
    const shown = showWeekends ? week : week.filter((d) => !isWeekend(d.weekday));
    if (mode === "month" && !shown.some((d) => d.inPeriod)) continue;
    weeks.push({ key: week[0]?.date ?? String(i), days: shown });
  }
  return weeks;
}

/** The weekday numbers of the columns, in order (Sunday first; Monday–Friday without weekends). */
export function weekdayColumns(showWeekends: boolean): number[] {
  return [0, 1, 2, 3, 4, 5, 6].filter((d) => showWeekends || !isWeekend(d));
}

/**
 * Items by their target day, in the order given (the pipeline's filtered and ordered list), in one
 * pass — cells read the Map instead of each scanning the list. Items without a target date are
 * counted apart (the calendar can't place them).
 */
export function bucketByTargetDate<T extends { target_date: string | null }>(
  items: Iterable<T>,
): { byDate: Map<string, T[]>; undated: number } {
  const byDate = new Map<string, T[]>();
  let undated = 0;
  for (const item of items) {
    const day = item.target_date?.slice(0, 10);
    if (!day) {
      undated += 1;
      continue;
    }
    const list = byDate.get(day);
    if (list) list.push(item);
    else byDate.set(day, [item]);
  }
  return { byDate, undated };
}

/**
 * A day's items when a cell holds at most `rows` lines: all of them when they fit; otherwise the
 * first `rows - 1` and "+N more" for the rest, so the "more" line takes the last row and cells keep
 * one height.
 */
export function splitOverflow<T>(items: readonly T[], rows: number): { shown: readonly T[]; more: number } {
  if (items.length <= rows) return { shown: items, more: 0 };
  const keep = Math.max(0, rows - 1);
  return { shown: items.slice(0, keep), more: items.length - keep };
}

/** The anchor one period earlier (-1) or later (+1): same day of the next month (clamped) or week. */
export function shiftAnchor(anchor: string, mode: CalendarMode, step: number): string {
  const day = parseDay(anchor) ?? new Date();
  return formatDay(mode === "month" ? addMonths(day, step) : addWeeks(day, step));
}

/** Is `date` inside the period shown around `anchor`? (keyboard focus moving out shifts the period) */
export function inShownPeriod(date: string, anchor: string, mode: CalendarMode): boolean {
  const a = parseDay(anchor);
  const d = parseDay(date);
  if (!a || !d) return false;
  if (mode === "month") return a.getFullYear() === d.getFullYear() && a.getMonth() === d.getMonth();
  return formatDay(startOfWeek(a, WEEK)) === formatDay(startOfWeek(d, WEEK));
}

/** A day `step` days from `date`, skipping Saturdays and Sundays when weekends are hidden. */
export function stepDay(date: string, step: number, showWeekends: boolean): string {
  let d = parseDay(date) ?? new Date();
  const unit = step < 0 ? -1 : 1;
  let left = Math.abs(step);
  // Up/down move by a whole row: 7 days with weekends, 5 weekdays (the same column) without.
  while (left > 0) {
    d = addDays(d, unit);
    if (showWeekends || !isWeekend(d.getDay())) left -= 1;
  }
  return formatDay(d);
}

/**
 * The title of the shown period: "November 2026", or a week's range ("Nov 22 – 28, 2026"; without
 * the year when `short`).
 */
export function periodTitle(anchor: string, mode: CalendarMode, locale?: string, short = false): string {
  const day = parseDay(anchor) ?? new Date();
  if (mode === "month") return day.toLocaleDateString(locale, { month: "long", year: "numeric" });
  const first = startOfWeek(day, WEEK);
  const last = endOfWeek(day, WEEK);
  const range = new Intl.DateTimeFormat(locale, {
    month: "short",
    day: "numeric",
    year: short ? undefined : "numeric",
  });
  return range.formatRange(first, last);
}
