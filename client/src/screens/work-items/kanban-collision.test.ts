import type { ClientRect, DroppableContainer, UniqueIdentifier } from "@dnd-kit/core";
import { closestCorners } from "@dnd-kit/core";
import { describe, expect, it } from "vitest";
import { columnFirstCollision } from "./kanban-collision";

const rect = (left: number, top: number, width: number, height: number): ClientRect => ({
  left,
  top,
  width,
  height,
  right: left + width,
  bottom: top + height,
});

type Data = { type: "column" | "card"; col: string; lane: string };

function board(entries: [UniqueIdentifier, Data, ClientRect][]) {
  const droppableRects = new Map<UniqueIdentifier, ClientRect>();
  const droppableContainers = entries.map(([id, data, r]) => {
    droppableRects.set(id, r);
    return {
      id,
      key: String(id),
      data: { current: data },
      disabled: false,
      node: { current: null },
      rect: { current: r },
    } as DroppableContainer;
  });
  return { droppableRects, droppableContainers };
}

// Column "todo" is empty; "doing" (to its right) has one card at its top. The dragged card is
// held by its left part, so it overlaps both columns while the pointer is in "todo".
const layout = board([
  ["col|__all__|todo", { type: "column", col: "todo", lane: "__all__" }, rect(0, 40, 280, 760)],
  ["col|__all__|doing", { type: "column", col: "doing", lane: "__all__" }, rect(300, 40, 280, 760)],
  ["__all__|doing|b1", { type: "card", col: "doing", lane: "__all__" }, rect(300, 50, 280, 90)],
  ["__all__|doing|b2", { type: "card", col: "doing", lane: "__all__" }, rect(300, 150, 280, 90)],
]);
const active = { id: "x", data: { current: undefined }, rect: { current: { initial: null, translated: null } } };
const args = (pointer: { x: number; y: number } | null, collisionRect: ClientRect) =>
  ({ active, collisionRect, pointerCoordinates: pointer, ...layout }) as Parameters<typeof columnFirstCollision>[0];

describe("columnFirstCollision (kanban drop target)", () => {
  const dragged = rect(150, 45, 260, 90);

  it("the empty column under the pointer wins over the neighbour's first card", () => {
    // Plain closestCorners picks the neighbour's card: the bug this detection fixes.
    expect(closestCorners(args({ x: 200, y: 60 }, dragged))[0]?.id).toBe("__all__|doing|b1");
    expect(columnFirstCollision(args({ x: 200, y: 60 }, dragged))[0]?.id).toBe("col|__all__|todo");
  });

  it("over a column's header (above its cell) the pointer's column still wins", () => {
    expect(columnFirstCollision(args({ x: 200, y: 20 }, rect(150, 5, 260, 90)))[0]?.id).toBe("col|__all__|todo");
  });

  it("inside a column with cards, the nearest of its cards", () => {
    expect(columnFirstCollision(args({ x: 400, y: 190 }, rect(320, 150, 260, 90)))[0]?.id).toBe("__all__|doing|b2");
  });

  it("without a pointer (keyboard) it measures as closestCorners", () => {
    const a = args(null, rect(300, 150, 280, 90));
    expect(columnFirstCollision(a)[0]?.id).toBe(closestCorners(a)[0]?.id);
  });
});
