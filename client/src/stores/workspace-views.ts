/**
 * Workspace (global) views: the saved views of a workspace (`/views/`), the four built-in views
 * (all-issues, assigned, created, subscribed — filters the client applies, product-domain §2),
 * and the workspace work-item list they read (`GET /issues/`, paged by cursor).
 *
 * Shapes: live-server/src/routes/views/README.md. Only the actions here call the API; view
 * changes are optimistic and rolled back with a toast when the server refuses.
 */
import type { IssueFilterKey } from "@tideline/shared";
import { toast } from "sonner";
import { api, errorMessage } from "../lib/api";
import { mutationHeaders } from "../lib/client-mutations";
import { defineStore } from "../lib/store";
import type { StoredFilters } from "./work-item-view";
import type { WorkItem } from "./work-items";

export type WorkspaceView = {
  id: string;
  workspace: string;
  workspace_id: string;
  project: string | null;
  project_id: string | null;
  name: string;
  description: string;
  filters: StoredFilters;
  display_filters: { layout?: string; order_by?: string; [key: string]: unknown };
  display_properties: Record<string, boolean>;
  /** 1 public, 0 private (the reference's EViewAccess). */
  access: 0 | 1;
  is_locked: boolean;
  is_favorite: boolean;
  owned_by: string;
  sort_order: number;
  created_at: string;
  updated_at: string;
  created_by: string;
};

export const BUILT_IN_VIEWS = ["all-issues", "assigned", "created", "subscribed"] as const;
export type BuiltInView = (typeof BUILT_IN_VIEWS)[number];

export function isBuiltInView(id: string): id is BuiltInView {
  return (BUILT_IN_VIEWS as readonly string[]).includes(id);
}

/** The filter key a built-in view fixes to the caller (none for all-issues). */
export function builtInKey(view: BuiltInView): IssueFilterKey | null {
  switch (view) {
    case "assigned":
      return "assignees";
    case "created":
      return "created_by";
    case "subscribed":
      return "subscriber";
    default:
      return null;
  }
}

/** A built-in view as filters (the server README's table): assigned → assignees=me, etc. */
export function builtInFilters(view: BuiltInView, meId: string): StoredFilters {
  const key = builtInKey(view);
  return key ? { [key]: [meId] } : {};
}

/** Orderings offered on the workspace list (server names, issues/README.md). */
export const WORKSPACE_ORDERS = ["-created_at", "created_at", "-updated_at", "priority", "target_date"] as const;
export const DEFAULT_WORKSPACE_ORDER = "-created_at";

/** Filter keys the workspace filter menu edits (the rest of a saved view's filters are kept as they are). */
export const WORKSPACE_FILTER_KEYS = ["project", "priority", "state_group", "assignees", "created_by"] as const;

/**
 * The query for `GET /issues/`: the user's filters with the built-in view's own filter over
 * them (a built-in view's key is fixed, so the user can't widen it), the order and a page.
 */
export function listQuery(options: {
  filters: StoredFilters;
  builtIn?: BuiltInView | null;
  meId: string;
  orderBy: string;
  cursor?: string | null;
  perPage?: number;
}): Record<string, string> {
  const merged: StoredFilters = { ...options.filters };
  if (options.builtIn) Object.assign(merged, builtInFilters(options.builtIn, options.meId));
  const query: Record<string, string> = {
    layout: "spreadsheet",
    order_by: options.orderBy || DEFAULT_WORKSPACE_ORDER,
    per_page: String(options.perPage ?? PAGE_SIZE),
  };
  for (const [key, values] of Object.entries(merged)) if (values?.length) query[key] = values.join(",");
  if (options.cursor) query.cursor = options.cursor;
  return query;
}

/** Filters without empty keys, so "no filter" is always `{}` (saved and compared that way). */
export function compactFilters(filters: StoredFilters): StoredFilters {
  const out: StoredFilters = {};
  for (const [key, values] of Object.entries(filters) as [IssueFilterKey, string[] | undefined][])
    if (values?.length) out[key] = [...values];
  return out;
}

