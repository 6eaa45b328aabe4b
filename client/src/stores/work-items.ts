/**
 * Work items: a local cache per project (the spec's local-database mode). Every item of a
 * project is loaded once through the sync list (GET v2/issues/, 500 per page) and kept in plain
 * Maps outside valtio — proxies over 10,000 objects are slow — with one valtio `version`
 * counter per project that components subscribe to. Items are immutable: a change replaces the
 * object, so a changed reference means a changed item.
 *
 * These actions are the only code that calls the API for work items. Every change is applied
 * at once and undone with a toast if the server refuses; every mutating request carries a fresh
 * x-client-mutation-id, remembered so the live layer can skip the echo of our own changes.
 */
import type { Priority } from "@tideline/shared";
import { useEffect } from "react";
import { toast } from "sonner";
import { ref, useSnapshot } from "valtio";
import { api, errorMessage } from "../lib/api";
import { isOwnClientMutation, mutationHeaders, newClientMutationId } from "../lib/client-mutations";
import { localDb } from "../lib/local-db/database";
import { forgetProjectLists } from "../lib/local-db/meta";
import {
  bindWorkItemCache,
  forgetStoredProject,
  noteWorkItemChange,
  noteWorkItemSettled,
  readStoredProject,
  type StoredProject,
  SYNC_PAGE_SIZE,
  syncProjectItems,
  trackProject,
} from "../lib/local-db/work-items";
import { outbox } from "../lib/offline/app-outbox";
import { afterFirstPaint, startWindowClosed } from "../lib/offline/last-answers";
import { isNoAnswer } from "../lib/offline/outbox";
import { workItemCreateEntry, workItemUpdateEntry } from "../lib/offline/work-item-entries";
import { defineStore, onStoresReset } from "../lib/store";
import { yieldToBrowser } from "../lib/yield";
import { prefetchProjectMeta, projectMeta } from "./project-meta";
import { session } from "./session";

/** A work item as the API presents it (live-server/src/routes/issues/query.ts). */
export type WorkItem = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  workspace_id: string;
  state_id: string | null;
  state__group: string | null;
  priority: Priority;
  parent_id: string | null;
  estimate_point: string | null;
  start_date: string | null;
  target_date: string | null;
  sort_order: number;
  completed_at: string | null;
  archived_at: string | null;
  is_draft: boolean;
  is_epic: boolean;
  type_id: string | null;
  cycle_id: string | null;
  module_ids: string[];
  assignee_ids: string[];
  label_ids: string[];
  sub_issues_count: number;
  link_count: number;
  attachment_count: number;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
  description_html?: string;
  description_stripped?: string;
};

/** Fields a PATCH may change (the default form plus sort_order). */
export type WorkItemPatch = Partial<{
  name: string;
  description_html: string | null;
  state_id: string | null;
  priority: Priority;
  assignee_ids: string[];
  label_ids: string[];
  parent_id: string | null;
  estimate_point: string | null;
  start_date: string | null;
  target_date: string | null;
  sort_order: number;
  cycle_id: string | null;
  module_ids: string[];
}>;

export type WorkItemInput = WorkItemPatch & { name: string; is_epic?: boolean };

/** Bulk properties: state, priority, dates, estimate and cycle are set; assignees, labels and modules are added. */
export type BulkProperties = Partial<{
  state_id: string;
  priority: Priority;
  assignee_ids: string[];
  label_ids: string[];
  start_date: string | null;
  target_date: string | null;
  estimate_point: string | null;
  /** null: out of its cycle. */
  cycle_id: string | null;
  module_ids: string[];
}>;

export type LoadStatus = "idle" | "loading" | "ready" | "error";

type Cache = {
  /** Items per project id. */
  byProject: Map<string, Map<string, WorkItem>>;
  /** Every cached item by id (getWorkItem, useWorkItem). */
  byId: Map<string, WorkItem>;
  /** Highest updated_at seen per project: the delta refresh asks for what changed after it. */
  since: Map<string, string>;
  /**
   * The sync list's scope each project's items were fetched under (`all`, or `own` for a
   * restricted guest; null: unknown). A delta answering another scope means the user's rights
   * changed: the project is synced again in full (see refreshProject).
   */
  scope: Map<string, string | null>;
};

export const workItems = defineStore(() => ({
  /** Bumped on every change of a project's items; subscribe to re-read the Map. */
  version: {} as Record<string, number>,
  /** Bumped on every change anywhere (for readers of an item whose project isn't known yet). */
  globalVersion: 0,
  status: {} as Record<string, LoadStatus>,
  /** ref(): valtio must not proxy these Maps (they hold every item). */
  cache: ref({ byProject: new Map(), byId: new Map(), since: new Map(), scope: new Map() } as Cache),
}));

const base = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;

// ───────────── cache primitives ─────────────

function projectMap(projectId: string): Map<string, WorkItem> {
  const { byProject } = workItems.cache;
  let map = byProject.get(projectId);
  if (!map) {
    map = new Map();
    byProject.set(projectId, map);
  }
  return map;
}

function bump(projectIds: Iterable<string>): void {
  for (const id of new Set(projectIds)) workItems.version[id] = (workItems.version[id] ?? 0) + 1;
  workItems.globalVersion += 1;
}

function noteSince(item: WorkItem): void {
  const { since } = workItems.cache;
  const current = since.get(item.project_id);
  if (!current || item.updated_at > current) since.set(item.project_id, item.updated_at);
}

