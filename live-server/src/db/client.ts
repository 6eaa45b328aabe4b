/**
 * Opens the database: embedded PGlite under the data folder by default, PostgreSQL when
 * DATABASE_URL is set. Both speak the same SQL through the same Drizzle schema, and the
 * committed drizzle-kit migrations are applied before the server accepts requests.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { PgliteWorkerClient, pgliteDir } from "./pglite-worker-client.ts";
import * as schema from "./schema.ts";
import { sessionSettingOptions } from "./session-settings.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
};

/**
 * Open the embedded database in `dir` (created on first use), or an in-memory/cloned one. It
 * runs in a worker thread (db/pglite-worker.ts), so its queries never block the event loop
 * that serves sockets and HTTP; Drizzle talks to it through the same PGlite driver.
 */
export async function openPglite(options: {
  dir?: string;
  loadDataDir?: Blob | File;
  /** PostgreSQL's shared_buffers, e.g. "32MB" (PGlite's default, 128MB, when unset). */
  sharedBuffers?: string;
  /** The worker already started for these options (main.ts starts it before loading Drizzle). */
  started?: Promise<PgliteWorkerClient>;
  /** How long a bulk read waits at most behind interactive work (tests; default 200 ms). */
  bulkMaxWaitMs?: number;
}): Promise<Database> {
  const client = await (options.started ??
    PgliteWorkerClient.create({
      dataDir: options.dir,
      loadDataDir: options.loadDataDir,
      sharedBuffers: options.sharedBuffers,
      bulkMaxWaitMs: options.bulkMaxWaitMs,
    }));
  // The driver calls only query() and transaction(), which the worker client answers as PGlite does.
  // biome-ignore lint/suspicious/noExplicitAny: drizzle types its client as the PGlite class
  const db = drizzlePglite({ client: client as any, schema }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close() };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: sessionSettingOptions() });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return { db, kind: "postgres", close: () => pool.end() };
}

/**
 * Apply pending migrations. On Postgres several instances may start at once, so the run is
 * serialised by an advisory lock; PGlite has a single connection and needs none.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === "pglite") {
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the concrete driver type
    await migratePglite(database.db as any, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727274)`);
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the concrete driver type
    await migratePg(tx as any, { migrationsFolder: MIGRATIONS_FOLDER });
  });
}

/** Open (and migrate) the database the configuration names. */
export async function openDatabase(
  config: { databaseUrl: string | undefined; dataDir: string; pgliteSharedBuffers?: string },
  options: { startedPglite?: Promise<PgliteWorkerClient> } = {},
): Promise<Database> {
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl)
    : await openPglite({
        dir: pgliteDir(config.dataDir),
        sharedBuffers: config.pgliteSharedBuffers,
        started: options.startedPglite,
      });
  await migrateDatabase(database);
  return database;
}

/** Run raw SQL and return its rows (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
