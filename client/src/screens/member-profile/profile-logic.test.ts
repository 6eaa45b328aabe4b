import { describe, expect, it } from "vitest";
import {
  completedSeries,
  exportFileName,
  groupByDay,
  pageCursor,
  priorityRows,
  roleKey,
  stateGroupRows,
} from "./profile-logic";

describe("small helpers", () => {
  it("pageCursor is the reference's perPage:page:0", () => {
    expect(pageCursor(30, 3)).toBe("30:3:0");
  });

  it("roleKey names workspace roles, and a missing one as a former member", () => {
    expect(roleKey(20)).toBe("admin");
    expect(roleKey(15)).toBe("member");
    expect(roleKey(5)).toBe("guest");
    expect(roleKey(undefined)).toBe("former");
  });

  it("exportFileName is safe for file systems", () => {
    expect(exportFileName("Ada Lovelace", "2026-11-25")).toBe("ada-lovelace-activity-2026-11-25.csv");
    expect(exportFileName("Zoë / <Ops>", "2026-01-02")).toBe("zoe-ops-activity-2026-01-02.csv");
    expect(exportFileName("???", "2026-01-02")).toBe("member-activity-2026-01-02.csv");
  });
});

describe("distributions", () => {
  it("fills every state group in display order, 0 where the server left one out", () => {
    expect(
      stateGroupRows([
        { state_group: "completed", state_count: 2 },
        { state_group: "backlog", state_count: 1 },
      ]),
    ).toEqual([
      { key: "backlog", count: 1 },
      { key: "unstarted", count: 0 },
      { key: "started", count: 0 },
      { key: "completed", count: 2 },
      { key: "cancelled", count: 0 },
    ]);
  });

  it("fills every priority urgent first; a null priority counts as none", () => {
    expect(
      priorityRows([
        { priority: "low", priority_count: 3 },
        { priority: null, priority_count: 1 },
      ]).map((r) => r.count),
    ).toEqual([0, 0, 0, 3, 1]);
  });
});

describe("completedSeries", () => {
  it("gives one point per day ending today, zeros on quiet days", () => {
    const series = completedSeries(
      [
        { date: "2026-11-25", completed_count: 2 },
        { date: "2026-11-23", completed_count: 1 },
        { date: "2026-08-01", completed_count: 9 },
      ],
      "2026-11-25",
      5,
    );
    expect(series).toEqual([
      { date: "2026-11-21", count: 0 },
      { date: "2026-11-22", count: 0 },
      { date: "2026-11-23", count: 1 },
      { date: "2026-11-24", count: 0 },
      { date: "2026-11-25", count: 2 },
    ]);
  });

  it("covers 90 days by default, across month ends", () => {
    const series = completedSeries([], "2026-03-01");
    expect(series).toHaveLength(90);
    expect(series[0]?.date).toBe("2025-12-02");
    expect(series.at(-2)?.date).toBe("2026-02-28");
  });
});

describe("groupByDay", () => {
  it("keeps the server's order and starts a group at each new day", () => {
    const rows = [
      { id: "a", created_at: "2026-11-25T10:00:00Z" },
      { id: "b", created_at: "2026-11-25T09:00:00Z" },
      { id: "c", created_at: "2026-11-24T18:00:00Z" },
    ];
    const groups = groupByDay(rows, (iso) => iso.slice(0, 10));
    expect(groups.map((g) => [g.day, g.rows.map((r) => r.id)])).toEqual([
      ["2026-11-25", ["a", "b"]],
      ["2026-11-24", ["c"]],
    ]);
  });
});