/**
 * Put items in the cache (no version bump). Drafts and deleted items never live here. Every change
 * is written through to the local database (batched); `persist: false` is for items that came
 * from it or are being stored by the sync itself.
 */
function put(item: WorkItem, persist = true): void {
  const previous = workItems.cache.byId.get(item.id);
  if (previous && previous.project_id !== item.project_id) {
    workItems.cache.byProject.get(previous.project_id)?.delete(item.id);
    noteWorkItemChange(previous.project_id, item.id);
  }
  projectMap(item.project_id).set(item.id, item);
  workItems.cache.byId.set(item.id, item);
  if (!item.id.startsWith(TEMP_PREFIX)) {
    noteSince(item);
    // The same version again (a catch-up re-reading what the copy holds) is not a change: writing
    // it would only make the stored snapshot stale, and the next open read 10,000 rows instead.
    if (persist && !(previous?.project_id === item.project_id && sameItem(previous, item)))
      noteWorkItemChange(item.project_id, item.id);
  }
}

function sameItem(a: WorkItem, b: WorkItem): boolean {
  return a === b || (a.updated_at === b.updated_at && JSON.stringify(a) === JSON.stringify(b));
}

function drop(id: string): WorkItem | undefined {
  const item = workItems.cache.byId.get(id);
  if (!item) return undefined;
  workItems.cache.byId.delete(id);
  workItems.cache.byProject.get(item.project_id)?.delete(id);
  noteWorkItemChange(item.project_id, id);
  return item;
}

/** Insert or replace items of a project (e.g. the detail helper's freshly loaded item). */
export function upsertWorkItems(projectId: string, items: readonly WorkItem[]): void {
  if (!items.length) return;
  for (const item of items) put(item);
  bump([projectId, ...items.map((i) => i.project_id)]);
}

/** The live layer: an item created or changed elsewhere. */
export function applyRemoteWorkItem(item: WorkItem): void {
  if (item.is_draft) return;
  // Our own pending change wins until the server answers it.
  if (pending.has(item.id)) return;
  const current = workItems.cache.byId.get(item.id);
  // Keep a loaded description when the event carries none.
  const merged =
    current && item.description_html === undefined && current.description_html !== undefined
      ? { ...item, description_html: current.description_html, description_stripped: current.description_stripped }
      : item;
  put(merged);
  bump([item.project_id]);
}

/** The live layer: an item deleted elsewhere. */
export function removeRemoteWorkItem(id: string): void {
  const item = drop(id);
  if (item) bump([item.project_id]);
}

export function getWorkItem(id: string): WorkItem | undefined {
  return workItems.cache.byId.get(id);
}

/** Items of a project, read from the Map (no subscription). */
export function getProjectWorkItems(projectId: string): WorkItem[] {
  const map = workItems.cache.byProject.get(projectId);
  return map ? Array.from(map.values()) : [];
}

// ───────────── hooks ─────────────

/** One item, re-read whenever its project (or, while unknown, anything) changes. */
export function useWorkItem(id: string | null | undefined): WorkItem | undefined {
  const snap = useSnapshot(workItems);
  const item = id ? workItems.cache.byId.get(id) : undefined;
  // Reading the counter subscribes this component to it.
  if (item) void snap.version[item.project_id];
  else void snap.globalVersion;
  return item;
}

const listMemo = new Map<string, { version: number; items: WorkItem[] }>();

/**
 * A project's items (archived ones included — callers filter), the load status and the version.
 * The array is rebuilt only when the version changes, so it is a stable memo key.
 */
export function useProjectWorkItems(projectId: string): {
  items: readonly WorkItem[];
  status: LoadStatus;
  version: number;
} {
  const snap = useSnapshot(workItems);
  const version = snap.version[projectId] ?? 0;
  const status = snap.status[projectId] ?? "idle";
  useEffect(() => prefetchLocalCopy(projectId), [projectId]);
  let memo = listMemo.get(projectId);
  if (!memo || memo.version !== version || (version === 0 && memo.items.length)) {
    memo = { version, items: getProjectWorkItems(projectId) };
    listMemo.set(projectId, memo);
  }
  return { items: memo.items, status, version };
}

/**
 * The items of several projects at once (a workspace view, a member's profile): like
 * useProjectWorkItems, over the union. `status` is "ready" once every project is, "error" if one
 * failed; `version` grows whenever any of them changes, so it is a memo key too.
 */
export function useProjectsWorkItems(projectIds: readonly string[]): {
  items: readonly WorkItem[];
  status: LoadStatus;
  version: number;
} {
  const snap = useSnapshot(workItems);
  let version = 0;
  const statuses = new Set<LoadStatus>();
  for (const id of projectIds) {
    version += snap.version[id] ?? 0;
    statuses.add(snap.status[id] ?? "idle");
  }
  const status: LoadStatus = statuses.has("error")
    ? "error"
    : statuses.has("loading")
      ? "loading"
      : statuses.has("idle")
        ? "idle"
        : "ready";
  const key = projectIds.join(",");
  const memo = unionMemo.get(key);
  if (memo && memo.version === version) return { items: memo.items, status, version };
  const items = projectIds.flatMap((id) => getProjectWorkItems(id));
  unionMemo.set(key, { version, items });
  // One board of several projects at a time: older unions are never read again.
  if (unionMemo.size > 4) unionMemo.delete(unionMemo.keys().next().value as string);
  return { items, status, version };
}

const unionMemo = new Map<string, { version: number; items: WorkItem[] }>();

// ───────────── loading ─────────────

