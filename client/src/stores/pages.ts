/**
 * Pages of a project (calls-errors-sync §7 "Pages"; live-server/src/routes/pages for the
 * shapes). A project's whole list is loaded at once — tabs, search and sorting happen on the
 * client (screens/pages/page-logic.ts) — and each page is kept once, by id, so a change shows
 * in the list and in the open page together.
 *
 * These actions are the only code that calls the pages API. Changes are applied at once and
 * undone with a toast when the server refuses (lib/optimistic.ts); creating, duplicating and
 * moving wait for the server, which names the new page. Every mutating request carries a fresh
 * x-client-mutation-id, so the live layer can skip the echo of our own change.
 *
 * The body of a page is not here: the live editor loads and saves it over the live layer.
 */
import { PAGE_ACCESS, PAGE_ERRORS, type PageAccess, projectChannelName } from "@tideline/shared";
import { toast } from "sonner";
import { api, errorMessage, HTTPError } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { subscribeChannel } from "../lib/live";
import { LocalChanges } from "../lib/local-changes";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { markEntityFavorite, settleFavorites } from "./favorites";
import { uploadRichTextImage } from "./work-item-detail";
import type { LogoProps } from "./workspaces";

/** A page as the API lists it (presentPage). */
export type Page = {
  id: string;
  name: string;
  owned_by: string;
  access: PageAccess;
  color: string;
  logo_props: Record<string, unknown>;
  view_props: Record<string, unknown>;
  is_locked: boolean;
  archived_at: string | null;
  is_favorite: boolean;
  parent: string | null;
  sort_order: number;
  workspace: string;
  project_ids: string[];
  label_ids: string[];
  anchor: string | null;
  team: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  /** Only in a single page's answer (the body as sanitised HTML). */
  description_html?: string;
};

export type PageVersion = {
  id: string;
  page: string;
  owned_by: string | null;
  last_saved_at: string;
  created_at: string;
};

export type PageVersionDetail = PageVersion & { description_html: string };

export type LoadStatus = "loading" | "ready" | "error";
export type DetailStatus = LoadStatus | "missing";

type PageList = { status: LoadStatus; ids: string[] };
type VersionList = { status: LoadStatus; list: PageVersion[] };

export const pages = defineStore(() => ({
  /** Every page seen, by id (list entries, and the open page with its body). */
  byId: {} as Record<string, Page>,
  /** Page ids of each project (every tab: the screens filter). */
  lists: {} as Record<string, PageList>,
  /** Load state of single pages opened by id. */
  details: {} as Record<string, DetailStatus>,
  versions: {} as Record<string, VersionList>,
  versionDetails: {} as Record<string, PageVersionDetail>,
}));

const base = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;
const pagePath = (slug: string, projectId: string, pageId: string) => `${base(slug, projectId)}/pages/${pageId}`;

// ───────────── cache helpers ─────────────

/** Keep the server's page, with its body when this answer has none but we had one. */
function adopt(page: Page): Page {
  const current = pages.byId[page.id];
  const merged =
    page.description_html === undefined && current?.description_html !== undefined
      ? { ...page, description_html: current.description_html }
      : page;
  pages.byId[page.id] = merged;
  return merged;
}

/** Put a page created, duplicated or moved here at the top of the list (stamped: see loadPages). */
function addToList(projectId: string, id: string): void {
  localChanges.stamp(id);
  const list = pages.lists[projectId];
  if (list && !list.ids.includes(id)) list.ids.unshift(id);
}

function removeFromList(projectId: string, id: string): () => void {
  const list = pages.lists[projectId];
  const index = list ? list.ids.indexOf(id) : -1;
  if (!list || index < 0) return () => undefined;
  list.ids.splice(index, 1);
  return () => {
    const now = pages.lists[projectId];
    if (now && !now.ids.includes(id)) now.ids.splice(Math.min(index, now.ids.length), 0, id);
  };
}

