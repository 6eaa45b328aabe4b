/**
 * Work items in the local database: reading a project's copy (hydration), the resumable first
 * sync (pages of 500 stored in transactions of 50 puts), and the write-through of every later
 * change of the in-memory cache, batched so a burst of live events is one transaction.
 */
import type { IDBPTransaction } from "idb";
import type { WorkItem } from "../../stores/work-items";
import { clearPrepaint, dropPrepaint, prepaintShownFor } from "../prepaint";
import { onStoresReset } from "../store";
import { yieldToBrowser } from "../yield";
import { abort, type LocalDb, localDatabase, localFailure } from "./database";
import { forgetPreloaded, takePreloadedItems } from "./preload";
import { type LocalSchema, type ProjectSnapshot, type ProjectSyncRecord, syncKey } from "./schema";

/** calls-errors-sync §9: sync pages of 500, inserted in batches of 50. */
export const SYNC_PAGE_SIZE = 500;
export const WRITE_BATCH_SIZE = 50;

export type SyncPage = {
  results: WorkItem[];
  next_cursor: string | null;
  next_page_results: boolean;
  /** Whose items the list holds (`all`, or `own` for a restricted guest); absent from older servers. */
  scope?: string;
};

/** The server side of a sync: the v2 list's pages (oldest change first) and the deleted ids. */
export type SyncSource = {
  page(cursor: string | null): Promise<SyncPage>;
  deletedSince(since: string): Promise<string[]>;
};

export type StoredProject = { items: WorkItem[]; sync: ProjectSyncRecord };

/**
 * A project's stored items and where its sync stands; null when there is no usable copy. A
 * complete copy is read from its snapshot when that is current (several times faster than the
 * rows), otherwise from the rows.
 */
export async function readStoredProject(projectId: string): Promise<StoredProject | null> {
  // Read before the app loaded (public/preload-local.js): the same transaction, taken if it is usable.
  const preloaded = await takePreloadedItems(projectId);
  if (preloaded?.record?.complete && preloaded.snapshot?.stamp === preloaded.record.stamp) {
    // Opened (and its version checked) for the writes that follow, without waiting for it here.
    void localDatabase();
    performance.mark("tideline:local-db:snapshot-read");
    const { record, snapshot } = preloaded;
    return { items: await parseSnapshot(snapshot.chunks), sync: record };
  }
  const db = await localDatabase();
  if (!db) return null;
  performance.mark("tideline:local-db:opened");
  try {
    const tx = db.transaction(["issues", "snapshots", "options"]);
    const [record, snapshot] = await Promise.all([
      tx.objectStore("options").get(syncKey(projectId)),
      tx.objectStore("snapshots").get(projectId),
    ]);
    if (!record) return null;
    const sync = record.value as ProjectSyncRecord;
    if (sync.complete && snapshot?.stamp === sync.stamp) {
      performance.mark("tideline:local-db:snapshot-read");
      return { items: await parseSnapshot(snapshot.chunks), sync };
    }
    const items = await tx.objectStore("issues").index("project_id").getAll(projectId);
    // The next open reads the faster snapshot again.
    if (sync.complete) {
      writtenStamps.set(projectId, sync.stamp);
      scheduleSnapshot(projectId);
    }
    return { items, sync };
  } catch {
    localFailure();
    return null;
  }
}

const SNAPSHOT_CHUNK = 1000;

/**
 * A snapshot's items, parsed a few chunks at a time with the browser let in between: 10,000
 * items are 40–60 ms of JSON.parse, which would otherwise join the hydration and the first
 * render in one long task.
 */
async function parseSnapshot(chunks: readonly string[]): Promise<WorkItem[]> {
  const items: WorkItem[] = [];
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0 && i % 3 === 0) await yieldToBrowser();
    for (const item of JSON.parse(chunk) as WorkItem[]) items.push(item);
  }
  return items;
}

function snapshotOf(projectId: string, items: readonly WorkItem[], stamp: number): ProjectSnapshot {
  const chunks: string[] = [];
  for (let i = 0; i < items.length; i += SNAPSHOT_CHUNK)
    chunks.push(JSON.stringify(items.slice(i, i + SNAPSHOT_CHUNK)));
  return { project_id: projectId, stamp, chunks };
}

