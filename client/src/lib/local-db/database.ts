/**
 * The persistent local database: one IndexedDB database per signed-in user. Everything here is
 * best effort — when the flag is off, IndexedDB is missing, or anything fails, `localDatabase()`
 * answers null and the stores work from the server as before (never a broken board).
 */
import { deleteDB, type IDBPDatabase, openDB } from "idb";
import { useSnapshot } from "valtio";
import { session } from "../../stores/session";
import { defineStore, onStoresReset } from "../store";
import { isLocalDbEnabled } from "./flag";
import {
  ALL_STORES,
  DB_PREFIX,
  databaseName,
  IDB_SCHEMA_VERSION,
  LOCAL_DB_VERSION,
  type LocalSchema,
  META_STORES,
} from "./schema";

export type LocalDb = IDBPDatabase<LocalSchema>;
/** The spec's local database status (undefined until first used). */
export type LocalDbStatus = "initializing" | "ready" | "error";
/** The spec's per-project sync status: loading the first time, syncing afterwards. */
export type ProjectSyncStatus = "loading" | "syncing" | "ready" | "error";

export const localDb = defineStore(() => ({
  status: undefined as LocalDbStatus | undefined,
  projects: {} as Record<string, ProjectSyncStatus>,
}));

export function useLocalDbStatus(): LocalDbStatus | undefined {
  return useSnapshot(localDb).status;
}

let opened: { userId: string; db: Promise<LocalDb | null> } | null = null;
/** Set when this page must stop using IndexedDB (another tab deleted the database, or it failed). */
let disabled = false;

/**
 * The current user's database, opened on first use; null when the app should use the server
 * only (flag off, no user, no IndexedDB, or a failure — the status then says "error").
 */
export function localDatabase(): Promise<LocalDb | null> {
  const userId = session.user?.id;
  if (disabled || !userId || !isLocalDbEnabled() || typeof indexedDB === "undefined") return Promise.resolve(null);
  if (opened?.userId === userId) return opened.db;
  if (opened) closeLocalDatabase();
  const db = open(userId);
  opened = { userId, db };
  return db;
}

async function open(userId: string): Promise<LocalDb | null> {
  localDb.status = "initializing";
  try {
    let giveUp: (value: null) => void = () => undefined;
    const gaveUp = new Promise<null>((resolve) => {
      giveUp = resolve;
    });
    const opening = openDB<LocalSchema>(databaseName(userId), IDB_SCHEMA_VERSION, {
      upgrade(database) {
        // Whatever an older schema lacks (a version mismatch then clears the rows anyway).
        const missing = (name: (typeof ALL_STORES)[number]) => !database.objectStoreNames.contains(name);
        if (missing("issues"))
          database.createObjectStore("issues", { keyPath: "id" }).createIndex("project_id", "project_id");
        if (missing("snapshots")) database.createObjectStore("snapshots", { keyPath: "project_id" });
        for (const name of META_STORES)
          if (missing(name))
            database.createObjectStore(name, { keyPath: "id" }).createIndex("project_id", "project_id");
        if (missing("options")) database.createObjectStore("options", { keyPath: "key" });
      },
      // Another tab is deleting this database (its user signed out): let it, and stop here.
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
        disable();
      },
      terminated: disable,
      // A tab of an older build keeps the old schema open: don't wait for it, use the server.
      blocked() {
        disable();
        giveUp(null);
      },
    });
    const db = await Promise.race([opening, gaveUp]);
    if (!db) {
      // Opened at last after we gave up: let the other tab upgrade next time.
      void opening.then((late) => late.close()).catch(() => undefined);
      return null;
    }
    const version = await db.get("options", "version");
    if (version?.value !== LOCAL_DB_VERSION) {
      // Another version's rows may not have the fields this code reads: start over.
      const tx = db.transaction(ALL_STORES, "readwrite");
      await Promise.all([...ALL_STORES.map((name) => tx.objectStore(name).clear()), tx.done]);
      await db.put("options", { key: "version", value: LOCAL_DB_VERSION });
    }
    void forgetOtherUsers(userId);
    localDb.status = "ready";
    return db;
  } catch {
    disable();
    return null;
  }
}

/**
 * Undo a transaction whose writes failed half-way (a put that throws does not abort it: what was
 * queued before would otherwise commit).
 */
export function abort(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // Already finished or aborted.
  }
}

/** A local read or write failed: this page goes on from the server alone (the status says "error"). */
export function localFailure(): void {
  closeLocalDatabase();
  disable();
}

function disable(): void {
  disabled = true;
  localDb.status = "error";
}

/**
 * One copy per user: a copy left by someone else on this browser (their sign-out never finished,
 * or their session expired) is deleted as soon as another user opens theirs.
 */
async function forgetOtherUsers(userId: string): Promise<void> {
  if (!indexedDB.databases) return;
  try {
    const names = (await indexedDB.databases()).map((d) => d.name ?? "");
    const mine = databaseName(userId);
    await Promise.all(names.filter((n) => n.startsWith(DB_PREFIX) && n !== mine).map((n) => deleteDB(n)));
  } catch {
    // A copy that cannot be listed or deleted now is tried again at the next open.
  }
}

function closeLocalDatabase(): void {
  const current = opened;
  opened = null;
  void current?.db.then((db) => db?.close());
}

/**
 * Sign-out: close this page's connection and delete every local copy on this browser (the
 * signed-in user's, and any left behind). Resolves when IndexedDB has deleted them.
 */
export async function deleteLocalDatabase(): Promise<void> {
  const userId = opened?.userId ?? session.user?.id;
  closeLocalDatabase();
  if (typeof indexedDB === "undefined") return;
  const names = new Set<string>(userId ? [databaseName(userId)] : []);
  try {
    for (const d of (await indexedDB.databases?.()) ?? []) if (d.name?.startsWith(DB_PREFIX)) names.add(d.name);
  } catch {
    // Listing is optional: the signed-in user's copy is deleted by name either way.
  }
  await Promise.all([...names].map((name) => deleteDB(name).catch(() => undefined)));
}

/** Tests: forget the page-level state (an opened database, a failure) as a reload would. */
export function resetLocalDatabaseForTests(): void {
  closeLocalDatabase();
  disabled = false;
}

// Signing out (every store reset) deletes the copy; the next user starts from nothing.
onStoresReset(() => {
  void deleteLocalDatabase();
  disabled = false;
});
