/**
 * In-process domain event bus. Services collect events while their transaction runs and
 * publish them only after it commits (see `transactionWithEvents`), so no subscriber ever
 * sees a change that was rolled back. With several instances, a Redis relay (live layer)
 * subscribes here and re-publishes what other instances emit.
 */
import { randomUUID } from "node:crypto";
import { CLIENT_MUTATION_HEADER, type DomainEvent, type DomainEventType } from "@tideline/shared";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { Db, Tx } from "../db/client.ts";

export type EventListener = (event: DomainEvent) => void | Promise<void>;

/**
 * Runs inside a transactionWithEvents transaction, just before it commits, with the events it
 * emitted: what it writes commits or rolls back with the change (the webhooks' outbox turns
 * events into delivery jobs here, so none is lost if the process stops after the commit).
 */
export type CommitHook = (tx: Tx, events: readonly DomainEvent[]) => Promise<void>;

export class EventBus {
  private readonly listeners = new Set<EventListener>();
  private readonly commitHooks = new Set<CommitHook>();
  private readonly relayedListeners = new Set<(event: DomainEvent) => void>();
  private readonly log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.log = log;
  }

  /** Listen to every event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Listen to the events other instances emitted, as the Redis relay (live/redis.ts) hears them —
   * for caches of this instance that must forget what another one changed. `subscribe` hears
   * only this instance's own events (each consumer of those runs once, where the change was made).
   */
  subscribeRelayed(listener: (event: DomainEvent) => void): () => void {
    this.relayedListeners.add(listener);
    return () => this.relayedListeners.delete(listener);
  }

  /** An event another instance emitted, relayed here (live/service.ts). */
  deliverRelayed(event: DomainEvent): void {
    for (const listener of this.relayedListeners) {
      try {
        listener(event);
      } catch (err) {
        this.log.error({ err, type: event.type }, "relayed event listener failed");
      }
    }
  }

  /** Run `hook` in every transactionWithEvents before it commits; returns the removal function. */
  onBeforeCommit(hook: CommitHook): () => void {
    this.commitHooks.add(hook);
    return () => this.commitHooks.delete(hook);
  }

  /** The commit hooks, in the transaction (an error rolls the change back). */
  async runCommitHooks(tx: Tx, events: readonly DomainEvent[]): Promise<void> {
    if (!events.length) return;
    for (const hook of this.commitHooks) await hook(tx, events);
  }

  /** Deliver to every listener; one failing listener never stops the others. */
  publish(events: readonly DomainEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          const result = listener(event);
          if (result instanceof Promise)
            result.catch((err) => this.log.error({ err, type: event.type }, "event listener failed"));
        } catch (err) {
          this.log.error({ err, type: event.type }, "event listener failed");
        }
      }
    }
  }
}

/** Who caused a change: the signed-in user and the client mutation id they sent, if any. */
export type EventOrigin = { actorId: string | null; clientMutationId: string | null };

export function eventOrigin(request: FastifyRequest): EventOrigin {
  const raw = request.headers[CLIENT_MUTATION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return {
    actorId: request.user?.id ?? null,
    clientMutationId: value && value.length <= 100 ? value : null,
  };
}

export type EmitFn = (
  type: DomainEventType,
  scope: { workspaceId: string | null; projectId: string | null; entityId: string },
  data: Record<string, unknown>,
) => void;

/**
 * Run `work` in a transaction; events it emits are published after the commit, and dropped
 * if the transaction fails.
 */
export async function transactionWithEvents<T>(
  db: Db,
  bus: EventBus,
  origin: EventOrigin,
  work: (tx: Tx, emit: EmitFn) => Promise<T>,
): Promise<T> {
  const pending: DomainEvent[] = [];
  const emit: EmitFn = (type, scope, data) => {
    pending.push({
      id: randomUUID(),
      type,
      workspace_id: scope.workspaceId,
      project_id: scope.projectId,
      entity_id: scope.entityId,
      actor_id: origin.actorId,
      client_mutation_id: origin.clientMutationId,
      occurred_at: new Date().toISOString(),
      data,
    });
  };
  const result = await db.transaction(async (tx) => {
    const value = await work(tx, emit);
    await runBeforeCommit(emit, tx);
    await bus.runCommitHooks(tx, pending);
    return value;
  });
  bus.publish(pending);
  return result;
}

type Finalizer = (tx: Tx, emit: EmitFn) => Promise<void>;
const finalizers = new WeakMap<EmitFn, Map<string, Finalizer>>();

/**
 * Run `work` once, at the end of the transaction that owns `emit`, before it commits: several
 * changes touching the same thing (work items of one cycle moved in bulk) schedule one
 * follow-up under the same `key` (e.g. one cycle.updated with fresh counters). Outside a
 * transactionWithEvents the work never runs.
 */
export function beforeCommit(emit: EmitFn, key: string, work: Finalizer): void {
  let map = finalizers.get(emit);
  if (!map) {
    map = new Map();
    finalizers.set(emit, map);
  }
  if (!map.has(key)) map.set(key, work);
}

async function runBeforeCommit(emit: EmitFn, tx: Tx): Promise<void> {
  const map = finalizers.get(emit);
  if (!map) return;
  // A finalizer may schedule others: drain until none is left.
  while (map.size) {
    const [key, work] = map.entries().next().value as [string, Finalizer];
    map.delete(key);
    await work(tx, emit);
  }
}
