/**
 * Project metadata in the local database (states, labels, members, estimates, cycles, modules):
 * each list is replaced whole at every server load and after every change of it in memory (a
 * settings action, a live event: `writeListsThrough`), and read back to paint before the server
 * answers on the next visit.
 */
import type { IDBPDatabase } from "idb";
import { getVersion, subscribe } from "valtio/vanilla";
import { abort, type LocalDb, localDatabase, localFailure } from "./database";
import { takePreloadedLists } from "./preload";
import { META_STORES, type MetaRowTypes, type MetaStoreName } from "./schema";

export type MetaLists<N extends MetaStoreName> = { [K in N]: MetaRowTypes[K][] };

/** The lists are handled alike whatever their row type: idb's per-store typing can't follow a generic name. */
const untyped = (db: LocalDb) => db as unknown as IDBPDatabase;

const storedKey = (store: MetaStoreName, projectId: string) => `meta:${store}:${projectId}`;

/**
 * A row's place in the list it was stored with: an index hands rows back by key, not in the
 * server's order (cycles by status and date, modules by their sort), and the copy must paint
 * in the order the server's answer will.
 */
const POSITION = "_local_position";
/** Set on a row whose project_id was added for the index (members, estimates): removed on read. */
const ADDED_PROJECT_ID = "_local_project_id";

/**
 * Rows as the server gave them: in the stored order, without what storing added. A copy then
 * equals the server's answer when nothing changed, so a store can keep what it shows.
 */
function inStoredOrder<T>(rows: T[]): T[] {
  const at = (row: T) => ((row as Record<string, unknown>)[POSITION] as number | undefined) ?? 0;
  return rows
    .sort((a, b) => at(a) - at(b))
    .map((row) => {
      const { [POSITION]: _position, [ADDED_PROJECT_ID]: added, ...rest } = row as Record<string, unknown>;
      if (added) delete rest.project_id;
      return rest as T;
    });
}

