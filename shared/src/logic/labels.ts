/**
 * Label tree rules (product-domain §3 Label: nested by parent). A label may not sit under
 * itself or under one of its own descendants, or the tree would have a loop.
 */

/**
 * True when making `parentId` the parent of `labelId` would put `labelId` among its own
 * ancestors. `parentOf` maps every label of the project to its current parent. A loop that
 * already exists in the data stops the walk instead of spinning forever.
 */
export function labelParentCreatesCycle(
  parentOf: ReadonlyMap<string, string | null>,
  labelId: string,
  parentId: string | null,
): boolean {
  const seen = new Set<string>();
  let current = parentId;
  while (current !== null) {
    if (current === labelId) return true;
    if (seen.has(current)) return true;
    seen.add(current);
    current = parentOf.get(current) ?? null;
  }
  return false;
}
