/**
 * Malformed input, handled once for every route (app.ts adds the hook before any route):
 * - `rejectUnstorableInput` runs as a preValidation hook, after the body is parsed and before
 *   any handler or SQL. A NUL character or a lone UTF-16 surrogate anywhere in the path
 *   parameters, the query string or a JSON / form body (values and object keys, at any depth)
 *   is a 400 INVALID_INPUT naming where it was: PostgreSQL cannot store NUL in text or jsonb,
 *   and a lone surrogate would be silently replaced on the way in.
 * - `databaseInputError` is the last line of defence in the error handler: a database error of
 *   class 22 (data exception: invalid text, numbers or dates out of range, bad byte sequences,
 *   bad jsonb escapes) or 54000 (a value too large for an index) means the input could not be
 *   stored, so it is a 400 too — never a 500. Routes still validate first (zod schemas in each
 *   route folder); reaching this is a gap worth closing at its root.
 */
import type { FastifyRequest } from "fastify";
import { ApiError } from "./errors.ts";

export const INVALID_INPUT = "INVALID_INPUT";

/** Deeper than any real request body; a body nested further is refused rather than walked. */
const MAX_DEPTH = 64;

/**
 * No lone UTF-16 surrogate. String.prototype.isWellFormed (ES2024, in every Node this runs on)
 * is native and ~10× faster on a 2 MB description than a regular expression with lookbehind;
 * the project's TypeScript lib predates it, hence the cast.
 */
const isWellFormed = (value: string): boolean => (value as string & { isWellFormed(): boolean }).isWellFormed();

type Problem = { where: string; what: string };

function problemIn(value: unknown, where: string, depth: number): Problem | null {
  if (typeof value === "string") {
    if (value.includes("\u0000")) return { where, what: "contains a NUL character" };
    if (!isWellFormed(value)) return { where, what: "is not well-formed Unicode (a lone surrogate)" };
    return null;
  }
  if (value === null || typeof value !== "object") return null;
  if (depth >= MAX_DEPTH) return { where, what: `is nested more than ${MAX_DEPTH} levels deep` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = problemIn(value[i], `${where}.${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  // Buffers (binary bodies) are bytes, not text: nothing to check.
  if (ArrayBuffer.isView(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = problemIn(key, `${where} key`, depth + 1);
    if (keyProblem) return { where: `${where} key ${JSON.stringify(key.slice(0, 40))}`, what: keyProblem.what };
    const found = problemIn(item, where === "body" ? key : `${where}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The first unstorable string of a request, as a 400; null when there is none. */
export function unstorableInput(request: Pick<FastifyRequest, "params" | "query" | "body">): ApiError | null {
  const sources: [string, unknown][] = [
    ["path", request.params],
    ["query", request.query],
    ["body", request.body],
  ];
  for (const [source, value] of sources) {
    const found = problemIn(value, source, 0);
    if (!found) continue;
    // "path.slug" → field "slug", said as "Path parameter slug"; body fields keep their own path.
    const field = source === "body" ? found.where : found.where.replace(/^(path|query)\.?/, "") || source;
    const label = source === "path" ? "Path parameter" : source === "query" ? "Query parameter" : "Field";
    return new ApiError(400, `${label} ${field} ${found.what}.`, {
      code: INVALID_INPUT,
      fields: { [field]: [`${found.what.charAt(0).toUpperCase()}${found.what.slice(1)}.`] },
    });
  }
  return null;
}

/** preValidation hook: refuse what PostgreSQL cannot store before any handler runs. */
export async function rejectUnstorableInput(request: FastifyRequest): Promise<void> {
  const error = unstorableInput(request);
  if (error) throw error;
}

/** SQLSTATEs that mean "this input cannot be stored", whatever the route. */
function isInputSqlState(code: unknown): boolean {
  return typeof code === "string" && (code.startsWith("22") || code === "54000");
}

/**
 * A database error caused by the input (Drizzle wraps the driver's error; the SQLSTATE sits on
 * a `cause`), as a 400; null for any other error.
 */
export function databaseInputError(error: unknown): ApiError | null {
  let current: unknown = error;
  for (let i = 0; i < 5 && current && typeof current === "object"; i++) {
    const e = current as { code?: unknown; cause?: unknown };
    if (isInputSqlState(e.code)) {
      return new ApiError(400, "The request contains a value that cannot be stored.", { code: INVALID_INPUT });
    }
    current = e.cause;
  }
  return null;
}
