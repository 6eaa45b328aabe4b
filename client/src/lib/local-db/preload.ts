/**
 * The copy public/preload-local.js read while the app was downloading: handed to the first reads of a
 * board (its work items, its metadata lists) when it is the signed-in user's copy, of this
 * version, of that project, and the local database is on; each part is taken once (later reads
 * go to the database, which may have changed since).
 */
import { session } from "../../stores/session";
import { firstPaintDone } from "../offline/last-answers";
import { isLocalDbEnabled } from "./flag";
import { databaseName, LOCAL_DB_VERSION, type MetaStoreName, PRELOAD_GLOBAL, type PreloadedCopy } from "./schema";

type Preload = { projectId: string; copy: Promise<PreloadedCopy | null> };

const taken = new Set<string>();
/** Projects whose copy was dropped (rights lost): what the preload read of them is never used. */
const forgotten = new Set<string>();

function preloadFor(projectId: string): Preload | null {
  const preload = (globalThis as Record<string, unknown>)[PRELOAD_GLOBAL] as Preload | undefined;
  return preload?.projectId === projectId ? preload : null;
}

async function usableCopy(projectId: string, part: string): Promise<PreloadedCopy | null> {
  const preload = preloadFor(projectId);
  if (!preload || taken.has(part) || forgotten.has(projectId)) return null;
  taken.add(part);
  const copy = await preload.copy;
  const userId = session.user?.id;
  if (!copy || !userId || !isLocalDbEnabled()) return null;
  if (copy.dbName !== databaseName(userId) || copy.version !== LOCAL_DB_VERSION) return null;
  return copy;
}

/** The project's preloaded sync record and snapshot, or null (none, taken, or not usable). */
export async function takePreloadedItems(
  projectId: string,
): Promise<Pick<PreloadedCopy, "record" | "snapshot"> | null> {
  const copy = await usableCopy(projectId, "items");
  return copy ? { record: copy.record, snapshot: copy.snapshot } : null;
}

/** The project's preloaded lists `stores`, or null unless every one of them was stored. */
export async function takePreloadedLists(
  projectId: string,
  stores: readonly MetaStoreName[],
): Promise<Partial<Record<MetaStoreName, unknown[]>> | null> {
  const copy = await usableCopy(projectId, `lists:${[...stores].sort().join(",")}`);
  if (!copy || stores.some((s) => !copy.lists[s])) return null;
  return copy.lists;
}

/** The project's copy was dropped: its preloaded parts, if still untaken, are stale. */
export function forgetPreloaded(projectId: string): void {
  forgotten.add(projectId);
}

/** For tests: forget what was taken. */
export function resetPreloadForTests(): void {
  taken.clear();
  forgotten.clear();
}

/**
 * Whether the preload found every list of `stores` stored for the project (without taking it):
 * a screen that will paint them from the copy can ask the server after its first paint.
 */
export async function preloadHasLists(projectId: string, stores: readonly MetaStoreName[]): Promise<boolean> {
  const preload = preloadFor(projectId);
  if (!preload || forgotten.has(projectId)) return false;
  const copy = await preload.copy;
  return Boolean(copy) && stores.every((s) => copy?.lists[s]);
}

/** Resolves when the server may be asked for lists of the project (see preloadHasLists). */
export function serverAfterCopy(projectId: string, stores: readonly MetaStoreName[], shown: boolean): Promise<void> {
  if (shown) return firstPaintDone();
  return preloadHasLists(projectId, stores).then((has) => (has ? firstPaintDone() : undefined));
}