type SyncPage = {
  results: WorkItem[];
  count: number;
  next_cursor: string | null;
  next_page_results: boolean;
  /** Whose items the list holds: `all`, or `own` for a restricted guest (live-server routes/issues). */
  scope?: string;
};

/** A sync list read in full: its items and the scope its pages said (null when they differed). */
type Synced = { items: WorkItem[]; scope: string | null | undefined };

const mergeScope = (a: string | null | undefined, b: string | null | undefined) =>
  a === undefined ? b : b === undefined || a === b ? a : null;

const SYNC_PAGE = SYNC_PAGE_SIZE;

async function fetchSyncOf(slug: string, projectId: string, type: "issues" | "epics", since?: string): Promise<Synced> {
  const out: WorkItem[] = [];
  let scope: string | null | undefined;
  let cursor: string | null = null;
  do {
    const searchParams: Record<string, string> = { per_page: String(SYNC_PAGE) };
    if (cursor) searchParams.cursor = cursor;
    if (since) searchParams.updated_at__gt = since;
    const page: SyncPage = await api.get(`${base(slug, projectId)}/v2/${type}/`, { searchParams }).json<SyncPage>();
    out.push(...page.results);
    scope = mergeScope(scope, page.scope);
    cursor = page.next_page_results ? page.next_cursor : null;
  } while (cursor);
  return { items: out, scope };
}

/**
 * Projects whose epics live in the cache too. v2/issues/ leaves epics out, and most screens never
 * need them, so an epics screen opts its project in (loadProjectEpics); from then on every load
 * and refresh of the project also reads v2/epics/. (Epics changed elsewhere reach the cache
 * through the live layer either way, which is why the project board filters them out by scope.)
 */
const withEpics = new Set<string>();

async function fetchSync(slug: string, projectId: string, since?: string): Promise<Synced> {
  const [items, epics] = await Promise.all([
    fetchSyncOf(slug, projectId, "issues", since),
    withEpics.has(projectId) ? fetchSyncOf(slug, projectId, "epics", since) : Promise.resolve(undefined),
  ]);
  if (!epics) return items;
  return { items: [...items.items, ...epics.items], scope: mergeScope(items.scope, epics.scope) };
}

const epicsLoading = new Map<string, Promise<void>>();

/** Are the project's epics in the cache (loadProjectEpics done)? */
export function epicsLoaded(projectId: string): boolean {
  return withEpics.has(projectId);
}

/**
 * Put a project's epics in its cache (once; the project's later refreshes keep them current).
 * A project without epics (404) is not opted in, so its refreshes keep working.
 */
export function loadProjectEpics(slug: string, projectId: string): Promise<void> {
  if (withEpics.has(projectId)) return Promise.resolve();
  const running = epicsLoading.get(projectId);
  if (running) return running;
  // After a full load already running (it would clear the project's map, epics and all).
  const before = loading.get(projectId)?.catch(() => undefined) ?? Promise.resolve();
  const promise = before
    .then(() => fetchSyncOf(slug, projectId, "epics"))
    .then(({ items: epics }) => {
      withEpics.add(projectId);
      // The delta refresh's mark stays the work items' own: newer epics must not move it past a
      // work item changed meanwhile (the next refresh reads epics from that mark too).
      const since = workItems.cache.since.get(projectId);
      for (const epic of epics) if (!epic.is_draft && !pending.has(epic.id)) put(epic);
      if (since) workItems.cache.since.set(projectId, since);
      else workItems.cache.since.delete(projectId);
      bump([projectId]);
    })
    .finally(() => epicsLoading.delete(projectId));
  epicsLoading.set(projectId, promise);
  return promise;
}

const loading = new Map<string, Promise<void>>();

/** Local copies being read ahead of their project's load (consumed by it). */
const prefetched = new Map<string, Promise<StoredProject | null>>();

/**
 * Start reading a project's local copy — items and metadata — as soon as a screen asks for its
 * items: the load itself waits for the server to say the user is a member, and the copy is read
 * meanwhile.
 */
function prefetchLocalCopy(projectId: string): void {
  if ((workItems.status[projectId] ?? "idle") !== "idle" || prefetched.has(projectId)) return;
  performance.mark("tideline:work-items:local-read");
  prefetched.set(projectId, readStoredProject(projectId));
  prefetchProjectMeta(projectId);
}

// A copy read for the previous user must not fill the next one's cache.
onStoresReset(() => prefetched.clear());

/**
 * Load every work item of a project once (later calls refresh instead). With the local database,
 * a complete stored copy fills the cache at once (the board paints from it) and the delta call
 * catches up behind it; otherwise the sync list is read in full, each page stored as it arrives
 * (an interrupted sync resumes from the stored part next time). `force` starts over from the
 * server (the board keeps showing what it holds until the new list replaces it).
 */
