/**
 * Pure helpers of the states, labels and estimates settings: where a dragged state or label
 * lands (positions from the shared sort-order rules), the label tree, and the requests that
 * turn an edited list of estimate points into the saved one.
 */
import {
  ESTIMATE_POINTS_MAX,
  ESTIMATE_POINTS_MIN,
  labelParentCreatesCycle,
  labelPosition,
  statePosition,
} from "@tideline/shared";

/** Move the item at `from` to `to` (what a sortable list shows while dragging). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

// ───────────────────────────── states ─────────────────────────────

type Sequenced = { id: string; sequence: number };

/**
 * The sequence for a state of `group` (in display order) dropped onto `overId`, or null when
 * it doesn't move. Only the dragged state changes: it takes the midpoint of its new neighbours.
 */
export function stateDropSequence(group: readonly Sequenced[], activeId: string, overId: string): number | null {
  const from = group.findIndex((s) => s.id === activeId);
  const to = group.findIndex((s) => s.id === overId);
  if (from === -1 || to === -1 || from === to) return null;
  const moved = moveItem(group, from, to);
  const before = moved[to - 1]?.sequence ?? null;
  const after = moved[to + 1]?.sequence ?? null;
  return statePosition(before, after);
}

// ───────────────────────────── labels ─────────────────────────────

type LabelLike = { id: string; name: string; parent: string | null; sort_order: number };

export type FlatLabel<L extends LabelLike = LabelLike> = {
  id: string;
  label: L;
  depth: number;
  /** The parent as drawn: a parent that isn't in the list counts as none. */
  parentId: string | null;
};

const byOrder = (a: LabelLike, b: LabelLike) => a.sort_order - b.sort_order || a.name.localeCompare(b.name);

/** The label tree in display order (each parent followed by its children), with depths. */
export function flattenLabels<L extends LabelLike>(labels: readonly L[]): FlatLabel<L>[] {
  const ids = new Set(labels.map((l) => l.id));
  const children = new Map<string | null, L[]>();
  for (const label of labels) {
    const parent = label.parent && ids.has(label.parent) && label.parent !== label.id ? label.parent : null;
    const list = children.get(parent) ?? [];
    list.push(label);
    children.set(parent, list);
  }
  const out: FlatLabel<L>[] = [];
  const seen = new Set<string>();
  const walk = (parentId: string | null, depth: number) => {
    for (const label of [...(children.get(parentId) ?? [])].sort(byOrder)) {
      // A loop in the data (never written by this app) must not recurse forever.
      if (seen.has(label.id)) continue;
      seen.add(label.id);
      out.push({ id: label.id, label, depth, parentId });
      walk(label.id, depth + 1);
    }
  };
  walk(null, 0);
  // Labels caught in a loop are still listed, at the top level.
  for (const label of [...labels].sort(byOrder)) {
    if (!seen.has(label.id)) out.push({ id: label.id, label, depth: 0, parentId: null });
  }
  return out;
}

/** Every label under `id`, at any depth. */
export function labelDescendants(labels: readonly LabelLike[], id: string): Set<string> {
  const out = new Set<string>();
  let frontier = [id];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const label of labels) {
      if (label.parent && frontier.includes(label.parent) && !out.has(label.id) && label.id !== id) {
        out.add(label.id);
        next.push(label.id);
      }
    }
    frontier = next;
  }
  return out;
}

/** Labels that `id` may be nested under (not itself, not one of its descendants). */
export function labelParentChoices<L extends LabelLike>(labels: readonly L[], id: string | null): L[] {
  if (id === null) return [...labels];
  const parentOf = new Map(labels.map((l) => [l.id, l.parent]));
  return labels.filter((l) => !labelParentCreatesCycle(parentOf, id, l.id));
}

/**
 * Where a dragged label would land: the depth and parent implied by dropping it on `overId`
 * after moving the pointer `offsetDepth` indentation steps sideways. `items` is the visible
 * flat tree without the dragged label's descendants (they travel with it), so it can never be
 * nested under one of them.
 */
