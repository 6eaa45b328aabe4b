import { DEFAULT_DISPLAY_PROPERTIES, readDisplayFilters } from "@tideline/shared";
import { describe, expect, it } from "vitest";
import { isViewDirty, normalizeViewFilters, settingsBody, viewChanges, viewDisplayName } from "./view-logic";

const saved = {
  filters: { priority: ["urgent", "high"], state_group: ["started"] },
  display_filters: { layout: "kanban", group_by: "priority", order_by: "-created_at" },
  display_properties: { ...DEFAULT_DISPLAY_PROPERTIES },
};

describe("view names", () => {
  it("shows Untitled for an empty or blank name, the name otherwise", () => {
    expect(viewDisplayName("", "Untitled")).toBe("Untitled");
    expect(viewDisplayName("   ", "Untitled")).toBe("Untitled");
    expect(viewDisplayName(null, "Untitled")).toBe("Untitled");
    expect(viewDisplayName(" Urgent work ", "Untitled")).toBe("Urgent work");
  });
});

describe("the view board's changes against the saved view", () => {
  it("is clean when the board holds what the view saved, whatever the order of values and keys", () => {
    const working = {
      filters: { state_group: ["started"], priority: ["high", "urgent"] },
      // The board holds the display filters as read (every default filled in).
      display_filters: { ...readDisplayFilters(saved.display_filters) },
      display_properties: { ...DEFAULT_DISPLAY_PROPERTIES },
    };
    expect(isViewDirty(saved, working)).toBe(false);
  });

  it("an empty filter list is no filter; unknown keys and non-strings are ignored", () => {
    expect(normalizeViewFilters({ priority: [], labels: ["b", "a", "a"], nope: ["x"], state: [1] })).toEqual({
      labels: ["a", "b"],
    });
    expect(isViewDirty({ ...saved, filters: { priority: [] } }, { ...saved, filters: {} })).toBe(false);
  });

  it("a filter taken off, a value added, or a display change make it dirty, each told apart", () => {
    expect(viewChanges(saved, { ...saved, filters: { priority: ["urgent", "high"] } })).toEqual({
      filters: true,
      display: false,
      properties: false,
    });
    expect(isViewDirty(saved, { ...saved, filters: { ...saved.filters, priority: ["urgent", "high", "low"] } })).toBe(
      true,
    );
    expect(viewChanges(saved, { ...saved, display_filters: { ...saved.display_filters, layout: "list" } })).toEqual({
      filters: false,
      display: true,
      properties: false,
    });
    expect(
      viewChanges(saved, { ...saved, display_properties: { ...saved.display_properties, priority: false } }).properties,
    ).toBe(true);
  });

  it("saves the board's settings normalised", () => {
    const body = settingsBody({
      filters: { priority: ["high", "urgent"], labels: [] },
      display_filters: { layout: "list" },
      display_properties: {},
    });
    expect(body.filters).toEqual({ priority: ["high", "urgent"] });
    expect(body.display_filters).toMatchObject({ layout: "list" });
    expect(body.display_properties).toEqual({ ...DEFAULT_DISPLAY_PROPERTIES });
  });
});
