/**
 * What the sign-in flows share: the instance's readiness and switches, user look-up and
 * creation, starting a session, and password-reset tokens.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { randomToken, sha256 } from "../../auth/crypto.ts";
import { createSession, revokeSession, SESSION_COOKIE, setSessionCookie } from "../../auth/sessions.ts";
import type { DbOrTx } from "../../db/client.ts";
import { passwordTokens, userProfiles, users, workspaceInvitations } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { authSwitches, getInstance, hasInstanceAdmin } from "../instances/service.ts";

export type UserRow = typeof users.$inferSelect;

export const PASSWORD_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The instance's sign-in settings; `ready` is false until god-mode set-up is finished. */
export async function authSettings(db: DbOrTx) {
  const row = await getInstance(db);
  const ready = row.isSetupDone && (await hasInstanceAdmin(db));
  return { ready, instanceName: row.instanceName, ...authSwitches(row.config) };
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/**
 * An unanswered workspace invitation lets its invitee sign up even when sign-up is switched
 * off. Compared case-insensitively so an invitation stored with capitals still counts.
 */
export async function hasPendingInvitation(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: workspaceInvitations.id })
    .from(workspaceInvitations)
    .where(
      and(
        sql`lower(${workspaceInvitations.email}) = ${email}`,
        eq(workspaceInvitations.accepted, false),
        isNull(workspaceInvitations.respondedAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The user and their profile, together or not at all. */
export async function createUserWithProfile(
  db: DbOrTx,
  input: { email: string; passwordHash: string | null; isPasswordAutoset: boolean; isEmailVerified: boolean },
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ ...input, displayName: input.email.split("@")[0] ?? input.email })
      .returning();
    if (!user) throw new Error("user insert failed");
    await tx.insert(userProfiles).values({ userId: user.id });
    return user;
  });
}

/**
 * Sign `user` in: a fresh session token (never the one the browser had, so a planted cookie
 * cannot be fixed onto the account), the last-login stamp, and the cookie.
 */
export async function startSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  changes: Partial<Pick<UserRow, "isEmailVerified">> = {},
): Promise<void> {
  const { db, events } = app.ctx;
  const token = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
    // The browser's previous session (maybe another account's) ends: its live sockets close.
    await revokeSession(tx, emit, request.cookies[SESSION_COOKIE]);
    const created = await createSession(tx, user.id, { userAgent: request.headers["user-agent"], ip: request.ip });
    await tx
      .update(users)
      .set({ ...changes, lastLoginAt: new Date(), lastLoginIp: request.ip })
      .where(eq(users.id, user.id));
    return created;
  });
  setSessionCookie(reply, token, app.secureCookies);
}

/** A new reset token for the user; earlier unused ones stop working so only the latest link does. */
export async function issuePasswordToken(db: DbOrTx, userId: string): Promise<string> {
  const token = randomToken(32);
  await db.transaction(async (tx) => {
    await tx.delete(passwordTokens).where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
    await tx.insert(passwordTokens).values({
      userId,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + PASSWORD_TOKEN_TTL_MS),
    });
  });
  return token;
}

export type PasswordTokenRow = typeof passwordTokens.$inferSelect;

/** The token row when `token` is live for user `uid`; otherwise why not. */
export async function findPasswordToken(
  db: DbOrTx,
  uid: string,
  token: string,
): Promise<PasswordTokenRow | "invalid" | "expired"> {
  if (!token || token.length > 200) return "invalid";
  const [row] = await db
    .select()
    .from(passwordTokens)
    .where(eq(passwordTokens.tokenHash, sha256(token)))
    .limit(1);
  if (!row || row.usedAt || row.userId !== uid) return "invalid";
  if (row.expiresAt.getTime() <= Date.now()) return "expired";
  return row;
}

/** Mark the token used; false when a concurrent request used it first. */
export async function markPasswordTokenUsed(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordTokens.id, id), isNull(passwordTokens.usedAt)))
    .returning({ id: passwordTokens.id });
  return rows.length > 0;
}