/** Change fields of a cached page; returns the undo. */
function patchLocal(id: string, patch: Partial<Page>): () => void {
  const page = pages.byId[id];
  if (!page) return () => undefined;
  const before: Partial<Page> = {};
  for (const key of Object.keys(patch) as (keyof Page)[]) {
    (before as Record<string, unknown>)[key] = page[key];
  }
  Object.assign(page, patch);
  return () => {
    const current = pages.byId[id];
    if (current) Object.assign(current, before);
  };
}

/** Local changes in flight or just settled: fetched copies older than them are dropped. */
const localChanges = new LocalChanges();

/** `optimistic`, with the page stamped as changed here while its call runs (calls of one page go in order). */
function changePage<T>(pageId: string, opts: Parameters<typeof optimistic<T>>[0]): Promise<T | undefined> {
  return optimistic({ ...opts, call: () => localChanges.track(pageId, opts.call) });
}

/** Pages of the project, from the cache, in the server's order. */
export function projectPages(projectId: string): Page[] {
  const list = pages.lists[projectId];
  if (!list) return [];
  return list.ids.map((id) => pages.byId[id]).filter((p): p is Page => Boolean(p));
}

// ───────────── loading ─────────────

const listLoads = new Map<string, { promise: Promise<void>; startedAt: number }>();

/**
 * Load every page of the project the caller can see (all tabs). A load already running is
 * shared, unless it began before a local change: then a fresh one follows it, so a caller
 * refreshing after its change (archive → sub-pages archived too) gets the newer list.
 */
export function loadPages(slug: string, projectId: string, options: { quiet?: boolean } = {}): Promise<void> {
  const running = listLoads.get(projectId);
  if (running) {
    if (running.startedAt === localChanges.now()) return running.promise;
    const next = () => loadPages(slug, projectId, options);
    return running.promise.then(next, next);
  }
  if (!pages.lists[projectId]) pages.lists[projectId] = { status: "loading", ids: [] };
  const startedAt = localChanges.now();
  const promise = api
    .get(`${base(slug, projectId)}/pages/`)
    .json<Page[]>()
    .then((list) => {
      const listedHere = pages.lists[projectId]?.ids ?? [];
      const listed = new Set(listedHere);
      const answered = new Set(list.map((p) => p.id));
      // Pages added here since the load began (created, duplicated, moved in) are not in its answer yet.
      const ids = listedHere.filter((id) => !answered.has(id) && localChanges.isNewerHere(id, startedAt));
      for (const page of list) {
        if (!localChanges.isNewerHere(page.id, startedAt)) adopt(page);
        // A page taken off the list here (deleted, moved) stays off until its change settles.
        else if (!listed.has(page.id)) continue;
        ids.push(page.id);
      }
      pages.lists[projectId] = { status: "ready", ids };
    })
    .catch(async (error: unknown) => {
      const current = pages.lists[projectId];
      if (current && current.status !== "ready") current.status = "error";
      if (!options.quiet) toast.error(PAGE_ERRORS.fetchPages, { description: await errorMessage(error) });
      throw error;
    })
    .finally(() => listLoads.delete(projectId));
  listLoads.set(projectId, { promise, startedAt });
  return promise;
}

/** Load one page with its body; "missing" when the server answers 404 (gone, private, moved). */
export async function loadPage(slug: string, projectId: string, pageId: string, options: { quiet?: boolean } = {}) {
  if (pages.details[pageId] !== "ready") pages.details[pageId] = "loading";
  const startedAt = localChanges.now();
  try {
    const page = await api.get(`${pagePath(slug, projectId, pageId)}/`).json<Page>();
    if (!localChanges.isNewerHere(pageId, startedAt) || !pages.byId[pageId]) adopt(page);
    pages.details[pageId] = "ready";
    return page;
  } catch (error) {
    if (error instanceof HTTPError && (error.response.status === 404 || error.response.status === 400)) {
      pages.details[pageId] = "missing";
      return null;
    }
    if (pages.details[pageId] !== "ready") pages.details[pageId] = "error";
    if (!options.quiet) toast.error(PAGE_ERRORS.fetchPage, { description: await errorMessage(error) });
    throw error;
  }
}

