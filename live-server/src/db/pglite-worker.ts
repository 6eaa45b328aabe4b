/**
 * The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: every query
 * runs synchronously on the thread that owns it, so on the server's main thread one slow query
 * (a grouped list over 10,000 work items) held up every socket and HTTP answer behind it. Here
 * it owns a worker thread; the main thread talks to it through PgliteWorkerClient
 * (pglite-worker-client.ts), which speaks the few calls Drizzle's PGlite driver makes.
 *
 * The protocol (types in pglite-worker-client.ts): `query` (outside or inside a transaction;
 * a transaction's first one carries `begin` and opens it), `end` of an interactive transaction,
 * `dump` (the data folder as a tarball, for test templates) and `close`. A transaction runs inside PGlite's own `transaction()`, so the
 * semantics are PGlite's: queries outside it wait until it ends.
 *
 * The schedule: statements outside a transaction, and whole transactions, run one at a time,
 * interactive work before bulk reads and background work (db/priority.ts), which never wait
 * more than 200 ms.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { WorkerReply, WorkerRequest, WorkerStart } from "./pglite-worker-client.ts";
import type { WorkPriority } from "./priority.ts";
import { sessionSettingArgs } from "./session-settings.ts";

if (!parentPort) throw new Error("pglite-worker.ts runs as a worker thread");
const port = parentPort;

const start = workerData as WorkerStart;
const opening = PGlite.create({
  dataDir: start.dataDir,
  loadDataDir: start.loadDataDir ? new Blob([start.loadDataDir]) : undefined,
  // Trigram matching for the workspace search (routes/search): its indexes and operators need
  // the extension loaded in every session; a migration creates it (PostgreSQL ships it in contrib).
  extensions: { pg_trgm },
  // PGlite's own start parameters, the server's session settings (db/session-settings.ts), and
  // the buffer pool's size when one is set (config.ts).
  startParams: [
    ...PGlite.defaultStartParams,
    ...sessionSettingArgs(),
    ...(start.sharedBuffers ? ["-c", `shared_buffers=${start.sharedBuffers}`] : []),
  ],
});

type OpenTransaction = { tx: Transaction; finish: (commit: boolean) => void; done: Promise<void> };
const transactions = new Map<number, OpenTransaction>();

/** Thrown inside PGlite's transaction callback to make it roll back. */
const ROLLBACK = Symbol("rollback");

/** Query options for PGlite; `rawTypes` stand for Drizzle's parsers, which all keep the text. */
const optionsCache = new Map<string, QueryOptions>();
function queryOptions(rowMode: "array" | "object" | undefined, rawTypes: number[] | undefined): QueryOptions {
  const key = `${rowMode ?? ""}:${rawTypes?.join(",") ?? ""}`;
  let options = optionsCache.get(key);
  if (!options) {
    options = { rowMode };
    if (rawTypes?.length) options.parsers = Object.fromEntries(rawTypes.map((type) => [type, (text: string) => text]));
    optionsCache.set(key, options);
  }
  return options;
}

/** An error as plain data: its message and the fields Postgres fills (code, constraint, detail…). */
function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const data: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function") continue;
    // The failed query's own text and values are the caller's already; don't clone them back.
    if (key === "query" || key === "params" || key === "queryOptions") continue;
    data[key] = typeof value === "object" && value !== null ? String(value) : value;
  }
  return data;
}

/**
 * Begin a transaction: answers once it has begun; the returned promise (its place in the
 * schedule) settles when it has ended, since nothing else can run meanwhile.
 */
function begin(id: number, begun: () => void, failed: (error: unknown) => void): Promise<void> {
  let finish!: (commit: boolean) => void;
  const decision = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  let started = false;
  const done: Promise<void> = opening
    .then((client) =>
      client.transaction(async (tx) => {
        transactions.set(id, { tx, finish, done });
        started = true;
        begun();
        if (!(await decision)) throw ROLLBACK;
      }),
    )
    .catch((error: unknown) => {
      if (error === ROLLBACK) return;
      // BEGIN itself failed (a closed database): say so instead of leaving the caller waiting.
      if (!started) failed(error);
      else throw error;
    })
    .finally(() => transactions.delete(id));
  return done.catch(() => undefined);
}

