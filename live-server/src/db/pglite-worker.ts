/**
 * The embedded database's own thread. PGlite is PostgreSQL compiled to WebAssembly: every query
 * runs synchronously on the thread that owns it, so on the server's main thread one slow query
 * (a grouped list over 10,000 work items) held up every socket and HTTP answer behind it. Here
 * it owns a worker thread; the main thread talks to it through PgliteWorkerClient
 * (pglite-worker-client.ts), which speaks the few calls Drizzle's PGlite driver makes.
 *
 * The protocol (types in pglite-worker-client.ts): `query` (outside or inside a transaction),
 * `begin` / `end` of an interactive transaction, `dump` (the data folder as a tarball, for
 * test templates) and `close`. A transaction runs inside PGlite's own `transaction()`, so the
 * semantics are PGlite's: queries outside it wait until it ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import type { WorkerReply, WorkerRequest, WorkerStart } from "./pglite-worker-client.ts";

const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs as a worker thread");

const start = workerData as WorkerStart;
const opening = PGlite.create({
  dataDir: start.dataDir,
  loadDataDir: start.loadDataDir ? new Blob([start.loadDataDir]) : undefined,
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

async function begin(id: number): Promise<void> {
  const client = await opening;
  let begun!: () => void;
  const started = new Promise<void>((resolve) => {
    begun = resolve;
  });
  let finish!: (commit: boolean) => void;
  const decision = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  const done = client
    .transaction(async (tx) => {
      transactions.set(id, { tx, finish, done });
      begun();
      if (!(await decision)) throw ROLLBACK;
    })
    .catch((error: unknown) => {
      if (error !== ROLLBACK) throw error;
    })
    .finally(() => transactions.delete(id));
  // BEGIN itself can fail (a closed database): answer that instead of waiting forever.
  await Promise.race([started, done]);
}

async function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case "query": {
      const options = queryOptions(request.rowMode, request.rawTypes);
      if (request.tx !== undefined) {
        const open = transactions.get(request.tx);
        if (!open) throw new Error("The transaction has already ended.");
        return open.tx.query(request.sql, request.params, options);
      }
      return (await opening).query(request.sql, request.params, options);
    }
    case "begin":
      return begin(request.tx);
    case "end": {
      const open = transactions.get(request.tx);
      if (!open) return undefined;
      open.finish(request.commit);
      return open.done;
    }
    case "dump": {
      const file = await (await opening).dumpDataDir(request.compression);
      return file.arrayBuffer();
    }
    case "close": {
      const client = await opening;
      if (!client.closed) await client.close();
      return undefined;
    }
  }
}

port.on("message", (request: WorkerRequest) => {
  handle(request).then(
    (value) => {
      const reply: WorkerReply = { id: request.id, ok: true, value };
      port.postMessage(reply, value instanceof ArrayBuffer ? [value] : []);
    },
    (error: unknown) => {
      const reply: WorkerReply = { id: request.id, ok: false, error: serializeError(error) };
      port.postMessage(reply);
    },
  );
});

// Tell the main thread whether the database opened, so start-up fails with PGlite's own reason.
opening.then(
  () => port.postMessage({ id: 0, ok: true, value: "ready" } satisfies WorkerReply),
  (error: unknown) => port.postMessage({ id: 0, ok: false, error: serializeError(error) } satisfies WorkerReply),
);
