/**
 * Domain events to the clients that should see them, and REST changes to live documents.
 *
 * Fan-out (every event, whichever instance emitted it):
 * - an event with a project goes to `project.{id}` as the stateless message
 *   `{ type: "event", event }` (protocol.ts), except personal events (isPersonalEvent:
 *   `notification.*`, `sticky.*`, `favorite.*`, `quick_link.*`, `home_preference.*`,
 *   `sidebar_preference.*`);
 *   a guest restricted to their own work items gets only those items' events, and cycle.* /
 *   module.* without their counts (counters, assignee ids, snapshot: everyone's items; the
 *   guest's own come from the REST reads and their local copy);
 * - an event of a workspace outside any project (today: view.* of workspace views, and
 *   workspace.member.*) goes to `workspace.{id}`, except personal events; a private view's
 *   events (access 0) reach only its owner's connections there (mayReceiveInWorkspace);
 * - a personal or membership event also goes to `user.{recipient}` (eventRecipientId);
 * - a page's lock, archive or access change goes to that page's document as the plain notice
 *   the reference's editor expects (`locked`, `archived`, `made-private`…), to its
 *   /live/collaboration connections opened for the event's project (collaboration.ts).
 *
 * Revocation (rights-watch.ts says which events touch which connections):
 * - `session.revoked` closes, at once, every WebSocket one of the ended sessions authenticated
 *   (each document with `unauthorized`, then the socket with 4401);
 * - a membership or role change re-checks every open connection of that person, on every
 *   document; workspace or project deletion, the project's guest setting, and page / work item
 *   access changes re-check the connections they touch. A connection that lost access is closed
 *   (`forbidden`); one whose write access changed switches read-only at once (nothing it sends
 *   afterwards is applied; its carets are removed) and its document is closed with
 *   `access-changed`, so the client authenticates again and learns its new scope; a project
 *   channel gets the new guest restriction (mayReceive) and, when that changed, is closed
 *   `access-changed` as well (the client's catch-up then runs under the new filter).
 * Re-checks run one after another (a later change is never overtaken by an earlier one), and a
 * connection set up while a change was being heard is checked once more (`connected`).
 * Delivery is Hocuspocus' `relayStateless` (no `beforeBroadcastStateless` hook), encoded once per
 * event rather than per socket (stateless.ts): with Redis, every
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
import type {
  Connection,
  connectedPayload,
  Document,
  Extension,
  Hocuspocus,
  onConfigurePayload,
  onDisconnectPayload,
} from "@hocuspocus/server";
import {
  type DomainEvent,
  EMPTY_PROGRESS_COUNTERS,
  encodeLiveEvent,
  eventRecipientId,
  isPersonalEvent,
  issueDocumentName,
  LIVE_MUTATION_PREFIX,
  pageDocumentName,
  projectChannelName,
  userChannelName,
  workspaceChannelName,
} from "@tideline/shared";
import type { FastifyBaseLogger } from "fastify";
import { removeAwarenessStates } from "y-protocols/awareness";
import * as Y from "yjs";
import type { Db } from "../../db/client.ts";
import { collaborationNoticeFor } from "../collaboration.ts";
import { type AuthenticatedContext, authenticated, type LiveContext, refusal } from "../context.ts";
import { connectionRights, type DocumentRights } from "../documents.ts";
import { type RightsScope, type RightsWatch, rightsScope } from "../rights-watch.ts";
import { replaceWithHtml } from "../schema.ts";
import { relayStatelessOnce } from "../stateless.ts";
import type { Persistence } from "./persistence.ts";

export type LiveEventsConfig = {
  db: Db;
  persistence: Persistence;
  /** True with Redis: documents may be loaded on other instances. */
  clustered: boolean;
  watch: RightsWatch;
  log: FastifyBaseLogger;
};

/** Origin of server-side changes to a document (REST writes applied live). */
const REST_ORIGIN = { source: "local" } as const;

export class LiveEvents implements Extension<LiveContext> {
  extensionName = "tideline-events";
  private instance: Hocuspocus<LiveContext> | null = null;
  private readonly config: LiveEventsConfig;
  /** The re-checks, one after another. */
  private rechecks: Promise<void> = Promise.resolve();
  /** Per connection (by its context): the timer that closes it when its session expires. */
  private readonly expiries = new WeakMap<object, ReturnType<typeof setTimeout>>();

  constructor(config: LiveEventsConfig) {
    this.config = config;
  }

  async onConfigure({ instance }: onConfigurePayload): Promise<void> {
    this.instance = instance;
  }

  /** Send a stateless payload to the connections of one loaded document of this instance. */
  relay(documentName: string, payload: string, filter?: (connection: Connection<LiveContext>) => boolean): void {
    const document = this.instance?.documents.get(documentName);
    // Encoded once for all its connections (stateless.ts), not once per socket.
    if (document) relayStatelessOnce(document, payload, filter);
  }

