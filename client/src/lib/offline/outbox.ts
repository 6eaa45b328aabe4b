/**
 * The outbox: changes made while offline (or whose request got no answer) kept in IndexedDB, in
 * order, and sent in that order when the network is back, each with the client mutation id it
 * was first given — the server applies an id once (live-server/src/services/client-mutations.ts),
 * so a replay of a change that did reach it changes nothing.
 *
 * This module knows requests, not domains: a store queues an entry of a `kind` and registers
 * that kind's handlers — what to do with the server's answer, how to take the change back off
 * the screen when the server refuses it, how to show it again after a reload. One database per
 * user (`tideline:outbox:{userId}`), deleted on sign-out. README.md next to this file.
 */
import { deleteDB, type IDBPDatabase, openDB } from "idb";
import { HTTPError, NetworkError, TimeoutError } from "ky";

export type OutboxMethod = "POST" | "PATCH";

export type OutboxEntry = {
  /** Position in the queue (IndexedDB's key generator: strictly increasing). */
  seq: number;
  /** The x-client-mutation-id, the same on every attempt. */
  mutationId: string;
  /** Which handlers own it, e.g. "work-item.update". */
  kind: string;
  method: OutboxMethod;
  /** The request path; a temp id in it is replaced once its create has an answer. */
  url: string;
  body: Record<string, unknown>;
  /** The object it changes (a work item id; a temp id for an item created offline). */
  target: string;
  /** Names the change in the toast when the server refuses it: "Rename 'Old name'". */
  label: string;
  /** Whatever the kind's handlers need to undo or re-show the change (values before, the shown object). */
  data: Record<string, unknown>;
  attempts: number;
  createdAt: string;
};

export type NewOutboxEntry = Omit<OutboxEntry, "seq" | "attempts" | "createdAt">;

export type OutboxHandlers = {
  /** The server applied it (or had already): adopt its answer. */
  applied: (entry: OutboxEntry, answer: unknown) => void;
  /** The server refused it: take it back off the screen and say so. */
  refused: (entry: OutboxEntry, error: unknown) => void | Promise<void>;
  /** After a reload: show the waiting change again. */
  restored?: (entry: OutboxEntry) => void;
};

/** Sends one entry; resolves to the parsed answer (null for an empty one). */
export type OutboxSend = (entry: OutboxEntry) => Promise<unknown>;

/** After this many server errors (5xx) in a row an entry counts as refused, so one can't block the queue forever. */
const MAX_SERVER_ERRORS = 3;
const RETRY_DELAYS_MS = [2_000, 10_000, 30_000];

/** No answer at all: the change may or may not have reached the server; try again later with the same id. */
export function isNoAnswer(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof TimeoutError || error instanceof TypeError;
}

/** An answer that says "not now" rather than "no": worth another try. */
function isTransient(error: unknown): boolean {
  if (isNoAnswer(error)) return true;
  return error instanceof HTTPError && [408, 429, 502, 503, 504].includes(error.response.status);
}

type Schema = {
  entries: { key: number; value: OutboxEntry };
};

/** "tideline:" like the editors' copies, so sign-out's sweep of them (stores/session.ts) finds it too. */
export const outboxDatabaseName = (userId: string) => `tideline:outbox:${userId}`;

export class Outbox {
  private db: IDBPDatabase<Schema> | null = null;
  private userId: string | null = null;
  private entries: OutboxEntry[] = [];
  private readonly handlers = new Map<string, OutboxHandlers>();
  private flushing: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<(entries: readonly OutboxEntry[]) => void>();
  /** Entries queued before the database is open (the first moments of a page load). */
  private opening: Promise<void> | null = null;
  private send: OutboxSend;
  private isOnline: () => boolean;

  constructor(options: { send: OutboxSend; isOnline?: () => boolean }) {
    this.send = options.send;
    this.isOnline = options.isOnline ?? (() => typeof navigator === "undefined" || navigator.onLine !== false);
  }

  /** Another transport and network check (the stores' tests give a stand-in server). */
  connect(options: { send: OutboxSend; isOnline: () => boolean }): void {
    this.send = options.send;
    this.isOnline = options.isOnline;
  }

  register(kind: string, handlers: OutboxHandlers): void {
    this.handlers.set(kind, handlers);
  }