export function projectLabelDrop(
  items: readonly FlatLabel[],
  activeId: string,
  overId: string,
  offsetDepth: number,
): { depth: number; parentId: string | null } | null {
  const from = items.findIndex((i) => i.id === activeId);
  const to = items.findIndex((i) => i.id === overId);
  const active = items[from];
  if (!active || to === -1) return null;
  const moved = moveItem(items, from, to);
  const previous = moved[to - 1];
  const next = moved[to + 1];
  const maxDepth = previous ? previous.depth + 1 : 0;
  const minDepth = next ? next.depth : 0;
  const depth = Math.max(minDepth, Math.min(maxDepth, active.depth + offsetDepth));
  if (depth === 0 || !previous) return { depth: 0, parentId: null };
  if (depth === previous.depth) return { depth, parentId: previous.parentId };
  if (depth > previous.depth) return { depth, parentId: previous.id };
  const ancestor = moved
    .slice(0, to)
    .reverse()
    .find((i) => i.depth === depth);
  return { depth, parentId: ancestor?.parentId ?? null };
}

/**
 * The PATCH for a label dropped on `overId` under `parentId`: its new parent and sort order
 * (labelPosition between its new siblings), or null when nothing changes (same parent, same
 * place among its siblings).
 */
export function labelDropPatch(
  items: readonly FlatLabel[],
  activeId: string,
  overId: string,
  parentId: string | null,
): { parent: string | null; sort_order: number } | null {
  const from = items.findIndex((i) => i.id === activeId);
  const to = items.findIndex((i) => i.id === overId);
  const active = items[from];
  if (!active || to === -1) return null;
  const moved = moveItem(items, from, to);
  const siblingsBefore = moved.slice(0, to).filter((i) => i.parentId === parentId);
  const siblingsAfter = moved.slice(to + 1).filter((i) => i.parentId === parentId);
  const before = siblingsBefore[siblingsBefore.length - 1] ?? null;
  const after = siblingsAfter[0] ?? null;
  if (parentId === active.parentId) {
    // Same parent: a move only if the neighbours among its siblings changed.
    const oldSiblings = items.filter((i) => i.parentId === parentId);
    const index = oldSiblings.findIndex((i) => i.id === activeId);
    const oldBefore = oldSiblings[index - 1] ?? null;
    const oldAfter = oldSiblings[index + 1] ?? null;
    if (oldBefore?.id === before?.id && oldAfter?.id === after?.id) return null;
  }
  if (parentId === activeId) return null;
  return {
    parent: parentId,
    sort_order: labelPosition(before?.label.sort_order ?? null, after?.label.sort_order ?? null),
  };
}

// ───────────────────────────── estimates ─────────────────────────────

type Point = { id: string; key: number; value: string };
/** A row of the points editor: an existing point (id) or a new one. */
export type PointRow = { id?: string; value: string };

export type PointOp =
  | { kind: "update"; id: string; value: string }
  | { kind: "add"; key: number; value: string }
  | { kind: "remove"; id: string };

/**
 * The requests that turn `points` into `rows`, in an order the server accepts. It refuses to go
 * above 6 or below 2 points at any moment and refuses a value twice, so: removals first (while
 * more than 2 remain, freeing their values), then value changes, then additions (with the rest
 * of the removals once there is room). New points get keys after the highest one, in order.
 */
export function planPointEdits(points: readonly Point[], rows: readonly PointRow[]): PointOp[] {
  const kept = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
  const updates: PointOp[] = [];
  for (const row of rows) {
    if (!row.id) continue;
    const current = points.find((p) => p.id === row.id);
    const value = row.value.trim();
    if (current && current.value !== value) updates.push({ kind: "update", id: row.id, value });
  }
  let key = points.reduce((max, p) => Math.max(max, p.key), 0);
  const adds = rows.filter((r) => !r.id).map((r) => ({ kind: "add" as const, key: ++key, value: r.value.trim() }));
  const removes = points.filter((p) => !kept.has(p.id)).map((p) => ({ kind: "remove" as const, id: p.id }));
  const ordered: PointOp[] = [];
  let count = points.length;
  while (removes.length > 0 && count > ESTIMATE_POINTS_MIN) {
    ordered.push(removes.shift() as PointOp);
    count -= 1;
  }
  ordered.push(...updates);
  for (const add of adds) {
    while (count >= ESTIMATE_POINTS_MAX && removes.length > 0) {
      ordered.push(removes.shift() as PointOp);
      count -= 1;
    }
    ordered.push(add);
    count += 1;
  }
  ordered.push(...removes);
  return ordered;
}
