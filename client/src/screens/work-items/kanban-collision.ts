/** Where a dragged kanban card lands (kanban-layout's DndContext). */
import { type CollisionDetection, closestCorners } from "@dnd-kit/core";

/** What the layout's droppables carry: cells (type "column") and cards both name their column and lane. */
type CellData = { type: "column" | "card"; col: string; lane: string };

/**
 * The cell under the pointer wins, then the nearest card (or the cell itself) inside it. Plain
 * closestCorners measures against every card on the board, so a pointer near the top of an empty
 * column would land on the neighbouring column's first card, whose corners are closer than the
 * empty column's. Over a column's header (outside every cell) the cell in the pointer's column
 * nearest vertically counts; without a pointer (keyboard) closestCorners decides as before.
 */
export const columnFirstCollision: CollisionDetection = (args) => {
  const pointer = args.pointerCoordinates;
  if (!pointer) return closestCorners(args);
  const cells = args.droppableContainers.filter((c) => (c.data.current as CellData | undefined)?.type === "column");
  let cell = cells.find((c) => {
    const rect = args.droppableRects.get(c.id);
    return (
      rect && pointer.x >= rect.left && pointer.x <= rect.right && pointer.y >= rect.top && pointer.y <= rect.bottom
    );
  });
  if (!cell) {
    let best = Number.POSITIVE_INFINITY;
    for (const c of cells) {
      const rect = args.droppableRects.get(c.id);
      if (!rect || pointer.x < rect.left || pointer.x > rect.right) continue;
      const distance = pointer.y < rect.top ? rect.top - pointer.y : Math.max(0, pointer.y - rect.bottom);
      if (distance < best) {
        best = distance;
        cell = c;
      }
    }
  }
  if (!cell) return closestCorners(args);
  const { col, lane } = cell.data.current as CellData;
  const inCell = args.droppableContainers.filter((c) => {
    const d = c.data.current as CellData | undefined;
    return d?.col === col && d.lane === lane;
  });
  const near = closestCorners({ ...args, droppableContainers: inCell });
  return near.length ? near : [{ id: cell.id, data: { droppableContainer: cell, value: 0 } }];
};
