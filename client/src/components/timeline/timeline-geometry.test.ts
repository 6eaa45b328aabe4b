import { describe, expect, it } from "vitest";
import {
  barGeometry,
  dayToX,
  deltaDays,
  draggedDates,
  monthCells,
  SCALE_CONFIG,
  timelineRange,
  xToDay,
} from "./timeline-geometry";

const today = new Date(2026, 10, 25);

describe("timelineRange", () => {
  it("each scale's day width and span (product-domain §9)", () => {
    expect(SCALE_CONFIG.week.dayWidth).toBe(60);
    expect(SCALE_CONFIG.month.dayWidth).toBe(20);
    expect(SCALE_CONFIG.quarter.dayWidth).toBe(5);
    const week = timelineRange("week", today);
    expect(week.dayWidth).toBe(60);
    expect(week.start).toEqual(new Date(2026, 9, 1));
    // Oct 1 2026 → end of Feb 2027: about four months and a half.
    expect(week.days).toBe(151);
    const quarter = timelineRange("quarter", today);
    expect(quarter.start).toEqual(new Date(2026, 2, 1));
    expect(quarter.days).toBeGreaterThan(700);
  });
  it("widens to hold dated rows", () => {
    const range = timelineRange("month", today, [{ start: "2025-01-15", end: "2028-03-02" }]);
    expect(range.start).toEqual(new Date(2024, 11, 1));
    expect(dayToX(range, "2028-03-02")).toBeLessThan(range.days * range.dayWidth);
  });
});

describe("date ↔ x", () => {
  it("date → x for each scale", () => {
    for (const scale of ["week", "month", "quarter"] as const) {
      const range = timelineRange(scale, today);
      const width = SCALE_CONFIG[scale].dayWidth;
      expect(dayToX(range, range.start)).toBe(0);
      const x = dayToX(range, "2026-11-25");
      expect(x % width).toBe(0);
      expect(xToDay(range, x)).toBe("2026-11-25");
      expect(xToDay(range, x + width - 1)).toBe("2026-11-25");
    }
  });
  it("a bar covers its start and end days", () => {
    const range = timelineRange("week", today);
    const { left, width } = barGeometry(range, "2026-11-25", "2026-11-27");
    expect(left).toBe(dayToX(range, "2026-11-25"));
    expect(width).toBe(180);
  });
  it("months header covers the whole span", () => {
    const range = timelineRange("month", today);
    const cells = monthCells(range, (d) => String(d.getMonth()));
    const total = cells.reduce((sum, c) => sum + c.width, 0);
    expect(total).toBe(range.days * range.dayWidth);
    expect(cells[0]?.left).toBe(0);
  });
});

describe("dragging", () => {
  const range = timelineRange("week", today);
  it("drag delta snaps to whole days", () => {
    expect(deltaDays(range, 29)).toBe(0);
    expect(deltaDays(range, 31)).toBe(1);
    expect(deltaDays(range, -125)).toBe(-2);
  });
  it("moving shifts both dates (across months)", () => {
    expect(draggedDates("move", "2026-11-29", "2026-12-02", 3)).toEqual({ start: "2026-12-02", end: "2026-12-05" });
    expect(draggedDates("move", "2026-11-29", "2026-12-02", -30)).toEqual({ start: "2026-10-30", end: "2026-11-02" });
  });
  it("resizing clamps start ≤ end", () => {
    expect(draggedDates("start", "2026-11-10", "2026-11-12", -2)).toEqual({ start: "2026-11-08", end: "2026-11-12" });
    expect(draggedDates("start", "2026-11-10", "2026-11-12", 5)).toEqual({ start: "2026-11-12", end: "2026-11-12" });
    expect(draggedDates("end", "2026-11-10", "2026-11-12", -9)).toEqual({ start: "2026-11-10", end: "2026-11-10" });
    expect(draggedDates("end", "2026-11-10", "2026-11-12", 4)).toEqual({ start: "2026-11-10", end: "2026-11-16" });
  });
});
