/**
 * The prepared database a fresh data folder starts from (pglite-template.ts, build-template.ts):
 * made once per code, picked only for a folder without a database, and what it opens is the
 * migrated schema on disk — a restart without it finds the same database.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ensureTemplate } from "./build-template.ts";
import { migrateDatabase, openPglite, queryRows } from "./client.ts";
import { isFreshDataFolder, templateFile, templateFor } from "./pglite-template.ts";
import { pgliteDir } from "./pglite-worker-client.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "tideline-template-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The suite's migrated database (global-setup.ts), when the run has one: no initdb of our own. */
function suiteDatabase(): Blob | undefined {
  const file = inject("pgliteTemplate");
  return file ? new Blob([readFileSync(file)]) : undefined;
}

const migrationCount = async (db: Parameters<typeof queryRows>[0]) =>
  Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n);

describe("the embedded database template", () => {
  it("is made once for this code, replaces older ones, and starts a fresh data folder migrated", async () => {
    const templates = path.join(scratch, "dist");
    const stale = path.join(templates, "pglite-template-0000000000000000.tar.gz");
    const made = await ensureTemplate(templates, { from: suiteDatabase() });
    expect(made.made).toBe(true);
    expect(made.file).toBe(templateFile(templates));
    writeFileSync(stale, "an older code's template");
    expect((await ensureTemplate(templates)).made).toBe(false);

    const dataDir = path.join(scratch, "data");
    expect(isFreshDataFolder(dataDir)).toBe(true);
    const template = templateFor(dataDir, templates);
    expect(template).toBeInstanceOf(Blob);

    const first = await openPglite({ dir: pgliteDir(dataDir), loadDataDir: template });
    let migrated: number;
    try {
      migrated = await migrationCount(first.db);
      expect(migrated).toBeGreaterThan(20);
      // Nothing is left to apply, and the schema is there.
      await migrateDatabase(first);
      expect(await migrationCount(first.db)).toBe(migrated);
      await first.db.execute(sql`insert into instance (instance_name) values ('From the template')`);
    } finally {
      await first.close();
    }

    // The folder has its database now: no template for it, and a restart finds the same data.
    expect(isFreshDataFolder(dataDir)).toBe(false);
    expect(templateFor(dataDir, templates)).toBeUndefined();
    const again = await openPglite({ dir: pgliteDir(dataDir) });
    try {
      const rows = await queryRows<{ instance_name: string }>(again.db, sql`select instance_name from instance`);
      expect(rows.map((r) => r.instance_name)).toContain("From the template");
    } finally {
      await again.close();
    }

    // A new template (other migrations) removes the ones no code will use again. It begins from
    // the first one's database when the run has no suite database (PostgreSQL's runs): a second
    // empty cluster, initialised and migrated, doubled the test's time there.
    const firstTemplate = new Blob([readFileSync(made.file)]);
    rmSync(made.file);
    await ensureTemplate(templates, { from: suiteDatabase() ?? firstTemplate });
    expect(readdirSync(templates)).toEqual([path.basename(made.file)]);
    // A ceiling, not a wait: without the suite's database (PostgreSQL's runs) the test initialises
    // and migrates a cluster of its own, which took over 30 s on a loaded 2-core machine.
  }, 120_000);

  it("a folder without a template for this code starts as before (no template)", () => {
    expect(templateFor(path.join(scratch, "another"), path.join(scratch, "no-templates-here"))).toBeUndefined();
  });
});
