/**
 * A project's saved views (GET projects/{id}/views/): the views list, the view board and the
 * sidebar read them here. Kept fresh by the project's live channel: `view.*` events carry the view
 * without the caller's favorite flag; a private view's events carry only its id, access and owner,
 * so its owner fetches it and everyone else drops it. Only these actions call the views API; every
 * quick change (lock, access, favorite, archive, delete) shows at once and is undone with a toast
 * when refused.
 */
import type { DomainEvent } from "@tideline/shared";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { api, errorMessage, fieldErrors, HTTPError } from "../lib/api";
import { mutationHeaders } from "../lib/client-mutations";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { markEntityFavorite, settleFavorites } from "./favorites";
import { session } from "./session";
import type { LogoProps } from "./workspaces";

/** 1 public, 0 private (the reference's EViewAccess). */
export type ViewAccess = 0 | 1;

/** A saved view as the API presents it (live-server/src/routes/views/presenter.ts). */
export type SavedView = {
  id: string;
  workspace_id: string;
  project_id: string | null;
  name: string;
  description: string;
  filters: Record<string, unknown>;
  display_filters: Record<string, unknown>;
  display_properties: Record<string, unknown>;
  access: ViewAccess;
  is_locked: boolean;
  /** The caller's own star; events leave it out (they go to every member). */
  is_favorite?: boolean;
  anchor: string | null;
  owned_by: string;
  logo_props: Record<string, unknown>;
  sort_order: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
};

export type ViewListStatus = "loading" | "ready" | "error";

export type ProjectViews = { status: ViewListStatus; list: SavedView[] };

export type ViewEntry = { status: "loading" | "ready" | "missing" | "error"; view: SavedView | null };

export const views = defineStore(() => ({
  byProject: {} as Record<string, ProjectViews>,
  /** One view by id (the view board opens a view that may not be listed: archived, deep link). */
  byId: {} as Record<string, ViewEntry>,
  /** Archived views per project (the archive screen). */
  archived: {} as Record<string, ProjectViews>,
}));

const base = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;
export const viewsPath = (slug: string, projectId: string) => `${base(slug, projectId)}/views/`;
const viewPath = (slug: string, projectId: string, viewId: string) => `${viewsPath(slug, projectId)}${viewId}/`;

/** The name to show: views may be saved without one (product-domain §6). */
export function viewDisplayName(name: string | null | undefined, untitled: string): string {
  const trimmed = name?.trim();
  return trimmed ? trimmed : untitled;
}

/** The server's list order: favorites first, then by name. */
export function sortViews(list: SavedView[]): SavedView[] {
  return list.sort(
    (a, b) =>
      Number(Boolean(b.is_favorite)) - Number(Boolean(a.is_favorite)) ||
      a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) ||
      a.created_at.localeCompare(b.created_at),
  );
}

const inflight = new Map<string, Promise<void>>();

/** Load (or, with `force`, reload) a project's views; concurrent calls share one request. */
export function loadViews(slug: string, projectId: string, force = false): Promise<void> {
  const running = inflight.get(projectId);
  if (running) return running;
  const current = views.byProject[projectId];
  if (current?.status === "ready" && !force) return Promise.resolve();
  if (!current) views.byProject[projectId] = { status: "loading", list: [] };
  const promise = api
    .get(viewsPath(slug, projectId))
    .json<SavedView[]>()
    .then((list) => {
      views.byProject[projectId] = { status: "ready", list };
      for (const view of list) if (views.byId[view.id]) views.byId[view.id] = { status: "ready", view };
    })
    .catch((error: unknown) => {
      const entry = views.byProject[projectId];
      if (entry && entry.status !== "ready") entry.status = "error";
      throw error;
    })
    .finally(() => inflight.delete(projectId));
  inflight.set(projectId, promise);
  return promise;
}

const viewInflight = new Map<string, Promise<void>>();

