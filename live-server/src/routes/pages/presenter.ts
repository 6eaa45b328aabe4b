/** How pages, page versions and page favorites appear in API responses and events (snake_case). */
import { PAGE_ACCESS } from "@tideline/shared";
import type { pages, pageVersions } from "../../db/schema.ts";
import { type FavoriteRow, presentFavorite } from "../../services/favorites.ts";

type PageRow = typeof pages.$inferSelect;
type VersionRow = typeof pageVersions.$inferSelect;

/** What the page list needs besides the row: its projects and the caller's favorite. */
export type PageFacts = { projectIds: string[]; isFavorite: boolean };

/** A list entry: everything but the body (which can be large; the editor loads it live). */
export function presentPage(p: PageRow, facts: PageFacts) {
  return {
    id: p.id,
    name: p.name,
    owned_by: p.ownedById,
    access: p.access,
    color: p.color,
    logo_props: p.logoProps,
    view_props: p.viewProps,
    is_locked: p.isLocked,
    archived_at: p.archivedAt,
    is_favorite: facts.isFavorite,
    parent: p.parentId,
    sort_order: p.sortOrder,
    workspace: p.workspaceId,
    project_ids: facts.projectIds,
    // Fields of the spec's Page this edition does not fill: labels, publishing, teams.
    label_ids: [] as string[],
    anchor: null,
    team: null,
    created_by: p.createdById,
    updated_by: p.updatedById,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/** One page with its body as HTML (the plain-text copy stays server-side, for search). */
export function presentPageDetail(p: PageRow, facts: PageFacts) {
  return { ...presentPage(p, facts), description_html: p.descriptionHtml };
}

/**
 * The `data` of a page event. Events go to every member of the page's projects, so a private
 * page is reduced to what lets others drop it from their lists; its owner's tabs refetch it.
 */
export function presentPageEvent(p: PageRow, facts: PageFacts) {
  if (p.access !== PAGE_ACCESS.private) return presentPage(p, { ...facts, isFavorite: false });
  return {
    id: p.id,
    access: p.access,
    owned_by: p.ownedById,
    workspace: p.workspaceId,
    project_ids: facts.projectIds,
    archived_at: p.archivedAt,
    is_locked: p.isLocked,
    updated_at: p.updatedAt,
  };
}

export function presentVersion(v: VersionRow) {
  return {
    id: v.id,
    page: v.pageId,
    owned_by: v.ownedById,
    last_saved_at: v.lastSavedAt,
    created_at: v.createdAt,
  };
}

export function presentVersionDetail(v: VersionRow) {
  return { ...presentVersion(v), description_html: v.descriptionHtml };
}

/** A page favorite, with enough of the page to draw it in the sidebar. */
export function presentPageFavorite(f: FavoriteRow, p: PageRow) {
  return presentFavorite(f, { id: p.id, name: p.name, logo_props: p.logoProps, access: p.access });
}
