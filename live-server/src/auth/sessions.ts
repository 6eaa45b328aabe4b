/**
 * Server-side sessions. The cookie carries a random token; the database keeps only its hash,
 * so a leaked database cannot be replayed as cookies. A new token is issued at every sign-in
 * (no fixation).
 *
 * Ending sessions happens only here (`revokeSession`, `revokeUserSessions`): each deletes the
 * rows and emits `session.revoked` with the ended session ids, published after the caller's
 * transaction commits (events/bus.ts transactionWithEvents). The live layer closes the
 * WebSockets those sessions authenticated, on every instance (live/service.ts). Deleting
 * session rows any other way would leave open live connections signed in.
 */
import type { SessionRevokedData } from "@tideline/shared";
import { and, eq, gt, ne } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { DbOrTx } from "../db/client.ts";
import { sessions, users } from "../db/schema.ts";
import { randomToken, sha256 } from "./crypto.ts";

export const SESSION_COOKIE = "session-id";
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type SessionUser = typeof users.$inferSelect;

export async function createSession(
  db: DbOrTx,
  userId: string,
  meta: { userAgent?: string; ip?: string; isAdmin?: boolean },
): Promise<string> {
  const token = randomToken(32);
  await db.insert(sessions).values({
    tokenHash: sha256(token),
    userId,
    isAdminSession: meta.isAdmin ?? false,
    userAgent: meta.userAgent?.slice(0, 512),
    ipAddress: meta.ip,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return token;
}

/** The active user behind a session token, or null (expired, unknown or deactivated). */
export async function userForToken(
  db: DbOrTx,
  token: string | undefined,
): Promise<{
  user: SessionUser;
  sessionId: string;
  isAdminSession: boolean;
  expiresAt: Date;
} | null> {
  if (!token || token.length > 200) return null;
  const rows = await db
    .select({
      user: users,
      sessionId: sessions.id,
      isAdminSession: sessions.isAdminSession,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256(token)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  if (!row?.user.isActive) return null;
  return row;
}

/**
 * The `emit` of events/bus.ts transactionWithEvents (its EmitFn), narrowed to what this module
 * emits. Declared here so that importing sessions.ts (bench, scripts) does not pull in the bus.
 */
type EmitFn = (
  type: "session.revoked",
  scope: { workspaceId: null; projectId: null; entityId: string },
  data: SessionRevokedData,
) => void;

function emitRevoked(emit: EmitFn, ended: { id: string; userId: string }[]): void {
  const byUser = new Map<string, string[]>();
  for (const row of ended) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.id]);
  for (const [userId, ids] of byUser) {
    emit("session.revoked", { workspaceId: null, projectId: null, entityId: userId }, {
      user_id: userId,
      session_ids: ids,
    } satisfies SessionRevokedData);
  }
}

const endedColumns = { id: sessions.id, userId: sessions.userId };

/**
 * End the session of one cookie token (sign-out, a new sign-in replacing the browser's old
 * session), expired or not. Nothing happens for an unknown token.
 */
export async function revokeSession(tx: DbOrTx, emit: EmitFn, token: string | undefined): Promise<void> {
  if (!token || token.length > 200) return;
  const ended = await tx
    .delete(sessions)
    .where(eq(sessions.tokenHash, sha256(token)))
    .returning(endedColumns);
  emitRevoked(emit, ended);
}

/**
 * End every session of a user (deactivation, password reset), or every one but the session of
 * `except` (a cookie token: the password change made from this browser keeps it signed in).
 */
export async function revokeUserSessions(
  tx: DbOrTx,
  emit: EmitFn,
  userId: string,
  options: { except?: string | undefined } = {},
): Promise<void> {
  const condition = options.except
    ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, sha256(options.except)))
    : eq(sessions.userId, userId);
  const ended = await tx.delete(sessions).where(condition).returning(endedColumns);
  emitRevoked(emit, ended);
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
}