/** One view (the view board); 404 marks it missing (deleted, private to someone else). */
export function loadView(slug: string, projectId: string, viewId: string): Promise<void> {
  const running = viewInflight.get(viewId);
  if (running) return running;
  if (!views.byId[viewId]) {
    const listed = views.byProject[projectId]?.list.find((v) => v.id === viewId);
    views.byId[viewId] = listed ? { status: "ready", view: listed } : { status: "loading", view: null };
  }
  const promise = api
    .get(viewPath(slug, projectId, viewId))
    .json<SavedView>()
    .then((view) => putView(view))
    .catch((error: unknown) => {
      const entry = views.byId[viewId];
      if (error instanceof HTTPError && error.response.status === 404) {
        views.byId[viewId] = { status: "missing", view: null };
        removeView(projectId, viewId);
      } else if (entry && entry.status !== "ready") entry.status = "error";
    })
    .finally(() => viewInflight.delete(viewId));
  viewInflight.set(viewId, promise);
  return promise;
}

/** Insert or replace a view everywhere it is held (keeps the caller's favorite flag). */
export function putView(view: SavedView): void {
  const held = views.byId[view.id]?.view;
  const listEntry = view.project_id ? views.byProject[view.project_id] : undefined;
  const listed = listEntry?.list.find((v) => v.id === view.id);
  const merged: SavedView = { ...view, is_favorite: view.is_favorite ?? listed?.is_favorite ?? held?.is_favorite };
  if (views.byId[view.id] || !view.archived_at) views.byId[view.id] = { status: "ready", view: merged };
  if (!listEntry) return;
  const index = listEntry.list.findIndex((v) => v.id === view.id);
  if (view.archived_at) {
    if (index >= 0) listEntry.list.splice(index, 1);
    return;
  }
  if (index >= 0) listEntry.list[index] = merged;
  else listEntry.list.push(merged);
  sortViews(listEntry.list);
}

export function removeView(projectId: string, viewId: string): void {
  const entry = views.byProject[projectId];
  const index = entry?.list.findIndex((v) => v.id === viewId) ?? -1;
  if (entry && index >= 0) entry.list.splice(index, 1);
}

/** A `view.*` event from the project's channel; true when it was one. */
export function applyViewEvent(slug: string, event: DomainEvent): boolean {
  if (!event.type.startsWith("view.") || !event.project_id) return false;
  const projectId = event.project_id;
  if (event.type === "view.deleted") {
    removeView(projectId, event.entity_id);
    if (views.byId[event.entity_id]) views.byId[event.entity_id] = { status: "missing", view: null };
    return true;
  }
  const data = event.data as unknown as Partial<SavedView>;
  if (data.access === 0 && data.name === undefined) {
    // A private view's redacted event: only its owner may see it (and fetches it whole).
    if (data.owned_by === session.user?.id) void loadView(slug, projectId, event.entity_id);
    else {
      removeView(projectId, event.entity_id);
      if (views.byId[event.entity_id]) views.byId[event.entity_id] = { status: "missing", view: null };
    }
    return true;
  }
  putView(data as SavedView);
  return true;
}

/** A project's views as a snapshot (empty while loading). */
export function useProjectViews(projectId: string): readonly SavedView[] {
  const snap = useSnapshot(views);
  return (snap.byProject[projectId]?.list ?? []) as readonly SavedView[];
}

// ───────────── actions ─────────────

/** What the create / edit form and "Save as view" send. */
export type ViewInput = {
  name?: string;
  description?: string;
  access?: ViewAccess;
  filters?: Record<string, unknown>;
  display_filters?: Record<string, unknown>;
  display_properties?: Record<string, unknown>;
};

export type ViewFormResult =
  | { ok: true; view: SavedView }
  | { ok: false; message: string; fields: Record<string, string> };

async function formFailure(error: unknown): Promise<ViewFormResult> {
  return { ok: false, message: await errorMessage(error), fields: await fieldErrors(error) };
}

/** Create a view (the form waits for the answer to show field errors). */
export async function createView(slug: string, projectId: string, input: ViewInput): Promise<ViewFormResult> {
  try {
    const view = await api
      .post(viewsPath(slug, projectId), { json: input, headers: mutationHeaders() })
      .json<SavedView>();
    putView(view);
    return { ok: true, view };
  } catch (error) {
    return formFailure(error);
  }
}