// ───────────── create, rename ─────────────

/** Create a page (the server names it); resolves to the new page, or null after a toast. */
export async function createPage(
  slug: string,
  projectId: string,
  input: { name: string; access: PageAccess; parent?: string | null },
): Promise<Page | null> {
  try {
    const page = await api
      .post(`${base(slug, projectId)}/pages/`, {
        json: { name: input.name.trim(), access: input.access, ...(input.parent ? { parent: input.parent } : {}) },
        headers: mutationHeaders(),
      })
      .json<Page>();
    adopt(page);
    pages.details[page.id] = "ready";
    addToList(projectId, page.id);
    return page;
  } catch (error) {
    toast.error(PAGE_ERRORS.createPage, { description: await errorMessage(error, PAGE_ERRORS.tryAgain) });
    return null;
  }
}

/** Rename the page; the old name comes back (with a toast) if the server refuses. */
export async function renamePage(slug: string, projectId: string, pageId: string, name: string): Promise<boolean> {
  const answer = await changePage(pageId, {
    apply: () => patchLocal(pageId, { name }),
    call: () =>
      api.patch(`${pagePath(slug, projectId, pageId)}/`, { json: { name }, headers: mutationHeaders() }).json<Page>(),
    error: "Couldn't rename the page",
  });
  if (answer) {
    // Keep what the person may have typed since: only the other fields come from the answer.
    adopt({ ...answer, name: pages.byId[pageId]?.name ?? answer.name });
  }
  return Boolean(answer);
}

/**
 * The page's title changed in its live document (another editor, or a rename over REST that
 * the server wrote into the title): show that name without a call — the server has it already.
 */
export function followDocumentTitle(pageId: string, title: string): void {
  const page = pages.byId[pageId];
  if (page && page.name !== title) patchLocal(pageId, { name: title });
}

// ───────────── access, lock, favorite ─────────────

export async function setPageAccess(
  slug: string,
  projectId: string,
  pageId: string,
  access: PageAccess,
): Promise<boolean> {
  const answer = await changePage(pageId, {
    apply: () => patchLocal(pageId, { access }),
    call: () =>
      api
        .post(`${pagePath(slug, projectId, pageId)}/access/`, { json: { access }, headers: mutationHeaders() })
        .json<Page>(),
    error: access === PAGE_ACCESS.private ? "Couldn't make the page private" : "Couldn't make the page public",
  });
  if (answer) adopt(answer);
  return Boolean(answer);
}

export async function setPageLocked(slug: string, projectId: string, pageId: string, locked: boolean) {
  const answer = await changePage(pageId, {
    apply: () => patchLocal(pageId, { is_locked: locked }),
    call: () =>
      api(`${pagePath(slug, projectId, pageId)}/lock/`, {
        method: locked ? "POST" : "DELETE",
        headers: mutationHeaders(),
      }).json<Page>(),
    error: locked ? "Couldn't lock the page" : "Couldn't unlock the page",
  });
  if (answer) adopt(answer);
  return Boolean(answer);
}

export async function setPageFavorite(slug: string, projectId: string, pageId: string, favorite: boolean) {
  const ok = await changePage(pageId, {
    apply: () => {
      const undo = patchLocal(pageId, { is_favorite: favorite });
      const page = pages.byId[pageId];
      // The sidebar's Favorites shows it at once too (the server's favorite.created replaces it).
      const undoSidebar = markEntityFavorite(
        slug,
        {
          entity_type: "page",
          id: pageId,
          project_id: projectId,
          name: page?.name ?? "",
          logo_props: page?.logo_props as LogoProps,
        },
        favorite,
      );
      return () => {
        undo();
        undoSidebar();
      };
    },
    call: () =>
      api(`${base(slug, projectId)}/favorite-pages/${pageId}/`, {
        method: favorite ? "POST" : "DELETE",
        headers: mutationHeaders(),
      }).then(() => true),
    error: favorite ? "Couldn't add the page to favorites" : "Couldn't remove the page from favorites",
  });
  if (ok) settleFavorites(slug);
  return Boolean(ok);
}

