/**
 * The live layer: one Hocuspocus inside the Fastify process, wired from one extension class per
 * concern (extensions/): authentication, limits, persistence, domain events, metrics, and with
 * REDIS_URL the Redis extension plus an event relay. routes.ts feeds it the WebSockets of
 * GET /live; the rest of the server reaches it as `app.ctx.live`.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { type Extension, Hocuspocus } from "@hocuspocus/server";
import {
  type DomainEvent,
  LIVE_CLOSE,
  LIVE_LIMITS,
  type LiveStatelessMessage,
  projectChannelName,
  userChannelName,
} from "@tideline/shared";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { RawData, WebSocket } from "ws";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { EventBus } from "../events/bus.ts";
import { onPageContentChange } from "../routes/pages/document.ts";
import { CollaborationSocket, collaborationScopeOf, toServerFrame } from "./collaboration.ts";
import type { LiveContext } from "./context.ts";
import { Authentication } from "./extensions/authentication.ts";
import { LiveEvents } from "./extensions/events.ts";
import { Limits, type LiveLimits, MessageBucket } from "./extensions/limits.ts";
import { type LiveMetricsSnapshot, Metrics } from "./extensions/metrics.ts";
import { Persistence } from "./extensions/persistence.ts";
import { Presence } from "./extensions/presence.ts";
import type { EventRelay } from "./redis.ts";

const require = createRequire(import.meta.url);
/** Redis (ioredis, the Hocuspocus extension) is loaded only when REDIS_URL is set: a faster start without it. */
const redisModule = (): typeof import("./redis.ts") => require("./redis.ts");

import { RightsWatch } from "./rights-watch.ts";

export type LiveServiceOptions = {
  db: Db;
  events: EventBus;
  config: Pick<Config, "trustedOrigins" | "redisUrl">;
  log: FastifyBaseLogger;
  /** Debounce of stores while a document is edited (ms); Hocuspocus stores at once when the last client leaves. */
  storeDebounceMs?: number;
  storeMaxDebounceMs?: number;
};

/** How long close() waits for sockets to finish their closing handshake before cutting them. */
const CLOSE_GRACE_MS = 1000;

export class LiveService {
  readonly instanceId = randomUUID();
  readonly hocuspocus: Hocuspocus<LiveContext>;
  /** The limits in force; tests lower them. */
  readonly limits: LiveLimits = { ...LIVE_LIMITS };
  /** Awareness updates (or states in them) dropped by the Presence extension, by reason. */
  readonly awarenessDrops: Record<string, number> = {};
  readonly persistence: Persistence;
  private readonly liveEvents: LiveEvents;
  private readonly metricsExtension: Metrics;
  private readonly relay: EventRelay | null;
  private readonly sockets = new Set<WebSocket>();
  private readonly unsubscribers: (() => void)[] = [];
  private readonly log: FastifyBaseLogger;
  private readonly trustedOrigins: ReadonlySet<string>;
  private closing: Promise<void> | null = null;

  constructor(options: LiveServiceOptions) {
    const { db, events, config, log } = options;
    this.log = log;
    this.trustedOrigins = config.trustedOrigins;
    this.metricsExtension = new Metrics(this.instanceId);
    this.persistence = new Persistence({ db, events, instanceId: this.instanceId, log });
    const watch = new RightsWatch();
    this.liveEvents = new LiveEvents({
      db,
      persistence: this.persistence,
      clustered: Boolean(config.redisUrl),
      watch,
      log,
    });
    const extensions: Extension[] = [
      this.metricsExtension,
      new Authentication({ db, watch, onRefused: () => this.metricsExtension.countRefusal() }),
      new Presence(this.limits, (reason) => {
        this.awarenessDrops[reason] = (this.awarenessDrops[reason] ?? 0) + 1;
      }),
      new Limits(this.limits),
      this.persistence,
      this.liveEvents,
    ];
    if (config.redisUrl) extensions.push(redisModule().redisDocumentsExtension(config.redisUrl, this.instanceId));
    this.hocuspocus = new Hocuspocus<LiveContext>({
      name: `tideline-${this.instanceId}`,
      quiet: true,
      debounce: options.storeDebounceMs ?? 2000,
      maxDebounce: options.storeMaxDebounceMs ?? 10_000,
      maxPendingDocuments: this.limits.maxPendingDocuments,
      extensions,
    });

    this.relay = config.redisUrl
      ? new (redisModule().EventRelay)({
          url: config.redisUrl,
          instanceId: this.instanceId,
          log,
          onEvent: (event) => {
            this.liveEvents.deliver(event);
            events.deliverRelayed(event);
          },
          onBroadcast: (document, payload) => this.liveEvents.relay(document, payload),
        })
      : null;

    this.unsubscribers.push(
      events.subscribe((event) => this.onLocalEvent(event)),
      onPageContentChange(events, (pageId, update) => this.liveEvents.applyPageUpdate(pageId, update)),
    );
  }

