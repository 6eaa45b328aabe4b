/**
 * What the pages screens decide without the server: which tab a page belongs to, the list as
 * filtered and sorted, and what the caller may do with a page (product-domain §6). The server
 * enforces every rule; these only decide what the UI offers, so nobody meets a button that can
 * only fail.
 */
import { PAGE_ACCESS, PAGE_UNTITLED, ROLE } from "@tideline/shared";

/** The fields of a page these rules read (stores/pages.ts has the whole shape). */
export type PageFacts = {
  id: string;
  name: string;
  owned_by: string;
  access: number;
  is_locked: boolean;
  archived_at: string | null;
  is_favorite: boolean;
  project_ids: readonly string[];
  created_at: string;
  updated_at: string;
};

export const PAGE_TABS = ["public", "private", "archived"] as const;
export type PageTab = (typeof PAGE_TABS)[number];

export const PAGE_SORTS = ["updated", "name", "created"] as const;
export type PageSort = (typeof PAGE_SORTS)[number];

export function isPageTab(value: string | null | undefined): value is PageTab {
  return PAGE_TABS.includes(value as PageTab);
}

export function isPageSort(value: string | null | undefined): value is PageSort {
  return PAGE_SORTS.includes(value as PageSort);
}

/** Archived pages live in Archived whatever their access; the others by access. */
export function pageTab(page: Pick<PageFacts, "access" | "archived_at">): PageTab {
  if (page.archived_at) return "archived";
  return page.access === PAGE_ACCESS.private ? "private" : "public";
}

/** The name as shown: a page without one is "Untitled". */
export function pageTitle(name: string | null | undefined): string {
  const trimmed = (name ?? "").trim();
  return trimmed || PAGE_UNTITLED;
}

export type PageListQuery = {
  tab: PageTab;
  search?: string;
  favoritesOnly?: boolean;
  sort?: PageSort;
};

const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/** Newest first for dates; names A→Z (Untitled sorts as its shown name). Ties: newest created, then id. */
export function comparePages(sort: PageSort): (a: PageFacts, b: PageFacts) => number {
  const tie = (a: PageFacts, b: PageFacts) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id);
  if (sort === "name") return (a, b) => collator.compare(pageTitle(a.name), pageTitle(b.name)) || tie(a, b);
  if (sort === "created") return tie;
  return (a, b) => b.updated_at.localeCompare(a.updated_at) || tie(a, b);
}

/** The pages of one tab, matching the search (case-insensitive, in the shown name), sorted. */
export function filterPages<T extends PageFacts>(list: readonly T[], query: PageListQuery): T[] {
  const needle = (query.search ?? "").trim().toLocaleLowerCase();
  return list
    .filter(
      (p) =>
        pageTab(p) === query.tab &&
        (!query.favoritesOnly || p.is_favorite) &&
        (!needle || pageTitle(p.name).toLocaleLowerCase().includes(needle)),
    )
    .sort(comparePages(query.sort ?? "updated"));
}

/** A row of the pages list: the page, how deep it sits, and how many sub-pages it shows. */
export type PageTreeRow<T> = { page: T; depth: number; children: number };

/**
 * The filtered, sorted pages as a tree: a page sits under its parent when the parent is in the
 * same list (same tab, same filters); otherwise at the top (its parent is private to someone
 * else, in another tab, or filtered out). Sub-pages show only under an expanded parent and keep
 * the list's order among siblings. `flat` lists every page at the top (while searching, where
 * a match should not hide under a collapsed parent).
 */
