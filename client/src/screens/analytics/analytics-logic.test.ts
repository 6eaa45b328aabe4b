import { describe, expect, it } from "vitest";
import { chartModel, chartTotal, padMonths, trendRows, trimTrend, valueName } from "./analytics-logic";

const t = (key: string) => `t(${key})`;

describe("analytics logic", () => {
  it("names priorities and state groups in words, None as none, dates readably", () => {
    expect(valueName("PRIORITY", "urgent", "urgent", t)).toBe("t(workItems.priority.urgent)");
    expect(valueName("STATE_GROUPS", "started", "started", t)).toBe("t(workItems.stateGroup.started)");
    expect(valueName("LABELS", "None", "None", t)).toBe("t(analytics.none)");
    expect(valueName("CREATED_AT", "2026-03-04", "2026-03-04", t)).toBe("Mar 4, 2026");
    expect(valueName("LABELS", "id-1", "Bug", t)).toBe("Bug");
  });

  it("a plain chart: one bar per value with the product's colour where it has one", () => {
    const { rows, series } = chartModel(
      { data: [{ key: "high", name: "high", count: 2 }], schema: {} },
      "PRIORITY",
      null,
      t,
    );
    expect(series).toEqual([]);
    expect(rows).toEqual([
      { key: "high", label: "t(workItems.priority.high)", count: 2, color: "var(--color-warning)" },
    ]);
  });

  it("a segmented chart: series from the schema, in the product's order, each bar's parts by series", () => {
    const { rows, series } = chartModel(
      {
        data: [{ key: "l1", name: "Bug", count: 3, completed: 1, backlog: 2 }],
        schema: { completed: "completed", backlog: "backlog" },
      },
      "LABELS",
      "STATE_GROUPS",
      t,
    );
    expect(series.map((s) => s.key)).toEqual(["s:backlog", "s:completed"]);
    expect(rows[0]).toMatchObject({ label: "Bug", count: 3, "s:backlog": 2, "s:completed": 1 });
    expect(chartTotal(rows)).toBe(3);
  });

  it("trend labels by month or day; leading empty months trimmed but a year kept", () => {
    const points = Array.from({ length: 20 }, (_, i) => ({
      key: `20${String(24 + Math.floor(i / 12))}-${String((i % 12) + 1).padStart(2, "0")}-01`,
      name: "",
      created_issues: i >= 15 ? 1 : 0,
      completed_issues: 0,
    }));
    const rows = trendRows(points, "month");
    expect(rows[0]?.label).toBe("Jan 2024");
    expect(trimTrend(rows)).toHaveLength(12);
    expect(trendRows([{ key: "2026-03-04", name: "", created_issues: 1, completed_issues: 2 }], "day")[0]).toEqual({
      key: "2026-03-04",
      label: "Mar 4",
      created: 1,
      resolved: 2,
    });
  });

  it("a short monthly trend gets empty months before it", () => {
    const rows = padMonths(
      trendRows([{ key: "2026-02-01", name: "", created_issues: 3, completed_issues: 1 }], "month"),
    );
    expect(rows.map((r) => r.key)).toEqual([
      "2025-09-01",
      "2025-10-01",
      "2025-11-01",
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
    ]);
    expect(rows[0]).toMatchObject({ created: 0, resolved: 0, label: "Sep 2025" });
  });
});
