/**
 * State ordering (product-domain §4): states list by group in the fixed order backlog,
 * unstarted, started, completed, cancelled, then by their sequence within the group.
 */
import { STATE_GROUPS, type StateGroup } from "../constants/project.ts";

export function isStateGroup(value: unknown): value is StateGroup {
  return typeof value === "string" && (STATE_GROUPS as readonly string[]).includes(value);
}

/** Rank of a group in the fixed order; unknown groups sort last. */
export function stateGroupRank(group: string): number {
  const index = (STATE_GROUPS as readonly string[]).indexOf(group);
  return index === -1 ? STATE_GROUPS.length : index;
}

/** Comparator: group order, then sequence, then name so equal sequences still list stably. */
export function compareStates(
  a: { group: string; sequence: number; name: string },
  b: { group: string; sequence: number; name: string },
): number {
  return stateGroupRank(a.group) - stateGroupRank(b.group) || a.sequence - b.sequence || a.name.localeCompare(b.name);
}

/** A colour as the pickers store it: `#` and 3 or 6 hex digits. */
export function isHexColor(value: unknown): value is string {
  return typeof value === "string" && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value);
}