export function loadProjectWorkItems(slug: string, projectId: string, options: { force?: boolean } = {}) {
  const running = loading.get(projectId);
  if (running) return running;
  if (workItems.status[projectId] === "ready" && !options.force) return refreshProject(slug, projectId);
  if (workItems.status[projectId] !== "ready") workItems.status[projectId] = "loading";
  localDb.projects[projectId] = "loading";
  const generation = generationOf(projectId);
  let fromLocalCopy = false;
  const promise = loadProject(slug, projectId, options.force === true)
    .then((local) => {
      // The project was forgotten while it loaded (its rights were lost): leave it forgotten.
      if (generationOf(projectId) !== generation) return;
      fromLocalCopy = local;
      workItems.status[projectId] = "ready";
      localDb.projects[projectId] = "ready";
      bump([projectId]);
    })
    .catch((error: unknown) => {
      if (generationOf(projectId) !== generation) return;
      if (workItems.status[projectId] !== "ready") workItems.status[projectId] = "error";
      localDb.projects[projectId] = "error";
      throw error;
    })
    .finally(() => {
      loading.delete(projectId);
      // Behind the painted local copy: what changed on the server since it was stored, asked
      // once the board has painted (lib/offline/last-answers.ts afterFirstPaint).
      if (fromLocalCopy) afterFirstPaint(() => void refreshProject(slug, projectId).catch(() => undefined));
    });
  loading.set(projectId, promise);
  return promise;
}

/** Fill the cache from the local copy or a full sync; true when it came from the local copy. */
async function loadProject(slug: string, projectId: string, force: boolean): Promise<boolean> {
  const generation = generationOf(projectId);
  const ahead = prefetched.get(projectId);
  prefetched.delete(projectId);
  const stored = force ? null : await (ahead ?? readStoredProject(projectId));
  if (generationOf(projectId) !== generation) return false;
  if (stored?.sync.complete) {
    performance.mark("tideline:work-items:local-copy-parsed");
    // Filling the cache and the board's first render each get a task of their own.
    await yieldToBrowser();
    if (generationOf(projectId) !== generation) return false;
    // A copy of an older build says no scope: unknown, so the first delta syncs it again.
    fillProject(projectId, stored.items, [], stored.sync.since, stored.sync.scope ?? null);
    trackProject(projectId);
    // Benchmarks read when the local copy was in the cache.
    performance.mark("tideline:work-items:hydrated");
    await yieldToBrowser();
    return true;
  }
  // No usable copy: the board paints from the server's first page (use-board-data.ts), and the
  // full sync waits for that paint (or the 5 s start window) — on PGlite's one connection its
  // 500-item pages would otherwise run before the first page and delay it (bench, cold open).
  await startWindowClosed();
  const [synced, epics] = await Promise.all([
    syncProjectItems(projectId, syncSource(slug, projectId), stored),
    withEpics.has(projectId) ? fetchSyncOf(slug, projectId, "epics") : Promise.resolve(undefined),
  ]);
  if (generationOf(projectId) !== generation) return false;
  const scope = epics ? mergeScope(synced.scope, epics.scope) : synced.scope;
  fillProject(projectId, synced.items, epics?.items ?? [], synced.since, scope ?? null);
  return false;
}

function syncSource(slug: string, projectId: string) {
  return {
    page: (cursor: string | null) => {
      const searchParams: Record<string, string> = { per_page: String(SYNC_PAGE) };
      if (cursor) searchParams.cursor = cursor;
      return api.get(`${base(slug, projectId)}/v2/issues/`, { searchParams }).json<SyncPage>();
    },
    deletedSince: (since: string) =>
      api.get(`${base(slug, projectId)}/deleted-issues/`, { searchParams: { updated_at__gt: since } }).json<string[]>(),
  };
}

/**
 * Replace a project's items: `stored` are already in the local database (not written again),
 * `fresh` ones are. The delta mark is the work items' own (`since`), never moved by epics;
 * `scope` is the sync list's scope they were fetched under.
 */
function fillProject(
  projectId: string,
  stored: readonly WorkItem[],
  fresh: readonly WorkItem[],
  since: string | null,
  scope: string | null,
): void {
  const map = projectMap(projectId);
  // A change made while loading (e.g. on the first-paint page, or a quick add) stays until its answer.
  const held = [...map.values()].filter((i) => pending.has(i.id) || isTempWorkItem(i.id));
  for (const id of map.keys()) workItems.cache.byId.delete(id);
  map.clear();
  for (const item of stored) if (!item.is_draft) put(item, false);
  for (const item of fresh) if (!item.is_draft) put(item);
  for (const item of held) put(item);
  if (since) workItems.cache.since.set(projectId, since);
  else workItems.cache.since.delete(projectId);
  workItems.cache.scope.set(projectId, scope);
}

/**
 * Fetch what changed since the newest item we hold, and what was deleted since. When the delta
 * answers another scope than the one the items were fetched under (the user's rights changed:
 * items left or entered their view, which a delta can't say), the project is synced again in
 * full; a user now restricted to their own items stops seeing the others' at once. `full` syncs
 * again in full in any case (the live channel said the user's access changed).
 */