  /** Deliver an event to this instance's connections (see the file comment). */
  deliver(event: DomainEvent): void {
    const payload = encodeLiveEvent(event);
    if (event.project_id && !isPersonalEvent(event)) {
      const channel = projectChannelName(event.project_id);
      const withheld = withoutCounts(event);
      if (withheld) {
        const guestPayload = encodeLiveEvent(withheld);
        this.relay(channel, payload, (connection) => mayReceive(connection, event) && !ownItemsOnly(connection));
        this.relay(channel, guestPayload, (connection) => mayReceive(connection, event) && ownItemsOnly(connection));
      } else this.relay(channel, payload, (connection) => mayReceive(connection, event));
    }
    if (event.workspace_id && !event.project_id && !isPersonalEvent(event)) {
      this.relay(workspaceChannelName(event.workspace_id), payload, (connection) =>
        mayReceiveInWorkspace(connection, event),
      );
    }
    const recipient = eventRecipientId(event);
    if (recipient) this.relay(userChannelName(recipient), payload);
    // The reference's page editor learns of a lock, an archive… from a notice on the page itself.
    const notice = collaborationNoticeFor(event);
    if (notice) {
      this.relay(
        pageDocumentName(event.entity_id),
        notice,
        (connection) => connection.context.collaboration?.projectId === event.project_id,
      );
    }
    const scope = rightsScope(event);
    if (scope) this.revoke(scope);
  }

  /**
   * A connection was just set up. If a session ended or a right changed while it was
   * authenticating (its rights were read before the change, and the re-check did not see it
   * yet), check it now.
   */
  async connected({ connection, context }: connectedPayload<LiveContext>): Promise<void> {
    const auth = authenticated(context);
    if (!auth) return;
    if (this.config.watch.isEnded(auth.sessionId)) {
      endSocket(connection);
      return;
    }
    if (auth.rightsEpoch !== this.config.watch.epoch) {
      this.enqueue(() => this.recheck((c) => c === connection));
    }
    this.closeAtExpiry(connection, auth);
  }

  async onDisconnect({ context }: onDisconnectPayload<LiveContext>): Promise<void> {
    const timer = this.expiries.get(context);
    if (timer) clearTimeout(timer);
    this.expiries.delete(context);
  }

  /** A session ends when it expires too: close the connection then, as if it had been revoked. */
  private closeAtExpiry(connection: Connection<LiveContext>, auth: AuthenticatedContext): void {
    const left = auth.sessionExpiresAt - Date.now();
    if (left <= 0) {
      endSocket(connection);
      return;
    }
    // setTimeout holds at most ~24.8 days; sessions last 7, but check again rather than overflow.
    const timer = setTimeout(
      () => {
        this.expiries.delete(connection.context);
        if (connection.document.hasConnection(connection)) this.closeAtExpiry(connection, auth);
      },
      Math.min(left, 2 ** 31 - 1),
    );
    timer.unref?.();
    this.expiries.set(connection.context, timer);
  }

  private revoke(scope: RightsScope): void {
    if (scope.kind === "sessions") {
      this.config.watch.sessionsEnded(scope.sessionIds);
      const ended = new Set(scope.sessionIds);
      this.eachConnection((connection, auth) => {
        if (ended.has(auth.sessionId)) endSocket(connection);
      });
      return;
    }
    this.config.watch.changed();
    this.enqueue(() => this.recheck((_, auth) => touches(scope, auth)));
  }

  private enqueue(work: () => Promise<void>): void {
    this.rechecks = this.rechecks
      .then(work)
      .catch((err: unknown) => this.config.log.error({ err }, "live rights re-check failed"));
  }

  private eachConnection(visit: (connection: Connection<LiveContext>, auth: AuthenticatedContext) => void): void {
    for (const document of [...(this.instance?.documents.values() ?? [])]) {
      for (const connection of document.getConnections() as Connection<LiveContext>[]) {
        const auth = authenticated(connection.context);
        if (auth) visit(connection, auth);
      }
    }
  }

  /** Read the rights of the connections `touched` selects again, and apply them. */
  private async recheck(
    touched: (connection: Connection<LiveContext>, auth: AuthenticatedContext) => boolean,
  ): Promise<void> {
    const selected: [Connection<LiveContext>, AuthenticatedContext][] = [];
    this.eachConnection((connection, auth) => {
      if (touched(connection, auth)) selected.push([connection, auth]);
    });
    // One query per person and document, however many tabs they have it open in.
    const reads = new Map<string, Promise<DocumentRights>>();
    for (const [connection, auth] of selected) {
      const { collaboration } = connection.context;
      // A /live/collaboration socket's rights also depend on the place its query names.
      const key = `${auth.user.id}/${connection.document.name}/${collaboration ? JSON.stringify(collaboration) : ""}`;
      const epoch = this.config.watch.epoch;
      let read = reads.get(key);
      if (!read) {
        read = connectionRights(this.config.db, auth.user.id, auth.ref, collaboration);
        reads.set(key, read);
      }
      const rights = await read;
      auth.rightsEpoch = epoch;
      this.apply(connection, auth, rights);
    }
  }

