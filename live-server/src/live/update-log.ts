/**
 * Group commit of the write-ahead log (`document_updates`).
 *
 * Every writable client's update must be in the database before Hocuspocus applies and
 * acknowledges it (persistence.ts). One INSERT per update made the database the bottleneck of
 * co-editing: 20 editors typing queued a statement, a transaction and a WAL flush per
 * keystroke behind each other on PGlite's single connection. Here the updates that arrive
 * while the log is idle are collected until the current I/O phase ends (setImmediate: every
 * socket read in the same turn of the event loop joins), and those that arrive while a write
 * is running wait for it and go together in the next one. Each batch is one INSERT, so one
 * transaction; each caller's promise resolves with its row id only after that INSERT
 * committed, and all of a batch's callers are refused if it fails: the acknowledgement still
 * never comes before the update is durable.
 */
import type { Db } from "../db/client.ts";
import { appendUpdates, type LogRow } from "./storage.ts";

/** Rows per INSERT: 3 parameters each, well under PostgreSQL's 65,535 bind parameters. */
const MAX_ROWS = 500;
/** Bytes per INSERT, so a burst of large updates is not one huge statement. */
const MAX_BYTES = 8 * 1024 * 1024;

type Waiting = { row: LogRow; resolve: (id: number) => void; reject: (err: unknown) => void };

export class UpdateLog {
  private readonly db: Db;
  private queue: Waiting[] = [];
  private draining = false;

  constructor(db: Db) {
    this.db = db;
  }

  /** Log one update; resolves with its row id once the INSERT holding it has committed. */
  append(row: LogRow): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      try {
        const ids = await appendUpdates(
          this.db,
          batch.map((w) => w.row),
        );
        for (const [i, waiting] of batch.entries()) waiting.resolve(ids[i] as number);
      } catch (err) {
        for (const waiting of batch) waiting.reject(err);
      }
    }
    this.draining = false;
  }

  private takeBatch(): Waiting[] {
    let bytes = 0;
    let count = 0;
    for (const waiting of this.queue) {
      if (count > 0 && (count >= MAX_ROWS || bytes + waiting.row.update.byteLength > MAX_BYTES)) break;
      bytes += waiting.row.update.byteLength;
      count += 1;
    }
    return this.queue.splice(0, count);
  }
}