export function refreshProject(
  slug: string,
  projectId: string,
  options: { full?: boolean; fresh?: boolean } = {},
): Promise<void> {
  if (options.full) fullWanted.add(projectId);
  const running = loading.get(projectId);
  if (running) {
    // A refresh or load under way is shared, unless the caller needs an answer asked after now (a
    // live channel catching up after a reconnection or a rights change: what the running request
    // began before may have missed) or a full sync: then one more runs after it.
    if (!options.fresh && !fullWanted.has(projectId)) return running;
    let next = refreshAfter.get(projectId);
    if (!next) {
      next = running
        .catch(() => undefined)
        .then(() => {
          refreshAfter.delete(projectId);
          return refreshProject(slug, projectId);
        });
      refreshAfter.set(projectId, next);
    }
    return next;
  }
  if (workItems.status[projectId] !== "ready") {
    fullWanted.delete(projectId);
    return loadProjectWorkItems(slug, projectId);
  }
  if (fullWanted.delete(projectId)) return resyncProject(slug, projectId);
  const since = workItems.cache.since.get(projectId);
  const generation = generationOf(projectId);
  localDb.projects[projectId] = "syncing";
  let rightsChanged = false;
  const promise = Promise.all([
    fetchSync(slug, projectId, since),
    since
      ? api
          .get(`${base(slug, projectId)}/deleted-issues/`, { searchParams: { updated_at__gt: since } })
          .json<string[]>()
      : Promise.resolve([] as string[]),
  ])
    .then(([{ items: changed, scope }, deleted]) => {
      if (generationOf(projectId) !== generation) return;
      if (scope !== undefined && scope !== workItems.cache.scope.get(projectId)) {
        rightsChanged = true;
        // Now limited to their own items: the others go at once, before the new list is in.
        if (scope === "own") dropOthersItems(projectId);
        return;
      }
      let touched = false;
      for (const item of changed) {
        if (pending.has(item.id) || item.is_draft) continue;
        const current = workItems.cache.byId.get(item.id);
        if (current && current.updated_at === item.updated_at && current.sort_order === item.sort_order) {
          noteSince(item);
          continue;
        }
        put(item);
        touched = true;
      }
      for (const id of deleted) if (drop(id)) touched = true;
      if (touched) bump([projectId]);
      localDb.projects[projectId] = "ready";
    })
    .catch((error: unknown) => {
      localDb.projects[projectId] = "error";
      throw error;
    })
    .finally(() => loading.delete(projectId))
    .then(() => (rightsChanged ? resyncProject(slug, projectId) : undefined));
  loading.set(projectId, promise);
  return promise;
}

/** Projects whose next refresh is a full sync (the live channel said the user's access changed). */
const fullWanted = new Set<string>();
/** The refresh queued behind a running one (refreshProject `fresh`), one per project. */
const refreshAfter = new Map<string, Promise<void>>();

/** The project's items synced again in full (the user's rights changed), replacing what the cache and the copy hold. */
function resyncProject(slug: string, projectId: string): Promise<void> {
  if (workItems.status[projectId] !== "ready") return loadProjectWorkItems(slug, projectId);
  return loadProjectWorkItems(slug, projectId, { force: true });
}

/** Drop, from the cache and the copy, every item of the project the signed-in user did not create. */
function dropOthersItems(projectId: string): void {
  const userId = session.user?.id;
  if (!userId) return;
  let touched = false;
  for (const item of getProjectWorkItems(projectId)) {
    if (item.created_by !== userId && !pending.has(item.id) && !isTempWorkItem(item.id) && drop(item.id))
      touched = true;
  }
  if (touched) bump([projectId]);
}

/** Generation of a project's cache: bumped when it is forgotten, so loads begun before leave it empty. */
const generations = new Map<string, number>();
const generationOf = (projectId: string) => generations.get(projectId) ?? 0;

/**
 * The user may no longer see this project (removed from it, the project deleted, or the live
 * channel refused): drop its items from the cache and its whole local copy (items, snapshot,
 * sync record and metadata lists). Loads and refreshes under way leave it empty; the next load
 * starts from the server. Resolves when the copy is gone.
 */
export async function forgetProject(projectId: string): Promise<void> {
  generations.set(projectId, generationOf(projectId) + 1);
  const map = workItems.cache.byProject.get(projectId);
  if (map) for (const id of map.keys()) workItems.cache.byId.delete(id);
  workItems.cache.byProject.delete(projectId);
  workItems.cache.since.delete(projectId);
  workItems.cache.scope.delete(projectId);
  withEpics.delete(projectId);
  prefetched.delete(projectId);
  loading.delete(projectId);
  fullWanted.delete(projectId);
  delete workItems.status[projectId];
  delete localDb.projects[projectId];
  bump([projectId]);
  await Promise.all([forgetStoredProject(projectId), forgetProjectLists(projectId)]);
}

/**
 * Revalidate on focus (calls-errors-sync: not while hidden): refresh the project when the window
 * regains focus or the tab becomes visible again. Returns the unsubscribe.
 */
export function watchProjectFocus(slug: string, projectId: string): () => void {
  let last = Date.now();
  const revalidate = () => {
    if (document.visibilityState !== "visible") return;
    // Focus and visibilitychange often fire together.
    if (Date.now() - last < 2000) return;
    last = Date.now();
    refreshProject(slug, projectId).catch(() => {
      // A failed background refresh is retried on the next focus; nothing to tell the user.
    });
  };
  window.addEventListener("focus", revalidate);
  document.addEventListener("visibilitychange", revalidate);
  return () => {
    window.removeEventListener("focus", revalidate);
    document.removeEventListener("visibilitychange", revalidate);
  };
}

// The local database writes the cache's latest state of each changed item.
bindWorkItemCache({
  get: (id) => workItems.cache.byId.get(id),
  isPending: (id) => pending.has(id),
  since: (projectId) => workItems.cache.since.get(projectId),
  scope: (projectId) => workItems.cache.scope.get(projectId),
  items: (projectId) => getProjectWorkItems(projectId).filter((i) => !isTempWorkItem(i.id)),
});

// ───────────── changes ─────────────

const TEMP_PREFIX = "temp-";
/** Items with a request in flight: count per id (their server answer waits for the last one). */
const pending = new Map<string, number>();

function begin(ids: readonly string[]): void {
  for (const id of ids) pending.set(id, (pending.get(id) ?? 0) + 1);
}