/** Same filters, whatever the order of keys and values? */
export function sameFilters(a: StoredFilters, b: StoredFilters): boolean {
  const norm = (f: StoredFilters) =>
    JSON.stringify(
      Object.entries(compactFilters(f))
        .map(([k, v]) => [k, [...(v ?? [])].sort()] as const)
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
    );
  return norm(a) === norm(b);
}

// ───────────── the paged list ─────────────

export const PAGE_SIZE = 50;

export type WorkspaceIssuesPage = {
  results: WorkItem[];
  total_count: number;
  next_cursor: string | null;
  next_page_results: boolean;
};

export type PagedList = {
  items: WorkItem[];
  total: number;
  /** The cursor of the next page, null when everything is loaded. */
  next: string | null;
};

/**
 * Add a page to what is loaded. Rows already there (an item that moved between pages while we
 * paged, because something changed its order) keep their first place; the newest copy wins.
 */
export function mergePage(list: PagedList | null, page: WorkspaceIssuesPage): PagedList {
  const next = page.next_page_results ? page.next_cursor : null;
  if (!list) return { items: dedupe(page.results), total: page.total_count, next };
  const index = new Map(list.items.map((item, i) => [item.id, i]));
  const items = [...list.items];
  for (const item of page.results) {
    const at = index.get(item.id);
    if (at === undefined) {
      index.set(item.id, items.length);
      items.push(item);
    } else items[at] = item;
  }
  return { items, total: page.total_count, next };
}

function dedupe(items: readonly WorkItem[]): WorkItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
}

/** The cursors of the first `count` pages (`perPage:page:0`), to reload what is shown. */
export function cursorsFor(loaded: number, perPage = PAGE_SIZE): string[] {
  const pages = Math.max(1, Math.ceil(loaded / perPage));
  return Array.from({ length: pages }, (_, i) => `${perPage}:${i}:0`);
}

const base = (slug: string) => `/api/workspaces/${slug}`;

export function fetchWorkspaceIssues(slug: string, query: Record<string, string>): Promise<WorkspaceIssuesPage> {
  return api.get(`${base(slug)}/issues/`, { searchParams: query }).json<WorkspaceIssuesPage>();
}

// ───────────── saved views ─────────────

type ViewList = { status: "loading" | "ready" | "error"; views: WorkspaceView[] };

/** Filters and order the user has set on a view and not saved (per `slug/viewId`, for the session). */
export type ViewDraft = { filters: StoredFilters; orderBy: string };

export const workspaceViews = defineStore(() => ({
  bySlug: {} as Record<string, ViewList>,
  drafts: {} as Record<string, ViewDraft>,
}));

export function setViewDraft(slug: string, viewId: string, draft: ViewDraft | null): void {
  const key = `${slug}/${viewId}`;
  if (draft) workspaceViews.drafts[key] = { filters: compactFilters(draft.filters), orderBy: draft.orderBy };
  else delete workspaceViews.drafts[key];
}

/** Load (or reload) the workspace's saved views the caller may see. */
export async function loadWorkspaceViews(slug: string): Promise<void> {
  const current = workspaceViews.bySlug[slug];
  if (!current) workspaceViews.bySlug[slug] = { status: "loading", views: [] };
  try {
    const views = await api.get(`${base(slug)}/views/`).json<WorkspaceView[]>();
    workspaceViews.bySlug[slug] = { status: "ready", views };
  } catch (error) {
    const list = workspaceViews.bySlug[slug];
    if (list && list.status !== "ready") list.status = "error";
    throw error;
  }
}

export type ViewInput = {
  name: string;
  description?: string;
  filters: StoredFilters;
  display_filters?: { order_by: string };
  access?: 0 | 1;
};

