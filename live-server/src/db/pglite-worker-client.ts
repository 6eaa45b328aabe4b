/**
 * The main thread's handle on the embedded database running in its own thread
 * (pglite-worker.ts). It offers what Drizzle's PGlite driver calls — `query(sql, params,
 * options)` and `transaction(fn)` with a transaction's `query` — plus `dumpDataDir` and
 * `close`, so `drizzle({ client })` works on it unchanged while PostgreSQL's work happens off
 * the event loop that serves sockets and HTTP.
 *
 * Results come back by structured clone (Dates, bytes and JSON values survive as they are).
 * Drizzle's row parsers are all "keep the text" for date and time types; they are sent as the
 * list of those type ids and re-created in the worker, since functions can't cross threads.
 * Errors come back as plain data and are rebuilt with Postgres' fields (code, constraint,
 * detail…), which is all db/errors.ts and the error handler read.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { currentPriority, type WorkPriority } from "./priority.ts";

/** 'none' | 'gzip' | 'auto' (PGlite does not export the type's name). */
type DumpTarCompressionOptions = Parameters<PGlite["dumpDataDir"]>[0];

/** Where the embedded database keeps its files under the data folder. */
export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, "pglite");
}

export type WorkerStart = {
  dataDir?: string;
  loadDataDir?: ArrayBuffer;
  sharedBuffers?: string;
  /** How long a bulk read waits at most behind interactive work (the worker's default: 200 ms). */
  bulkMaxWaitMs?: number;
};

export type WorkerRequest =
  | {
      id: number;
      op: "query";
      tx?: number;
      /**
       * The transaction's first statement: the worker begins `tx` (in its place in the schedule)
       * and runs this statement in it, one message for both.
       */
      begin?: true;
      sql: string;
      params?: unknown[];
      rowMode?: "array" | "object";
      rawTypes?: number[];
      /** Outside a transaction, or with `begin`: whether it may wait for interactive work (db/priority.ts). */
      priority?: WorkPriority;
    }
  | { id: number; op: "end"; tx: number; commit: boolean }
  | { id: number; op: "dump"; compression?: DumpTarCompressionOptions }
  | { id: number; op: "close" };

/** Id 0 is the worker's one unasked message: whether the database opened. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Record<string, unknown> };

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Distributes Omit over the request union, so each call names only its own fields. */
type RequestBody = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, "id"> : never) : never;

/** A transaction's handle as Drizzle uses it. */
export type WorkerTransaction = {
  query: <T>(sql: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;
};

function rebuildError(data: Record<string, unknown>): Error {
  const error = new Error(String(data.message ?? "database error"));
  Object.assign(error, data);
  return error;
}

/**
 * Values as they cross to the worker. Structured clone copies a typed array's whole backing
 * buffer, and the bytes we store are mostly views into larger ones (a Yjs update inside a
 * WebSocket frame or Node's 8 kB Buffer pool): each write-ahead-log insert cloned kilobytes to
 * send a few bytes (0.7 s of main-thread time in the co-editing bench). A view is sent as a
 * copy of its own bytes.
 */
function portableParams(params: unknown[] | undefined): unknown[] | undefined {
  if (!params) return params;
  let copy: unknown[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (ArrayBuffer.isView(value) && value.byteLength !== value.buffer.byteLength) {
      copy ??= [...params];
      copy[i] = new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
    }
  }
  return copy ?? params;
}

/** The query options a worker can receive: the row mode and the type ids whose text is kept. */
function portableOptions(options: QueryOptions | undefined) {
  if (!options) return {};
  return {
    rowMode: options.rowMode,
    rawTypes: options.parsers ? Object.keys(options.parsers).map(Number) : undefined,
  };
}

export class PgliteWorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #nextTx = 1;
  #closed = false;
  /** Settles once the database in the worker has opened (or failed to). */
  readonly ready: Promise<void>;

  private constructor(start: WorkerStart) {
    this.#worker = new Worker(new URL("./pglite-worker.ts", import.meta.url), {
      workerData: start,
      transferList: start.loadDataDir ? [start.loadDataDir] : [],
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.#pending.set(0, { resolve: () => resolve(), reject });
    });
    this.#worker.on("message", (reply: WorkerReply) => this.#settle(reply));
    this.#worker.on("error", (error) => this.#failAll(error));
    this.#worker.on("exit", (code) => {
      if (!this.#closed || this.#pending.size) {
        this.#failAll(new Error(`The embedded database's thread stopped (exit code ${code}).`));
      }
    });
  }

  /** Start the worker and wait until the database in it is open (created on first use). */
  static async create(start: Omit<WorkerStart, "loadDataDir"> & { loadDataDir?: Blob }): Promise<PgliteWorkerClient> {
    if (start.dataDir) mkdirSync(start.dataDir, { recursive: true });
    const loadDataDir = start.loadDataDir ? await start.loadDataDir.arrayBuffer() : undefined;
    const client = new PgliteWorkerClient({ ...start, loadDataDir });
    try {
      await client.ready;
    } catch (error) {
      await client.#worker.terminate();
      throw error;
    }
    return client;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Whether this thread keeps the process alive (Node's ref/unref). A database kept idle for
   * later (the test harness's pool) should not hold a finished process open.
   */
  keepProcessAlive(keep: boolean): void {
    if (keep) this.#worker.ref();
    else this.#worker.unref();
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#call({
      op: "query",
      sql,
      params: portableParams(params),
      priority: currentPriority(),
      ...portableOptions(options),
    }) as Promise<Results<T>>;
  }

  /**
   * Run `fn` in one transaction: committed when it returns, rolled back when it throws (the
   * error is rethrown). Queries outside it wait until it ends, as in PGlite itself.
   *
   * The transaction begins with its first statement, in the same message: a separate BEGIN was
   * one more trip to the worker and back, and the database sat held by the open transaction
   * while this thread, busy with other requests, got round to sending the statement. A
   * transaction that sent no statement has nothing to end.
   */
  async transaction<T>(fn: (tx: WorkerTransaction) => Promise<T>): Promise<T> {
    const tx = this.#nextTx++;
    const priority = currentPriority();
    let begun = false;
    const handle: WorkerTransaction = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        const first = !begun;
        begun = true;
        return this.#call({
          op: "query",
          tx,
          ...(first ? { begin: true as const, priority } : {}),
          sql,
          params: portableParams(params),
          ...portableOptions(options),
        }) as Promise<Results<R>>;
      },
    };
    let result: T;
    try {
      result = await fn(handle);
    } catch (error) {
      if (begun) await this.#call({ op: "end", tx, commit: false }).catch(() => undefined);
      throw error;
    }
    if (begun) await this.#call({ op: "end", tx, commit: true });
    return result;
  }

  /** The data folder as a tarball (test templates are made this way). */
  async dumpDataDir(compression?: DumpTarCompressionOptions): Promise<Blob> {
    const buffer = (await this.#call({ op: "dump", compression })) as ArrayBuffer;
    return new Blob([buffer]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#call({ op: "close" });
    } finally {
      this.#closed = true;
      await this.#worker.terminate();
    }
  }

  #call(body: RequestBody): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("The embedded database is closed."));
    const id = this.#nextId++;
    const request = { ...body, id } as WorkerRequest;
    const answer = new Promise<unknown>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    // Keep the process alive only while an answer is awaited: an idle database must not hold
    // a script (a migration, a seed) open, and a waiting one must not let it exit.
    if (this.#pending.size === 1) this.#worker.ref();
    this.#worker.postMessage(request);
    return answer;
  }

  #settle(reply: WorkerReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(rebuildError(reply.error));
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