// ───────────── archive, restore, delete ─────────────

/** Archive (with its sub-pages, whose favorites the server drops too). */
export async function archivePage(slug: string, projectId: string, pageId: string): Promise<boolean> {
  const answer = await changePage(pageId, {
    apply: () => patchLocal(pageId, { archived_at: new Date().toISOString(), is_favorite: false }),
    call: () =>
      api
        .post(`${pagePath(slug, projectId, pageId)}/archive/`, { headers: mutationHeaders() })
        .json<{ archived_at: string }>(),
    error: "Couldn't archive the page",
  });
  if (!answer) return false;
  patchLocal(pageId, { archived_at: answer.archived_at });
  // Sub-pages were archived with it.
  void loadPages(slug, projectId, { quiet: true }).catch(() => undefined);
  return true;
}

export async function restorePage(slug: string, projectId: string, pageId: string): Promise<boolean> {
  const answer = await changePage(pageId, {
    apply: () => patchLocal(pageId, { archived_at: null }),
    call: () =>
      api.delete(`${pagePath(slug, projectId, pageId)}/archive/`, { headers: mutationHeaders() }).json<Page>(),
    error: "Couldn't restore the page",
  });
  if (!answer) return false;
  adopt(answer);
  void loadPages(slug, projectId, { quiet: true }).catch(() => undefined);
  return true;
}

/** Delete an archived page for good. */
export async function deletePage(slug: string, projectId: string, pageId: string): Promise<boolean> {
  const ok = await changePage(pageId, {
    apply: () => removeFromList(projectId, pageId),
    call: () => api.delete(`${pagePath(slug, projectId, pageId)}/`, { headers: mutationHeaders() }).then(() => true),
    error: PAGE_ERRORS.deletePage,
  });
  if (ok) {
    delete pages.byId[pageId];
    pages.details[pageId] = "missing";
    delete pages.versions[pageId];
  }
  return Boolean(ok);
}

// ───────────── duplicate, move ─────────────

export async function duplicatePage(slug: string, projectId: string, pageId: string): Promise<Page | null> {
  try {
    const copy = await api
      .post(`${pagePath(slug, projectId, pageId)}/duplicate/`, { headers: mutationHeaders() })
      .json<Page>();
    adopt(copy);
    addToList(projectId, copy.id);
    return copy;
  } catch (error) {
    toast.error("Couldn't duplicate the page", { description: await errorMessage(error) });
    return null;
  }
}

/** Move the page to another project; it leaves this project's list at once. */
export async function movePage(slug: string, projectId: string, pageId: string, newProjectId: string) {
  const answer = await changePage(pageId, {
    apply: () => removeFromList(projectId, pageId),
    call: () =>
      api
        .post(`${pagePath(slug, projectId, pageId)}/move/`, {
          json: { new_project_id: newProjectId },
          headers: mutationHeaders(),
        })
        .json<Page>(),
    error: "Couldn't move the page",
  });
  if (answer) {
    adopt(answer);
    addToList(newProjectId, answer.id);
  }
  return answer ?? null;
}

// ───────────── versions ─────────────

export async function loadVersions(slug: string, projectId: string, pageId: string): Promise<void> {
  const current = pages.versions[pageId];
  pages.versions[pageId] = { status: current?.status === "ready" ? "ready" : "loading", list: current?.list ?? [] };
  try {
    const list = await api.get(`${pagePath(slug, projectId, pageId)}/versions/`).json<PageVersion[]>();
    pages.versions[pageId] = { status: "ready", list };
  } catch (error) {
    const entry = pages.versions[pageId];
    if (entry) entry.status = "error";
    throw error;
  }
}