  private apply(connection: Connection<LiveContext>, auth: AuthenticatedContext, rights: DocumentRights): void {
    const { document } = connection;
    // Closed while the rights were read.
    if (!document.hasConnection(connection)) return;
    if (!rights) {
      connection.close(refusal("forbidden"));
      return;
    }
    const wasReadOnly = connection.readOnly;
    const wasOwnItemsOnly = auth.rights.ownItemsOnly;
    auth.rights = rights;
    // Hocuspocus reads this on every message: later updates are applied or refused accordingly.
    connection.readOnly = rights.readOnly;
    // A project channel whose guest restriction changed is closed too: its client catches up when
    // it authenticates again, after the new filter is in force (events in between were filtered
    // by the old one), and learns from the sync list's scope that its copy must be rebuilt.
    if (wasReadOnly === rights.readOnly && wasOwnItemsOnly === rights.ownItemsOnly) return;
    if (rights.readOnly && !wasReadOnly) {
      // A reader shares no caret (extensions/presence.ts): take down the ones it had.
      removeAwarenessStates(document.awareness, [...document.getClients(connection)], null);
    }
    // The client learns its new scope by authenticating again.
    connection.close(refusal("accessChanged"));
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
}

function changedFields(event: DomainEvent): string[] {
  const value = event.data.changed_fields;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Whether a rights change of `scope` may concern this connection. */
function touches(scope: Exclude<RightsScope, { kind: "sessions" }>, auth: AuthenticatedContext): boolean {
  switch (scope.kind) {
    case "user":
      return auth.user.id === scope.userId;
    case "entity":
      return auth.ref.id === scope.id;
    case "project":
      return auth.rights.projectIds.includes(scope.projectId);
    case "workspace":
      return auth.rights.workspaceId === scope.workspaceId;
  }
}

/**
 * Close the WebSocket this connection belongs to: its session ended, so every document on it
 * goes (each told `unauthorized`), and the socket closes with 4401 so the client stops
 * reconnecting and signs in again.
 */
function endSocket(connection: Connection<LiveContext>): void {
  const { code, reason } = refusal("unauthorized");
  connection.close({ code, reason });
  connection.webSocket.close(code, reason);
}

/**
 * On a workspace channel everyone hears everything, except a private view's events (access 0),
 * which only its owner may see. Filtered here rather than sent to `user.{owner}`: the owner's
 * workspace screens already listen to this channel (one subscription, one order of events per
 * workspace), and a user channel spans every workspace, so each workspace store would have to
 * listen to it and sort events out by workspace. Others are not told that a public view turned
 * private (nor that it exists); their clients catch up when they reload the list.
 */
function mayReceiveInWorkspace(connection: Connection<LiveContext>, event: DomainEvent): boolean {
  const auth = authenticated(connection.context);
  if (!auth) return false;
  if (event.type.startsWith("view.") && event.data.access === 0) return event.data.owned_by === auth.user.id;
  // Exports and webhooks are settings screens of admins (product-domain §6).
  if (event.type.startsWith("export.") || event.type.startsWith("webhook.")) return Boolean(auth.rights.workspaceAdmin);
  return true;
}

/** A guest restricted to the work items they created. */
function ownItemsOnly(connection: Connection<LiveContext>): boolean {
  return Boolean(authenticated(connection.context)?.rights.ownItemsOnly);
}

/** What a cycle's or module's event counts over everyone's work items (left out for restricted guests). */
const COUNT_FIELDS = [...Object.keys(EMPTY_PROGRESS_COUNTERS), "assignee_ids", "progress_snapshot"];

/** A cycle.* or module.* event without its counts, else null (other events are sent as they are). */
function withoutCounts(event: DomainEvent): DomainEvent | null {
  const counted =
    event.type.startsWith("cycle.") || (event.type.startsWith("module.") && !event.type.startsWith("module.link."));
  if (!counted) return null;
  const data = Object.fromEntries(Object.entries(event.data).filter(([key]) => !COUNT_FIELDS.includes(key)));
  return { ...event, data };
}

/**
 * A restricted guest sees only the work items they created: events about other items (and
 * their comments, links… whose item we can't check cheaply here) are not sent to them.
 */
function mayReceive(connection: Connection<LiveContext>, event: DomainEvent): boolean {
  const auth = authenticated(connection.context);
  if (!auth) return false;
  // Intake requests: a guest (restricted or not) gets only the requests they submitted.
  if (event.type.startsWith("intake.") && auth.rights.guest) return event.data.created_by === auth.user.id;
  if (!auth.rights.ownItemsOnly) return true;
  if (event.type.startsWith("issue.")) return event.data.created_by === auth.user.id;
  return !/^(comment|reaction|relation|link|attachment|subscription)\./.test(event.type);
}