// ───────────── the schedule: one statement (or transaction) at a time ─────────────

/** Statements outside a transaction, and whole transactions, wait here for the database. */
type Job = { priority: WorkPriority; queuedAt: number; run: () => Promise<void> };
const interactive: Job[] = [];
const bulk: Job[] = [];
let busy = false;
let lastInteractiveEnd = Number.NEGATIVE_INFINITY;
let graceTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * After interactive work, bulk waits this long for that request's next statement (its next
 * access check, its transaction), so a click's statements run back to back instead of each
 * waiting behind a list.
 */
const INTERACTIVE_GRACE_MS = 2;
/**
 * A bulk read waits at most this long behind interactive work (never starved). Tests of the order
 * alone set a longer one: on a loaded machine a slow read outlasts 200 ms and the ones queued
 * behind it age past interactive work.
 */
const BULK_MAX_WAIT_MS = start.bulkMaxWaitMs ?? 200;

/** Bulk reads and background work share the waiting queue (in the order they came). */
function enqueue(job: Job): void {
  (job.priority === "interactive" ? interactive : bulk).push(job);
  schedulePump();
}

/**
 * Pick the next job once the messages already waiting at the port are queued. A statement runs
 * synchronously in WebAssembly, so requests sent meanwhile wait at the port and arrive together
 * when it ends; picking at once (on the first of them to arrive, or as the statement ends) would
 * start whichever came first, a list before a click sent just after it. setImmediate runs after
 * the port's waiting messages have been handled, so the pick sees them all.
 */
let pumpScheduled = false;
function schedulePump(): void {
  if (pumpScheduled) return;
  pumpScheduled = true;
  setImmediate(() => {
    pumpScheduled = false;
    pump();
  });
}

function pump(): void {
  if (busy) return;
  const now = performance.now();
  const oldestBulk = bulk[0];
  let job: Job | undefined;
  if (oldestBulk && now - oldestBulk.queuedAt >= BULK_MAX_WAIT_MS) job = bulk.shift();
  else if (interactive.length) job = interactive.shift();
  else if (oldestBulk) {
    const wait = lastInteractiveEnd + INTERACTIVE_GRACE_MS - now;
    if (wait > 0) {
      if (graceTimer === null) {
        graceTimer = setTimeout(() => {
          graceTimer = null;
          pump();
        }, wait);
      }
      return;
    }
    job = bulk.shift();
  }
  if (!job) return;
  busy = true;
  const priority = job.priority;
  job.run().finally(() => {
    busy = false;
    if (priority === "interactive") lastInteractiveEnd = performance.now();
    schedulePump();
  });
}

/**
 * Bulk reads waiting to start, by statement: an identical one (same text, values and options)
 * asked while another still waits joins it and gets the same rows. Safe because the shared run
 * starts after every joiner asked, so each sees everything committed before it asked (its own
 * writes included); a statement already running is never joined. When a change reaches every
 * open board at once, their identical reloads cost one run.
 */
const waitingBulkReads = new Map<string, WorkerRequest[]>();

function queueBulkRead(request: Extract<WorkerRequest, { op: "query" }>, options: QueryOptions): void {
  let key: string;
  try {
    key = `${request.rowMode ?? ""}|${request.rawTypes?.join(",") ?? ""}|${request.sql}|${JSON.stringify(request.params ?? [])}`;
  } catch {
    // Values JSON can't write (a bigint): run it on its own.
    key = `unshared:${request.id}`;
  }
  const joined = waitingBulkReads.get(key);
  if (joined) {
    joined.push(request);
    return;
  }
  const askers = [request];
  waitingBulkReads.set(key, askers);
  enqueue({
    priority: "bulk",
    queuedAt: performance.now(),
    run: async () => {
      waitingBulkReads.delete(key);
      try {
        const result = await (await opening).query(request.sql, request.params, options);
        for (const asker of askers) reply(asker, result);
      } catch (error) {
        for (const asker of askers) replyError(asker, error);
      }
    },
  });
}