/** Create a saved view; answers it, or null (with a toast) when the server refuses. */
export async function createWorkspaceView(slug: string, input: ViewInput): Promise<WorkspaceView | null> {
  try {
    const view = await api
      .post(`${base(slug)}/views/`, {
        json: { ...input, display_filters: { layout: "spreadsheet", ...input.display_filters } },
        headers: mutationHeaders(),
      })
      .json<WorkspaceView>();
    const list = workspaceViews.bySlug[slug];
    if (list) list.views = [view, ...list.views.filter((v) => v.id !== view.id)];
    return view;
  } catch (error) {
    toast.error(await errorMessage(error));
    return null;
  }
}

function patchLocal(slug: string, id: string, change: Partial<WorkspaceView>): () => void {
  const list = workspaceViews.bySlug[slug];
  const index = list?.views.findIndex((v) => v.id === id) ?? -1;
  const before = list && index >= 0 ? list.views[index] : undefined;
  if (list && before) list.views[index] = { ...before, ...change };
  return () => {
    const now = workspaceViews.bySlug[slug];
    const at = now?.views.findIndex((v) => v.id === id) ?? -1;
    if (now && before && at >= 0) now.views[at] = before;
  };
}

function replaceLocal(slug: string, view: WorkspaceView): void {
  const list = workspaceViews.bySlug[slug];
  const at = list?.views.findIndex((v) => v.id === view.id) ?? -1;
  if (list && at >= 0) list.views[at] = view;
}

async function change(
  slug: string,
  id: string,
  local: Partial<WorkspaceView>,
  call: () => Promise<WorkspaceView>,
): Promise<boolean> {
  const undo = patchLocal(slug, id, local);
  try {
    replaceLocal(slug, await call());
    return true;
  } catch (error) {
    undo();
    toast.error(await errorMessage(error));
    return false;
  }
}

export type ViewPatch = Partial<Pick<WorkspaceView, "name" | "description" | "filters">> & {
  display_filters?: { order_by: string };
};

/** Rename or change a saved view's filters (a locked view refuses: unlock it first). */
export function updateWorkspaceView(slug: string, id: string, patch: ViewPatch): Promise<boolean> {
  const current = workspaceViews.bySlug[slug]?.views.find((v) => v.id === id);
  // display_filters sent replaces the stored one: keep the rest of it.
  const display = patch.display_filters ? { ...current?.display_filters, ...patch.display_filters } : undefined;
  const body = display ? { ...patch, display_filters: display } : patch;
  return change(slug, id, body as Partial<WorkspaceView>, () =>
    api.patch(`${base(slug)}/views/${id}/`, { json: body, headers: mutationHeaders() }).json<WorkspaceView>(),
  );
}

export function setWorkspaceViewLocked(slug: string, id: string, locked: boolean): Promise<boolean> {
  const url = `${base(slug)}/views/${id}/lock/`;
  return change(slug, id, { is_locked: locked }, () =>
    (locked
      ? api.post(url, { headers: mutationHeaders() })
      : api.delete(url, { headers: mutationHeaders() })
    ).json<WorkspaceView>(),
  );
}

export function setWorkspaceViewAccess(slug: string, id: string, access: 0 | 1): Promise<boolean> {
  return change(slug, id, { access }, () =>
    api
      .post(`${base(slug)}/views/${id}/access/`, { json: { access }, headers: mutationHeaders() })
      .json<WorkspaceView>(),
  );
}

export async function deleteWorkspaceView(slug: string, id: string): Promise<boolean> {
  const list = workspaceViews.bySlug[slug];
  const before = list?.views;
  if (list) list.views = list.views.filter((v) => v.id !== id);
  try {
    await api.delete(`${base(slug)}/views/${id}/`, { headers: mutationHeaders() });
    return true;
  } catch (error) {
    const now = workspaceViews.bySlug[slug];
    if (now && before) now.views = before;
    toast.error(await errorMessage(error));
    return false;
  }
}

/** A saved view not in the list (opened by link, or private to someone else → 404 → null). */
export async function fetchWorkspaceView(slug: string, id: string): Promise<WorkspaceView | null> {
  try {
    return await api.get(`${base(slug)}/views/${id}/`).json<WorkspaceView>();
  } catch {
    return null;
  }
}
