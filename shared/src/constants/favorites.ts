/**
 * Favorites (product-domain §3 Favorite, §4 favorites, §9 favorite sequence): a person's own
 * shortcuts in a workspace's sidebar, optionally filed in folders one level deep.
 */

/** What a favorite may point at; a folder points at nothing and holds other favorites. */
export const FAVORITE_ENTITY_TYPES = ["project", "cycle", "module", "view", "page", "folder"] as const;
export type FavoriteEntityType = (typeof FAVORITE_ENTITY_TYPES)[number];

/** The gap between neighbours' sequence, and the first sequence (the reference's numbers). */
export const FAVORITE_SEQUENCE_STEP = 10_000;
export const FAVORITE_FIRST_SEQUENCE = 65_535;
/** A folder's name, at most (the reference's column). */
export const FAVORITE_NAME_MAX = 255;

/**
 * The sequence of a favorite dropped between `before` and `after` (either may be missing, at
 * an end of the list): the midpoint between neighbours, a step past the last, a step before the
 * first, or the first sequence in an empty list.
 */
export function favoriteSequenceBetween(before: number | undefined, after: number | undefined): number {
  if (before !== undefined && after !== undefined) return (before + after) / 2;
  if (before !== undefined) return before + FAVORITE_SEQUENCE_STEP;
  if (after !== undefined) return after - FAVORITE_SEQUENCE_STEP;
  return FAVORITE_FIRST_SEQUENCE;
}