/** Returns true when no other request for the id is still running. */
function end(id: string): boolean {
  const n = (pending.get(id) ?? 1) - 1;
  if (n <= 0) {
    pending.delete(id);
    noteWorkItemSettled(id);
    return true;
  }
  pending.set(id, n);
  return false;
}

/** The offline outbox holds an item while a change of it waits (its server copies don't replace it meanwhile). */
export function holdWorkItem(id: string): void {
  begin([id]);
}

/** A held change settled; true when nothing else holds the item. */
export function releaseWorkItem(id: string): boolean {
  return end(id);
}

export function isTempWorkItem(id: string): boolean {
  return id.startsWith(TEMP_PREFIX);
}

/** The local form of a patch: state__group follows the state. */
function applyPatch(item: WorkItem, patch: WorkItemPatch): WorkItem {
  const next = { ...item, ...patch } as WorkItem;
  if (patch.state_id !== undefined) {
    const state = projectMeta.byProject[item.project_id]?.states.find((s) => s.id === patch.state_id);
    next.state__group = state?.group ?? null;
  }
  return next;
}

async function fail(message: string, error: unknown): Promise<void> {
  toast.error(message, { description: await errorMessage(error) });
}

/**
 * Create a work item. With `optimistic`, a placeholder shows at once (quick add) and is replaced
 * by the server's item. Throws on refusal so a form can show the field errors. Offline (or behind
 * changes waiting in the outbox) the placeholder is shown in every case, waits in the outbox and
 * is what this resolves to.
 */
export async function createWorkItem(
  slug: string,
  projectId: string,
  input: WorkItemInput,
  options: { optimistic?: boolean } = {},
): Promise<WorkItem> {
  let tempId: string | null = null;
  let placeholder: WorkItem | null = null;
  const mutationId = newClientMutationId();
  const url = `${base(slug, projectId)}/${input.is_epic ? "epics" : "issues"}/`;
  const queued = outbox.shouldQueue();
  if (options.optimistic || queued) {
    tempId = `${TEMP_PREFIX}${crypto.randomUUID()}`;
    const now = new Date().toISOString();
    const meta = projectMeta.byProject[projectId];
    const stateId = input.state_id ?? meta?.states.find((s) => s.default)?.id ?? meta?.states[0]?.id ?? null;
    const siblings = workItems.cache.byProject.get(projectId);
    let maxSort = 0;
    if (siblings) for (const i of siblings.values()) if (i.sort_order > maxSort) maxSort = i.sort_order;
    placeholder = {
      id: tempId,
      name: input.name,
      sequence_id: 0,
      project_id: projectId,
      workspace_id: "",
      state_id: stateId,
      state__group: meta?.states.find((s) => s.id === stateId)?.group ?? null,
      priority: input.priority ?? "none",
      parent_id: input.parent_id ?? null,
      estimate_point: input.estimate_point ?? null,
      start_date: input.start_date ?? null,
      target_date: input.target_date ?? null,
      sort_order: input.sort_order ?? maxSort + 10000,
      completed_at: null,
      archived_at: null,
      is_draft: false,
      is_epic: input.is_epic ?? false,
      type_id: null,
      cycle_id: input.cycle_id ?? null,
      module_ids: input.module_ids ?? [],
      assignee_ids: input.assignee_ids ?? [],
      label_ids: input.label_ids ?? [],
      sub_issues_count: 0,
      link_count: 0,
      attachment_count: 0,
      created_at: now,
      updated_at: now,
      created_by: null,
      updated_by: null,
    };
    put(placeholder);
    bump([projectId]);
  }
  const queue = async (shown: WorkItem) => {
    await outbox.enqueue(workItemCreateEntry({ url, body: input, placeholder: shown, mutationId }));
    return shown;
  };
  if (queued && placeholder) return queue(placeholder);
  try {
    // An epic is created through the epics list (POST epics/ makes it an epic).
    const created = await api.post(url, { json: input, headers: mutationHeaders(mutationId) }).json<WorkItem>();
    if (tempId) drop(tempId);
    put(created);
    if (created.parent_id) {
      const parent = workItems.cache.byId.get(created.parent_id);
      if (parent) put({ ...parent, sub_issues_count: parent.sub_issues_count + 1 });
    }
    bump([projectId]);
    return created;
  } catch (error) {
    // No answer: it may have reached the server; the outbox sends it again with the same id.
    if (placeholder && isNoAnswer(error)) return queue(placeholder);
    if (tempId) {
      drop(tempId);
      bump([projectId]);
      await fail("Couldn't create the work item", error);
    }
    throw error;
  }
}

/**
 * Change one item at once; undone with a toast if the server refuses. Resolves to the server's
 * item, or — offline, behind waiting changes, or when the request got no answer — to the item as
 * shown while the change waits in the outbox.
 */
