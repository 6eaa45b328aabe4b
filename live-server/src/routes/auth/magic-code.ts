/**
 * Six-digit codes mailed to an address, for code sign-in / sign-up and for proving the address of
 * a signed-in account (verify-email). Valid ten minutes, single use.
 *
 * Nobody but the mailbox's owner may be able to make a mailed code stop working, so:
 * - asking again never replaces a code that is still good: while the newest code has at least
 *   five minutes left, the same code is mailed again; otherwise a new one is added and the older
 *   ones stay valid until they expire. At most three are live at once, so guessing odds stay
 *   bounded; at the cap the newest is mailed again. Someone whose own wrong tries are used up
 *   (`wantNew`) gets a new code when under the cap.
 * - wrong guesses are counted per address and source, and per address overall, by the auth
 *   rate limiter (auth/rate-limit.ts), never on the code: someone else's guesses burn nothing.
 *
 * Stored: the keyed hash (HMAC with the instance secret) that a guess is compared with — a
 * 6-digit code has too few values for a plain hash to hide it from someone who reads the
 * database — and the code sealed with a key derived from the same secret, so that it can be
 * mailed again. A used code is deleted with every other code of the address.
 */
import { and, desc, eq, lte, sql } from "drizzle-orm";
import { hmac, safeEqual, seal, sixDigitCode, unseal } from "../../auth/crypto.ts";
import type { Db } from "../../db/client.ts";
import { magicCodes } from "../../db/schema.ts";

export const MAGIC_CODE_TTL_MS = 10 * 60 * 1000;
/** A request mails the newest code again while it is valid at least this long. */
export const MAGIC_CODE_RESEND_MIN_LEFT_MS = 5 * 60 * 1000;
/** Codes an address may have live at once. */
export const MAX_LIVE_MAGIC_CODES = 3;

export type MagicCodeCheck = "ok" | "invalid" | "expired";

export type MailedCode = { code: string; expiresAt: Date; fresh: boolean };

const SEAL_PURPOSE = "magic-code";

const codeHash = (secret: string, email: string, code: string) => hmac(secret, `magic:${email}:${code}`);

/**
 * The code to mail to `email` now: the newest live one again (see the header), or a new one.
 * `wantNew`: the requester has used up their own tries, so the newest code is no use to them.
 * Requests for one address run one at a time (an advisory lock), so racing requests cannot
 * pass the cap together.
 */
export async function codeToMail(
  db: Db,
  email: string,
  secret: string,
  options: { wantNew?: boolean } = {},
): Promise<MailedCode> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`magic-code:${email}`}))`);
    const now = new Date();
    await tx.delete(magicCodes).where(and(eq(magicCodes.email, email), lte(magicCodes.expiresAt, now)));
    const live = await tx
      .select()
      .from(magicCodes)
      .where(eq(magicCodes.email, email))
      .orderBy(desc(magicCodes.createdAt));
    const newest = live[0];
    const stillGood = newest && newest.expiresAt.getTime() - now.getTime() >= MAGIC_CODE_RESEND_MIN_LEFT_MS;
    if (newest && (live.length >= MAX_LIVE_MAGIC_CODES || (stillGood && !options.wantNew))) {
      const code = unseal(secret, SEAL_PURPOSE, newest.codeSealed);
      // Unreadable only if the instance secret changed since: such codes cannot be checked either.
      if (code !== undefined) return { code, expiresAt: newest.expiresAt, fresh: false };
      await tx.delete(magicCodes).where(eq(magicCodes.email, email));
    }
    const code = sixDigitCode();
    const expiresAt = new Date(now.getTime() + MAGIC_CODE_TTL_MS);
    await tx.insert(magicCodes).values({
      email,
      codeHash: codeHash(secret, email, code),
      codeSealed: seal(secret, SEAL_PURPOSE, code),
      expiresAt,
    });
    return { code, expiresAt, fresh: true };
  });
}

/**
 * Check `code` against the live codes of `email` (each compared in constant time). A right code
 * is deleted as it is accepted, conditionally, so two requests racing with it cannot both
 * succeed; the address's other codes go with it (it is proven now, they are no longer needed).
 * Counting wrong guesses is the caller's (auth/rate-limit.ts).
 */
export async function consumeMagicCode(db: Db, email: string, code: string, secret: string): Promise<MagicCodeCheck> {
  const hash = codeHash(secret, email, code.trim());
  const rows = await db.select().from(magicCodes).where(eq(magicCodes.email, email));
  const match = rows.find((row) => safeEqual(hash, row.codeHash));
  if (!match) return "invalid";
  if (match.expiresAt.getTime() <= Date.now()) {
    await db.delete(magicCodes).where(and(eq(magicCodes.email, email), lte(magicCodes.expiresAt, new Date())));
    return "expired";
  }
  const used = await db.delete(magicCodes).where(eq(magicCodes.id, match.id)).returning({ id: magicCodes.id });
  if (used.length === 0) return "invalid";
  await db.delete(magicCodes).where(eq(magicCodes.email, email));
  return "ok";
}

/** Minutes left until `expiresAt`, rounded up (a new code says 10), for the mail's wording. */
export function minutesLeft(expiresAt: Date): number {
  return Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 60_000));
}