export function pageTreeRows<T extends { id: string; parent: string | null }>(
  pages: readonly T[],
  expanded: ReadonlySet<string>,
  flat = false,
): PageTreeRow<T>[] {
  if (flat) return pages.map((page) => ({ page, depth: 0, children: 0 }));
  const listed = new Set(pages.map((p) => p.id));
  const childrenOf = new Map<string, T[]>();
  const roots: T[] = [];
  for (const page of pages) {
    if (page.parent && page.parent !== page.id && listed.has(page.parent)) {
      const siblings = childrenOf.get(page.parent);
      if (siblings) siblings.push(page);
      else childrenOf.set(page.parent, [page]);
    } else roots.push(page);
  }
  // Pages in a parent loop (stale data; the server refuses loops) hang under no root: they
  // become roots themselves rather than vanish.
  const reachable = new Set<string>();
  const reach = (id: string) => {
    if (reachable.has(id)) return;
    reachable.add(id);
    for (const child of childrenOf.get(id) ?? []) reach(child.id);
  };
  for (const root of roots) reach(root.id);
  const rootIds = new Set(roots.map((r) => r.id));
  for (const page of pages) {
    if (!reachable.has(page.id)) {
      roots.push(page);
      rootIds.add(page.id);
      reach(page.id);
    }
  }
  const rows: PageTreeRow<T>[] = [];
  const seen = new Set<string>();
  const visit = (page: T, depth: number) => {
    if (seen.has(page.id)) return;
    seen.add(page.id);
    const children = (childrenOf.get(page.id) ?? []).filter((c) => !rootIds.has(c.id));
    rows.push({ page, depth, children: children.length });
    if (expanded.has(page.id)) for (const child of children) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return rows;
}

/** How many pages each tab holds (before search). */
export function tabCounts(list: readonly PageFacts[]): Record<PageTab, number> {
  const counts: Record<PageTab, number> = { public: 0, private: 0, archived: 0 };
  for (const p of list) counts[pageTab(p)] += 1;
  return counts;
}

/** The role that counts for a page: the caller's highest across the page's projects. */
export function highestRole(
  projectIds: readonly string[],
  roleOf: (projectId: string) => number | null | undefined,
  fallback: number | null | undefined = 0,
): number {
  let best = fallback ?? 0;
  for (const id of projectIds) best = Math.max(best, roleOf(id) ?? 0);
  return best;
}

export type PageViewer = {
  userId: string | null | undefined;
  /** Highest role across the page's projects (highestRole). */
  role: number;
  /** Role in the project the page is shown in: a duplicate is created there. */
  projectRole: number;
};

export type ReadOnlyReason = "archived" | "locked" | "noAccess";

export type PagePermissions = {
  isOwner: boolean;
  /** Edit name and body when the page allows it (owner, or public and member+). */
  mayEdit: boolean;
  /** Edit now: mayEdit, not archived, not locked. */
  canEdit: boolean;
  /** Why the body is read-only, if it is. */
  readOnly: ReadOnlyReason | null;
  canChangeAccess: boolean;
  canLock: boolean;
  canArchive: boolean;
  canRestore: boolean;
  canDelete: boolean;
  canMove: boolean;
  canDuplicate: boolean;
  /** Add to favorites (removing one's own favorite is always allowed). */
  canFavorite: boolean;
  canRestoreVersion: boolean;
};

/** What the viewer may do with the page now (mirrors live-server/src/routes/pages/policy.ts). */
export function pagePermissions(page: PageFacts, viewer: PageViewer): PagePermissions {
  const isOwner = Boolean(viewer.userId) && page.owned_by === viewer.userId;
  const isPrivate = page.access === PAGE_ACCESS.private;
  const mayEdit = isOwner || (!isPrivate && viewer.role >= ROLE.member);
  const archived = Boolean(page.archived_at);
  const manage = isOwner || (!isPrivate && viewer.role >= ROLE.admin);
  const canEdit = mayEdit && !archived && !page.is_locked;
  const readOnly: ReadOnlyReason | null = archived
    ? "archived"
    : page.is_locked
      ? "locked"
      : mayEdit
        ? null
        : "noAccess";
  return {
    isOwner,
    mayEdit,
    canEdit,
    readOnly,
    canChangeAccess: manage && !archived,
    canLock: manage && !archived,
    canArchive: manage && !archived,
    canRestore: manage && archived,
    canDelete: manage && archived,
    canMove: manage && !archived,
    canDuplicate: viewer.role >= ROLE.member && viewer.projectRole >= ROLE.member,
    canFavorite: viewer.role >= ROLE.member && !archived,
    canRestoreVersion: canEdit,
  };
}

/** Projects a page may move to: active ones where the caller is a member (owner) or admin (anyone else). */
export function moveTargets<P extends { id: string; archived_at: string | null; member_role: number | null }>(
  projects: readonly P[],
  currentProjectId: string,
  page: Pick<PageFacts, "project_ids">,
  isOwner: boolean,
): P[] {
  const needed = isOwner ? ROLE.member : ROLE.admin;
  return projects.filter(
    (p) =>
      p.id !== currentProjectId && !p.archived_at && !page.project_ids.includes(p.id) && (p.member_role ?? 0) >= needed,
  );
}
