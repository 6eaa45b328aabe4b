import { describe, expect, it } from "vitest";
import { buildBurndownRows, hasScope, shortDay } from "./burndown-data";

describe("buildBurndownRows", () => {
  const chart = { "2026-11-01": 4, "2026-11-02": 3, "2026-11-03": null, "2026-11-04": null, "2026-11-05": null };

  it("has one row per day with a straight ideal line from the total to 0", () => {
    const rows = buildBurndownRows({ chart, start: "2026-11-01", end: "2026-11-05", total: 4 });
    expect(rows.map((r) => r.date)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"]);
    expect(rows.map((r) => r.ideal)).toEqual([4, 3, 2, 1, 0]);
    expect(rows.map((r) => r.pending)).toEqual([4, 3, null, null, null]);
    expect(rows[0]?.label).toBe("Nov 1");
  });

  it("lets today's local count win over the server's chart", () => {
    const rows = buildBurndownRows({
      chart,
      start: "2026-11-01",
      end: "2026-11-05",
      total: 4,
      today: "2026-11-02",
      todayPending: 1,
    });
    expect(rows[1]?.pending).toBe(1);
    expect(rows[0]?.pending).toBe(4);
    // No override without a today.
    expect(
      buildBurndownRows({ chart, start: "2026-11-01", end: "2026-11-05", total: 4, todayPending: 0 })[1]?.pending,
    ).toBe(3);
  });

  it("draws a single day and rounds the ideal line for points", () => {
    expect(buildBurndownRows({ chart: {}, start: "2026-11-01", end: "2026-11-01", total: 5 })).toEqual([
      { date: "2026-11-01", label: "Nov 1", pending: null, scope: null, ideal: 0 },
    ]);
    const rows = buildBurndownRows({ chart: {}, start: "2026-11-01", end: "2026-11-04", total: 1 });
    expect(rows.map((r) => r.ideal)).toEqual([1, 0.67, 0.33, 0]);
  });

  it("draws the server's scope per day, today's from the local total when the local counts win", () => {
    const points = [
      { date: "2026-11-01", scope: 3 },
      { date: "2026-11-02", scope: 5 },
      { date: "2026-11-03", scope: null },
      { date: "2026-11-04", scope: null },
      { date: "2026-11-05", scope: null },
    ];
    const burnt = { "2026-11-01": 3, "2026-11-02": 4, "2026-11-03": null, "2026-11-04": null, "2026-11-05": null };
    const base = { chart: burnt, points, start: "2026-11-01", end: "2026-11-05", total: 5 };
    const rows = buildBurndownRows(base);
    expect(rows.map((r) => r.scope)).toEqual([3, 5, null, null, null]);
    expect(hasScope(rows)).toBe(true);
    // A third item added here today: scope and remaining move before the server's chart does.
    const local = buildBurndownRows({ ...base, total: 6, today: "2026-11-02", todayPending: 5 });
    expect(local.map((r) => [r.scope, r.pending])).toEqual([
      [3, 3],
      [6, 5],
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect(local[0]?.ideal).toBe(6);
    // Without the server's points (an older answer) there is no scope line.
    expect(hasScope(buildBurndownRows({ chart, start: "2026-11-01", end: "2026-11-05", total: 4 }))).toBe(false);
    expect(
      buildBurndownRows({
        chart,
        start: "2026-11-01",
        end: "2026-11-05",
        total: 4,
        today: "2026-11-02",
        todayPending: 1,
      })[1]?.scope,
    ).toBeNull();
  });

  it("is empty without dates or with reversed dates", () => {
    expect(buildBurndownRows({ chart: {}, start: "", end: "", total: 3 })).toEqual([]);
    expect(buildBurndownRows({ chart: {}, start: "2026-11-05", end: "2026-11-01", total: 3 })).toEqual([]);
  });
});

describe("shortDay", () => {
  it("formats calendar days without a timezone shift", () => {
    expect(shortDay("2026-01-31")).toBe("Jan 31");
    expect(shortDay("2026-12-01")).toBe("Dec 1");
  });
});
