/**
 * Which database work may wait. The embedded database runs one statement at a time (in its own
 * thread, db/pglite-worker.ts); in arrival order, a PATCH's few short statements queued behind
 * ten board lists of ~30 ms each, so one click waited for every list before it. Work started
 * inside `asBulkRead` (the big list reads) is sent as "bulk", work started inside
 * `inBackground` (what runs after a change nobody waits on: notifications, jobs) as
 * "background", and the worker runs "interactive" work (everything else: requests' writes,
 * access checks, small reads) first. Bulk reads that are identical and waiting together share
 * one run; background work, which writes, never does. PostgreSQL has a pool of connections and
 * needs none of this: there it changes nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type WorkPriority = "interactive" | "bulk" | "background";

const marked = new AsyncLocalStorage<Exclude<WorkPriority, "interactive">>();

/** Run `fn` with its database statements marked as bulk reads: they yield to interactive work. */
export function asBulkRead<T>(fn: () => Promise<T>): Promise<T> {
  return marked.run("bulk", fn);
}

/**
 * Run `fn` as background work: its statements (and transactions) wait for requests' work, so
 * the notifications of the last change don't sit in front of the next click's statements.
 */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return marked.run("background", fn);
}

/** The priority of a statement sent now (from the async context that sends it). */
export function currentPriority(): WorkPriority {
  return marked.getStore() ?? "interactive";
}
