/**
 * Group commit of the write-ahead log (`document_updates`).
 *
 * Every writable client's update is in the database before its author gets the acknowledgement
 * (persistence.ts); the broadcast to the other clients does not wait for it. One INSERT per
 * update made the database the co-editing path's main cost: 20 editors typing cost a
 * statement, a transaction and a WAL flush per keystroke, and on PGlite a wake-up of the
 * database thread that preempted the event loop on a busy 2-core machine. Here updates are
 * collected for a short window (`windowMs` from the first one, default 50 ms; nothing waits on
 * it but acknowledgements) and those that arrive while a write is running wait for it and go
 * together in the next one. Each batch is one INSERT, so one transaction; each caller's promise
 * resolves with its row id only after that INSERT committed, and all of a batch's callers are
 * refused if it fails: the acknowledgement still never comes before the update is durable.
 */
import type { Db } from "../db/client.ts";
import { appendUpdates, type LogRow } from "./storage.ts";

/** Rows per INSERT: 3 parameters each, well under PostgreSQL's 65,535 bind parameters. */
const MAX_ROWS = 500;
/** Bytes per INSERT, so a burst of large updates is not one huge statement. */
const MAX_BYTES = 8 * 1024 * 1024;
/**
 * How long the first update of a batch waits for others. 50 ms is under what a person notices
 * in a "saved" mark, and each INSERT then carries several editors' keystrokes: the database's
 * thread is woken about twenty times a second however many type (3b4c2e7 measured the change).
 */
export const GROUP_COMMIT_WINDOW_MS = 50;

type Waiting = { row: LogRow; resolve: (id: number) => void; reject: (err: unknown) => void };

export class UpdateLog {
  private readonly db: Db;
  private queue: Waiting[] = [];
  private draining = false;
  /** Mutable so tests can widen the window to watch an update before it is logged. */
  windowMs: number;

  constructor(db: Db, options: { windowMs?: number } = {}) {
    this.db = db;
    this.windowMs = options.windowMs ?? GROUP_COMMIT_WINDOW_MS;
  }

  /** Log one update; resolves with its row id once the INSERT holding it has committed. */
  append(row: LogRow): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      // setImmediate at least: every socket read of the same event-loop turn joins.
      if (this.windowMs > 0) setTimeout(() => void this.drain(), this.windowMs);
      else setImmediate(() => void this.drain());
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
