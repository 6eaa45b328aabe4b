import { describe, expect, it } from "vitest";
import {
  arrowEnds,
  arrowPath,
  barGeometry,
  dayToX,
  deltaDays,
  draggedDates,
  rowDates,
  SCALE_CONFIG,
  scheduledDates,
  TIMELINE_SCALES,
  timelineEntries,
  timelineRange,
  xToDay,
} from "../../components/timeline/timeline-geometry";
import {
  blockingArrows,
  changedDates,
  datesPatch,
  itemProjectId,
  itemRow,
  SCHEDULE_SPAN,
  timelineProjects,
} from "./timeline-logic";

const today = new Date(2026, 10, 25);

describe("date ↔ x on each scale", () => {
  it("a day's x is its distance from the range start times the scale's day width, and back", () => {
    expect(SCALE_CONFIG.week.dayWidth).toBe(60);
    expect(SCALE_CONFIG.month.dayWidth).toBe(20);
    expect(SCALE_CONFIG.quarter.dayWidth).toBe(5);
    for (const scale of TIMELINE_SCALES) {
      const range = timelineRange(scale, today);
      const w = SCALE_CONFIG[scale].dayWidth;
      const x = dayToX(range, "2026-11-25");
      expect(x % w).toBe(0);
      expect(xToDay(range, x)).toBe("2026-11-25");
      // Anywhere inside the day's column is that day; the next column is the next day.
      expect(xToDay(range, x + w - 1)).toBe("2026-11-25");
      expect(xToDay(range, x + w)).toBe("2026-11-26");
      expect(dayToX(range, "2026-12-02") - x).toBe(7 * w);
    }
  });
  it("the range spans the scale's months and every dated item", () => {
    const week = timelineRange("week", today, [
      itemRow({ id: "a", name: "A", start_date: "2028-01-10", target_date: null }),
    ]);
    expect(dayToX(week, "2028-01-10")).toBeLessThan(week.days * week.dayWidth);
    expect(timelineRange("quarter", today).days).toBeGreaterThan(700);
  });
});

describe("move and resize snap to whole days", () => {
  const range = timelineRange("week", today);
  it("a pointer movement rounds to the nearest day", () => {
    expect(deltaDays(range, 29)).toBe(0);
    expect(deltaDays(range, 31)).toBe(1);
    expect(deltaDays(range, -95)).toBe(-2);
    expect(deltaDays(timelineRange("quarter", today), 12)).toBe(2);
  });
  it("moving shifts both dates; resizing moves one end", () => {
    expect(draggedDates("move", "2026-11-02", "2026-11-06", 3)).toEqual({ start: "2026-11-05", end: "2026-11-09" });
    expect(draggedDates("start", "2026-11-02", "2026-11-06", -2)).toEqual({ start: "2026-10-31", end: "2026-11-06" });
    expect(draggedDates("end", "2026-11-02", "2026-11-06", 5)).toEqual({ start: "2026-11-02", end: "2026-11-11" });
  });
  it("start never passes the end (a bar is at least one day)", () => {
    expect(draggedDates("start", "2026-11-02", "2026-11-06", 9)).toEqual({ start: "2026-11-06", end: "2026-11-06" });
    expect(draggedDates("end", "2026-11-02", "2026-11-06", -9)).toEqual({ start: "2026-11-02", end: "2026-11-02" });
    const g = barGeometry(range, "2026-11-06", "2026-11-06");
    expect(g.width).toBe(60);
  });
});

describe("what a drag changes on a work item", () => {
  const both = { start_date: "2026-11-02", target_date: "2026-11-06" };
  it("an item with both dates gets both", () => {
    expect(datesPatch(both, { start: "2026-11-03", end: "2026-11-07" }, "move")).toEqual({
      start_date: "2026-11-03",
      target_date: "2026-11-07",
    });
  });
  it("a one-date item shows a one-day marker; moving it moves that date alone", () => {
    expect(rowDates({ start: null, end: "2026-11-06" }, true)).toEqual({
      start: "2026-11-06",
      end: "2026-11-06",
      marker: true,
    });
    expect(rowDates({ start: null, end: "2026-11-06" }, false)).toBeNull();
    const due = { start_date: null, target_date: "2026-11-06" };
    expect(datesPatch(due, { start: "2026-11-08", end: "2026-11-08" }, "move")).toEqual({ target_date: "2026-11-08" });
    const starts = { start_date: "2026-11-06", target_date: null };
    expect(datesPatch(starts, { start: "2026-11-04", end: "2026-11-04" }, "move")).toEqual({
      start_date: "2026-11-04",
    });
  });
  it("pulling an end of a marker makes it a range", () => {
    const due = { start_date: null, target_date: "2026-11-06" };
    const dates = draggedDates("start", "2026-11-06", "2026-11-06", -3);
    expect(datesPatch(due, dates, "start")).toEqual({ start_date: "2026-11-03", target_date: "2026-11-06" });
  });
  it("only changed fields are sent", () => {
    expect(changedDates(both, { start_date: "2026-11-02", target_date: "2026-11-09" })).toEqual({
      target_date: "2026-11-09",
    });
    expect(changedDates(both, { start_date: "2026-11-02", target_date: "2026-11-06" })).toEqual({});
  });
});