export async function updateWorkItem(
  slug: string,
  projectId: string,
  id: string,
  patch: WorkItemPatch,
): Promise<WorkItem | undefined> {
  const before = workItems.cache.byId.get(id);
  if (before) {
    put(applyPatch(before, patch));
    bump([before.project_id]);
  }
  begin([id]);
  const mutationId = newClientMutationId();
  const url = `${base(slug, projectId)}/issues/${id}/`;
  // The item stays held (begun) until the outbox sends the change.
  const queue = async () => {
    const shown = workItems.cache.byId.get(id);
    await outbox.enqueue(workItemUpdateEntry({ url, id, projectId, patch, before, shown, mutationId }));
    return shown;
  };
  if (outbox.shouldQueue()) return queue();
  try {
    const answer = await api.patch(url, { json: patch, headers: mutationHeaders(mutationId) }).json<WorkItem>();
    if (end(id)) {
      const current = workItems.cache.byId.get(id);
      // The answer may lack the description (e.g. a name change): keep the one we hold.
      const merged =
        current && answer.description_html === undefined && current.description_html !== undefined
          ? {
              ...answer,
              description_html: current.description_html,
              description_stripped: current.description_stripped,
            }
          : answer;
      put(merged);
      bump([answer.project_id]);
    }
    return answer;
  } catch (error) {
    if (isNoAnswer(error)) return queue();
    end(id);
    const current = workItems.cache.byId.get(id);
    if (before && current) {
      // Undo only the fields this change touched; a later change to others stays.
      const undo: Partial<WorkItem> = {};
      for (const key of Object.keys(patch) as (keyof WorkItemPatch)[]) {
        (undo as Record<string, unknown>)[key] = before[key as keyof WorkItem];
      }
      put({ ...current, ...undo, state__group: "state_id" in patch ? before.state__group : current.state__group });
      bump([before.project_id]);
    }
    await fail("Couldn't update the work item", error);
    return undefined;
  }
}

/** Move an item (drag and drop): a new position and, across groups, the grouped property. */
export function moveWorkItem(
  slug: string,
  projectId: string,
  id: string,
  move: { sortOrder?: number; patch?: WorkItemPatch },
): Promise<WorkItem | undefined> {
  const patch: WorkItemPatch = { ...(move.patch ?? {}) };
  if (move.sortOrder !== undefined) patch.sort_order = move.sortOrder;
  return updateWorkItem(slug, projectId, id, patch);
}

/** Delete one item (soft delete on the server); restored with a toast if refused. */
export async function deleteWorkItem(slug: string, projectId: string, id: string): Promise<boolean> {
  const removed = drop(id);
  if (removed) bump([removed.project_id]);
  begin([id]);
  try {
    await api.delete(`${base(slug, projectId)}/issues/${id}/`, { headers: mutationHeaders() });
    end(id);
    return true;
  } catch (error) {
    end(id);
    if (removed) {
      put(removed);
      bump([removed.project_id]);
    }
    await fail("Couldn't delete the work item", error);
    return false;
  }
}

/** Archive one item (only closed ones; the server says why otherwise). */
export async function archiveWorkItem(slug: string, projectId: string, id: string): Promise<boolean> {
  const before = workItems.cache.byId.get(id);
  if (before) {
    put({ ...before, archived_at: new Date().toISOString() });
    bump([before.project_id]);
  }
  begin([id]);
  try {
    const answer = await api
      .post(`${base(slug, projectId)}/issues/${id}/archive/`, { headers: mutationHeaders() })
      .json<{ archived_at: string }>();
    if (end(id)) {
      const current = workItems.cache.byId.get(id);
      if (current) {
        put({ ...current, archived_at: answer.archived_at });
        bump([current.project_id]);
      }
    }
    return true;
  } catch (error) {
    end(id);
    if (before) {
      put(before);
      bump([before.project_id]);
    }
    await fail("Couldn't archive the work item", error);
    return false;
  }
}

/** Bulk update (POST bulk-operation-issues/), all or nothing; assignees, labels and modules are added. */
export async function bulkUpdateWorkItems(
  slug: string,
  projectId: string,
  ids: readonly string[],
  properties: BulkProperties,
): Promise<boolean> {
  const befores = ids.map((id) => workItems.cache.byId.get(id)).filter((i): i is WorkItem => Boolean(i));
  for (const item of befores) {
    const { assignee_ids, label_ids, module_ids, ...rest } = properties;
    const patch: WorkItemPatch = { ...rest };
    if (assignee_ids) patch.assignee_ids = [...new Set([...item.assignee_ids, ...assignee_ids])];
    if (label_ids) patch.label_ids = [...new Set([...item.label_ids, ...label_ids])];
    // Added to the item's own, as the server does.
    if (module_ids) patch.module_ids = [...new Set([...item.module_ids, ...module_ids])];
    put(applyPatch(item, patch));
  }
  bump([projectId]);
  begin(ids);
  try {
    const answer = await api
      .post(`${base(slug, projectId)}/bulk-operation-issues/`, {
        json: { issue_ids: ids, properties },
        headers: mutationHeaders(),
      })
      .json<WorkItem[]>();
    const done = new Set(ids.filter((id) => end(id)));
    for (const item of answer) if (done.has(item.id)) put(item);
    bump([projectId]);
    return true;
  } catch (error) {
    for (const id of ids) end(id);
    for (const item of befores) put(item);
    bump([projectId]);
    await fail("Couldn't update the work items", error);
    return false;
  }
}

/** One item's new dates on the timeline: only the fields given change. */
export type WorkItemDatesUpdate = { id: string; start_date?: string | null; target_date?: string | null };

/**
 * The timeline's date moves (POST issue-dates/ {updates}), all or nothing: applied at once, the
 * touched fields put back with a toast if the server refuses.
 */
