import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_DISPLAY_PROPERTIES, DISPLAY_PROPERTIES, GROUP_BY, ISSUE_LAYOUTS } from "../constants/issues.ts";
import {
  DEFAULT_DISPLAY_FILTERS,
  type DisplayFilters,
  displayFiltersPatchSchema,
  displayPropertiesPatchSchema,
  GANTT_SCALES,
  mergeDisplayFilters,
  normalizeDisplayFilters,
  readDisplayFilters,
  readDisplayProperties,
} from "./display-filters.ts";

const filtersArb: fc.Arbitrary<DisplayFilters> = fc.record({
  layout: fc.constantFrom(...ISSUE_LAYOUTS),
  group_by: fc.option(fc.constantFrom(...GROUP_BY), { nil: null }),
  sub_group_by: fc.option(fc.constantFrom(...GROUP_BY), { nil: null }),
  order_by: fc.constant("sort_order" as const),
  type: fc.constantFrom(null, "active" as const, "backlog" as const),
  sub_issue: fc.boolean(),
  show_empty_groups: fc.boolean(),
  calendar: fc.record({ layout: fc.constantFrom("month" as const, "week" as const), show_weekends: fc.boolean() }),
  gantt: fc.record({ scale: fc.constantFrom(...GANTT_SCALES) }),
});

describe("display filters", () => {
  it("defaults: list, no grouping, sort_order, every property shown", () => {
    expect(DEFAULT_DISPLAY_FILTERS).toMatchObject({
      layout: "list",
      group_by: null,
      sub_group_by: null,
      order_by: "sort_order",
    });
    expect(Object.values(DEFAULT_DISPLAY_PROPERTIES).every(Boolean)).toBe(true);
    expect(Object.keys(DEFAULT_DISPLAY_PROPERTIES)).toEqual([...DISPLAY_PROPERTIES]);
    expect(readDisplayFilters(null)).toEqual(DEFAULT_DISPLAY_FILTERS);
  });

  it("applies the kanban rules", () => {
    const base = { ...DEFAULT_DISPLAY_FILTERS, layout: "kanban" as const };
    expect(normalizeDisplayFilters({ ...base, group_by: null, sub_group_by: "priority" })).toMatchObject({
      group_by: "state_id",
      sub_group_by: null,
    });
    expect(
      normalizeDisplayFilters({ ...base, group_by: "priority", sub_group_by: "priority" }).sub_group_by,
    ).toBeNull();
    expect(normalizeDisplayFilters({ ...base, group_by: "priority", sub_group_by: "labels__id" }).sub_group_by).toBe(
      "labels__id",
    );
    expect(normalizeDisplayFilters({ ...base, group_by: null }, { kanbanDefaultGroupBy: "priority" }).group_by).toBe(
      "priority",
    );
    expect(
      normalizeDisplayFilters({ ...base, layout: "list", group_by: "priority", sub_group_by: "labels__id" })
        .sub_group_by,
    ).toBeNull();
  });

  it("always leaves a valid combination, and is idempotent", () => {
    fc.assert(
      fc.property(filtersArb, (input) => {
        const out = normalizeDisplayFilters(input);
        if (out.group_by === null) expect(out.sub_group_by).toBeNull();
        if (out.sub_group_by !== null) expect(out.sub_group_by).not.toBe(out.group_by);
        if (out.layout === "kanban") expect(out.group_by).not.toBeNull();
        else expect(out.sub_group_by).toBeNull();
        expect(normalizeDisplayFilters(out)).toEqual(out);
      }),
    );
  });

  it("merges a patch into stored values, accepting the peer's aliases and refusing unknown keys", () => {
    const merged = mergeDisplayFilters(
      { layout: "kanban", group_by: "priority", order_by: "bogus" },
      displayFiltersPatchSchema.parse({ sub_group_by: "labels", calendar: { show_weekends: true } }),
    );
    expect(merged).toMatchObject({
      layout: "kanban",
      group_by: "priority",
      sub_group_by: "labels__id",
      order_by: "sort_order",
      calendar: { layout: "month", show_weekends: true },
    });
    expect(mergeDisplayFilters(merged, { group_by: null })).toMatchObject({ group_by: "state_id", sub_group_by: null });
    expect(displayFiltersPatchSchema.safeParse({ group_by: "colour" }).success).toBe(false);
    expect(displayFiltersPatchSchema.safeParse({ order_by: "random" }).success).toBe(false);
    expect(displayFiltersPatchSchema.safeParse({ unknown: 1 }).success).toBe(false);
    expect(displayPropertiesPatchSchema.safeParse({ assignee: false }).success).toBe(true);
    expect(displayPropertiesPatchSchema.safeParse({ colour: true }).success).toBe(false);
    expect(readDisplayProperties({ assignee: false, labels: "no" })).toMatchObject({ assignee: false, labels: true });
  });

  it("keeps the timeline's scale: week by default, merged on its own, unknown scales refused", () => {
    expect(DEFAULT_DISPLAY_FILTERS.gantt).toEqual({ scale: "week" });
    // Settings saved before the timeline had a scale read as week.
    expect(readDisplayFilters({ layout: "gantt_chart" }).gantt).toEqual({ scale: "week" });
    expect(readDisplayFilters({ gantt: { scale: "quarter" } }).gantt).toEqual({ scale: "quarter" });
    // A stored value we no longer know falls back to the default instead of breaking the board.
    expect(readDisplayFilters({ gantt: { scale: "decade" } }).gantt).toEqual({ scale: "week" });
    expect(readDisplayFilters({ gantt: "month" }).gantt).toEqual({ scale: "week" });

    const stored = { layout: "gantt_chart", calendar: { layout: "week", show_weekends: true } };
    const merged = mergeDisplayFilters(stored, displayFiltersPatchSchema.parse({ gantt: { scale: "month" } }));
    expect(merged).toMatchObject({
      layout: "gantt_chart",
      calendar: { layout: "week", show_weekends: true },
      gantt: { scale: "month" },
    });
    // Other patches leave the scale alone; an empty gantt patch too.
    expect(mergeDisplayFilters(merged, { layout: "list" }).gantt).toEqual({ scale: "month" });
    expect(mergeDisplayFilters(merged, { gantt: {} }).gantt).toEqual({ scale: "month" });
    // The merge never shares the default object (a later change can't alter the defaults).
    mergeDisplayFilters(null, {}).gantt.scale = "quarter";
    expect(DEFAULT_DISPLAY_FILTERS.gantt.scale).toBe("week");

    for (const scale of GANTT_SCALES) {
      expect(displayFiltersPatchSchema.safeParse({ gantt: { scale } }).success).toBe(true);
    }
    const bad = displayFiltersPatchSchema.safeParse({ gantt: { scale: "year" } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe("Timeline scale must be one of: week, month, quarter.");
    expect(bad.error?.issues[0]?.path).toEqual(["gantt", "scale"]);
    expect(displayFiltersPatchSchema.safeParse({ gantt: { zoom: 2 } }).success).toBe(false);
    expect(displayFiltersPatchSchema.safeParse({ gantt: "month" }).success).toBe(false);
  });
});
