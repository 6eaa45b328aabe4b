import { describe, expect, it } from "vitest";
import {
  completedSeries,
  exportFileName,
  groupByDay,
  listKey,
  pageCursor,
  priorityRows,
  roleKey,
  stateGroupRows,
  toggleValue,
  userIssuesQuery,
} from "./profile-logic";

describe("userIssuesQuery", () => {
  it("asks for one tab, newest first, a page of 50", () => {
    const q = new URLSearchParams(userIssuesQuery("assigned", { priority: [], state_group: [] }, 0));
    expect(Object.fromEntries(q)).toEqual({ type: "assigned", order_by: "-created_at", cursor: "50:0:0" });
  });

  it("sends filters in display order whatever order they were picked in", () => {
    const q = new URLSearchParams(
      userIssuesQuery("created", { priority: ["low", "urgent"], state_group: ["completed", "backlog"] }, 2),
    );
    expect(q.get("priority")).toBe("urgent,low");
    expect(q.get("state_group")).toBe("backlog,completed");
    expect(q.get("cursor")).toBe("50:2:0");
  });

  it("gives equal filters equal cache keys, and different tabs or people different ones", () => {
    const a = listKey("ws", "u1", "assigned", { priority: ["high", "low"], state_group: [] });
    const b = listKey("ws", "u1", "assigned", { priority: ["low", "high"], state_group: [] });
    expect(a).toBe(b);
    expect(listKey("ws", "u1", "created", { priority: ["high", "low"], state_group: [] })).not.toBe(a);
    expect(listKey("ws", "u2", "assigned", { priority: ["high", "low"], state_group: [] })).not.toBe(a);
  });
});

describe("small helpers", () => {
  it("pageCursor is the reference's perPage:page:0", () => {
    expect(pageCursor(30, 3)).toBe("30:3:0");
  });

  it("toggleValue adds a missing value and removes a present one", () => {
    expect(toggleValue(["a", "b"], "c")).toEqual(["a", "b", "c"]);
    expect(toggleValue(["a", "b"], "a")).toEqual(["b"]);
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
