/**
 * Proof of an e-mail address, and what it changes (issue 9, items 2 and 3).
 *
 * `users.is_email_verified` is true once the owner of the address has shown they read its mail:
 * a sign-in / sign-up code, the verification code a signed-in user asks for, a password-reset
 * link, or the secret token of an invitation link mailed to it. A password sign-up proves
 * nothing: the account works, but invitations addressed to the e-mail stay out of its reach
 * (REST answers 403 EMAIL_NOT_VERIFIED) until the address is proven.
 *
 * Account pre-hijack: someone may register another person's address with a password before
 * the owner ever signs in. So when the address of an unverified account is proven by someone
 * who did not use that password — a code sign-in from the sign-in screen — the password is
 * cleared (back to "auto-set", none) and every session of the account ends before the owner's
 * new one starts. When the proof is made from inside a session of the account (the "verify your
 * address" code, or accepting an invitation through its link), the prover signed in with that
 * very password, so it is theirs and stays; every other session of the account still ends.
 * Sessions end only through auth/sessions.ts, which emits `session.revoked` (live sockets close).
 */
import { EMAIL_NOT_VERIFIED, EMAIL_NOT_VERIFIED_MESSAGE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { EmitFn } from "../events/bus.ts";
import { ApiError } from "../http/errors.ts";
import { revokeUserSessions } from "./sessions.ts";

type UserRow = typeof users.$inferSelect;

export type ProofContext =
  /** Proven from the sign-in screen (no session of the account used): clear an earlier password, end every session. */
  | { kind: "sign-in" }
  /** Proven from inside one of the account's sessions (its cookie token): keep the password and that session. */
  | { kind: "session"; sessionToken: string | undefined };

/**
 * Record that `user` proved their address. Nothing changes for an address already verified.
 * Returns the user as stored afterwards.
 */
export async function proveAddress(tx: DbOrTx, emit: EmitFn, user: UserRow, proof: ProofContext): Promise<UserRow> {
  if (user.isEmailVerified) return user;
  const clearPassword = proof.kind === "sign-in" && user.passwordHash !== null;
  const [updated] = await tx
    .update(users)
    .set({ isEmailVerified: true, ...(clearPassword ? { passwordHash: null, isPasswordAutoset: true } : {}) })
    .where(eq(users.id, user.id))
    .returning();
  if (!updated) throw new Error("user vanished");
  await revokeUserSessions(tx, emit, user.id, proof.kind === "session" ? { except: proof.sessionToken } : {});
  return updated;
}

/** The REST refusal for an unverified account reaching for what is addressed to its e-mail. */
export const emailNotVerified = () => new ApiError(403, EMAIL_NOT_VERIFIED_MESSAGE, { code: EMAIL_NOT_VERIFIED });

/** Throw 403 EMAIL_NOT_VERIFIED unless the user's address is proven. */
export function requireVerifiedEmail(user: UserRow): void {
  if (!user.isEmailVerified) throw emailNotVerified();
}
