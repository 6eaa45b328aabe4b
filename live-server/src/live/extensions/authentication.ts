/**
 * Who may open which document. Every document of a WebSocket is authorised on its own:
 * - onConnect: the upgrade request's Origin must be one of the app's configured origins
 *   (config.trustedOrigins, never the request's Host): a page on another site must not ride
 *   the user's cookie (cross-site WebSocket hijacking, DNS rebinding);
 * - onAuthenticate: the session cookie of the upgrade request names an active user (the
 *   provider's token is not used), and that user's rights on the document (documents.ts)
 *   decide whether it opens and whether it is read-only.
 * A refusal reaches the provider as `authenticationFailed` with the reason of LIVE_CLOSE.
 * The context records the session and the RightsWatch epoch the rights were read at, so a
 * session ended or a right changed while this ran is caught (extensions/events.ts `connected`).
 */
import { fastifyCookie } from "@fastify/cookie";
import type { Extension, onAuthenticatePayload, onConnectPayload } from "@hocuspocus/server";
import { parseDocumentName } from "@tideline/shared";
import { SESSION_COOKIE, userForToken } from "../../auth/sessions.ts";
import type { Db } from "../../db/client.ts";
import { originOf } from "../../http/origin.ts";
import { type AuthenticatedContext, type LiveContext, refusal } from "../context.ts";
import { documentRights } from "../documents.ts";
import type { RightsWatch } from "../rights-watch.ts";

export type AuthenticationConfig = { db: Db; watch: RightsWatch; onRefused?: (reason: string) => void };

export class Authentication implements Extension<LiveContext> {
  extensionName = "tideline-authentication";
  /** Before every other extension: nothing is loaded or counted for a refused connection. */
  priority = 300;
  private readonly db: Db;
  private readonly watch: RightsWatch;
  private readonly onRefused: (reason: string) => void;

  constructor(config: AuthenticationConfig) {
    this.db = config.db;
    this.watch = config.watch;
    this.onRefused = config.onRefused ?? (() => {});
  }

  private refuse(name: "forbidden" | "unauthorized") {
    this.onRefused(name);
    return refusal(name);
  }

  /** Refuse a foreign (or missing) Origin before anything else happens. */
  async onConnect({ requestHeaders, context }: onConnectPayload<LiveContext>): Promise<void> {
    const origin = originOf(requestHeaders.get("origin"));
    if (!origin || !context.allowedOrigins?.has(origin)) throw this.refuse("forbidden");
  }

  /** Resolve the session and the rights on this document; returns the context additions. */
  async onAuthenticate({
    requestHeaders,
    documentName,
    connectionConfig,
  }: onAuthenticatePayload<LiveContext>): Promise<AuthenticatedContext> {
    const rightsEpoch = this.watch.epoch;
    const cookies = fastifyCookie.parse(requestHeaders.get("cookie") ?? "");
    const session = await userForToken(this.db, cookies[SESSION_COOKIE]);
    if (!session || this.watch.isEnded(session.sessionId)) throw this.refuse("unauthorized");
    const ref = parseDocumentName(documentName);
    if (!ref) throw this.refuse("forbidden");
    const rights = await documentRights(this.db, session.user.id, ref);
    if (!rights) throw this.refuse("forbidden");
    connectionConfig.readOnly = rights.readOnly;
    return {
      user: session.user,
      sessionId: session.sessionId,
      sessionExpiresAt: session.expiresAt.getTime(),
      ref,
      rights,
      rightsEpoch,
    };
  }
}
