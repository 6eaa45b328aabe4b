/**
 * Several instances behind one Redis (REDIS_URL):
 * - documents: @hocuspocus/extension-redis keeps a document loaded on several instances in sync;
 *   each instance stores what its own clients wrote (storage.ts merges under a row lock), so the
 *   extension's store lock is switched off (RedisDocuments);
 * - events: an event emitted on one instance is published on EVENTS_CHANNEL tagged with that
 *   instance's id; every other instance delivers it to its own connections (never into its own
 *   EventBus: webhooks, notifications and the REST reactions run once, where the event happened).
 *   Direct broadcasts (broadcastToUser / broadcastToProject) travel the same way.
 */
import { Redis as RedisExtension } from "@hocuspocus/extension-redis";
import type { DomainEvent } from "@tideline/shared";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";

export const EVENTS_CHANNEL = "tideline:live:events";
const PREFIX = "tideline:live";

type RelayMessage =
  | { origin: string; kind: "event"; event: DomainEvent }
  | { origin: string; kind: "broadcast"; document: string; payload: string };

export type EventRelayConfig = {
  url: string;
  instanceId: string;
  log: FastifyBaseLogger;
  onEvent: (event: DomainEvent) => void;
  onBroadcast: (documentName: string, payload: string) => void;
};

export class EventRelay {
  private readonly config: EventRelayConfig;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly ready: Promise<unknown>;

  constructor(config: EventRelayConfig) {
    this.config = config;
    this.pub = new Redis(config.url, { maxRetriesPerRequest: 3 });
    this.sub = new Redis(config.url);
    for (const client of [this.pub, this.sub]) {
      client.on("error", (err) => config.log.warn({ err }, "redis (live events) error"));
    }
    this.sub.on("message", (channel: string, message: string) => {
      if (channel === EVENTS_CHANNEL) this.receive(message);
    });
    this.ready = this.sub.subscribe(EVENTS_CHANNEL);
  }

  /** Resolves once this instance receives relayed events. */
  whenReady(): Promise<unknown> {
    return this.ready;
  }

  publishEvent(event: DomainEvent): void {
    this.publish({ origin: this.config.instanceId, kind: "event", event });
  }

  publishBroadcast(document: string, payload: string): void {
    this.publish({ origin: this.config.instanceId, kind: "broadcast", document, payload });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }

  private publish(message: RelayMessage): void {
    this.pub
      .publish(EVENTS_CHANNEL, JSON.stringify(message))
      .catch((err) => this.config.log.error({ err }, "could not relay a live event"));
  }

  private receive(raw: string): void {
    let message: RelayMessage;
    try {
      message = JSON.parse(raw) as RelayMessage;
    } catch {
      return;
    }
    // Our own message, back from Redis: already delivered here.
    if (message.origin === this.config.instanceId) return;
    if (message.kind === "event") this.config.onEvent(message.event);
    else if (message.kind === "broadcast") this.config.onBroadcast(message.document, message.payload);
  }
}

/**
 * The Hocuspocus Redis extension without its store lock. That lock lets one instance store a
 * document at a time and makes the others skip their store (SkipFurtherHooksError) without
 * retrying, assuming the winner holds everything. Ours does not need it and is hurt by it:
 * - storage.ts already serialises stores on the owner row (FOR UPDATE) and merges each
 *   instance's state into what is stored, so two instances storing the same document is safe;
 * - an instance only stores for its own clients' edits (Hocuspocus does not store on updates
 *   that came through Redis), so a skipped store left that instance's write-ahead log rows
 *   behind until the document was loaded again (debounced stores of a document edited on two
 *   instances collide every time: test/scale/two-instances.test.ts), and the winner may encode
 *   its state before the loser's last edits have crossed Redis, leaving them out of the stored
 *   HTML until then.
 */
class RedisDocuments extends RedisExtension {
  override async onStoreDocument(): Promise<void> {}
}

/** The Hocuspocus Redis extension for REDIS_URL (it ships its own Redis client: give it the parts). */
export function redisDocumentsExtension(url: string, instanceId: string): RedisExtension {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.replace(/^\//, "") || 0);
  return new RedisDocuments({
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    identifier: instanceId,
    prefix: PREFIX,
    options: {
      username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
      password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
      db: Number.isFinite(db) ? db : 0,
      ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
    },
  });
}
