/**
 * The embedded database in its worker thread, through the same Drizzle driver the server uses:
 * transactions commit and roll back as PGlite's own, queries outside a transaction wait for
 * it, Postgres errors keep their SQLSTATE and constraint, values survive the thread boundary,
 * and the event loop stays free while a long query runs.
 */

import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openPglite, queryRows } from "./client.ts";
import { uniqueViolation } from "./errors.ts";
import type { PgliteWorkerClient } from "./pglite-worker-client.ts";
import { asBulkRead, inBackground } from "./priority.ts";

let database: Database;

/**
 * Each database starts from the suite's migrated PGlite template (global-setup.ts), when the run
 * has one, rather than an initdb of its own: the same engine in the same worker, seconds less
 * per database.
 */
function fromTemplate(): Blob | undefined {
  // Under `npm run test:scale` the suite's template is a PostgreSQL database: an initdb then.
  const file = inject("pgliteTemplate");
  return file ? new Blob([readFileSync(file)]) : undefined;
}

beforeAll(async () => {
  database = await openPglite({ loadDataDir: fromTemplate() });
  await database.db.execute(sql`create table notes (id int primary key, body text not null, at timestamptz)`);
  await database.db.execute(sql`create unique index notes_body on notes (body)`);
});

afterAll(async () => {
  await database?.close();
});

