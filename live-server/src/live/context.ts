/**
 * What the live layer keeps per document connection (Hocuspocus' `context`), and how a hook
 * refuses a connection or closes a document with one of the protocol's close events.
 */
import { LIVE_CLOSE, type LiveCloseName, type LiveDocumentRef } from "@tideline/shared";
import type { SessionUser } from "../auth/sessions.ts";
import type { CollaborationScope } from "./collaboration.ts";
import type { DocumentRights } from "./documents.ts";

/** Set before authentication, from the upgrade request (see service.ts). */
export type SocketContext = {
  /** The origins the upgrade may come from (config.trustedOrigins; never the request's Host). */
  allowedOrigins: ReadonlySet<string>;
  /**
   * Set on a socket of GET /live/collaboration (the reference's page editor): what its query
   * names. Its documents are pages of that workspace and project only (collaboration.ts).
   */
  collaboration?: CollaborationScope;
};

/** Added by the Authentication extension once the connection is accepted. */
export type AuthenticatedContext = {
  user: SessionUser;
  /** The session row that authenticated the WebSocket: `session.revoked` closes it. */
  sessionId: string;
  /** When that session expires (ms since the epoch): the connection is closed then. */
  sessionExpiresAt: number;
  ref: LiveDocumentRef;
  rights: NonNullable<DocumentRights>;
  /** RightsWatch.epoch when the rights were read (a change since then means: read them again). */
  rightsEpoch: number;
};

export type LiveContext = SocketContext & Partial<AuthenticatedContext>;

/**
 * What a hook throws to refuse or close: Hocuspocus sends `reason` to the provider (the
 * `authenticationFailed` reason, or the reason of a document's close) and uses `code` when it
 * closes a connection. Deliberately not an Error: Hocuspocus logs every thrown Error's message,
 * and a refused connection is routine, not a server fault.
 */
export type LiveRefusal = { code: number; reason: string };

export function refusal(name: LiveCloseName): LiveRefusal {
  const { code, reason } = LIVE_CLOSE[name];
  return { code, reason };
}

/** The authenticated part of a connection's context, or null before authentication. */
export function authenticated(context: unknown): AuthenticatedContext | null {
  const value = context as Partial<AuthenticatedContext> | null | undefined;
  return value?.user && value.ref && value.rights ? (value as AuthenticatedContext) : null;
}
