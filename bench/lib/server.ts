/**
 * Real server processes for benchmarks: `node live-server/src/main.ts` as a child, on a data
 * store of its own (a fresh data folder, and on PostgreSQL a fresh database created and dropped
 * through the admin URL). Every child is killed when the bench exits, is interrupted, or when
 * `cleanupAll()` runs after a scenario — a scenario that throws leaves nothing behind.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type Database, openPglite, openPostgres } from "../../live-server/src/db/client.ts";
import { serverNodeFlags } from "../../live-server/src/server-node-flags.ts";
import { type BenchContext, sleep } from "./scenario.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MAIN = path.join(REPO_ROOT, "live-server/src/main.ts");

// ───────────────────────────── cleanup registry ─────────────────────────────

type Cleanup = { sync: () => void; async: () => Promise<void> };
const cleanups = new Set<Cleanup>();
let handlersInstalled = false;

function register(cleanup: Cleanup): () => void {
  if (!handlersInstalled) {
    handlersInstalled = true;
    // Last resort: `exit` handlers can't await, so children are killed outright.
    process.on("exit", () => {
      for (const c of cleanups) c.sync();
    });
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.once(signal, () => {
        process.stderr.write(`\nbench: ${signal}, cleaning up…\n`);
        cleanupAll().finally(() => process.exit(130));
      });
    }
  }
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Stop every server and drop every store still registered (newest first). */
export async function cleanupAll(): Promise<void> {
  for (const c of [...cleanups].reverse()) {
    try {
      await c.async();
    } catch (error) {
      process.stderr.write(`bench: cleanup failed: ${String(error)}\n`);
    }
    cleanups.delete(c);
  }
}

/**
 * Kill `child` (SIGKILL) if it is still running when the bench exits, is interrupted, or a
 * scenario's cleanup runs; returns a function that forgets it (call once it has exited).
 */
export function trackProcess(child: ChildProcess): () => void {
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const forget = register({ sync: kill, async: async () => kill() });
  child.once("exit", () => forget());
  return forget;
}

// ───────────────────────────── data stores ─────────────────────────────

/** Where one server's data lives; survives server restarts until disposed. */
export type Store = {
  /** The data folder (uploads, secret key; PGlite's files under `pglite/`). */
  dataDir: string;
  /** The store's own database (postgres backend only). */
  databaseUrl?: string;
  redisUrl?: string;
  /** Open the database directly (no server may hold a PGlite folder at the same time). */
  open(): Promise<Database>;
  /** Remove the data folder and drop the database. */
  dispose(): Promise<void>;
};

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** BENCH_KEEP_STORE=1: stores outlive the run (their data folder and database), to inspect plans. */
export const keepStores = () => process.env.BENCH_KEEP_STORE === "1";

/** With BENCH_KEEP_STORE=1 the store is never removed: disposing it only says where it is. */
function kept(store: Store, ctx: BenchContext): Store {
  if (!keepStores()) return store;
  store.dispose = async () => ctx.log(`kept ${store.databaseUrl ?? store.dataDir}`);
  return store;
}

