/**
 * The public API answers a model as the reference's serializers with fields "__all__" do:
 * every column in snake_case, a foreign key under the relation's name (`project`, `state`,
 * `created_by`), timestamps in ISO. Columns that are ours alone (search text, Yjs state,
 * flags the reference does not have) are left out per call.
 */
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** Columns ending in Id that are not references. */
const NOT_REFERENCES = new Set(["sequenceId", "lastSequenceId", "externalId"]);

export function dumpRow(row: Record<string, unknown>, omit: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (omit.includes(key)) continue;
    const name = key !== "id" && key.endsWith("Id") && !NOT_REFERENCES.has(key) ? snake(key.slice(0, -2)) : snake(key);
    out[name] = value instanceof Date ? value.toISOString() : value;
  }
  // Every reference model has deleted_at (soft delete); rows here are gone when deleted.
  if (!("deleted_at" in out)) out.deleted_at = null;
  return out;
}

/** `?fields=a,b` of the reference's serializers: only those keys (unknown ones ignored). */
export function pickFields<T extends Record<string, unknown>>(obj: T, fields: readonly string[] | null): T {
  if (!fields) return obj;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in obj) out[f] = obj[f];
  return out as T;
}

/** A comma-separated query list (`fields`, `expand`), or null when absent. */
export function csv(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const list = String(value)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : null;
}
