/**
 * Domain events to the clients that should see them, and REST changes to live documents.
 *
 * Fan-out (every event, whichever instance emitted it):
 * - an event with a project goes to `project.{id}` as the stateless message
 *   `{ type: "event", event }` (protocol.ts), except `notification.*`, which is personal;
 *   a guest restricted to their own work items gets only those items' events;
 * - a notification or membership event also goes to `user.{recipient}` (eventRecipientId);
 * - events that change who may do what (page lock/archive/access/move/delete, membership,
 *   work item archive/delete) re-check the rights of every open connection they touch:
 *   connections that lost access are closed (`forbidden`), the others switch read-only on or off.
 * Delivery uses `relayStateless` (no `beforeBroadcastStateless` hook): with Redis, every
 * instance receives every event through the relay (redis-relay.ts) and delivers it to its own
 * connections, so the Redis extension must not forward it a second time.
 *
 * REST writes to live documents (only on the instance where they happened):
 * - a page body written over REST (routes/pages/document.ts already stored it) is applied to
 *   the loaded document, so connected editors see it;
 * - a work item description PATCHed over REST (the issues API stores the HTML and clears the
 *   Yjs state) replaces the loaded document's content as a diff (updateYFragment): connected
 *   editors keep their copy and converge, then the document is stored at once, which restores
 *   the state with the same generation. A document not loaded is rebuilt from the HTML on its
 *   next load (a new generation: offline copies get `document-reset`).
 * With Redis these open the document through a direct connection even when not loaded here,
 * so instances that hold it get the change through the Redis extension.
 */
import type { Connection, Document, Extension, Hocuspocus, onConfigurePayload } from "@hocuspocus/server";
import {
  type DomainEvent,
  encodeLiveEvent,
  eventRecipientId,
  issueDocumentName,
  LIVE_CLOSE,
  LIVE_MUTATION_PREFIX,
  pageDocumentName,
  parseDocumentName,
  projectChannelName,
  userChannelName,
} from "@tideline/shared";
import type { FastifyBaseLogger } from "fastify";
import * as Y from "yjs";
import type { Db } from "../../db/client.ts";
import { authenticated, type LiveContext } from "../context.ts";
import { documentRights } from "../documents.ts";
import { replaceWithHtml } from "../schema.ts";
import type { Persistence } from "./persistence.ts";

export type LiveEventsConfig = {
  db: Db;
  persistence: Persistence;
  /** True with Redis: documents may be loaded on other instances. */
  clustered: boolean;
  log: FastifyBaseLogger;
};

/** Origin of server-side changes to a document (REST writes applied live). */
const REST_ORIGIN = { source: "local" } as const;

/** Event types after which the rights of open connections are re-checked. */
const RIGHTS_EVENTS = /^(page\.|project\.member\.|project\.deleted$|issue\.(deleted|archived|restored)$)/;

export class LiveEvents implements Extension<LiveContext> {
  extensionName = "tideline-events";
  private instance: Hocuspocus<LiveContext> | null = null;
  private readonly config: LiveEventsConfig;

  constructor(config: LiveEventsConfig) {
    this.config = config;
  }

  async onConfigure({ instance }: onConfigurePayload): Promise<void> {
    this.instance = instance;
  }

  /** Send a stateless payload to the connections of one loaded document of this instance. */
  relay(documentName: string, payload: string, filter?: (connection: Connection<LiveContext>) => boolean): void {
    this.instance?.documents.get(documentName)?.relayStateless(payload, filter);
  }

  /** Deliver an event to this instance's connections (see the file comment). */
  deliver(event: DomainEvent): void {
    const payload = encodeLiveEvent(event);
    if (event.project_id && !event.type.startsWith("notification.")) {
      this.relay(projectChannelName(event.project_id), payload, (connection) => mayReceive(connection, event));
    }
    const recipient = eventRecipientId(event);
    if (recipient) this.relay(userChannelName(recipient), payload);
    // A store by the live layer itself changes content, never rights (and happens every few seconds).
    if (RIGHTS_EVENTS.test(event.type) && !event.client_mutation_id?.startsWith(LIVE_MUTATION_PREFIX)) {
      this.recheckRights(event).catch((err) =>
        this.config.log.error({ err, type: event.type }, "live rights re-check failed"),
      );
    }
  }

  /** React to an event emitted on this instance (REST changes to live documents). */
  async handleLocal(event: DomainEvent): Promise<void> {
    if (
      event.type === "issue.updated" &&
      !event.client_mutation_id?.startsWith(LIVE_MUTATION_PREFIX) &&
      changedFields(event).includes("description_html") &&
      typeof event.data.description_html === "string"
    ) {
      await this.replaceDescription(issueDocumentName(event.entity_id), event.data.description_html);
    }
  }

  /** A page body written over REST (already stored): show it in the loaded document. */
  async applyPageUpdate(pageId: string, update: Uint8Array): Promise<void> {
    await this.withDocument(pageDocumentName(pageId), async (document) => {
      Y.applyUpdate(document, update, REST_ORIGIN);
    });
  }

  private async replaceDescription(documentName: string, html: string): Promise<void> {
    await this.withDocument(documentName, async (document) => {
      replaceWithHtml(document, html, REST_ORIGIN);
      // The issues API cleared the stored state: write this one (same generation) back now.
      await this.config.persistence.storeNow(document, { force: true });
    });
  }

  /** Run `work` on the document if this instance has it loaded, or (clustered) through a direct connection. */
  private async withDocument(name: string, work: (document: Document) => Promise<void>): Promise<void> {
    const instance = this.instance;
    if (!instance) return;
    const loaded = instance.documents.get(name);
    if (loaded && !loaded.isDestroyed) {
      await work(loaded);
      return;
    }
    if (!this.config.clustered) return;
    const direct = await instance.openDirectConnection(name);
    try {
      if (direct.document) await work(direct.document);
    } finally {
      await direct.disconnect();
    }
  }

  /** Re-evaluate every connection of the documents an event may have changed rights on. */
  private async recheckRights(event: DomainEvent): Promise<void> {
    const instance = this.instance;
    if (!instance) return;
    for (const document of [...instance.documents.values()]) {
      const ref = parseDocumentName(document.name);
      if (!ref) continue;
      const touched =
        event.type.startsWith("page.") || event.type.startsWith("issue.")
          ? ref.id === event.entity_id
          : event.project_id !== null &&
            document
              .getConnections()
              .some((c) => authenticated(c.context)?.rights.projectIds.includes(event.project_id as string));
      if (!touched) continue;
      for (const connection of document.getConnections()) {
        const auth = authenticated(connection.context);
        if (!auth) continue;
        const rights = await documentRights(this.config.db, auth.user.id, ref);
        if (!rights) {
          connection.close({ code: LIVE_CLOSE.forbidden.code, reason: LIVE_CLOSE.forbidden.reason });
          continue;
        }
        auth.rights = rights;
        // Hocuspocus reads this on every message: later updates are applied or refused accordingly.
        connection.readOnly = rights.readOnly;
      }
    }
  }
}

function changedFields(event: DomainEvent): string[] {
  const value = event.data.changed_fields;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * A restricted guest sees only the work items they created: events about other items (and
 * their comments, links… whose item we can't check cheaply here) are not sent to them.
 */
function mayReceive(connection: Connection<LiveContext>, event: DomainEvent): boolean {
  const auth = authenticated(connection.context);
  if (!auth) return false;
  if (!auth.rights.ownItemsOnly) return true;
  if (event.type.startsWith("issue.")) return event.data.created_by === auth.user.id;
  return !/^(comment|reaction|relation|link|attachment|subscription)\./.test(event.type);
}
