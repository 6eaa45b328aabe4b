/**
 * Awareness (carets, selections) is client data relayed to everyone on a document, so the
 * server polices it:
 * - an update larger than `maxAwarenessBytes` closes that document's connection
 *   (`awareness-too-large`) before anything decodes it;
 * - read-only connections (guests on a page or work item, every event channel) share nothing:
 *   their awareness is dropped, so a reader never shows a caret;
 * - at most `awarenessPerSecond` updates per connection (burst `awarenessBurst`); the rest are
 *   dropped (the next one carries the latest state anyway);
 * - a connection may only speak for its own awareness clients (a Y.Doc each: at most
 *   MAX_CLIENTS_PER_CONNECTION), never for a client another connection announced;
 * - every identity field (PRESENCE_IDENTITY_FIELDS: `user` with id, name and colour, which
 *   tiptap's caret and the reference's editor read, and the top-level `name` and `color` other
 *   editors read) is overwritten with what the server knows of the account that authenticated
 *   the connection (shared/src/live/presence.ts), so a caret cannot claim another person's
 *   name in any of them.
 * Updates that come from another instance through Redis (no connection) were checked there.
 */
import type {
  beforeHandleAwarenessPayload,
  beforeHandleMessagePayload,
  Connection,
  Extension,
} from "@hocuspocus/server";
import { PRESENCE_IDENTITY_FIELDS, presenceIdentity } from "@tideline/shared";
import { authenticated, type LiveContext, refusal } from "../context.ts";
import { awarenessLengthOf } from "../messages.ts";
import { type LiveLimits, MessageBucket } from "./limits.ts";

/** Awareness clients one connection may announce (a provider announces one: its Y.Doc's). */
const MAX_CLIENTS_PER_CONNECTION = 4;

export class Presence implements Extension<LiveContext> {
  extensionName = "tideline-presence";
  /** After authentication, before limits and persistence: an oversized frame goes no further. */
  priority = 250;
  private readonly limits: LiveLimits;
  private readonly buckets = new WeakMap<Connection<LiveContext>, MessageBucket>();
  /** Told of every drop, with its reason (read-only, rate, foreign-client): counted by the service. */
  private readonly onDrop: (reason: string) => void;

  constructor(limits: LiveLimits, onDrop: (reason: string) => void = () => {}) {
    this.limits = limits;
    this.onDrop = onDrop;
  }

  /** Refuse an oversized awareness update before Hocuspocus decodes it. */
  async beforeHandleMessage({ update: frame }: beforeHandleMessagePayload<LiveContext>): Promise<void> {
    const length = awarenessLengthOf(frame);
    if (length !== null && length > this.limits.maxAwarenessBytes) throw refusal("awarenessTooLarge");
  }

  /** Drop what a connection may not share; stamp the rest with its real identity. */
  async beforeHandleAwareness({
    connection,
    context,
    document,
    states,
  }: beforeHandleAwarenessPayload<LiveContext>): Promise<void> {
    if (!connection) return;
    const auth = authenticated(context);
    if (!auth || connection.readOnly) {
      if (states.size > 0) this.onDrop("read-only");
      states.clear();
      return;
    }
    let bucket = this.buckets.get(connection);
    if (!bucket) {
      bucket = new MessageBucket(this.limits, "awareness");
      this.buckets.set(connection, bucket);
    }
    if (!bucket.take()) {
      this.onDrop("rate");
      states.clear();
      return;
    }
    const own = document.getClients(connection);
    let owned = own.size;
    const identity = presenceIdentity({
      id: auth.user.id,
      first_name: auth.user.firstName,
      last_name: auth.user.lastName,
      display_name: auth.user.displayName,
      email: auth.user.email,
    });
    for (const [clientId, state] of states) {
      if (!own.has(clientId)) {
        const elsewhere = document
          .getConnections()
          .some((other) => other !== connection && document.getClients(other).has(clientId));
        if (elsewhere || owned >= MAX_CLIENTS_PER_CONNECTION) {
          this.onDrop("foreign-client");
          states.delete(clientId);
          continue;
        }
        owned += 1;
      }
      if (state && typeof state === "object") {
        for (const field of PRESENCE_IDENTITY_FIELDS) {
          const value = identity[field];
          state[field] = typeof value === "object" ? { ...value } : value;
        }
      }
    }
  }
}
