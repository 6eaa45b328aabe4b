/**
 * `npm run build`'s last step: prepare the migrated embedded database a fresh data folder starts
 * from (db/pglite-template.ts). Nothing to do when the template for this code exists.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { migrateDatabase, openPglite } from "./client.ts";
import { TEMPLATE_DIR, templateFile } from "./pglite-template.ts";
import type { PgliteWorkerClient } from "./pglite-worker-client.ts";

/**
 * Prepare the template for this code unless it exists; returns its path. `from`: a database to
 * begin with instead of an empty cluster (the test suite's migrated one; pending migrations are
 * applied either way).
 */
export async function ensureTemplate(
  dir = TEMPLATE_DIR,
  options: { from?: Blob } = {},
): Promise<{ file: string; made: boolean }> {
  const file = templateFile(dir);
  if (existsSync(file)) return { file, made: false };
  const database = await openPglite({ loadDataDir: options.from });
  try {
    await migrateDatabase(database);
    const client = (database.db as unknown as { $client: PgliteWorkerClient }).$client;
    const dump = await client.dumpDataDir("gzip");
    mkdirSync(dir, { recursive: true });
    // Written aside, then renamed: a server starting meanwhile never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    // Templates of earlier migrations are never used again.
    for (const name of readdirSync(dir)) {
      if (/^pglite-template-[0-9a-f]+\.tar\.gz$/.test(name) && path.join(dir, name) !== file) {
        rmSync(path.join(dir, name), { force: true });
      }
    }
    return { file, made: true };
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  const started = performance.now();
  const { file, made } = await ensureTemplate();
  console.log(
    made
      ? `embedded database template prepared in ${Math.round(performance.now() - started)} ms: ${file}`
      : `embedded database template up to date: ${file}`,
  );
}