/** Whether two lists hold the same rows (small lists: their JSON is compared). */
export function sameRows(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

/** The project's stored lists, or null unless every one of them was stored (an empty list counts). */
export async function readProjectLists<N extends MetaStoreName>(
  projectId: string,
  stores: readonly N[],
): Promise<MetaLists<N> | null> {
  // Read before the app loaded (public/preload-local.js), when usable.
  const preloaded = await takePreloadedLists(projectId, stores);
  if (preloaded) {
    return Object.fromEntries(stores.map((s) => [s, inStoredOrder(preloaded[s] ?? [])])) as MetaLists<N>;
  }
  const db = await localDatabase();
  if (!db) return null;
  try {
    const tx = untyped(db).transaction([...stores, "options"]);
    const marks = await Promise.all(stores.map((s) => tx.objectStore("options").get(storedKey(s, projectId))));
    if (marks.some((m) => !m)) return null;
    const lists = await Promise.all(stores.map((s) => tx.objectStore(s).index("project_id").getAll(projectId)));
    return Object.fromEntries(stores.map((s, i) => [s, inStoredOrder(lists[i] ?? [])])) as MetaLists<N>;
  } catch {
    localFailure();
    return null;
  }
}

/** When each project's lists were dropped (rights lost): a load begun before that stores nothing. */
const forgottenAt = new Map<string, number>();

/**
 * Drop every stored list of a project and the marks saying they were stored (the user may no
 * longer see the project). A load of its lists already under way does not store them again.
 */
export async function forgetProjectLists(projectId: string): Promise<void> {
  forgottenAt.set(projectId, performance.now());
  const db = await localDatabase();
  if (!db) return;
  const stores = META_STORES;
  const tx = untyped(db).transaction([...stores, "options"], "readwrite", { durability: "relaxed" });
  try {
    for (const name of stores) {
      const store = tx.objectStore(name);
      for (const key of await store.index("project_id").getAllKeys(projectId)) void store.delete(key);
      void tx.objectStore("options").delete(storedKey(name, projectId));
    }
    await tx.done;
  } catch {
    abort(tx);
    localFailure();
  }
}

/** Replace the project's stored lists with the server's, in one transaction. */
export async function storeProjectLists<N extends MetaStoreName>(
  projectId: string,
  lists: MetaLists<N>,
): Promise<void> {
  const db = await localDatabase();
  if (!db) return;
  const stores = Object.keys(lists) as N[];
  const tx = untyped(db).transaction([...stores, "options"], "readwrite", { durability: "relaxed" });
  try {
    for (const name of stores) {
      const store = tx.objectStore(name);
      for (const key of await store.index("project_id").getAllKeys(projectId)) void store.delete(key);
      for (const [position, row] of lists[name].entries()) {
        const added = !("project_id" in (row as object)) ? { [ADDED_PROJECT_ID]: true } : {};
        void store.put({ ...row, project_id: projectId, [POSITION]: position, ...added });
      }
      void tx.objectStore("options").put({ key: storedKey(name, projectId), value: true });
    }
    await tx.done;
  } catch {
    abort(tx);
    localFailure();
  }
}

/**
 * Local first for a project's lists: `apply` runs with the stored copy if it comes before the
 * server, then with the server's answer, which is stored. Resolves at the server's answer; when
 * the server fails after the copy was applied, the screen keeps working from the copy and this
 * resolves all the same (a failure is rethrown only when there was nothing to show). A forced
 * reload (`readCopy` false: the lists just changed) skips the copy; a copy already being read
 * (read ahead) can be given instead of `true`.
 */
export function loadWithLocalCopy<N extends MetaStoreName>(
  projectId: string,
  stores: readonly N[],
  fromServer: Promise<MetaLists<N>>,
  apply: (lists: MetaLists<N>) => void,
  readCopy: boolean | Promise<MetaLists<N> | null> = true,
): Promise<void> {
  let answered = false;
  const started = performance.now();
  const copy =
    readCopy === true ? readProjectLists(projectId, stores) : readCopy === false ? Promise.resolve(null) : readCopy;
  const local = copy.then((lists) => {
    if (!lists || answered) return false;
    apply(lists);
    return true;
  });
  return fromServer.then(
    (lists) => {
      answered = true;
      // Copied first: once in a valtio store, the lists' objects may be replaced by proxies,
      // which IndexedDB cannot clone.
      const copy = structuredClone(lists);
      apply(lists);
      // Not when the project's copy was dropped while this load ran (its rights were lost).
      if ((forgottenAt.get(projectId) ?? -1) < started) void storeProjectLists(projectId, copy);
    },
    async (error: unknown) => {
      if (!(await local)) throw error;
    },
  );
}

/** How long changes of a store's lists gather before they are written (one transaction each). */
const WRITE_THROUGH_DELAY_MS = 100;

/**
 * Keep the stored lists equal to a store's in-memory ones after every change, not only at the
 * next server load: a state renamed by a live event, a cycle created here, are in the copy the
 * next visit paints. `store` is a valtio store with per-project entries under `key`; `listsOf`
 * gives a project's lists as they should be stored, or null when they are not the server's
 * (still loading, or only the stored copy itself). Changes gather for 100 ms, and whatever is
 * pending is written at `pagehide`.
 */
export function writeListsThrough<S extends object, N extends MetaStoreName>(
  store: S,
  key: keyof S & string,
  listsOf: (projectId: string) => MetaLists<N> | null,
): () => void {
  const changed = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    for (const projectId of changed) {
      const lists = listsOf(projectId);
      // Copied as plain data: IndexedDB cannot clone valtio's proxies (the lists are short).
      if (lists) void storeProjectLists(projectId, JSON.parse(JSON.stringify(lists)) as MetaLists<N>);
    }
    changed.clear();
  };
  // valtio's change ops are off by default; each entry's version tells which projects changed.
  const versions = new Map<string, number | undefined>();
  const unsubscribe = subscribe(store, () => {
    const entries = store[key] as Record<string, object>;
    for (const projectId of Object.keys(entries)) {
      const version = getVersion(entries[projectId]);
      if (versions.get(projectId) === version) continue;
      versions.set(projectId, version);
      changed.add(projectId);
    }
    if (changed.size > 0 && !timer) timer = setTimeout(flush, WRITE_THROUGH_DELAY_MS);
  });
  if (typeof window !== "undefined") window.addEventListener("pagehide", flush);
  return () => {
    unsubscribe();
    if (typeof window !== "undefined") window.removeEventListener("pagehide", flush);
    if (timer) clearTimeout(timer);
  };
}
