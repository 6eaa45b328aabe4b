/**
 * Reading database errors. Drizzle wraps driver errors (node-postgres and PGlite alike), so the
 * SQLSTATE and constraint name sit on the error or a few `cause`s down.
 */

/** The unique-index constraint a Postgres unique violation (23505) names, "" if unnamed; null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (e.code === "23505") return typeof e.constraint === "string" ? e.constraint : "";
    current = e.cause;
  }
  return null;
}

/** Whether `error` is a unique violation (e.g. two sign-ups for one e-mail at once). */
export function isUniqueViolation(error: unknown): boolean {
  return uniqueViolation(error) !== null;
}
