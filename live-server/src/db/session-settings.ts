/**
 * Settings every database session of the server starts with, the same on PGlite (its start
 * parameters, db/pglite-worker.ts) and PostgreSQL (the pool's connection options, db/client.ts).
 *
 * - pg_trgm.word_similarity_threshold 0.4 (PostgreSQL's default is 0.6): the search's typo
 *   matches (routes/search, `word <% name`) take one slip in a word of six or seven letters —
 *   "chekout" for "checkout" scores 0.55, "serch" for "search" 0.44 — while unrelated words stay
 *   under 0.35. The operator reads it when the trigram index is scanned, so it must hold for the
 *   whole session, not be set around one query.
 */
export const SESSION_SETTINGS: Readonly<Record<string, string>> = {
  "pg_trgm.word_similarity_threshold": "0.4",
};

/** As `-c name=value` arguments (PGlite's start parameters). */
export function sessionSettingArgs(): string[] {
  return Object.entries(SESSION_SETTINGS).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
}

/** As the libpq `options` connection parameter (node-postgres). */
export function sessionSettingOptions(): string {
  return Object.entries(SESSION_SETTINGS)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
}