/** Change a view's fields (form, "Update view"): waits for the answer, then stores it. */
export async function updateView(
  slug: string,
  projectId: string,
  viewId: string,
  patch: ViewInput,
): Promise<ViewFormResult> {
  try {
    const view = await api
      .patch(viewPath(slug, projectId, viewId), { json: patch, headers: mutationHeaders() })
      .json<SavedView>();
    putView(view);
    return { ok: true, view };
  } catch (error) {
    return formFailure(error);
  }
}

function heldView(projectId: string, viewId: string): SavedView | undefined {
  return views.byProject[projectId]?.list.find((v) => v.id === viewId) ?? views.byId[viewId]?.view ?? undefined;
}

/** Set fields on every copy of the view at once; returns the undo. */
function patchLocal(projectId: string, viewId: string, patch: Partial<SavedView>): () => void {
  const listed = views.byProject[projectId]?.list.find((v) => v.id === viewId);
  const held = views.byId[viewId]?.view;
  const before = listed ? { ...listed } : held ? { ...held } : undefined;
  if (listed) Object.assign(listed, patch);
  if (held && held !== listed) Object.assign(held, patch);
  return () => {
    if (!before) return;
    const keys = Object.keys(patch) as (keyof SavedView)[];
    const restore = Object.fromEntries(keys.map((k) => [k, before[k]])) as Partial<SavedView>;
    const l = views.byProject[projectId]?.list.find((v) => v.id === viewId);
    if (l) Object.assign(l, restore);
    const h = views.byId[viewId]?.view;
    if (h && h !== l) Object.assign(h, restore);
  };
}

async function quick(
  projectId: string,
  viewId: string,
  patch: Partial<SavedView>,
  call: () => Promise<unknown>,
  error: string,
  /** A change elsewhere made with it (the sidebar's favorite), returning its undo. */
  also?: () => () => void,
): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      const undo = patchLocal(projectId, viewId, patch);
      const undoAlso = also?.() ?? (() => undefined);
      return () => {
        undo();
        undoAlso();
      };
    },
    call: () => call().then(() => true),
    error,
  });
  return Boolean(ok);
}

export function setViewLocked(slug: string, projectId: string, viewId: string, locked: boolean): Promise<boolean> {
  const path = `${viewPath(slug, projectId, viewId)}lock/`;
  return quick(
    projectId,
    viewId,
    { is_locked: locked },
    async () => {
      const view = await (locked
        ? api.post(path, { headers: mutationHeaders() })
        : api.delete(path, { headers: mutationHeaders() })
      ).json<SavedView>();
      putView(view);
    },
    locked ? "Couldn't lock the view" : "Couldn't unlock the view",
  );
}

export function setViewAccess(slug: string, projectId: string, viewId: string, access: ViewAccess): Promise<boolean> {
  return quick(
    projectId,
    viewId,
    // Making a view private unpublishes it (the server clears the anchor).
    access === 0 ? { access, anchor: null } : { access },
    async () => {
      const view = await api
        .post(`${viewPath(slug, projectId, viewId)}access/`, { json: { access }, headers: mutationHeaders() })
        .json<SavedView>();
      putView(view);
    },
    "Couldn't change who sees the view",
  );
}

export function setViewFavorite(slug: string, projectId: string, viewId: string, on: boolean): Promise<boolean> {
  const found = findView(projectId, viewId);
  return quick(
    projectId,
    viewId,
    { is_favorite: on },
    async () => {
      if (on)
        await api.post(`${base(slug, projectId)}/user-favorite-views/`, {
          json: { view: viewId },
          headers: mutationHeaders(),
        });
      else
        await api
          .delete(`${base(slug, projectId)}/user-favorite-views/${viewId}/`, { headers: mutationHeaders() })
          .catch((error: unknown) => {
            // Not a favorite any more (another tab took it off): that is what was wanted.
            if (!(error instanceof HTTPError && error.response.status === 404)) throw error;
          });
      const list = views.byProject[projectId]?.list;
      if (list) sortViews(list);
      settleFavorites(slug);
    },
    on ? "Couldn't add the view to favorites" : "Couldn't remove the view from favorites",
    () =>
      markEntityFavorite(
        slug,
        {
          entity_type: "view",
          id: viewId,
          project_id: projectId,
          name: found?.name ?? "",
          logo_props: found?.logo_props as LogoProps,
        },
        on,
      ),
  );
}

