/**
 * Group commit of the write-ahead log: updates appended together share INSERTs, each caller
 * gets the id of its own row, and a failed INSERT refuses every update of its batch.
 */
import { asc, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/harness.ts";
import type { Database } from "../db/client.ts";
import { documentUpdates } from "../db/schema.ts";
import { UpdateLog } from "./update-log.ts";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const bytes = (n: number) => new Uint8Array([n % 256, Math.floor(n / 256), 7, 7]);

describe("UpdateLog", () => {
  it("gives each of many concurrent updates the id of its own row", async () => {
    const log = new UpdateLog(database.db);
    const rows = Array.from({ length: 120 }, (_, n) => ({
      documentName: `page.group-${n % 3}`,
      update: bytes(n),
      actorId: null,
    }));
    const ids = await Promise.all(rows.map((row) => log.append(row)));
    expect(new Set(ids).size).toBe(rows.length);
    const stored = await database.db
      .select()
      .from(documentUpdates)
      .where(inArray(documentUpdates.id, ids))
      .orderBy(asc(documentUpdates.id));
    const byId = new Map(stored.map((row) => [row.id, row]));
    rows.forEach((row, n) => {
      const found = byId.get(ids[n] as number);
      expect(found?.documentName).toBe(row.documentName);
      expect([...(found?.update ?? [])]).toEqual([...row.update]);
    });
    // Logged in the order they were appended.
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it("writes the updates that arrive together in one INSERT", async () => {
    let inserts = 0;
    const counting = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key === "insert") inserts += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    const log = new UpdateLog(counting);
    await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        log.append({ documentName: "page.together", update: bytes(n), actorId: null }),
      ),
    );
    expect(inserts).toBe(1);
  });

  it("refuses every update of a batch whose INSERT fails, and writes the next batch", async () => {
    const log = new UpdateLog(database.db);
    const bad = { documentName: "page.bad", update: bytes(1), actorId: "not-a-uuid" };
    const good = { documentName: "page.bad", update: bytes(2), actorId: null };
    const results = await Promise.allSettled([log.append(bad), log.append(good)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await expect(log.append(good)).resolves.toBeGreaterThan(0);
  });
});
