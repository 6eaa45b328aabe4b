/**
 * One error type for the API. Routes throw; the error handler in app.ts turns it into
 * `{ error, code?, fields? }` with the status, so every refusal looks the same to clients.
 */
import type { z } from "zod";

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | number | undefined;
  readonly fields: FieldErrors | undefined;

  constructor(status: number, message: string, extra: { code?: string | number; fields?: FieldErrors } = {}) {
    super(message);
    this.status = status;
    this.code = extra.code;
    this.fields = extra.fields;
  }
}

export const badRequest = (message: string, fields?: FieldErrors, code?: string) =>
  new ApiError(400, message, { fields, code });
export const unauthorized = (message = "Authentication credentials were not provided.") =>
  new ApiError(401, message, { code: "UNAUTHENTICATED" });
export const forbidden = (message = "You do not have permission to perform this action.") =>
  new ApiError(403, message, { code: "FORBIDDEN" });
export const notFound = (what = "Resource") => new ApiError(404, `${what} not found`, { code: "NOT_FOUND" });
export const conflict = (message: string, fields?: FieldErrors, code?: string) =>
  new ApiError(409, message, { fields, code: code ?? "CONFLICT" });

/** Turn zod issues into `{ field: [messages] }` plus one readable sentence. */
export function zodToApiError(error: z.ZodError): ApiError {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    const list = fields[key] ?? [];
    list.push(issue.message);
    fields[key] = list;
  }
  const first = Object.entries(fields)[0];
  const message = first ? `${first[0]}: ${first[1][0]}` : "Invalid request";
  return new ApiError(400, message, { fields, code: "VALIDATION_ERROR" });
}

/**
 * Validate `input` against `schema` or throw a 400 naming each bad field.
 *
 * How input is validated, everywhere: request bodies are plain `z.object`s, which drop keys
 * they do not know (the reference server ignores them too, and its client sends extras such as
 * `tempId` or read-only counts), so never `.strict()`. A known key of the wrong type is still a
 * 400 and nothing is stored. Strings PostgreSQL cannot store (NUL, lone surrogates) never get
 * this far: http/input.ts refuses them for every route before the handler runs.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw zodToApiError(result.error);
  return result.data;
}
