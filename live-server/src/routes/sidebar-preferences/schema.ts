/**
 * Request shapes of the sidebar preferences API. Unknown fields are ignored (http/errors.ts): the
 * reference's client sends an entry's `key` back in a PATCH :key/ body, which is not written.
 */
import { z } from "zod";

const isPinned = z.boolean("is_pinned must be true or false");
const sortOrder = z.number("sort_order must be a number").finite("sort_order must be a number");

/** PATCH /sidebar-preferences/:key/: pin or unpin the entry, and/or move it. */
export const updateSidebarPreferenceBody = z.object({ is_pinned: isPinned, sort_order: sortOrder }).partial();
export type UpdateSidebarPreferenceBody = z.output<typeof updateSidebarPreferenceBody>;

/** At most this many entries in one bulk PATCH (there are seven keys; a few repeats are harmless). */
export const SIDEBAR_BULK_MAX = 50;

/**
 * PATCH /sidebar-preferences/ (the reference's newer client): a list of entries, each naming its
 * key. An entry without a key, or with a key that is not an entry, is skipped, as the reference
 * skips it; a wrong type anywhere refuses the whole list and nothing is stored.
 */
export const bulkSidebarPreferencesBody = z
  .array(
    z.object({
      key: z.string("key must be a string").max(255, "At most 255 characters").nullish(),
      is_pinned: isPinned.optional(),
      sort_order: sortOrder.optional(),
    }),
    "Send a list of { key, is_pinned, sort_order }",
  )
  .max(SIDEBAR_BULK_MAX, `At most ${SIDEBAR_BULK_MAX} entries`);
export type BulkSidebarPreferencesBody = z.output<typeof bulkSidebarPreferencesBody>;