  /** Called with the waiting entries whenever they change (the "waiting to sync" marks). */
  subscribe(listener: (entries: readonly OutboxEntry[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get waiting(): readonly OutboxEntry[] {
    return this.entries;
  }

  /** Does anything wait? Then a new change queues behind it, so order holds. */
  get busy(): boolean {
    return this.entries.length > 0;
  }

  /** Should a new change skip the network and wait here? */
  shouldQueue(): boolean {
    return this.busy || !this.isOnline();
  }

  /**
   * Open the signed-in user's outbox, show its waiting changes again (restored handlers, in
   * order) and send them. Opening another user's outbox first closes the previous one.
   */
  start(userId: string): Promise<void> {
    if (this.userId === userId && this.opening) return this.opening;
    // Another user's outbox closes (its changes are not this one's); changes queued before any
    // outbox opened are this page's and stay.
    if (this.userId) this.close();
    this.userId = userId;
    this.opening = (async () => {
      const db = await openDB<Schema>(outboxDatabaseName(userId), 1, {
        upgrade(database) {
          database.createObjectStore("entries", { keyPath: "seq", autoIncrement: true });
        },
      });
      if (this.userId !== userId) {
        db.close();
        return;
      }
      this.db = db;
      const stored = (await db.getAll("entries")).sort((a, b) => a.seq - b.seq);
      for (const entry of stored) this.handlers.get(entry.kind)?.restored?.(entry);
      // Entries queued in this page before the database opened come after the stored ones.
      const early = this.entries.filter((e) => !e.seq);
      this.entries = [...stored, ...early];
      for (const entry of early) this.write(entry);
      await this.writes;
      this.notify();
      void this.flush();
    })();
    return this.opening;
  }

  /** Forget the open database in memory (another user signs in, a test's reload). */
  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.db?.close();
    this.db = null;
    this.userId = null;
    this.opening = null;
    this.entries = [];
    this.writes = Promise.resolve();
    this.notify();
  }

  /** Sign-out: the user's waiting changes go with their other local data. */
  async forget(): Promise<void> {
    const userId = this.userId;
    this.close();
    if (userId) await deleteDB(outboxDatabaseName(userId)).catch(() => undefined);
  }

  /** Queue a change (already shown optimistically) and send it when possible. */
  async enqueue(input: NewOutboxEntry): Promise<OutboxEntry> {
    const entry: OutboxEntry = { ...input, seq: 0, attempts: 0, createdAt: new Date().toISOString() };
    this.entries.push(entry);
    this.notify();
    if (this.db) this.write(entry);
    await this.writes;
    void this.flush();
    return entry;
  }

  /** Writes run one after another, in queue order; sending waits for them (no entry leaves unsaved). */
  private writes: Promise<void> = Promise.resolve();

  private write(entry: OutboxEntry): void {
    const db = this.db;
    if (!db) return;
    this.writes = this.writes
      .then(async () => {
        const { seq: _unassigned, ...rest } = entry;
        // Stored without its seq so IndexedDB hands out the next one, which keeps the queue order.
        entry.seq = (await db.add("entries", rest as OutboxEntry)) as number;
      })
      .catch(() => {
        // IndexedDB refused (quota, private mode): the entry still waits in memory for this page.
      });
  }

  private async remove(entry: OutboxEntry): Promise<void> {
    this.entries = this.entries.filter((e) => e !== entry);
    this.notify();
    await this.writes;
    if (this.db && entry.seq) await this.db.delete("entries", entry.seq);
  }

  private async save(entry: OutboxEntry): Promise<void> {
    await this.writes;
    if (this.db && entry.seq) await this.db.put("entries", entry);
  }

  /**
   * A create got its real id: later entries about the temp id (its edits, its moves) now name
   * the real one, in memory and on disk. Returns the entries that changed.
   */
  async retarget(tempId: string, realId: string): Promise<OutboxEntry[]> {
    const changed: OutboxEntry[] = [];
    for (const entry of this.entries) {
      if (entry.target !== tempId && !entry.url.includes(tempId)) continue;
      if (entry.target === tempId) entry.target = realId;
      entry.url = entry.url.split(tempId).join(realId);
      changed.push(entry);
      await this.save(entry);
    }
    if (changed.length) this.notify();
    return changed;
  }

  /** Drop the waiting entries about `target` (its create was refused: they can't apply). */
  async discard(target: string): Promise<OutboxEntry[]> {
    const gone = this.entries.filter((e) => e.target === target);
    for (const entry of gone) await this.remove(entry);
    return gone;
  }

  /**
   * Send the waiting entries in order, one at a time. Stops at the first one that got no answer
   * (offline again) and tries again later; a refused one is rolled back by its handlers and the
   * queue goes on.
   */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (!this.entries.length || !this.isOnline()) return Promise.resolve();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    if (this.opening) await this.opening.catch(() => undefined);
    while (this.entries.length) {
      await this.writes;
      const entry = this.entries[0];
      if (!entry) break;
      const handlers = this.handlers.get(entry.kind);
      let answer: unknown;
      try {
        answer = await this.send(entry);
      } catch (error) {
        if (isTransient(error) || (error instanceof HTTPError && error.response.status >= 500)) {
          const serverError = !isNoAnswer(error);
          if (serverError) entry.attempts += 1;
          if (!serverError || entry.attempts < MAX_SERVER_ERRORS) {
            await this.save(entry);
            this.scheduleRetry(entry.attempts);
            return;
          }
        }
        await this.remove(entry);
        await handlers?.refused(entry, error);
        continue;
      }
      await this.remove(entry);
      handlers?.applied(entry, answer);
    }
  }

  private scheduleRetry(attempts: number): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length - 1)] as number;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.flush();
    }, delay);
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.entries);
  }
}