const newer = (a: string | null, b: string) => (a && a >= b ? a : b);

/**
 * A project's full sync, stored page by page so that an interruption costs only the page under
 * way: each page is written in transactions of 50 puts, the last one also recording the cursor
 * after it. Given an interrupted copy (`resume`), it continues from that cursor and then drops
 * what was deleted on the server since the stored part. Resolves to every item of the project
 * and the delta mark (the newest updated_at) as soon as they are fetched: the storing goes on
 * behind, in order, on the writer's queue (`flushLocalWrites()` waits for it), and marks the copy
 * complete at the end. Without a database (flag off, failure) it only fetches. The pages' `scope`
 * is recorded with the copy (null when they differ: the rights changed during the sync); an
 * interrupted copy of another scope is not resumed but started over.
 */
export async function syncProjectItems(
  projectId: string,
  source: SyncSource,
  resume: StoredProject | null,
): Promise<{ items: WorkItem[]; since: string | null; scope: string | null | undefined }> {
  // Until the stored copy is complete, the project's changes wait (see noteWorkItemChange).
  tracked.delete(projectId);
  const generation = generationOf(projectId);
  const db = await localDatabase();
  if (db) storing.add(projectId);
  let resuming = resume && !resume.sync.complete && resume.sync.cursor ? resume : null;
  const byId = new Map<string, WorkItem>(resuming ? resuming.items.map((i) => [i.id, i]) : []);
  let cursor = resuming?.sync.cursor ?? null;
  let since = resuming?.sync.since ?? null;
  let stamp = (resume?.sync.stamp ?? 0) + 1;
  let stored = true;
  const store = (write: (db: LocalDb) => Promise<void>) => {
    if (!db) return;
    flushing = flushing.then(async () => {
      // The project was forgotten meanwhile (its rights were lost): nothing of it is stored again.
      if (!stored || generationOf(projectId) !== generation) return;
      try {
        await write(db);
      } catch {
        stored = false;
        localFailure();
      }
    });
  };
  if (!resuming)
    store(async (d) => {
      stamp = await clearProjectItems(d, projectId);
    });

  try {
    return await fetchAll();
  } finally {
    // After the last write, whatever happened (a failed fetch leaves its stored pages to resume from).
    if (db)
      flushing = flushing.then(() => {
        storing.delete(projectId);
        held.delete(projectId);
      });
  }

  async function fetchAll(): Promise<{ items: WorkItem[]; since: string | null; scope: string | null | undefined }> {
    let next = source.page(cursor);
    let first = true;
    // undefined until a page says its scope (older servers never do).
    let scope: string | null | undefined = resuming ? resuming.sync.scope : undefined;
    for (;;) {
      const page = await next;
      if (first && resuming && page.scope !== undefined && page.scope !== resuming.sync.scope) {
        // The stored part was fetched under other rights: it may hold items no longer visible
        // (or miss some that now are). Start over.
        resuming = null;
        byId.clear();
        cursor = null;
        since = null;
        scope = undefined;
        store(async (d) => {
          stamp = await clearProjectItems(d, projectId);
        });
        next = source.page(null);
        first = false;
        continue;
      }
      first = false;
      if (page.scope !== undefined) scope = scope === undefined || scope === page.scope ? page.scope : null;
      const items = page.results.filter((i) => !i.is_draft);
      for (const item of items) {
        byId.set(item.id, item);
        since = newer(since, item.updated_at);
      }
      cursor = page.next_page_results ? page.next_cursor : null;
      if (cursor) next = source.page(cursor);
      const record = { complete: false, since, cursor, syncedAt: new Date().toISOString(), scope };
      store((d) => storeSyncPage(d, projectId, items, { ...record, stamp }));
      if (!cursor) break;
    }

    let deleted: string[] = [];
    if (resuming?.sync.since) {
      deleted = await source.deletedSince(resuming.sync.since);
      for (const id of deleted) byId.delete(id);
    }
    const items = [...byId.values()];
    store(async (d) => {
      stamp += 1;
      const complete: ProjectSyncRecord = {
        complete: true,
        since,
        cursor: null,
        syncedAt: new Date().toISOString(),
        stamp,
        scope,
      };
      await inTransaction(d, ["issues", "snapshots", "options"], (tx) => {
        for (const id of deleted) void tx.objectStore("issues").delete(id);
        void tx.objectStore("snapshots").put(snapshotOf(projectId, items, stamp));
        void tx.objectStore("options").put({ key: syncKey(projectId), value: complete });
      });
      writtenStamps.set(projectId, stamp);
      trackProject(projectId);
      // The changes made while the copy was being stored are written now — only those the copy
      // doesn't already hold as they are (the board's first page, put while the sync ran, is
      // the same items): each write makes the snapshot stale until it is rewritten.
      storing.delete(projectId);
      for (const id of held.get(projectId) ?? []) {
        const cached = reader?.get(id);
        const synced = byId.get(id);
        if (!cached || !synced || JSON.stringify(cached) !== JSON.stringify(synced)) noteWorkItemChange(projectId, id);
      }
      held.delete(projectId);
    });
    return { items, since, scope };
  }
}