export async function updateWorkItemDates(
  slug: string,
  projectId: string,
  updates: readonly WorkItemDatesUpdate[],
): Promise<boolean> {
  const befores = new Map<string, WorkItem>();
  for (const { id, ...dates } of updates) {
    const item = workItems.cache.byId.get(id);
    if (!item) continue;
    befores.set(id, item);
    put({ ...item, ...dates });
  }
  bump([projectId]);
  const ids = updates.map((u) => u.id);
  begin(ids);
  try {
    const answer = await api
      .post(`${base(slug, projectId)}/issue-dates/`, { json: { updates }, headers: mutationHeaders() })
      .json<WorkItem[]>();
    const done = new Set(ids.filter((id) => end(id)));
    for (const item of answer) {
      if (!done.has(item.id)) continue;
      // The answer may lack the description: keep the one we hold.
      const current = workItems.cache.byId.get(item.id);
      put(
        current?.description_html !== undefined && item.description_html === undefined
          ? { ...item, description_html: current.description_html, description_stripped: current.description_stripped }
          : item,
      );
    }
    bump([projectId]);
    return true;
  } catch (error) {
    for (const id of ids) end(id);
    for (const { id, ...dates } of updates) {
      const before = befores.get(id);
      const current = workItems.cache.byId.get(id);
      if (!before || !current) continue;
      // Undo only the dates this change touched; a later change to others stays.
      const undo: Partial<WorkItem> = {};
      if ("start_date" in dates) undo.start_date = before.start_date;
      if ("target_date" in dates) undo.target_date = before.target_date;
      put({ ...current, ...undo });
    }
    bump([projectId]);
    await fail("Couldn't change the dates", error);
    return false;
  }
}

/** Delete several items (DELETE bulk-delete-issues/), all or nothing. */
export async function bulkDeleteWorkItems(slug: string, projectId: string, ids: readonly string[]): Promise<boolean> {
  const removed = ids.map((id) => drop(id)).filter((i): i is WorkItem => Boolean(i));
  bump([projectId]);
  begin(ids);
  try {
    await api.delete(`${base(slug, projectId)}/bulk-delete-issues/`, {
      json: { issue_ids: ids },
      headers: mutationHeaders(),
    });
    for (const id of ids) end(id);
    return true;
  } catch (error) {
    for (const id of ids) end(id);
    for (const item of removed) put(item);
    bump([projectId]);
    await fail("Couldn't delete the work items", error);
    return false;
  }
}

/** Archive several closed items (POST bulk-archive-issues/), all or nothing. */
export async function bulkArchiveWorkItems(slug: string, projectId: string, ids: readonly string[]): Promise<boolean> {
  const befores = ids.map((id) => workItems.cache.byId.get(id)).filter((i): i is WorkItem => Boolean(i));
  const now = new Date().toISOString();
  for (const item of befores) put({ ...item, archived_at: now });
  bump([projectId]);
  begin(ids);
  try {
    const answer = await api
      .post(`${base(slug, projectId)}/bulk-archive-issues/`, { json: { issue_ids: ids }, headers: mutationHeaders() })
      .json<{ archived_at: string }>();
    for (const id of ids) {
      const current = workItems.cache.byId.get(id);
      if (end(id) && current) put({ ...current, archived_at: answer.archived_at });
    }
    bump([projectId]);
    return true;
  } catch (error) {
    for (const id of ids) end(id);
    for (const item of befores) put(item);
    bump([projectId]);
    await fail("Couldn't archive the work items", error);
    return false;
  }
}

// ───────────── first paint from the server ─────────────

type ListCell = { results: WorkItem[]; total_results: number };
/** The paged list's answer (GET issues/): flat, grouped or sub-grouped. */
export type WorkItemListPage = {
  results:
    | WorkItem[]
    | Record<string, ListCell>
    | Record<string, { results: Record<string, ListCell>; total_results: number }>;
  total_count: number;
  grouped_by: string | null;
  sub_grouped_by: string | null;
};

/**
 * One page of the server's filtered, grouped list (50 per group), used to paint the board at once
 * while the whole project is still loading into the cache (the spec's "server answers while the
 * local database isn't ready"). Its items go into the cache so pickers and the peek work on them.
 */
export async function fetchWorkItemsPage(
  slug: string,
  projectId: string,
  searchParams: Record<string, string>,
  /** The list call under the project: `issues/`, or a cycle's `cycles/{id}/cycle-issues/` or a module's `modules/{id}/issues/`. */
  listPath = "issues/",
): Promise<WorkItemListPage> {
  const page = await api.get(`${base(slug, projectId)}/${listPath}`, { searchParams }).json<WorkItemListPage>();
  if (workItems.status[projectId] === "ready") return page;
  const found: WorkItem[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) found.push(...(value as WorkItem[]));
    else if (value && typeof value === "object")
      for (const cell of Object.values(value as Record<string, { results: unknown }>)) collect(cell.results);
  };
  collect(page.results);
  for (const item of found) if (!workItems.cache.byId.has(item.id)) put(item);
  // The full load owns `since`; a partial page must not move it.
  workItems.cache.since.delete(projectId);
  bump([projectId]);
  return page;
}

/** Parent picker: search the project's items (GET search-issues/). */
export type WorkItemSearchResult = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  project__identifier: string;
  state__group: string | null;
  state__color?: string | null;
  priority: Priority;
};

export async function searchWorkItems(
  slug: string,
  projectId: string,
  query: { search: string; issueId?: string; parent?: boolean },
): Promise<WorkItemSearchResult[]> {
  const searchParams: Record<string, string> = { search: query.search };
  if (query.issueId) searchParams.issue_id = query.issueId;
  if (query.parent) searchParams.parent = "true";
  return api.get(`${base(slug, projectId)}/search-issues/`, { searchParams }).json<WorkItemSearchResult[]>();
}

/** Did this client send the change with this x-client-mutation-id? (One list for every store.) */
export const isOwnMutation = isOwnClientMutation;
