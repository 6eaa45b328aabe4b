/**
 * Runs once per `vitest` run for the API project: builds one migrated database template, so
 * each test file starts from a clean copy in a fraction of a second instead of an initdb.
 * - PGlite (default): a migrated data dir dumped to a tarball that files load.
 * - PostgreSQL (TEST_DATABASE_URL set, as in `npm run test:scale`): a template database that
 *   each test file clones with CREATE DATABASE … TEMPLATE.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openPglite, openPostgres } from "../src/db/client.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `tideline_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${template}"`);
    const templateUrl = withDatabase(url, template);
    const database = await openPostgres(templateUrl, 1);
    await migrateDatabase(database);
    await database.close();
    project.provide("postgresTemplate", template);
    project.provide("pgliteTemplate", "");
    return async () => {
      // Drop the template and every per-file database cloned from it.
      const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [
        `${template}%`,
      ]);
      for (const { datname } of rows.reverse()) {
        await admin.query(`drop database if exists "${datname}" with (force)`);
      }
      await admin.end();
    };
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), "tideline-tpl-"));
  const database = await openPglite({});
  await migrateDatabase(database);
  // biome-ignore lint/suspicious/noExplicitAny: reach the PGlite client behind drizzle
  const client = (database.db as any).$client as import("../src/db/pglite-worker-client.ts").PgliteWorkerClient;
  const dump = await client.dumpDataDir("none");
  const file = path.join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide("pgliteTemplate", file);
  project.provide("postgresTemplate", "");
  return () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
