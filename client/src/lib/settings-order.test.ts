import { describe, expect, it } from "vitest";
import {
  type FlatLabel,
  flattenLabels,
  labelDescendants,
  labelDropPatch,
  labelParentChoices,
  moveItem,
  planPointEdits,
  projectLabelDrop,
  stateDropSequence,
} from "./settings-order";

describe("moveItem", () => {
  it("moves down and up", () => {
    expect(moveItem(["a", "b", "c", "d"], 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(moveItem(["a", "b", "c", "d"], 3, 1)).toEqual(["a", "d", "b", "c"]);
  });
});

describe("stateDropSequence", () => {
  const group = [
    { id: "a", sequence: 1000 },
    { id: "b", sequence: 2000 },
    { id: "c", sequence: 3000 },
  ];
  it("is null when the state stays put", () => {
    expect(stateDropSequence(group, "b", "b")).toBeNull();
    expect(stateDropSequence(group, "x", "b")).toBeNull();
  });
  it("puts a state moved to the top 65535 before the first", () => {
    expect(stateDropSequence(group, "c", "a")).toBe(1000 - 65535);
  });
  it("puts a state moved to the bottom 65535 after the last", () => {
    expect(stateDropSequence(group, "a", "c")).toBe(3000 + 65535);
  });
  it("puts a state between its new neighbours at their midpoint", () => {
    // a dropped on b (moving down) lands between b and c.
    expect(stateDropSequence(group, "a", "b")).toBe(2500);
    // c dropped on b (moving up) lands between a and b.
    expect(stateDropSequence(group, "c", "b")).toBe(1500);
  });
});

type L = { id: string; name: string; parent: string | null; sort_order: number };
const label = (id: string, parent: string | null, sort_order: number): L => ({ id, name: id, parent, sort_order });

describe("flattenLabels", () => {
  it("lists each parent followed by its children, by sort order", () => {
    const flat = flattenLabels([
      label("b", null, 2),
      label("a", null, 1),
      label("a2", "a", 2),
      label("a1", "a", 1),
      label("a1x", "a1", 1),
    ]);
    expect(flat.map((f) => [f.id, f.depth, f.parentId])).toEqual([
      ["a", 0, null],
      ["a1", 1, "a"],
      ["a1x", 2, "a1"],
      ["a2", 1, "a"],
      ["b", 0, null],
    ]);
  });
  it("shows labels with a missing parent, or caught in a loop, at the top level", () => {
    const flat = flattenLabels([label("x", "gone", 1), label("p", "q", 2), label("q", "p", 3)]);
    expect(flat.map((f) => [f.id, f.depth])).toEqual([
      ["x", 0],
      ["p", 0],
      ["q", 0],
    ]);
  });
});

describe("labelDescendants and labelParentChoices", () => {
  const labels = [label("a", null, 1), label("b", "a", 1), label("c", "b", 1), label("d", null, 2)];
  it("finds every label below one", () => {
    expect([...labelDescendants(labels, "a")].sort()).toEqual(["b", "c"]);
    expect([...labelDescendants(labels, "d")]).toEqual([]);
  });
  it("never offers the label itself or its descendants as a parent", () => {
    expect(labelParentChoices(labels, "a").map((l) => l.id)).toEqual(["d"]);
    expect(labelParentChoices(labels, "c").map((l) => l.id)).toEqual(["a", "b", "d"]);
    expect(labelParentChoices(labels, null).map((l) => l.id)).toEqual(["a", "b", "c", "d"]);
  });
});

describe("label drag and drop", () => {
  // a(10000) > a1(100), a2(200); b(20000); c(30000)
  const flat: FlatLabel[] = flattenLabels([
    label("a", null, 10000),
    label("a1", "a", 100),
    label("a2", "a", 200),
    label("b", null, 20000),
    label("c", null, 30000),
  ]);

  it("keeps the depth within what the neighbours allow", () => {
    // c dropped on b with no sideways move: stays top level.
    expect(projectLabelDrop(flat, "c", "b", 0)).toEqual({ depth: 0, parentId: null });
    // c dropped after a2 and dragged right: child of a (a2's parent) or of a2.
    expect(projectLabelDrop(flat, "c", "b", 1)).toEqual({ depth: 1, parentId: "a" });
    expect(projectLabelDrop(flat, "c", "b", 2)).toEqual({ depth: 2, parentId: "a2" });
    expect(projectLabelDrop(flat, "c", "b", 5)).toEqual({ depth: 2, parentId: "a2" });
  });

  it("can't go shallower than the next item (the tree stays contiguous)", () => {
    // a2 moved above a1 (between a and a1): next is a1 at depth 1, so depth ≥ 1.
    expect(projectLabelDrop(flat, "a2", "a1", -3)).toEqual({ depth: 1, parentId: "a" });
  });

  it("nests at the top of a list only at depth 0", () => {
    expect(projectLabelDrop(flat, "b", "a", 4)).toEqual({ depth: 0, parentId: null });
  });

  it("computes the new parent and sort order between siblings", () => {
    // c before b at the top level: between a (10000) and b (20000).
    expect(labelDropPatch(flat, "c", "b", null)).toEqual({ parent: null, sort_order: 15000 });
    // b to the very top: half of the first sibling's order.
    expect(labelDropPatch(flat, "b", "a", null)).toEqual({ parent: null, sort_order: 5000 });
    // c nested under a after a2: +10000 after the last child.
    expect(labelDropPatch(flat, "c", "b", "a")).toEqual({ parent: "a", sort_order: 10200 });
    // c under a2, which has no children: 65535.
    expect(labelDropPatch(flat, "c", "b", "a2")).toEqual({ parent: "a2", sort_order: 65535 });
    // a2 above a1 inside a: half of a1's order.
    expect(labelDropPatch(flat, "a2", "a1", "a")).toEqual({ parent: "a", sort_order: 50 });
  });

  it("is a no-op when the parent and neighbours are unchanged", () => {
    expect(labelDropPatch(flat, "b", "b", null)).toBeNull();
    expect(labelDropPatch(flat, "a1", "a1", "a")).toBeNull();
  });

  it("moves out of a parent", () => {
    // a2 dragged left where it is: top level, between a and b.
    expect(projectLabelDrop(flat, "a2", "a2", -1)).toEqual({ depth: 0, parentId: null });
    expect(labelDropPatch(flat, "a2", "a2", null)).toEqual({ parent: null, sort_order: 15000 });
  });
});

describe("planPointEdits", () => {
  const points = (values: string[]) => values.map((value, i) => ({ id: `p${i + 1}`, key: i + 1, value }));

  it("changes only the values that differ", () => {
    expect(
      planPointEdits(points(["1", "2", "3"]), [
        { id: "p1", value: "1" },
        { id: "p2", value: " 5 " },
        { id: "p3", value: "3" },
      ]),
    ).toEqual([{ kind: "update", id: "p2", value: "5" }]);
  });

  it("adds new points with keys after the highest one", () => {
    expect(
      planPointEdits(points(["1", "2"]), [
        { id: "p1", value: "1" },
        { id: "p2", value: "2" },
        { value: "3" },
        { value: "5" },
      ]),
    ).toEqual([
      { kind: "add", key: 3, value: "3" },
      { kind: "add", key: 4, value: "5" },
    ]);
  });

  it("removes before changing values, so a removed value can be reused", () => {
    expect(
      planPointEdits(points(["1", "2", "3"]), [
        { id: "p1", value: "1" },
        { id: "p2", value: "3" },
      ]),
    ).toEqual([
      { kind: "remove", id: "p3" },
      { kind: "update", id: "p2", value: "3" },
    ]);
  });

  it("never goes below 2 points: adds first when at the minimum", () => {
    expect(planPointEdits(points(["1", "2"]), [{ value: "8" }, { value: "13" }])).toEqual([
      { kind: "add", key: 3, value: "8" },
      { kind: "add", key: 4, value: "13" },
      { kind: "remove", id: "p1" },
      { kind: "remove", id: "p2" },
    ]);
  });

  it("never goes above 6 points: removes when full", () => {
    const six = points(["1", "2", "3", "4", "5", "6"]);
    const rows = [...six.slice(1).map((p) => ({ id: p.id, value: p.value })), { value: "7" }];
    expect(planPointEdits(six, rows)).toEqual([
      { kind: "remove", id: "p1" },
      { kind: "add", key: 7, value: "7" },
    ]);
  });
});