function reply(request: WorkerRequest, value: unknown): void {
  const answer: WorkerReply = { id: request.id, ok: true, value };
  port.postMessage(answer, value instanceof ArrayBuffer ? [value] : []);
}

function replyError(request: WorkerRequest, error: unknown): void {
  const answer: WorkerReply = { id: request.id, ok: false, error: serializeError(error) };
  port.postMessage(answer);
}

function settle(request: WorkerRequest, work: Promise<unknown>): Promise<void> {
  return work.then(
    (value) => reply(request, value),
    (error: unknown) => replyError(request, error),
  );
}

type QueryRequest = Extract<WorkerRequest, { op: "query" }>;

/**
 * Statements of transactions asked to begin but not begun yet (waiting for their turn): a
 * statement sent alongside the first one (a Promise.all in the transaction) runs once it has.
 */
const beginning = new Map<number, (QueryRequest | EndRequest)[]>();

type EndRequest = Extract<WorkerRequest, { op: "end" }>;

function endTransaction(request: EndRequest): void {
  const open = transactions.get(request.tx);
  if (!open) {
    reply(request, undefined);
    return;
  }
  open.finish(request.commit);
  void settle(request, open.done);
}

function runInTransaction(request: QueryRequest | EndRequest): void {
  if (request.op === "end") {
    endTransaction(request);
    return;
  }
  const open = transactions.get(request.tx as number);
  if (!open) replyError(request, new Error("The transaction has already ended."));
  else
    void settle(request, open.tx.query(request.sql, request.params, queryOptions(request.rowMode, request.rawTypes)));
}

/** A transaction's first statement: begin it in its place in the schedule, then run the statement in it. */
function beginWith(request: QueryRequest, tx: number): void {
  beginning.set(tx, []);
  enqueue({
    priority: request.priority ?? "interactive",
    queuedAt: performance.now(),
    run: () =>
      begin(
        tx,
        () => {
          const waiting = beginning.get(tx) ?? [];
          beginning.delete(tx);
          runInTransaction(request);
          for (const next of waiting) runInTransaction(next);
        },
        (error) => {
          const waiting = beginning.get(tx) ?? [];
          beginning.delete(tx);
          // Nothing began, so an end has nothing to do.
          for (const asker of [request, ...waiting]) {
            if (asker.op === "end") reply(asker, undefined);
            else replyError(asker, error);
          }
        },
      ),
  });
}

port.on("message", (request: WorkerRequest) => {
  switch (request.op) {
    case "query": {
      if (request.tx !== undefined) {
        if (request.begin) {
          beginWith(request, request.tx);
          return;
        }
        const waiting = beginning.get(request.tx);
        if (waiting) waiting.push(request);
        // Inside a transaction, which holds the database: run at once.
        else runInTransaction(request);
        return;
      }
      const options = queryOptions(request.rowMode, request.rawTypes);
      const priority = request.priority ?? "interactive";
      if (priority === "bulk") {
        queueBulkRead(request, options);
        return;
      }
      enqueue({
        priority,
        queuedAt: performance.now(),
        run: () =>
          settle(
            request,
            opening.then((client) => client.query(request.sql, request.params, options)),
          ),
      });
      return;
    }
    case "end": {
      // Ended before its turn came (a first statement not awaited): end it once it has begun.
      const waiting = beginning.get(request.tx);
      if (waiting) {
        waiting.push(request);
        return;
      }
      endTransaction(request);
      return;
    }
    case "dump":
      void settle(
        request,
        opening.then((client) => client.dumpDataDir(request.compression)).then((file) => file.arrayBuffer()),
      );
      return;
    case "close":
      void settle(
        request,
        opening.then((client) => (client.closed ? undefined : client.close())),
      );
      return;
  }
});

// Tell the main thread whether the database opened, so start-up fails with PGlite's own reason.
opening.then(
  () => port.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerReply),
  (error: unknown) => port.postMessage({ id: 0, ok: false, error: serializeError(error) } satisfies WorkerReply),
);
