/**
 * Limits that keep one document or one client from hurting the others (numbers in
 * shared/src/live/protocol.ts LIVE_LIMITS, adjustable per service for tests):
 * - clients per document, and a much higher number per event channel: a connection beyond it
 *   is refused (`too-many-clients`);
 * - document size: an update that would grow the encoded state past the limit is refused
 *   before it is logged or applied, and that document's connection is closed
 *   (`document-too-large`); the document itself stays as it was;
 * - messages per second per WebSocket: a token bucket, checked by the socket glue
 *   (service.ts), which closes the WebSocket with `rate-limited` (4429).
 */
import type {
  afterLoadDocumentPayload,
  beforeHandleMessagePayload,
  Document,
  Extension,
  onConnectPayload,
} from "@hocuspocus/server";
import { LIVE_CHANNEL_KINDS, type LIVE_LIMITS, parseDocumentName } from "@tideline/shared";
import * as Y from "yjs";
import { type LiveContext, refusal } from "../context.ts";
import { isEmptyUpdate, yjsUpdateOf } from "../messages.ts";

export type LiveLimits = { -readonly [K in keyof typeof LIVE_LIMITS]: number };

export class Limits implements Extension<LiveContext> {
  extensionName = "tideline-limits";
  /** After authentication, before persistence: a refused update is never logged. */
  priority = 200;
  private readonly limits: LiveLimits;
  /** Encoded size per document, measured at load and grown by each accepted update (an upper bound). */
  private readonly sizes = new WeakMap<Document, number>();

  constructor(limits: LiveLimits) {
    this.limits = limits;
  }

  /** Refuse a connection to a document (or channel) that already has its maximum of clients. */
  async onConnect({ instance, documentName }: onConnectPayload<LiveContext>): Promise<void> {
    const open = instance.documents.get(documentName)?.getConnectionsCount() ?? 0;
    const kind = parseDocumentName(documentName)?.kind;
    const max =
      kind && LIVE_CHANNEL_KINDS.includes(kind) ? this.limits.maxClientsPerChannel : this.limits.maxClientsPerDocument;
    if (open >= max) throw refusal("tooManyClients");
  }

  async afterLoadDocument({ document }: afterLoadDocumentPayload<LiveContext>): Promise<void> {
    this.sizes.set(document, Y.encodeStateAsUpdate(document).byteLength);
  }

  /** Refuse an update that would make the document too large (throwing closes this document's connection). */
  async beforeHandleMessage({ document, connection, update: frame }: beforeHandleMessagePayload<LiveContext>) {
    if (connection.readOnly) return;
    const update = yjsUpdateOf(frame);
    if (!update || isEmptyUpdate(update)) return;
    const max = this.limits.maxDocumentBytes;
    let size = this.sizes.get(document) ?? 0;
    if (size + update.byteLength > max) {
      // The running total over-counts (updates overlap, deletions shrink): measure before refusing.
      size = Y.encodeStateAsUpdate(document).byteLength;
      if (size + update.byteLength > max) {
        this.sizes.set(document, size);
        throw refusal("documentTooLarge");
      }
    }
    this.sizes.set(document, size + update.byteLength);
  }
}

/**
 * A token bucket: `burst` messages at once, refilled at `perSecond` — the WebSocket's messages
 * (`messagesPerSecond`/`messageBurst`) or one connection's awareness updates
 * (`awarenessPerSecond`/`awarenessBurst`). Reads the limits on every take (tests lower them).
 */
export class MessageBucket {
  private tokens: number;
  private last = performance.now();
  private readonly rate: () => { perSecond: number; burst: number };

  constructor(limits: LiveLimits, kind: "messages" | "awareness" = "messages") {
    this.rate =
      kind === "messages"
        ? () => ({ perSecond: limits.messagesPerSecond, burst: limits.messageBurst })
        : () => ({ perSecond: limits.awarenessPerSecond, burst: limits.awarenessBurst });
    this.tokens = this.rate().burst;
  }

  /** Take one token; false when the client is over its rate. */
  take(): boolean {
    const now = performance.now();
    const { perSecond, burst } = this.rate();
    const refill = ((now - this.last) / 1000) * perSecond;
    this.tokens = Math.min(burst, this.tokens + refill);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
