/**
 * Six-digit sign-in codes: one row per e-mail (a new code replaces the old one), only the
 * keyed hash (HMAC with the instance secret) of the code stored — a 6-digit code has too few
 * values for a plain hash to hide it from someone who reads the database — valid ten minutes, single use, and at most three wrong tries.
 */
import { and, eq, sql } from "drizzle-orm";
import { hmac, safeEqual, sixDigitCode } from "../../auth/crypto.ts";
import type { DbOrTx } from "../../db/client.ts";
import { magicCodes } from "../../db/schema.ts";

export const MAGIC_CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong tries allowed; the next try (even with the right code) finds the code used up. */
export const MAGIC_CODE_MAX_WRONG_ATTEMPTS = 3;

export type MagicCodeCheck = "ok" | "invalid" | "expired" | "exhausted";

/** Create (or replace) the code for `email` and return it in clear, for the e-mail only. */
const codeHash = (secret: string, email: string, code: string) => hmac(secret, `magic:${email}:${code}`);

export async function issueMagicCode(db: DbOrTx, email: string, secret: string): Promise<string> {
  const code = sixDigitCode();
  const values = {
    codeHash: codeHash(secret, email, code),
    attempts: 0,
    expiresAt: new Date(Date.now() + MAGIC_CODE_TTL_MS),
  };
  await db
    .insert(magicCodes)
    .values({ email, ...values })
    .onConflictDoUpdate({ target: magicCodes.email, set: { ...values, createdAt: new Date() } });
  return code;
}

/**
 * Check `code` for `email`. The attempt is counted first, atomically, so a burst of parallel
 * guesses gets distinct attempt numbers and no more than three of them are ever compared.
 * A right code is deleted as it is accepted, so it works once only.
 */
export async function consumeMagicCode(
  db: DbOrTx,
  email: string,
  code: string,
  secret: string,
): Promise<MagicCodeCheck> {
  const [row] = await db
    .update(magicCodes)
    .set({ attempts: sql`${magicCodes.attempts} + 1` })
    .where(eq(magicCodes.email, email))
    .returning();
  if (!row) return "invalid";
  if (row.attempts > MAGIC_CODE_MAX_WRONG_ATTEMPTS) {
    await db.delete(magicCodes).where(eq(magicCodes.id, row.id));
    return "exhausted";
  }
  if (row.expiresAt.getTime() <= Date.now()) {
    await db.delete(magicCodes).where(eq(magicCodes.id, row.id));
    return "expired";
  }
  if (!safeEqual(codeHash(secret, email, code.trim()), row.codeHash)) return "invalid";
  // Conditional on the hash: if a concurrent request already used (or replaced) it, this one fails.
  const used = await db
    .delete(magicCodes)
    .where(and(eq(magicCodes.id, row.id), eq(magicCodes.codeHash, row.codeHash)))
    .returning({ id: magicCodes.id });
  return used.length > 0 ? "ok" : "invalid";
}
