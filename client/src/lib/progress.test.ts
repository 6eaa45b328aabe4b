import { describe, expect, it } from "vitest";
import { numericPoint, percentDone, progressFromItems } from "./progress";

const item = (
  group: string | null,
  point: string | null = null,
  extra: Partial<{ archived_at: string; is_draft: boolean; in: boolean }> = {},
) => ({
  state__group: group,
  estimate_point: point,
  archived_at: extra.archived_at ?? null,
  is_draft: extra.is_draft ?? false,
  in: extra.in ?? true,
});

describe("progressFromItems", () => {
  it("counts kept items by state group with their points, leaving out archived items and drafts", () => {
    const values: Record<string, number> = { p1: 1, p3: 3 };
    const counters = progressFromItems(
      [
        item("completed", "p3"),
        item("started", "p1"),
        item("started", null),
        item("cancelled", "p1"),
        item("completed", "p3", { archived_at: "2026-11-01T00:00:00Z" }),
        item("backlog", "p3", { is_draft: true }),
        item("unstarted", "p3", { in: false }),
      ],
      (i) => i.in,
      (id) => values[id] ?? 0,
    );
    expect(counters).toMatchObject({
      total_issues: 4,
      completed_issues: 1,
      started_issues: 2,
      cancelled_issues: 1,
      unstarted_issues: 0,
      backlog_issues: 0,
      total_estimate_points: 5,
      completed_estimate_points: 3,
      started_estimate_points: 1,
      cancelled_estimate_points: 1,
    });
  });

  it("puts an item without a known state group in backlog, as the server's default state would", () => {
    expect(
      progressFromItems(
        [item(null)],
        () => true,
        () => 0,
      ).backlog_issues,
    ).toBe(1);
  });
});

describe("numericPoint and percentDone", () => {
  it("reads numbers only", () => {
    expect(numericPoint("2.5")).toBe(2.5);
    expect(numericPoint(" 8 ")).toBe(8);
    expect(numericPoint("XL")).toBe(0);
    expect(numericPoint(undefined)).toBe(0);
  });
  it("rounds the completed share and is 0 for an empty scope", () => {
    expect(percentDone({ total_issues: 3, completed_issues: 1 })).toBe(33);
    expect(percentDone({ total_issues: 0, completed_issues: 0 })).toBe(0);
  });
});