/** Archive: the view leaves the list at once (back if refused). */
export async function archiveView(slug: string, projectId: string, viewId: string): Promise<boolean> {
  const before = heldView(projectId, viewId);
  const ok = await optimistic({
    apply: () => {
      const entry = views.byProject[projectId];
      const index = entry?.list.findIndex((v) => v.id === viewId) ?? -1;
      const removed = index >= 0 ? entry?.list.splice(index, 1)[0] : undefined;
      return () => {
        if (removed) views.byProject[projectId]?.list.splice(index, 0, removed);
      };
    },
    call: async () => {
      const answer = await api
        .post(`${viewPath(slug, projectId, viewId)}archive/`, { headers: mutationHeaders() })
        .json<{ archived_at: string }>();
      const held = views.byId[viewId]?.view;
      if (held) held.archived_at = answer.archived_at;
      const archivedList = views.archived[projectId];
      const view = held ?? before;
      if (archivedList && view && !archivedList.list.some((v) => v.id === viewId))
        archivedList.list.unshift({ ...view, archived_at: answer.archived_at });
      return true;
    },
    error: "Couldn't archive the view",
  });
  return Boolean(ok);
}

/** Restore an archived view into the list. */
export async function restoreView(slug: string, projectId: string, viewId: string): Promise<boolean> {
  try {
    await api.delete(`${viewPath(slug, projectId, viewId)}archive/`, { headers: mutationHeaders() });
    const archivedList = views.archived[projectId]?.list;
    const index = archivedList?.findIndex((v) => v.id === viewId) ?? -1;
    if (archivedList && index >= 0) archivedList.splice(index, 1);
    await loadView(slug, projectId, viewId);
    const view = views.byId[viewId]?.view;
    if (view) putView({ ...view, archived_at: null });
    return true;
  } catch (error) {
    toast.error("Couldn't restore the view", { description: await errorMessage(error) });
    return false;
  }
}

/** Delete at once (back if refused). */
export async function deleteView(slug: string, projectId: string, viewId: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      const entry = views.byProject[projectId];
      const index = entry?.list.findIndex((v) => v.id === viewId) ?? -1;
      const removed = index >= 0 ? entry?.list.splice(index, 1)[0] : undefined;
      return () => {
        if (removed) views.byProject[projectId]?.list.splice(index, 0, removed);
      };
    },
    call: () => api.delete(viewPath(slug, projectId, viewId), { headers: mutationHeaders() }).then(() => true),
    error: "Couldn't delete the view",
  });
  if (ok && views.byId[viewId]) views.byId[viewId] = { status: "missing", view: null };
  if (ok) {
    const archivedList = views.archived[projectId]?.list;
    const index = archivedList?.findIndex((v) => v.id === viewId) ?? -1;
    if (archivedList && index >= 0) archivedList.splice(index, 1);
  }
  return Boolean(ok);
}

/** The project's archived views (GET archived-views/). */
export function loadArchivedViews(slug: string, projectId: string): Promise<void> {
  if (!views.archived[projectId]) views.archived[projectId] = { status: "loading", list: [] };
  return api
    .get(`${base(slug, projectId)}/archived-views/`)
    .json<SavedView[]>()
    .then((list) => {
      views.archived[projectId] = { status: "ready", list };
    })
    .catch((error: unknown) => {
      const entry = views.archived[projectId];
      if (entry && entry.status !== "ready") entry.status = "error";
      throw error;
    });
}

/** Is the view's filter part locked for everyone (the caller included)? */
export function isViewLocked(view: Pick<SavedView, "is_locked"> | null | undefined): boolean {
  return Boolean(view?.is_locked);
}

/** Found in the list or by id. */
export function findView(projectId: string, viewId: string): SavedView | undefined {
  return heldView(projectId, viewId);
}