  /** Resolves once the service is ready to relay events between instances (immediately without Redis). */
  async ready(): Promise<void> {
    await this.relay?.whenReady();
  }

  /** An event emitted by this instance: deliver it here, relay it to the others, react to REST changes. */
  private async onLocalEvent(event: DomainEvent): Promise<void> {
    this.liveEvents.deliver(event);
    this.relay?.publishEvent(event);
    await this.liveEvents.handleLocal(event);
  }

  /** Send a stateless message to every tab of `userId` (on `user.{id}`), on every instance. */
  broadcastToUser(userId: string, payload: LiveStatelessMessage | string): void {
    this.broadcast(userChannelName(userId), payload);
  }

  /** Send a stateless message to every member listening on `project.{id}`, on every instance. */
  broadcastToProject(projectId: string, payload: LiveStatelessMessage | string): void {
    this.broadcast(projectChannelName(projectId), payload);
  }

  private broadcast(documentName: string, payload: LiveStatelessMessage | string): void {
    const text = typeof payload === "string" ? payload : JSON.stringify(payload);
    this.liveEvents.relay(documentName, text);
    this.relay?.publishBroadcast(documentName, text);
  }

  metrics(): LiveMetricsSnapshot {
    return this.metricsExtension.snapshot();
  }

  /**
   * Serve one WebSocket of GET /live: every document the tab opens is multiplexed over it.
   * Messages beyond the rate limit close the socket with `rate-limited`. With `collaboration`,
   * a socket of GET /live/collaboration (the reference's page editor, collaboration.ts): its
   * document names are page ids, translated to and from `page.{id}` on the way in and out.
   */
  handleSocket(socket: WebSocket, request: FastifyRequest, options: { collaboration?: boolean } = {}): void {
    if (this.closing) {
      socket.close(1012, "server restarting");
      return;
    }
    const headers = new Headers();
    for (const [key, value] of Object.entries(request.headers)) {
      if (typeof value === "string") headers.set(key, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    }
    const url = `${request.protocol}://${request.headers.host ?? "localhost"}${request.url}`;
    const context: LiveContext = { allowedOrigins: this.trustedOrigins };
    const collaboration = options.collaboration === true;
    if (collaboration) context.collaboration = collaborationScopeOf(new URL(url).searchParams);
    const connection = this.hocuspocus.handleConnection(
      collaboration ? new CollaborationSocket(socket) : socket,
      new Request(url, { headers }),
      context,
    );
    const bucket = new MessageBucket(this.limits);
    let limited = false;
    this.sockets.add(socket);

    socket.on("message", (data: RawData) => {
      if (limited) return;
      if (!bucket.take()) {
        limited = true;
        socket.close(LIVE_CLOSE.rateLimited.code, LIVE_CLOSE.rateLimited.reason);
        return;
      }
      const frame = toBytes(data);
      if (!collaboration) {
        connection.handleMessage(frame);
        return;
      }
      let translated: Uint8Array;
      try {
        translated = toServerFrame(frame);
      } catch {
        // Not a Hocuspocus frame at all: what Hocuspocus does with one it can't read.
        socket.close(1003, "unreadable message");
        return;
      }
      connection.handleMessage(translated);
    });
    socket.on("close", (code: number, reason: Buffer) => {
      this.sockets.delete(socket);
      connection.handleClose({ code, reason: reason.toString() });
    });
    socket.on("error", (err) => this.log.debug({ err }, "live socket error"));
  }

  /**
   * Stop: store every document now, close the sockets, wait for documents to unload. Called
   * before the database closes (preClose); safe to call twice.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    await this.flushStores();
    for (const socket of this.sockets) socket.close(1012, "server restarting");
    await waitUntil(() => this.sockets.size === 0, CLOSE_GRACE_MS);
    for (const socket of this.sockets) socket.terminate();
    await waitUntil(() => this.hocuspocus.documents.size === 0 && this.hocuspocus.unloadingDocuments.size === 0, 5000);
    await this.flushStores();
    await this.hocuspocus.hooks("onDestroy", { instance: this.hocuspocus });
    await this.relay?.close();
  }

  /** Run every pending store now and wait for running ones. */
  private async flushStores(): Promise<void> {
    const { debouncer } = this.hocuspocus;
    await Promise.all(
      [...this.hocuspocus.documents.values()].map(async (document) => {
        const id = `onStoreDocument-${document.name}`;
        if (debouncer.isDebounced(id)) await debouncer.executeNow(id);
        await document.saveMutex.waitForUnlock();
      }),
    );
  }
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
