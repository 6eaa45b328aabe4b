/**
 * Which database work may wait. The embedded database runs one statement at a time (in its own
 * thread, db/pglite-worker.ts); in arrival order, a PATCH's few short statements queued behind
 * ten board lists of ~30 ms each, so one click waited for every list before it. Work started
 * inside `asBulkRead` (the big list reads) is sent as "bulk" and the worker runs "interactive"
 * work (everything else: writes, access checks, small reads) first. PostgreSQL has a pool of
 * connections and needs none of this: there it changes nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type WorkPriority = "interactive" | "bulk";

const bulk = new AsyncLocalStorage<true>();

/** Run `fn` with its database statements marked as bulk reads: they yield to interactive work. */
export function asBulkRead<T>(fn: () => Promise<T>): Promise<T> {
  return bulk.run(true, fn);
}

/** The priority of a statement sent now (from the async context that sends it). */
export function currentPriority(): WorkPriority {
  return bulk.getStore() ? "bulk" : "interactive";
}
