/**
 * How a view appears in API responses and view.* events (snake_case; the reference's
 * IProjectView). The name is answered as stored, possibly empty: clients show "Untitled".
 * `is_favorite` is the caller's own and is left out of events (they go to every member); a
 * private view's events carry only who may see it, never its name or filters.
 */
import { readDisplayProperties, readSavedDisplayFilters } from "@tideline/shared";
import type { issueViews } from "../../db/schema.ts";
import { VIEW_ACCESS } from "./schema.ts";

export type ViewRow = typeof issueViews.$inferSelect;

export function presentView(v: ViewRow, extra: { isFavorite?: boolean } = {}) {
  return {
    id: v.id,
    workspace: v.workspaceId,
    workspace_id: v.workspaceId,
    project: v.projectId,
    project_id: v.projectId,
    name: v.name,
    description: v.description,
    filters: v.filters,
    display_filters: readSavedDisplayFilters(v.displayFilters),
    display_properties: readDisplayProperties(v.displayProperties),
    access: v.access,
    is_locked: v.isLocked,
    is_favorite: extra.isFavorite ?? false,
    anchor: v.anchor,
    owned_by: v.ownedById,
    logo_props: v.logoProps,
    sort_order: v.sortOrder,
    archived_at: v.archivedAt ? v.archivedAt.toISOString() : null,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
    created_by: v.createdById,
    updated_by: v.updatedById,
  };
}

export type PresentedView = ReturnType<typeof presentView>;

/**
 * The view as events carry it. A private view goes out as its id, access and owner only:
 * the project channel reaches every member, and only the owner may read it (the owner's
 * client fetches it; the others drop it if they held it while it was public).
 */
export function viewEventData(v: ViewRow): Record<string, unknown> {
  if (v.access === VIEW_ACCESS.private) {
    return {
      id: v.id,
      workspace_id: v.workspaceId,
      project_id: v.projectId,
      access: v.access,
      owned_by: v.ownedById,
      updated_at: v.updatedAt.toISOString(),
    };
  }
  const { is_favorite: _favorite, ...rest } = presentView(v);
  return rest;
}
