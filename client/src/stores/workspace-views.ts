/**
 * Workspace (global) views: the saved views of a workspace (`/views/`), the four built-in views
 * (all-issues, assigned, created, subscribed — filters the client applies, product-domain §2),
 * and the workspace work-item list (`GET /issues/`: the boards' first page, the ids of subscribed
 * items); the boards themselves read the local cache (screens/work-items/multi-project-board).
 *
 * Shapes: live-server/src/routes/views/README.md. Only the actions here call the API; view
 * changes are optimistic and rolled back with a toast when the server refuses.
 */
import type { DomainEvent } from "@tideline/shared";
import { toast } from "sonner";
import { api, errorMessage } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { defineStore } from "../lib/store";
import { session } from "./session";
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
  /** Set when archived (archived views are not listed). */
  archived_at?: string | null;
  created_at: string;
  updated_at: string;
  created_by: string;
};

export const BUILT_IN_VIEWS = ["all-issues", "assigned", "created", "subscribed"] as const;
export type BuiltInView = (typeof BUILT_IN_VIEWS)[number];

export function isBuiltInView(id: string): id is BuiltInView {
  return (BUILT_IN_VIEWS as readonly string[]).includes(id);
}

/** A built-in view as filters (the server README's table): assigned → assignees=me, etc. */
export function builtInFilters(view: BuiltInView, meId: string): StoredFilters {
  if (view === "assigned") return { assignees: [meId] };
  if (view === "created") return { created_by: [meId] };
  if (view === "subscribed") return { subscriber: [meId] };
  return {};
}

// ───────────── the workspace list ─────────────

export type WorkspaceIssuesPage = {
  results: WorkItem[];
  total_count: number;
  next_cursor: string | null;
  next_page_results: boolean;
};

const base = (slug: string) => `/api/workspaces/${slug}`;

export function fetchWorkspaceIssues(slug: string, query: Record<string, string>): Promise<WorkspaceIssuesPage> {
  return api.get(`${base(slug)}/issues/`, { searchParams: query }).json<WorkspaceIssuesPage>();
}

/** How many pages of subscribed items are read at most (100 each): the subscribed view's reach. */
const SUBSCRIBED_PAGES_MAX = 50;

/**
 * The ids of the work items `userId` is subscribed to in the projects the caller sees (only the
 * server knows subscribers: the subscribed view and profile tab read this, then show the items
 * from the local cache).
 */
export async function fetchSubscribedIds(slug: string, userId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: Record<string, string> = { subscriber: userId, per_page: "100", order_by: "-created_at" };
    if (cursor) query.cursor = cursor;
    const page = await fetchWorkspaceIssues(slug, query);
    for (const item of page.results) ids.add(item.id);
    cursor = page.next_page_results ? page.next_cursor : null;
    pages += 1;
  } while (cursor && pages < SUBSCRIBED_PAGES_MAX);
  return ids;
}

// ───────────── saved views ─────────────

type ViewList = { status: "loading" | "ready" | "error"; views: WorkspaceView[] };

export const workspaceViews = defineStore(() => ({
  bySlug: {} as Record<string, ViewList>,
}));

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
  display_filters?: Record<string, unknown>;
  display_properties?: Record<string, unknown>;
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

export type ViewPatch = Partial<Pick<WorkspaceView, "name" | "description" | "filters" | "display_properties">> & {
  display_filters?: Record<string, unknown>;
};

/** Rename or change a saved view's settings (a locked view refuses: unlock it first). */
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

// ───────────── live updates (workspace.{id}, stores/live-workspace.ts) ─────────────

/** Put a view in the loaded list, newest first like the server's order; an older copy never replaces a newer one. */
function putListedView(slug: string, view: WorkspaceView): void {
  const list = workspaceViews.bySlug[slug];
  if (!list) return;
  const at = list.views.findIndex((v) => v.id === view.id);
  const held = at >= 0 ? list.views[at] : undefined;
  if (held && held.updated_at > view.updated_at) return;
  // Events leave out the caller's own star (they go to every member): keep it.
  const merged = { ...view, is_favorite: held?.is_favorite ?? view.is_favorite ?? false };
  if (held) {
    list.views[at] = merged;
    return;
  }
  const before = list.views.findIndex((v) => v.created_at < merged.created_at);
  list.views.splice(before < 0 ? list.views.length : before, 0, merged);
}

function dropListedView(slug: string, id: string): void {
  const list = workspaceViews.bySlug[slug];
  if (list) list.views = list.views.filter((v) => v.id !== id);
}

/**
 * A `view.*` event of a workspace view (project_id null) from the workspace channel; true when
 * it was one. The echo of this tab's own change is skipped (the store applied the answer). A
 * private view's events carry only its id, access and owner, and reach its owner alone: the
 * owner fetches it whole.
 */
export function applyWorkspaceViewEvent(slug: string, event: DomainEvent): boolean {
  if (!event.type.startsWith("view.") || event.project_id) return false;
  if (isOwnClientMutation(event.client_mutation_id) || !workspaceViews.bySlug[slug]) return true;
  if (event.type === "view.deleted") {
    dropListedView(slug, event.entity_id);
    return true;
  }
  const data = event.data as unknown as Partial<WorkspaceView>;
  if (data.access === 0 && data.name === undefined) {
    if (data.owned_by !== session.user?.id) {
      dropListedView(slug, event.entity_id);
      return true;
    }
    void fetchWorkspaceView(slug, event.entity_id).then((view) => {
      if (view && !view.archived_at) putListedView(slug, view);
      else dropListedView(slug, event.entity_id);
    });
    return true;
  }
  if (data.archived_at) dropListedView(slug, event.entity_id);
  else putListedView(slug, data as WorkspaceView);
  return true;
}