/** Run writes in a transaction, aborting it when one throws (nothing half-done is committed). */
async function inTransaction<T extends ("issues" | "snapshots" | "options")[]>(
  db: LocalDb,
  stores: T,
  writes: (tx: IDBPTransaction<LocalSchema, T, "readwrite">) => Promise<void> | void,
): Promise<void> {
  // A cache the server can refill: no need to wait for the disk at every commit.
  const tx = db.transaction(stores, "readwrite", { durability: "relaxed" });
  try {
    await writes(tx);
    await tx.done;
  } catch (error) {
    abort(tx);
    throw error;
  }
}

/** Start a project's copy over (its rows gone, not complete); resolves to its new stamp. */
async function clearProjectItems(db: LocalDb, projectId: string): Promise<number> {
  let stamp = 1;
  await inTransaction(db, ["issues", "options"], async (tx) => {
    const issues = tx.objectStore("issues");
    for (const key of await issues.index("project_id").getAllKeys(projectId)) void issues.delete(key);
    const previous = (await tx.objectStore("options").get(syncKey(projectId)))?.value as ProjectSyncRecord | undefined;
    const record: ProjectSyncRecord = {
      complete: false,
      since: null,
      cursor: null,
      syncedAt: new Date().toISOString(),
      stamp: (previous?.stamp ?? 0) + 1,
    };
    stamp = record.stamp;
    void tx.objectStore("options").put({ key: syncKey(projectId), value: record });
  });
  return stamp;
}

/** One sync page in transactions of WRITE_BATCH_SIZE puts; the last also records the cursor. */
async function storeSyncPage(
  db: LocalDb,
  projectId: string,
  items: readonly WorkItem[],
  record: ProjectSyncRecord,
): Promise<void> {
  let start = 0;
  do {
    const batch = items.slice(start, start + WRITE_BATCH_SIZE);
    start += WRITE_BATCH_SIZE;
    const last = start >= items.length;
    await inTransaction(db, ["issues", "options"], (tx) => {
      for (const item of batch) void tx.objectStore("issues").put(item);
      if (last) void tx.objectStore("options").put({ key: syncKey(projectId), value: record });
    });
  } while (start < items.length);
}

// ───────────── write-through ─────────────

/** How the writer reads the in-memory cache at flush time (the latest state of an item wins). */
export type WorkItemCacheReader = {
  get(id: string): WorkItem | undefined;
  /** An item with a request in flight is written once it settles (the copy holds only what the server has). */
  isPending(id: string): boolean;
  since(projectId: string): string | undefined;
  /** The scope the cache's items of the project were synced under (undefined: not known to the cache). */
  scope(projectId: string): string | null | undefined;
  /** The project's items as the cache holds them (placeholders of unsent creations left out). */
  items(projectId: string): readonly WorkItem[];
};

