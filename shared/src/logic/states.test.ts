import { describe, expect, it } from "vitest";
import { compareStates, isHexColor, isStateGroup, stateGroupRank } from "./states.ts";

describe("state ordering", () => {
  it("lists by the fixed group order, then sequence", () => {
    const states = [
      { name: "Done", group: "completed", sequence: 1 },
      { name: "Later", group: "backlog", sequence: 200 },
      { name: "Doing", group: "started", sequence: 5 },
      { name: "Icebox", group: "backlog", sequence: 100 },
      { name: "Dropped", group: "cancelled", sequence: 0 },
      { name: "Todo", group: "unstarted", sequence: 999999 },
    ];
    expect([...states].sort(compareStates).map((s) => s.name)).toEqual([
      "Icebox",
      "Later",
      "Todo",
      "Doing",
      "Done",
      "Dropped",
    ]);
  });

  it("knows the groups", () => {
    expect(isStateGroup("started")).toBe(true);
    expect(isStateGroup("canceled")).toBe(false);
    expect(stateGroupRank("backlog")).toBe(0);
    expect(stateGroupRank("other")).toBe(5);
  });
});

describe("isHexColor", () => {
  it("accepts #rgb and #rrggbb only", () => {
    for (const ok of ["#fff", "#60646C", "#aBc123"]) expect(isHexColor(ok)).toBe(true);
    for (const bad of ["fff", "#ffff", "#gggggg", "red", "#1234567", 123, null]) expect(isHexColor(bad)).toBe(false);
  });
});