export async function loadVersion(slug: string, projectId: string, pageId: string, versionId: string) {
  const cached = pages.versionDetails[versionId];
  if (cached) return cached;
  const version = await api
    .get(`${pagePath(slug, projectId, pageId)}/versions/${versionId}/`)
    .json<PageVersionDetail>();
  pages.versionDetails[versionId] = version;
  return version;
}

/**
 * Bring the body back to a version. The server saves the current body as a version first and
 * sends the change to every open editor over the live layer, so nothing to undo locally.
 */
export async function restoreVersion(slug: string, projectId: string, pageId: string, versionId: string) {
  try {
    const page = await api
      .post(`${pagePath(slug, projectId, pageId)}/versions/${versionId}/restore/`, { headers: mutationHeaders() })
      .json<Page>();
    adopt(page);
    void loadVersions(slug, projectId, pageId).catch(() => undefined);
    return true;
  } catch (error) {
    toast.error("Couldn't restore the version", { description: await errorMessage(error) });
    return false;
  }
}

// ───────────── images in the body ─────────────

/** Upload an image pasted or dropped into the page (asset kind PAGE_DESCRIPTION); resolves to its address. */
export function uploadPageImage(slug: string, projectId: string, pageId: string, file: File): Promise<string> {
  return uploadRichTextImage(slug, projectId, pageId, file, "PAGE_DESCRIPTION");
}

// ───────────── live updates ─────────────

type Watch = { count: number; stop: () => void; pageIds: Map<string, number> };
const watches = new Map<string, Watch>();
const refreshTimers = new Map<string, ReturnType<typeof setTimeout>>();

/** Refetch the list and the open pages a moment after a burst of events. */
function scheduleRefresh(slug: string, projectId: string): void {
  const existing = refreshTimers.get(projectId);
  if (existing) clearTimeout(existing);
  refreshTimers.set(
    projectId,
    setTimeout(() => {
      refreshTimers.delete(projectId);
      const watch = watches.get(projectId);
      if (!watch) return;
      void loadPages(slug, projectId, { quiet: true }).catch(() => undefined);
      for (const pageId of watch.pageIds.keys()) {
        void loadPage(slug, projectId, pageId, { quiet: true }).catch(() => undefined);
      }
    }, 250),
  );
}

/**
 * While a pages screen is open, listen to the project's channel: someone else's page change
 * (renamed, locked, archived, moved…) refreshes the list and the open page. `pageId` names a
 * page whose detail should follow too. Returns the stop.
 */
export function watchProjectPages(slug: string, projectId: string, pageId?: string): () => void {
  let watch = watches.get(projectId);
  if (!watch) {
    const created: Watch = { count: 0, stop: () => undefined, pageIds: new Map() };
    created.stop = subscribeChannel(projectChannelName(projectId), {
      onEvent: (event) => {
        if (!event.type.startsWith("page.")) return;
        if (isOwnClientMutation(event.client_mutation_id)) return;
        scheduleRefresh(slug, projectId);
      },
      // After a reconnection, events sent meanwhile were lost: catch up.
      onSynced: () => scheduleRefresh(slug, projectId),
    });
    watches.set(projectId, created);
    watch = created;
  }
  watch.count += 1;
  if (pageId) watch.pageIds.set(pageId, (watch.pageIds.get(pageId) ?? 0) + 1);
  const current = watch;
  return () => {
    current.count -= 1;
    if (pageId) {
      const left = (current.pageIds.get(pageId) ?? 1) - 1;
      if (left > 0) current.pageIds.set(pageId, left);
      else current.pageIds.delete(pageId);
    }
    if (current.count <= 0) {
      current.stop();
      watches.delete(projectId);
    }
  };
}
