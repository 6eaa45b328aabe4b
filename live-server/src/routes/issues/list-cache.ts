/**
 * Answers of the work-item list, shared by everyone who asks the same way until their workspace
 * changes. Ten members on one board asked the database for the same grouped list ten times over
 * (a grouped count and page over every item of the project, each time); now the first answer
 * serves the others until a change.
 *
 * - The key is the list's whole question: its SQL conditions as sent (project, archived, the
 *   guest rule — a restricted guest's own id is in it —, filters), grouping, order and page.
 *   Callers check access first and pass only answers that hold nothing of the caller's own.
 * - Invalidation is by generation: every domain event of a workspace (published after its
 *   commit, before the change's own answer is sent) moves the workspace's generation on and
 *   drops its answers. An answer is kept only under the generation read before it was computed,
 *   so one whose reads began before a change committed is never served after it.
 * - Identical questions asked while one is being computed wait for it, under the same rule.
 * - Bounded: at most MAX_ENTRIES answers and `maxItems` work items across them (LIST_CACHE_ITEMS,
 *   20,000 by default: some 15 MB), the least recently used going first; 0 keeps nothing.
 * - With several instances each keeps its own; the events other instances relay (live/redis.ts)
 *   move generations here too, as they reach the live layer — a change made on another instance
 *   shows in this one's lists when its live update does.
 */
import type { DomainEvent } from "@tideline/shared";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

const MAX_ENTRIES = 500;

type Entry<T> = { workspaceId: string; generation: number; value: T; items: number };

const dialect = new PgDialect();

/** A list's question as a string: the SQL of its conditions with their values, and the rest. */
export function listCacheKey(where: SQL, rest: Record<string, unknown>): string {
  const query = dialect.sqlToQuery(where);
  return JSON.stringify([query.sql, query.params, rest]);
}

export class ListCache<T> {
  private readonly generations = new Map<string, number>();
  /** Insertion order is recency: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Entry<T>>();
  private readonly computing = new Map<string, { generation: number; answer: Promise<T> }>();
  private items = 0;
  private readonly itemsOf: (value: T) => number;
  private readonly maxItems: number;
  /** Hits and misses since start, for the benchmarks and tests. */
  readonly stats = { hits: 0, misses: 0, joined: 0 };

  constructor(itemsOf: (value: T) => number, maxItems = 20_000) {
    this.itemsOf = itemsOf;
    this.maxItems = maxItems;
  }

  /** A change in `workspaceId` committed: its answers are out of date. */
  changed(workspaceId: string): void {
    this.generations.set(workspaceId, this.generation(workspaceId) + 1);
    for (const [key, entry] of this.entries) {
      if (entry.workspaceId === workspaceId) this.drop(key, entry);
    }
  }

  /** Feed it the domain events (local and relayed): each moves its workspace's generation on. */
  onEvent(event: DomainEvent): void {
    if (event.workspace_id) this.changed(event.workspace_id);
  }

  /** The answer to `key` in `workspaceId`: the kept one while nothing changed, else `compute`'s. */
  async get(workspaceId: string, key: string, compute: () => Promise<T>): Promise<T> {
    if (this.maxItems === 0) return compute();
    const generation = this.generation(workspaceId);
    const kept = this.entries.get(key);
    if (kept && kept.generation === generation) {
      this.entries.delete(key);
      this.entries.set(key, kept);
      this.stats.hits++;
      return kept.value;
    }
    const running = this.computing.get(key);
    if (running && running.generation === generation) {
      this.stats.joined++;
      return running.answer;
    }
    this.stats.misses++;
    const answer = compute();
    const run = { generation, answer };
    this.computing.set(key, run);
    try {
      const value = await answer;
      // Kept only if no change committed since the generation was read.
      if (this.generation(workspaceId) === generation) this.keep(key, { workspaceId, generation, value, items: 0 });
      return value;
    } finally {
      if (this.computing.get(key) === run) this.computing.delete(key);
    }
  }

  /** How many answers and items are kept now. */
  size(): { entries: number; items: number } {
    return { entries: this.entries.size, items: this.items };
  }

  private generation(workspaceId: string): number {
    return this.generations.get(workspaceId) ?? 0;
  }

  private keep(key: string, entry: Entry<T>): void {
    const items = this.itemsOf(entry.value);
    if (items > this.maxItems) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    entry.items = items;
    this.entries.set(key, entry);
    this.items += items;
    for (const [oldest, first] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.items <= this.maxItems) break;
      this.drop(oldest, first);
    }
  }

  private drop(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.items -= entry.items;
  }
}
