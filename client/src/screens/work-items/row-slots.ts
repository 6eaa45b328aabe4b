/**
 * Element slots for a virtual list's rows: which React key each row on screen renders under.
 *
 * A row keyed by its item unmounts when the item leaves the screen and a new one mounts for the
 * item that takes its place. After a filter change almost every row on screen is another item,
 * so the board tore down and built some thirty rows of pickers, icons and listeners in the click's
 * task. With slots, a row that stays keeps its element and slot (its key), and a row that
 * arrives takes the slot of one that left: React updates that element's text and attributes in
 * place instead (bench browser-board: filter change → painted).
 *
 * A slot is not handed on while its row is in use: it holds the focus, or one of its pickers is
 * open. A picker opened on one item must never show, or change, another; that row unmounts as
 * before when its item goes.
 */

export type RowSlots = {
  /** The slot of each row (its id) on screen at the last render. */
  readonly byRow: ReadonlyMap<string, string>;
  /** How many slots were ever made (the next one's number). */
  readonly made: number;
};

export const NO_SLOTS: RowSlots = { byRow: new Map(), made: 0 };

/**
 * The slots of the rows now on screen (`ids`, in order), from those of the last render: a row
 * that stays keeps its slot; a new row takes a free one (of a row that left and is not `busy`),
 * or a new slot when none is free. No two rows share a slot.
 */
export function assignRowSlots(previous: RowSlots, ids: readonly string[], busy: ReadonlySet<string>): RowSlots {
  const byRow = new Map<string, string>();
  const taken = new Set<string>();
  for (const id of ids) {
    const slot = previous.byRow.get(id);
    if (slot !== undefined && !byRow.has(id)) {
      byRow.set(id, slot);
      taken.add(slot);
    }
  }
  const free: string[] = [];
  for (const slot of previous.byRow.values()) if (!taken.has(slot) && !busy.has(slot)) free.push(slot);
  // Handed out from the front: the rows that arrive take the slots in the order they were on screen.
  free.reverse();
  let made = previous.made;
  for (const id of ids) {
    if (byRow.has(id)) continue;
    const slot = free.pop() ?? `s${made++}`;
    byRow.set(id, slot);
  }
  return { byRow, made };
}

/**
 * The slots of a list's rows that are in use: the row holding the focus, and rows with an open
 * picker (its trigger says `aria-expanded="true"`). Rows name their slot in `data-slot`.
 */
export function busySlots(container: HTMLElement | null): ReadonlySet<string> {
  const busy = new Set<string>();
  if (!container) return busy;
  for (const row of container.querySelectorAll<HTMLElement>(
    "[data-slot]:focus-within, [data-slot]:has([aria-expanded='true'])",
  )) {
    const slot = row.dataset.slot;
    if (slot) busy.add(slot);
  }
  return busy;
}