describe("undated items", () => {
  const rows = [
    { id: "a", start: null, end: null },
    { id: "b", start: "2026-11-02", end: "2026-11-06" },
    { id: "c", start: null, end: "2026-11-10" },
    { id: "d", start: null, end: null },
  ];
  it("are listed after the dated ones, under a heading counting them, each part in the board's order", () => {
    const entries = timelineEntries(rows, { undatedApart: true, markers: true });
    expect(entries.map((e) => (e.kind === "row" ? e.row.id : `section:${e.count}`))).toEqual([
      "b",
      "c",
      "section:2",
      "a",
      "d",
    ]);
  });
  it("stay in place when not listed apart; no heading when every item has dates", () => {
    expect(timelineEntries(rows, { undatedApart: false, markers: false }).map((e) => e.kind)).toEqual([
      "row",
      "row",
      "row",
      "row",
    ]);
    expect(timelineEntries([rows[1] as (typeof rows)[number]], { undatedApart: true, markers: true })).toHaveLength(1);
  });
  it("dropped on a day, one gets a week from that day (start and target)", () => {
    const dates = scheduledDates("2026-11-30", SCHEDULE_SPAN);
    expect(dates).toEqual({ start: "2026-11-30", end: "2026-12-06" });
    expect(datesPatch({ start_date: null, target_date: null }, dates, "schedule")).toEqual({
      start_date: "2026-11-30",
      target_date: "2026-12-06",
    });
  });
});

describe("blocking arrows", () => {
  const range = timelineRange("week", today);
  it("run from the blocker's end to the blocked item's start, mid-row", () => {
    const ends = arrowEnds(
      range,
      { start: "2026-11-02", end: "2026-11-06", index: 0 },
      { start: "2026-11-10", end: "2026-11-12", index: 3 },
      44,
    );
    expect(ends.x1).toBe(dayToX(range, "2026-11-07"));
    expect(ends.x2).toBe(dayToX(range, "2026-11-10"));
    expect(ends.y1).toBe(22);
    expect(ends.y2).toBe(3 * 44 + 22);
    expect(arrowPath(ends)).toBe(`M${ends.x1} 22H${ends.x1 + 10}V154H${ends.x2}`);
  });
  it("turn back between the rows when the blocked item starts before the blocker ends", () => {
    const ends = { x1: 500, y1: 22, x2: 300, y2: 66 };
    expect(arrowPath(ends)).toBe("M500 22H510V44H290V66H300");
  });
  it("each pair once, only between items on the chart", () => {
    const pairs = [
      { from: "a", to: "b" },
      { from: "a", to: "b" },
      { from: "a", to: "x" },
      { from: "c", to: "b" },
    ];
    expect(blockingArrows(pairs, new Set(["a", "b", "c"]))).toEqual([
      { from: "a", to: "b" },
      { from: "c", to: "b" },
    ]);
  });
});

describe("a board of several projects", () => {
  const items = [{ project_id: "p2" }, { project_id: "p1" }, { project_id: "p2" }, { project_id: "p3" }];
  it("reads the relations of each project shown, once, in a stable order", () => {
    expect(timelineProjects("", items)).toEqual(["p1", "p2", "p3"]);
    expect(timelineProjects("", [...items].reverse())).toEqual(["p1", "p2", "p3"]);
    expect(timelineProjects("", [])).toEqual([]);
  });
  it("a one-project board reads its own project's, even before its items arrive", () => {
    expect(timelineProjects("p1", items)).toEqual(["p1"]);
    expect(timelineProjects("p1", [])).toEqual(["p1"]);
  });
  it("sends an item's dates to its own project; a one-project board to the board's", () => {
    expect(itemProjectId("", { project_id: "p3" })).toBe("p3");
    expect(itemProjectId("p1", { project_id: "p1" })).toBe("p1");
  });
  it("arrows come from every project's pairs, a pair held by two projects drawn once", () => {
    const fromP1 = [{ from: "a", to: "b" }];
    const fromP2 = [
      { from: "a", to: "b" },
      { from: "b", to: "c" },
    ];
    expect(blockingArrows([...fromP1, ...fromP2], new Set(["a", "b", "c"]))).toEqual([
      { from: "a", to: "b" },
      { from: "b", to: "c" },
    ]);
  });
});