let reader: WorkItemCacheReader | null = null;
/** Projects whose copy is complete: only their changes are written through. */
const tracked = new Set<string>();
/** Projects whose first sync is being stored, and the items changed meanwhile (written after it). */
const storing = new Set<string>();
const held = new Map<string, Set<string>>();
/** Changed items waiting for the next flush: id → the project it was noted for. */
const queued = new Map<string, string>();
/** Items skipped at a flush because a request for them was in flight. */
const deferred = new Map<string, string>();
let timer: ReturnType<typeof setTimeout> | null = null;
/** Flushes and snapshot writes, one after another (a snapshot must see every write before it). */
let flushing: Promise<void> = Promise.resolve();
/**
 * The stamp each project's rows had after this page's last write (or read): a snapshot of this
 * page's cache matches the rows only while nobody else (another tab) wrote since.
 */
const writtenStamps = new Map<string, number>();
/** Projects whose snapshot is stale and due to be written again. */
const snapshotsDue = new Set<string>();
let snapshotTimer: ReturnType<typeof setTimeout> | null = null;
/** A busy board rewrites its snapshot (a JSON.stringify of every item) at most this often. */
const SNAPSHOT_DELAY_MS = 2000;
/** A burst of live events within this window is one transaction. */
const FLUSH_DELAY_MS = 16;

export function bindWorkItemCache(cacheReader: WorkItemCacheReader): void {
  reader = cacheReader;
}

export function trackProject(projectId: string): void {
  tracked.add(projectId);
}

export function isProjectTracked(projectId: string): boolean {
  return tracked.has(projectId);
}

/** The cache changed this item (put or drop) for this project: write it with the next flush. */
export function noteWorkItemChange(projectId: string, id: string): void {
  if (storing.has(projectId)) {
    const ids = held.get(projectId) ?? new Set<string>();
    ids.add(id);
    held.set(projectId, ids);
    return;
  }
  if (!tracked.has(projectId)) return;
  queued.set(id, projectId);
  timer ??= setTimeout(() => void flushLocalWrites(), FLUSH_DELAY_MS);
}

/** The last request for this item ended: write it if a flush skipped it meanwhile. */
export function noteWorkItemSettled(id: string): void {
  const projectId = deferred.get(id);
  if (projectId === undefined) return;
  deferred.delete(id);
  noteWorkItemChange(projectId, id);
}

/** Write what is queued now, in one transaction (tests, page hide, sign-out). */
export function flushLocalWrites(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  const entries = [...queued];
  queued.clear();
  flushing = flushing.then(() => write(entries));
  return flushing;
}

async function write(entries: [string, string][]): Promise<void> {
  if (!entries.length || !reader) return;
  const cache = reader;
  const puts: WorkItem[] = [];
  const deletes: string[] = [];
  const projects = new Set<string>();
  for (const [id, projectId] of entries) {
    if (cache.isPending(id)) {
      deferred.set(id, projectId);
      continue;
    }
    if (!tracked.has(projectId)) continue;
    const item = cache.get(id);
    // A plain copy: a screen's store may have handed the cache a valtio proxy, which IndexedDB cannot clone.
    if (item?.project_id === projectId) puts.push(JSON.parse(JSON.stringify(item)) as WorkItem);
    // Gone, or moved to a project whose copy isn't kept: its row here must not linger.
    else if (!item || !tracked.has(item.project_id)) deletes.push(id);
    projects.add(projectId);
  }
  if (!projects.size) return;
  const db = await localDatabase();
  if (!db) return;
  try {
    await inTransaction(db, ["issues", "options"], async (tx) => {
      const issues = tx.objectStore("issues");
      const options = tx.objectStore("options");
      for (const item of puts) void issues.put(item);
      for (const id of deletes) void issues.delete(id);
      for (const projectId of projects) {
        const row = await options.get(syncKey(projectId));
        if (!row) continue;
        const record = row.value as ProjectSyncRecord;
        // The rows changed: the snapshot is stale until it is written again.
        const scope = cache.scope(projectId);
        const next = {
          ...record,
          since: cache.since(projectId) ?? record.since,
          stamp: record.stamp + 1,
          ...(scope !== undefined ? { scope } : {}),
        };
        void options.put({ key: row.key, value: next });
        writtenStamps.set(projectId, next.stamp);
      }
    });
  } catch {
    localFailure();
    return;
  }
  for (const projectId of projects) scheduleSnapshot(projectId);
}

