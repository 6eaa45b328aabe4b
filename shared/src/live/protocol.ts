/**
 * The live protocol both sides agree on (server: live-server/src/live, client: the Hocuspocus
 * providers): the WebSocket path, document names, limits, the reasons a document connection is
 * refused or closed, and the envelope of stateless messages.
 *
 * One WebSocket per tab (`HocuspocusProviderWebsocket` on `LIVE_PATH`) carries every document:
 * | name                | holds                                            | writes                   |
 * | `page.{pageId}`     | a page body (XmlFragment `default`)              | page editors             |
 * | `issue.{issueId}`   | a work item's description (XmlFragment `default`)| project members (≥15)    |
 * | `project.{id}`      | nothing: stateless domain events of the project  | server only (read-only)  |
 * | `workspace.{id}`    | nothing: events of the workspace outside projects| server only (read-only)  |
 * | `user.{userId}`     | nothing: that user's notifications, memberships  | server only (read-only)  |
 */
import type { DomainEvent } from "./events.ts";

/** Where the WebSocket is served (same origin as the app; the session cookie authenticates it). */
export const LIVE_PATH = "/live";

export const LIVE_DOCUMENT_KINDS = ["page", "issue", "project", "workspace", "user"] as const;
export type LiveDocumentKind = (typeof LIVE_DOCUMENT_KINDS)[number];
export type LiveDocumentRef = { kind: LiveDocumentKind; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Content-less kinds: their documents only carry the server's stateless messages. */
export const LIVE_CHANNEL_KINDS: readonly LiveDocumentKind[] = ["project", "workspace", "user"];

/** `page.{id}`, `issue.{id}`, `project.{id}`, `workspace.{id}` or `user.{id}`. */
export function formatDocumentName(kind: LiveDocumentKind, id: string): string {
  return `${kind}.${id}`;
}

/** The kind and id of a document name; null for anything else (unknown kind, id not a UUID). */
export function parseDocumentName(name: string): LiveDocumentRef | null {
  const dot = name.indexOf(".");
  if (dot < 0) return null;
  const kind = name.slice(0, dot);
  const id = name.slice(dot + 1);
  if (!(LIVE_DOCUMENT_KINDS as readonly string[]).includes(kind) || !UUID.test(id)) return null;
  return { kind: kind as LiveDocumentKind, id: id.toLowerCase() };
}

export const pageDocumentName = (pageId: string) => formatDocumentName("page", pageId);
export const issueDocumentName = (issueId: string) => formatDocumentName("issue", issueId);
export const projectChannelName = (projectId: string) => formatDocumentName("project", projectId);
export const workspaceChannelName = (workspaceId: string) => formatDocumentName("workspace", workspaceId);
export const userChannelName = (userId: string) => formatDocumentName("user", userId);

/** The Y.Doc field of a rich-text document (tiptap's Collaboration `field`). */
export const DOCUMENT_FIELD = "default";

/**
 * A Y.Map of the document that the server writes once, when it builds a document from stored
 * HTML: `generation` identifies that build. A client whose local copy has another generation
 * (the description was replaced through the REST API while it was offline) must drop its copy:
 * the server refuses its updates with `LIVE_CLOSE.documentReset`.
 */
export const DOCUMENT_META_MAP = "tideline";
export const DOCUMENT_GENERATION_KEY = "generation";

/** Limits of the live layer, enforced by the server. */
export const LIVE_LIMITS = {
  /** Encoded Yjs state of one document; updates that would grow it past this are refused. */
  maxDocumentBytes: 5 * 1024 * 1024,
  /** Connections to one editable document (page, work item) on one server instance. */
  maxClientsPerDocument: 100,
  /**
   * Connections to one event channel (`project.{id}`, `workspace.{id}`, `user.{id}`) on one
   * instance: every member with the board open holds one, and a channel costs the server only a
   * broadcast per event.
   */
  maxClientsPerChannel: 10_000,
  /** Sustained messages per second on one WebSocket… */
  messagesPerSecond: 200,
  /** …and the burst allowed above that (opening many documents at once, a paste). */
  messageBurst: 400,
  /**
   * Documents one WebSocket may have waiting for authentication at once (Hocuspocus'
   * maxPendingDocuments): a tab opening more at the same moment is reset. Open them in batches.
   */
  maxPendingDocuments: 100,
  /**
   * One awareness update (carets, selections: a few hundred bytes in practice). A larger one
   * closes that document's connection (`awareness-too-large`) before it is decoded.
   */
  maxAwarenessBytes: 16 * 1024,
  /** Sustained awareness updates per second on one document connection… */
  awarenessPerSecond: 20,
  /** …and the burst above that (typing moves the caret on every key). Updates beyond are dropped. */
  awarenessBurst: 40,
} as const;

export type LiveCloseEvent = { code: number; reason: string; message: string };

/**
 * Why a document connection was refused (the provider's `authenticationFailed` reason) or
 * closed (the reason of the provider's `close` event; a per-document close carries no code, so
 * the reason names it), or why the whole WebSocket was closed (code and reason).
 */
export const LIVE_CLOSE = {
  /**
   * The session cookie names no active session: refused at authentication, and the whole
   * WebSocket is closed with this code when its session ends (sign-out, password change or
   * reset, deactivation). The client stops reconnecting and goes to sign-in.
   */
  unauthorized: { code: 4401, reason: "unauthorized", message: "Your session has expired. Sign in again." },
  forbidden: { code: 4403, reason: "forbidden", message: "You don't have access to this document." },
  accessChanged: {
    code: 4412,
    reason: "access-changed",
    message: "Your access to this document changed.",
  },
  documentReset: {
    code: 4409,
    reason: "document-reset",
    message: "This document was replaced by another change. Reload it to continue.",
  },
  documentTooLarge: {
    code: 4413,
    reason: "document-too-large",
    message: "This document has reached its maximum size; further changes can't be saved.",
  },
  awarenessTooLarge: {
    code: 4414,
    reason: "awareness-too-large",
    message: "Your cursor information was too large to share.",
  },
  rateLimited: {
    code: 4429,
    reason: "rate-limited",
    message: "Too many changes in a short time. Reconnecting…",
  },
  tooManyClients: {
    code: 4503,
    reason: "too-many-clients",
    message: "Too many people have this document open. Try again later.",
  },
} as const satisfies Record<string, LiveCloseEvent>;

export type LiveCloseName = keyof typeof LIVE_CLOSE;

/** The close event a reason (or code) stands for, or null when it is not one of ours. */
export function liveCloseFor(reasonOrCode: string | number): LiveCloseEvent | null {
  for (const event of Object.values(LIVE_CLOSE)) {
    if (event.reason === reasonOrCode || event.code === reasonOrCode) return event;
  }
  return null;
}

/**
 * Client mutation ids of changes made by the live layer itself (a description stored from a
 * live document) start with this, so consumers can tell them from REST changes.
 */
export const LIVE_MUTATION_PREFIX = "live:";

/** A stateless message from the server on `project.{id}`, `workspace.{id}` or `user.{id}`. */
export type LiveStatelessMessage = { type: "event"; event: DomainEvent };

export function encodeLiveEvent(event: DomainEvent): string {
  return JSON.stringify({ type: "event", event } satisfies LiveStatelessMessage);
}

/** The message in a stateless payload, or null when it is not one the client understands. */
export function parseLiveStateless(payload: string): LiveStatelessMessage | null {
  try {
    const value = JSON.parse(payload) as Partial<LiveStatelessMessage> | null;
    if (value?.type === "event" && value.event && typeof value.event.type === "string") {
      return value as LiveStatelessMessage;
    }
  } catch {
    // not JSON: not ours
  }
  return null;
}

/**
 * The user a per-user event goes to (`user.{id}`): the receiver of a notification, the member
 * of a membership change; null for events that only go to their project.
 */
export function eventRecipientId(event: DomainEvent): string | null {
  const data = event.data as Record<string, unknown>;
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = data[key];
      if (typeof value === "string" && UUID.test(value)) return value;
    }
    return null;
  };
  if (event.type.startsWith("notification.")) return pick("receiver", "receiver_id");
  if (event.type.startsWith("sticky.") || event.type.startsWith("favorite.")) return pick("owner");
  if (event.type.startsWith("quick_link.")) return pick("owner");
  // A home widget's answer has no owner (the reference's shape); its event data adds `user`.
  if (event.type.startsWith("home_preference.")) return pick("user");
  // A sidebar entry's answer has no owner either (the reference's shape); its event adds `user`.
  if (event.type.startsWith("sidebar_preference.")) return pick("user");
  if (event.type.startsWith("project.member.") || event.type.startsWith("workspace.member.")) {
    return pick("member", "member_id");
  }
  return null;
}
