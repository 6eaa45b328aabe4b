/**
 * Who may open which document. Every document of a WebSocket is authorised on its own:
 * - onConnect: the upgrade request's Origin must be one of the app's configured origins
 *   (config.trustedOrigins, never the request's Host): a page on another site must not ride
 *   the user's cookie (cross-site WebSocket hijacking, DNS rebinding);
 * - onAuthenticate: the session cookie of the upgrade request names an active user (the
 *   provider's token is not used, except on /live/collaboration, where the reference's editor
 *   sends its user as JSON and it must be that user), and that user's rights on the document
 *   (documents.ts; on /live/collaboration also the page's place, collaboration.ts) decide
 *   whether it opens and whether it is read-only.
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
import { connectionRights } from "../documents.ts";
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
    context,
    token,
  }: onAuthenticatePayload<LiveContext>): Promise<AuthenticatedContext> {
    const rightsEpoch = this.watch.epoch;
    const cookies = fastifyCookie.parse(requestHeaders.get("cookie") ?? "");
    const session = await userForToken(this.db, cookies[SESSION_COOKIE]);
    if (!session || this.watch.isEnded(session.sessionId)) throw this.refuse("unauthorized");
    // The reference's page editor sends its user ({id, name, color}) as the token; like its own
    // live server, refuse a tab whose user is not the session's (another account signed in since).
    if (context.collaboration && tokenUserId(token) !== session.user.id) throw this.refuse("unauthorized");
    const ref = parseDocumentName(documentName);
    if (!ref) throw this.refuse("forbidden");
    const rights = await connectionRights(this.db, session.user.id, ref, context.collaboration);
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

/** The `id` of a token that is a JSON user (the reference's page editor), or null. */
function tokenUserId(token: string | undefined): string | null {
  try {
    const value: unknown = JSON.parse(token ?? "");
    if (value && typeof value === "object" && "id" in value && typeof value.id === "string") return value.id;
  } catch {
    // not JSON
  }
  return null;
}