const count = async () =>
  Number((await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from notes`))[0]?.n);

describe("the embedded database in a worker thread", () => {
  it("commits a transaction that returns, and answers its value", async () => {
    const value = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes values (1, 'one', now())`);
      return "done";
    });
    expect(value).toBe("done");
    expect(await count()).toBe(1);
  });

  it("rolls back a transaction that throws, and rethrows its error", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes values (2, 'two', now())`);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await count()).toBe(1);
  });

  it("rolls back a savepoint alone (nested transactions)", async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes values (3, 'three', now())`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`insert into notes values (4, 'four', now())`);
          throw new Error("inner only");
        }),
      ).rejects.toThrow("inner only");
    });
    const ids = await queryRows<{ id: number }>(database.db, sql`select id from notes order by id`);
    expect(ids.map((row) => row.id)).toEqual([1, 3]);
    await database.db.execute(sql`delete from notes where id = 3`);
  });

  it("keeps Postgres' error fields: a unique violation names its constraint", async () => {
    const error = await database.db.execute(sql`insert into notes values (5, 'one', now())`).catch((e: unknown) => e);
    expect(uniqueViolation(error)).toBe("notes_body");
    expect(await count()).toBe(1);
  });

  it("makes queries outside a transaction wait until it ends", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writer = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes values (6, 'six', now())`);
      await held;
    });
    // Give the transaction time to begin, then read outside it: the read must see the commit.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reading = count();
    release();
    await writer;
    expect(await reading).toBe(2);
  });

  it("returns dates as Drizzle's driver expects (text for timestamptz) and bytes as bytes", async () => {
    const [row] = await queryRows<{ at: unknown; bytes: unknown; doc: unknown }>(
      database.db,
      sql`select at, '\\x0102ff'::bytea as bytes, '{"a":[1,2]}'::jsonb as doc from notes where id = 1`,
    );
    expect(row?.bytes).toEqual(new Uint8Array([1, 2, 255]));
    expect(row?.doc).toEqual({ a: [1, 2] });
    expect(row?.at).toBeTruthy();
  });

  it("sends a byte view's own bytes (not its whole backing buffer) and stores exactly them", async () => {
    const frame = new Uint8Array(8192).map((_, i) => i % 251);
    const view = frame.subarray(100, 110);
    const [row] = await queryRows<{ bytes: Uint8Array }>(database.db, sql`select ${view}::bytea as bytes`);
    expect(row?.bytes).toEqual(new Uint8Array(frame.slice(100, 110)));
  });

  it("leaves the event loop free while a long query runs", async () => {
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 0);
    await database.db.execute(sql`select count(*) from generate_series(1, 3000000)`);
    // On the main thread the query's work would have run before any timer, and its answer's
    // continuation before the timers' phase; here the timer fired while the worker counted.
    expect(fired).toBe(true);
  });

  it("runs interactive statements before queued bulk reads", async () => {
    // A database of its own whose bulk reads never age past interactive work: on a loaded machine
    // each slow read below outlasts the 200 ms default, and the order would then be the aging
    // rule's (the next test), not the priority's.
    const patient = await openPglite({ loadDataDir: fromTemplate(), bulkMaxWaitMs: 60_000 });
    try {
      await patient.db.execute(sql`create table notes (id int primary key, body text not null)`);
      await patient.db.execute(sql`insert into notes values (1, 'one')`);
      const finished: string[] = [];
      const slow = sql`select count(*) from generate_series(1, 1500000)`;
      const bulkReads = [1, 2, 3, 4].map((n) =>
        asBulkRead(async () => {
          await patient.db.execute(slow);
          finished.push(`bulk ${n}`);
        }),
      );
      // Sent after all four lists, in the same tick: a click's statement and its transaction. Both
      // reach the worker while the first list runs (it reads no message until that list ends), so
      // the order below does not hang on how fast this thread answers on a loaded machine; once
      // the transaction has begun, no bulk read runs before it ends.
      const click = Promise.all([
        patient.db.execute(sql`select 1`),
        patient.db.transaction(async (tx) => {
          await tx.execute(sql`update notes set body = body where id = 1`);
        }),
      ]).then(() => {
        finished.push("click");
      });
      await Promise.all([...bulkReads, click]);
      // Only the list already running went first.
      expect(finished.indexOf("click")).toBeLessThanOrEqual(1);
      expect(finished.filter((name) => name.startsWith("bulk"))).toHaveLength(4);
    } finally {
      await patient.close();
    }
  });

  it("picks by priority among requests that waited together, not by arrival", async () => {
    const patient = await openPglite({ loadDataDir: fromTemplate(), bulkMaxWaitMs: 60_000 });
    try {
      const finished: string[] = [];
      // A list, then a click, sent while the database is held: they wait together.
      const { list, click } = await whileWorkerHeld(patient.db, () => ({
        list: asBulkRead(async () => {
          await patient.db.execute(sql`select count(*) from generate_series(1, 200000)`);
          finished.push("list");
        }),
        click: patient.db.execute(sql`select 1`).then(() => finished.push("click")),
      }));
      finished.push("held");
      await Promise.all([list, click]);
      expect(finished).toEqual(["held", "click", "list"]);
    } finally {
      await patient.close();
    }
  });

  /**
   * Hold the database with an open transaction while `send` asks its statements, so they wait
   * together whatever the machine's load. A statement in the transaction sent after theirs is the
   * barrier: the worker reads its port in order, so once that statement has answered, theirs are
   * queued. Then the transaction commits and the schedule picks among them. (Before, a long
   * statement held the worker, and on a loaded machine it could end before this thread had sent
   * the rest — CI: 1 ≠ 2.) A Drizzle query is sent once awaited, through microtasks only, so one
   * macrotask lets every message of `send` leave before the barrier's.
   */
  async function whileWorkerHeld<T>(db: Database["db"], send: () => T): Promise<T> {
    let sent: { value: T } | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      // Wrapped: returned bare, a promise would be awaited by the transaction.
      sent = { value: send() };
      await new Promise((resolve) => setImmediate(resolve));
      await tx.execute(sql`select 1`);
    });
    if (!sent) throw new Error("the transaction did not run");
    return sent.value;
  }

  it("identical bulk reads asked while one waits share its run; interactive ones never do", async () => {
    await database.db.execute(sql`create sequence ticket`);
    const ticket = () => queryRows<{ n: number }>(database.db, sql`select nextval('ticket')::int as n`);
    const asked = await whileWorkerHeld(database.db, () => ({
      bulk: Promise.all([asBulkRead(ticket), asBulkRead(ticket)]),
      interactive: Promise.all([ticket(), ticket()]),
    }));
    const [a, b] = await asked.bulk;
    const [c, d] = await asked.interactive;
    expect(a[0]?.n).toBe(b[0]?.n);
    expect(c[0]?.n).not.toBe(d[0]?.n);
  });

  it("background work, identical or not, is never shared: each write runs", async () => {
    await database.db.execute(sql`create sequence background_ticket`);
    const ticket = () => queryRows<{ n: number }>(database.db, sql`select nextval('background_ticket')::int as n`);
    const asked = await whileWorkerHeld(database.db, () => ({
      background: Promise.all([inBackground(ticket), inBackground(ticket)]),
    }));
    const [a, b] = await asked.background;
    expect(a[0]?.n).not.toBe(b[0]?.n);
  });

  it("runs interactive statements before queued background work (notifications, jobs)", async () => {
    const patient = await openPglite({ loadDataDir: fromTemplate(), bulkMaxWaitMs: 60_000 });
    try {
      const finished: string[] = [];
      const slow = sql`select count(*) from generate_series(1, 1500000)`;
      // Work after a change that nobody waits on: a transaction, as the notifications make.
      const background = [1, 2, 3].map((n) =>
        inBackground(() =>
          patient.db.transaction(async (tx) => {
            await tx.execute(slow);
            finished.push(`background ${n}`);
          }),
        ),
      );
      const click = patient.db.execute(sql`select 1`).then(() => finished.push("click"));
      await Promise.all([...background, click]);
      // Only the background transaction already running went first.
      expect(finished.indexOf("click")).toBeLessThanOrEqual(1);
    } finally {
      await patient.close();
    }
  });

  it("a transaction begins with its first statement: statements sent together run in it, in order", async () => {
    const rows = await database.db.transaction(async (tx) => {
      // Both leave before the transaction has begun (one message each, no BEGIN of their own).
      const [inserted, read] = await Promise.all([
        tx.execute(sql`insert into notes values (30, 'thirty', now())`),
        tx.execute(sql`select body from notes where id = 30`),
      ]);
      expect(inserted).toBeDefined();
      return (read as unknown as { rows: { body: string }[] }).rows;
    });
    expect(rows).toEqual([{ body: "thirty" }]);
    await database.db.execute(sql`delete from notes where id = 30`);
  });

  it("a transaction that sends no statement, returning or throwing, leaves the database free", async () => {
    expect(await database.db.transaction(async () => "nothing to do")).toBe("nothing to do");
    await expect(
      database.db.transaction(async () => {
        throw new Error("refused before any statement");
      }),
    ).rejects.toThrow("refused before any statement");
    expect(await count()).toBeGreaterThan(0);
  });

  it("a failed first statement rolls the transaction back and keeps its error", async () => {
    const before = await count();
    const error = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into notes values (1, 'one again', now())`);
      })
      .catch((e: unknown) => e);
    expect(uniqueViolation(error)).toBe("notes_pkey");
    expect(await count()).toBe(before);
  });

  it("dumps its data folder, which opens as a copy", async () => {
    const client = (database.db as unknown as { $client: PgliteWorkerClient }).$client;
    const dump = await client.dumpDataDir("none");
    const copy = await openPglite({ loadDataDir: dump });
    try {
      const rows = await queryRows<{ body: string }>(copy.db, sql`select body from notes order by id`);
      expect(rows.map((row) => row.body)).toEqual(["one", "six"]);
    } finally {
      await copy.close();
    }
  });

  it("refuses calls after close with a clear error", async () => {
    const other = await openPglite({ loadDataDir: fromTemplate() });
    await other.close();
    const error = await other.db.execute(sql`select 1`).catch((e: unknown) => e);
    // Drizzle names the failed query and keeps the driver's error as the cause.
    expect((error as { cause?: Error }).cause?.message).toBe("The embedded database is closed.");
  });
});
