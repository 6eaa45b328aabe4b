/**
 * Server-side sessions. The cookie carries a random token; the database keeps only its hash,
 * so a leaked database cannot be replayed as cookies. A new token is issued at every sign-in
 * (no fixation), and rows are deleted at sign-out and on deactivation.
 */
import { and, eq, gt } from "drizzle-orm";
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
} | null> {
  if (!token || token.length > 200) return null;
  const rows = await db
    .select({ user: users, sessionId: sessions.id, isAdminSession: sessions.isAdminSession })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256(token)), gt(sessions.expiresAt, new Date())))
    .limit(1);
  const row = rows[0];
  if (!row?.user.isActive) return null;
  return row;
}

export async function deleteSessionByToken(db: DbOrTx, token: string | undefined): Promise<void> {
  if (!token) return;
  await db.delete(sessions).where(eq(sessions.tokenHash, sha256(token)));
}

/** Sign a user out everywhere (deactivation, password reset). */
export async function deleteUserSessions(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
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
