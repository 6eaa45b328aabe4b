/** A sticky as the reference's StickySerializer answers it (all fields; `description` is not kept). */
import type { stickies } from "../../db/schema.ts";

export type StickyRow = typeof stickies.$inferSelect;

export function presentSticky(row: StickyRow) {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    deleted_at: null,
    name: row.name,
    description: {},
    description_html: row.descriptionHtml,
    description_stripped: row.descriptionStripped,
    description_binary: null,
    logo_props: row.logoProps,
    color: row.color,
    background_color: row.backgroundColor,
    sort_order: row.sortOrder,
    workspace: row.workspaceId,
    owner: row.ownerId,
    created_by: row.createdById,
    updated_by: row.updatedById,
  };
}
export type PresentedSticky = ReturnType<typeof presentSticky>;
