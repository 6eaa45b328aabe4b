/** Sidebar entries as the reference answers them. */
import type { SidebarPreference, SidebarPreferences } from "@tideline/shared";
import type { workspaceUserPreferences } from "../../db/schema.ts";

export type SidebarPreferenceRow = typeof workspaceUserPreferences.$inferSelect;

/** One entry as the reference's serializer answers a PATCH :key/ (key, is_pinned, sort_order). */
export function presentSidebarPreference(row: SidebarPreferenceRow) {
  return { key: row.key, is_pinned: row.isPinned, sort_order: row.sortOrder };
}

/**
 * The GET answer: an object keyed by entry key, `{ views: { is_pinned, sort_order }, … }`, its
 * keys in the rows' order (the caller passes them by sort_order, as the reference orders them).
 */
export function presentSidebarPreferences(rows: readonly SidebarPreferenceRow[]): SidebarPreferences {
  const answer: Record<string, SidebarPreference> = {};
  for (const row of rows) answer[row.key] = { is_pinned: row.isPinned, sort_order: row.sortOrder };
  return answer;
}
