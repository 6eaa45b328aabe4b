/** Quick links and home widgets as the reference answers them (snake_case, ISO timestamps). */
import type { workspaceHomePreferences, workspaceUserLinks } from "../../db/schema.ts";

export type QuickLinkRow = typeof workspaceUserLinks.$inferSelect;
export type HomePreferenceRow = typeof workspaceHomePreferences.$inferSelect;

/** A quick link: every field of the reference's WorkspaceUserLinkSerializer. */
export function presentQuickLink(row: QuickLinkRow) {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    deleted_at: null,
    title: row.title,
    url: row.url,
    metadata: row.metadata,
    workspace: row.workspaceId,
    owner: row.ownerId,
    created_by: row.createdById,
    updated_by: row.updatedById,
  };
}

/** A home widget as the reference's list answers it (key, is_enabled, config, sort_order). */
export function presentHomePreference(row: HomePreferenceRow) {
  return { key: row.key, is_enabled: row.isEnabled, config: row.config, sort_order: row.sortOrder };
}
