/**
 * What the cycle and module pickers offer and what their chips say, as pure functions (unit
 * tested; cycle-module-pickers.tsx renders them). The server refuses new items in a completed or
 * archived cycle and in an archived module, so those are never offered; an item's own completed
 * cycle still shows, as a row that can't be picked again.
 */
import { type CycleStatus, compareCycles } from "@tideline/shared";

export type PickerCycle = {
  id: string;
  name: string;
  status: CycleStatus;
  start_date: string | null;
  end_date: string | null;
  archived_at: string | null;
};

export type CycleEntry<C extends PickerCycle = PickerCycle> = { cycle: C; pickable: boolean };

/** The statuses a cycle picker offers, in its order (completed cycles take no new items). */
const OFFERED_RANK: Partial<Record<CycleStatus, number>> = { current: 0, upcoming: 1, draft: 2 };

/**
 * The cycles a picker lists: current, then upcoming (soonest first), then drafts, by name within
 * (the cycle list's own order); completed and archived ones left out — except the item's own
 * cycle (`currentId`), listed last and not pickable, so the picker shows where the item is.
 * The status is the server's (it knows the project's time zone); `today` only breaks ties.
 */
export function cyclePickerEntries<C extends PickerCycle>(
  cycles: readonly C[],
  currentId: string | null | undefined,
  today: string,
): CycleEntry<C>[] {
  const offered = cycles
    .filter((c) => !c.archived_at && OFFERED_RANK[c.status] !== undefined)
    .sort((a, b) => (OFFERED_RANK[a.status] ?? 9) - (OFFERED_RANK[b.status] ?? 9) || compareCycles(a, b, today));
  const entries: CycleEntry<C>[] = offered.map((cycle) => ({ cycle, pickable: true }));
  if (currentId && !offered.some((c) => c.id === currentId)) {
    const own = cycles.find((c) => c.id === currentId);
    if (own) entries.push({ cycle: own, pickable: false });
  }
  return entries;
}

export type ModuleChip = {
  /** The chip's text: the module's name, or "2 modules"; null when the item is in none. */
  text: string | null;
  /** Every module's name, for the tooltip and the accessible name. */
  title: string;
};

/**
 * A modules chip: nothing for no module, the name for one, a count for several (the tooltip
 * lists them). Ids the project doesn't know (an archived or deleted module) are left out.
 */
export function moduleChip(
  ids: readonly string[],
  nameOf: (id: string) => string | undefined,
  countText: (count: number) => string,
): ModuleChip {
  const names = ids.map(nameOf).filter((n): n is string => n !== undefined);
  if (names.length === 0) return { text: null, title: "" };
  return { text: names.length === 1 ? (names[0] as string) : countText(names.length), title: names.join(", ") };
}

/** Toggle one id in a multi-select value (keeps the order; adds at the end). */
export function toggleId(ids: readonly string[], id: string): string[] {
  return ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
}
