/**
 * Position arithmetic for ordered lists (product-domain §4, §5, §9). Positions are floats, so
 * an item moves by writing one number: the midpoint of its new neighbours, or a step beyond
 * the end. Each list kind has its own constants.
 */

/** States: top = midway to the previous neighbour or −65535; bottom = +65535; default 65535. */
export const STATE_SEQUENCE_DEFAULT = 65535;
export const STATE_SEQUENCE_STEP = 65535;

/** Work items: first = first − 10000, last = last + 10000, otherwise the average. */
export const ISSUE_SORT_STEP = 10000;
export const ISSUE_SORT_DEFAULT = 65535;

/** Labels: between = average; before the first = half; after the last = +10000; alone = 65535. */
export const LABEL_SORT_STEP = 10000;
export const LABEL_SORT_DEFAULT = 65535;

/**
 * The position for an item placed between `before` (the neighbour above, or null at the top)
 * and `after` (the neighbour below, or null at the bottom).
 */
export function positionBetween(
  before: number | null,
  after: number | null,
  rules: { step: number; empty: number; beforeFirst?: (first: number) => number },
): number {
  if (before === null && after === null) return rules.empty;
  if (before === null) return rules.beforeFirst ? rules.beforeFirst(after as number) : (after as number) - rules.step;
  if (after === null) return before + rules.step;
  return (before + after) / 2;
}

export function statePosition(before: number | null, after: number | null): number {
  return positionBetween(before, after, { step: STATE_SEQUENCE_STEP, empty: STATE_SEQUENCE_DEFAULT });
}

export function issuePosition(before: number | null, after: number | null): number {
  return positionBetween(before, after, { step: ISSUE_SORT_STEP, empty: ISSUE_SORT_DEFAULT });
}

export function labelPosition(before: number | null, after: number | null): number {
  return positionBetween(before, after, {
    step: LABEL_SORT_STEP,
    empty: LABEL_SORT_DEFAULT,
    beforeFirst: (first) => first / 2,
  });
}

/** Position for a new item appended after the current last one (or the default when empty). */
export function appendPosition(last: number | null, step: number, empty: number): number {
  return last === null ? empty : last + step;
}