function scheduleSnapshot(projectId: string): void {
  snapshotsDue.add(projectId);
  snapshotTimer ??= setTimeout(() => void writeSnapshots(), SNAPSHOT_DELAY_MS);
}

/**
 * Write the due snapshots from the cache, after every queued write. A project with a change
 * not yet written (queued, or waiting for its request) is left for the next round: its cache
 * and its rows differ.
 */
export function writeSnapshots(): Promise<void> {
  if (snapshotTimer) clearTimeout(snapshotTimer);
  snapshotTimer = null;
  const due = [...snapshotsDue];
  snapshotsDue.clear();
  flushing = flushing.then(() => snapshotsNow(due));
  return flushing;
}

async function snapshotsNow(projectIds: string[]): Promise<void> {
  if (!reader || !projectIds.length) return;
  const cache = reader;
  const unsettled = new Set([...queued.values(), ...deferred.values()]);
  const snapshots: { projectId: string; items: readonly WorkItem[] }[] = [];
  for (const projectId of projectIds) {
    if (!tracked.has(projectId)) continue;
    const items = cache.items(projectId);
    if (unsettled.has(projectId) || items.some((i) => cache.isPending(i.id))) scheduleSnapshot(projectId);
    else snapshots.push({ projectId, items });
  }
  if (!snapshots.length) return;
  const db = await localDatabase();
  if (!db) return;
  try {
    await inTransaction(db, ["snapshots", "options"], async (tx) => {
      for (const { projectId, items } of snapshots) {
        const record = (await tx.objectStore("options").get(syncKey(projectId)))?.value as
          | ProjectSyncRecord
          | undefined;
        if (record?.complete && record.stamp === writtenStamps.get(projectId))
          void tx.objectStore("snapshots").put(snapshotOf(projectId, items, record.stamp));
      }
    });
  } catch {
    localFailure();
  }
}

// ───────────── rights lost ─────────────

/** Bumped when a project's copy is dropped: writes of a sync or flush begun before it are not made. */
const generations = new Map<string, number>();
const generationOf = (projectId: string) => generations.get(projectId) ?? 0;

/**
 * Drop everything stored of a project — its items, snapshot and sync record, after whatever was
 * queued before — because the user may no longer see it (removed from the project, the project
 * gone). Nothing of it still waiting to be written is written, and a sync under way stores no more
 * of it. Resolves when the copy is gone (or there was no database).
 */
export async function forgetStoredProject(projectId: string): Promise<void> {
  generations.set(projectId, generationOf(projectId) + 1);
  forgetPreloaded(projectId);
  // The picture of its board kept for the next open goes with it (and off the screen, if up).
  clearPrepaint(projectId);
  if (prepaintShownFor()?.includes(projectId)) dropPrepaint();
  tracked.delete(projectId);
  storing.delete(projectId);
  held.delete(projectId);
  for (const [id, project] of queued) if (project === projectId) queued.delete(id);
  for (const [id, project] of deferred) if (project === projectId) deferred.delete(id);
  snapshotsDue.delete(projectId);
  writtenStamps.delete(projectId);
  flushing = flushing.then(async () => {
    const db = await localDatabase();
    if (!db) return;
    try {
      await inTransaction(db, ["issues", "snapshots", "options"], async (tx) => {
        const issues = tx.objectStore("issues");
        for (const key of await issues.index("project_id").getAllKeys(projectId)) void issues.delete(key);
        void tx.objectStore("snapshots").delete(projectId);
        void tx.objectStore("options").delete(syncKey(projectId));
      });
    } catch {
      localFailure();
    }
  });
  await flushing;
}

onStoresReset(() => {
  if (timer) clearTimeout(timer);
  if (snapshotTimer) clearTimeout(snapshotTimer);
  timer = null;
  snapshotTimer = null;
  snapshotsDue.clear();
  writtenStamps.clear();
  storing.clear();
  held.clear();
  queued.clear();
  deferred.clear();
  tracked.clear();
});

// A change made just before the tab goes away still reaches the copy.
if (typeof window !== "undefined") window.addEventListener("pagehide", () => void flushLocalWrites());
