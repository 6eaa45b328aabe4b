/**
 * A migrated embedded database, prepared once, that a fresh data folder starts from. Creating a
 * cluster (initdb, in WebAssembly) and applying every migration took 5–25 s of a first start, and
 * left that process hundreds of MB larger for good (WebAssembly memory never shrinks). `npm run
 * build` (so `npm start` and the Docker image) prepares the template under live-server/dist/;
 * a server whose data folder has no database yet loads it instead, then applies only the
 * migrations newer than it (none, unless the code moved on since the build).
 *
 * This module is read at start-up before Drizzle (main.ts): it imports nothing heavy; the
 * template is made by build-template.ts.
 *
 * The file's name carries a hash of PGlite's version and the migrations' journal: a template of
 * other migrations or another engine is never picked up, and a stale one is simply not used.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pgliteDir } from "./pglite-worker-client.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where `npm run build` puts the template (git-ignored; the Docker image copies it). */
export const TEMPLATE_DIR = path.resolve(here, "../../dist");
/** The migrations (db/client.ts MIGRATIONS_FOLDER; not imported: this loads before Drizzle). */
const MIGRATIONS_FOLDER = path.resolve(here, "../../drizzle");

/** PGlite's version, from the package.json above its entry (the package exports no ./package.json). */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (name === "@electric-sql/pglite" && version) return version;
    }
    const up = path.dirname(dir);
    if (up === dir) return "unknown";
    dir = up;
  }
}

/** The template's file for this code: PGlite's version and the migrations' journal, hashed. */
export function templateFile(dir = TEMPLATE_DIR): string {
  const journal = readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8");
  const hash = createHash("sha256").update(pgliteVersion()).update("\0").update(journal).digest("hex").slice(0, 16);
  return path.join(dir, `pglite-template-${hash}.tar.gz`);
}

/** Whether `dataDir` holds no embedded database yet (no PG_VERSION in its pglite folder). */
export function isFreshDataFolder(dataDir: string): boolean {
  return !existsSync(path.join(pgliteDir(dataDir), "PG_VERSION"));
}

/**
 * The template to start a fresh data folder from, or undefined (the folder has a database, or
 * there is no template for this code: the server then creates the database as before).
 */
export function templateFor(dataDir: string, dir = TEMPLATE_DIR): Blob | undefined {
  if (!isFreshDataFolder(dataDir)) return undefined;
  const file = templateFile(dir);
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}