/** A fresh, empty store for one scenario run (`label` names the folder and database). */
export async function createStore(ctx: BenchContext, label: string): Promise<Store> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const dataDir = path.join(ctx.tmpDir, `data-${label}-${suffix}`);
  mkdirSync(dataDir, { recursive: true });
  if (ctx.backend === "pglite") {
    const store: Store = {
      dataDir,
      open: () => openPglite({ dir: path.join(dataDir, "pglite") }),
      dispose: async () => {
        unregister();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    const unregister = register({ sync: () => {}, async: () => store.dispose() });
    return kept(store, ctx);
  }
  const adminUrl = ctx.databaseUrl;
  if (!adminUrl) throw new Error("backend postgres needs DATABASE_URL");
  const name = `tideline_bench_${label.replace(/\W/g, "_")}_${suffix}`.toLowerCase();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const databaseUrl = withDatabase(adminUrl, name);
  const store: Store = {
    dataDir,
    databaseUrl,
    redisUrl: ctx.redisUrl,
    open: () => openPostgres(databaseUrl, 4),
    dispose: async () => {
      unregister();
      rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        // FORCE (PostgreSQL 13+) ends connections a killed server may have left open.
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
  const unregister = register({ sync: () => {}, async: () => store.dispose() });
  ctx.log(`database ${name}`);
  return kept(store, ctx);
}

// ───────────────────────────── server processes ─────────────────────────────

export type ServerHandle = {
  /** http://127.0.0.1:<port> — also the server's APP_BASE_URL, so use it as Origin. */
  url: string;
  port: number;
  pid: number;
  /** From spawning the process to the first 200 from /api/instances/. */
  startupMs: number;
  logFile: string;
  /** SIGTERM (the server stores live documents and closes), SIGKILL after 10 s. Idempotent. */
  stop(): Promise<void>;
  /** Resident set size of the server process now (VmRSS). */
  rssBytes(): number;
  /** User + system CPU time the process has used so far. */
  cpuSeconds(): number;
};

export type StartOptions = {
  port: number;
  store: Store;
  /** A built client to serve (CLIENT_DIST); none → the API only. */
  clientDist?: string;
  /** Extra environment (wins over the defaults). */
  env?: Record<string, string>;
  /** How long to wait for the first 200 (default 60 s). */
  timeoutMs?: number;
};

/** VmRSS of a process in bytes, 0 once it is gone. */
export function readRssBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** utime + stime of a process in seconds (clock ticks are 100 Hz on Linux x86/arm). */
export function readCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start at index 3 (state).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

let serverCount = 0;

/** The log files of the servers this process started (their mails: see serverLogFiles). */
const logFiles = new Set<string>();

/** Every server log of this run: a mail job may run on any instance sharing the database. */
export function serverLogFiles(): string[] {
  return [...logFiles];
}

/** Spawn a server on `store` and wait until /api/instances/ answers 200. */
export async function startServer(ctx: BenchContext, options: StartOptions): Promise<ServerHandle> {
  const { port, store } = options;
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(ctx.tmpDir, `server-${port}-${++serverCount}.log`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_BASE_URL: url,
    DATA_DIR: store.dataDir,
    // "info": without SMTP the log is the outbox, where set-up reads members' verification codes
    // (request logging stays off below "debug", so this adds only mail and start-up lines).
    LOG_LEVEL: "info",
    // Set-up signs many users up from one address; behind "a proxy" each gets its own
    // X-Forwarded-For, so the per-IP auth limit (shared through Redis across runs) isn't hit.
    TRUST_PROXY: "1",
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    ...(store.redisUrl ? { REDIS_URL: store.redisUrl } : {}),
    ...(options.clientDist ? { CLIENT_DIST: options.clientDist } : {}),
    ...options.env,
  };
  logFiles.add(logFile);
  const fd = openSync(logFile, "a");
  const started = performance.now();
  let child: ChildProcess;
  try {
    // The flags `npm run serve` starts the server with, then BENCH_SERVER_NODE_ARGS: extra Node
    // flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (a later flag of the same name wins).
    const nodeArgs = [...serverNodeFlags(), ...(process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean)];
    // BENCH_SERVER_CPUS (e.g. "0"): the server (and its database thread) on those CPUs only.
    const cpus = process.env.BENCH_SERVER_CPUS;
    const [command, args] = cpus
      ? ["taskset", ["-c", cpus, process.execPath, ...nodeArgs, MAIN]]
      : [process.execPath, [...nodeArgs, MAIN]];
    child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ["ignore", fd, fd] });
  } finally {
    closeSync(fd);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not spawn the server");
  let exited: number | null | undefined;
  const exitPromise = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = code ?? (signal ? -1 : null);
      resolve();
    }),
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      unregister();
      if (exited !== undefined) return;
      child.kill("SIGTERM");
      const killed = await Promise.race([exitPromise.then(() => true), sleep(10_000).then(() => false)]);
      if (!killed) {
        child.kill("SIGKILL");
        await exitPromise;
      }
    })();
    return stopping;
  };
  const unregister = register({
    sync: () => {
      if (exited === undefined) child.kill("SIGKILL");
    },
    async: stop,
  });

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let startupMs = 0;
  for (;;) {
    if (exited !== undefined) {
      throw new Error(`server on :${port} exited (${exited}) during start-up; log ${logFile}:\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(`${url}/api/instances/`);
      await response.arrayBuffer();
      if (response.status === 200) {
        startupMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server on :${port} did not answer within the deadline; log ${logFile}:\n${tail(logFile)}`);
    }
    await sleep(10);
  }
  ctx.log(`server :${port} up (pid ${pid}, ${Math.round(startupMs)} ms)`);
  return {
    url,
    port,
    pid,
    startupMs,
    logFile,
    stop,
    rssBytes: () => readRssBytes(pid),
    cpuSeconds: () => readCpuSeconds(pid),
  };
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
