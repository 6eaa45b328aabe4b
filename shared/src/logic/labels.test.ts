import { describe, expect, it } from "vitest";
import { labelParentCreatesCycle } from "./labels.ts";

// a ─ b ─ c, and d on its own
const tree = new Map<string, string | null>([
  ["a", null],
  ["b", "a"],
  ["c", "b"],
  ["d", null],
]);

describe("labelParentCreatesCycle", () => {
  it("allows moving under an unrelated label or to the top", () => {
    expect(labelParentCreatesCycle(tree, "a", "d")).toBe(false);
    expect(labelParentCreatesCycle(tree, "c", "a")).toBe(false);
    expect(labelParentCreatesCycle(tree, "c", null)).toBe(false);
  });

  it("refuses a label as its own parent or under its descendants", () => {
    expect(labelParentCreatesCycle(tree, "a", "a")).toBe(true);
    expect(labelParentCreatesCycle(tree, "a", "b")).toBe(true);
    expect(labelParentCreatesCycle(tree, "a", "c")).toBe(true);
    expect(labelParentCreatesCycle(tree, "b", "c")).toBe(true);
  });

  it("stops on a loop already in the data", () => {
    const broken = new Map<string, string | null>([
      ["x", "y"],
      ["y", "x"],
    ]);
    expect(labelParentCreatesCycle(broken, "z", "x")).toBe(true);
  });
});
