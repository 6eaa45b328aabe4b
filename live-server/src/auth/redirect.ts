/**
 * The HTML-form endpoints answer with 302 redirects (the product's contract). Errors go back
 * to the form's page with `error_code`, `error_message` (the catalogue NAME), the e-mail and
 * the validated next_path, so the client can show the banner in the right step.
 */
import { type AuthErrorCode, authErrorName, safeNextPath } from "@tideline/shared";
import type { FastifyReply } from "fastify";

/** The longest e-mail address (RFC 5321 path limit) a redirect carries back to the form. */
export const MAX_EMAIL_LENGTH = 254;

export function redirectWithAuthError(
  reply: FastifyReply,
  page: string,
  code: AuthErrorCode,
  extra: { email?: string; nextPath?: unknown } = {},
): FastifyReply {
  const params = new URLSearchParams({ error_code: String(code), error_message: authErrorName(code) ?? "ERROR" });
  // Only something that can be an address goes back (at most 254 characters, encoded): a form
  // post with a megabyte "email" must not become a megabyte Location header.
  if (extra.email && extra.email.length <= MAX_EMAIL_LENGTH) params.set("email", extra.email);
  const next = safeNextPath(extra.nextPath);
  if (next) params.set("next_path", next);
  return reply.redirect(`${page}?${params.toString()}`, 302);
}

/** Success: the validated same-origin next_path, or `fallback`. */
export function redirectAfterSignIn(reply: FastifyReply, nextPath: unknown, fallback = "/"): FastifyReply {
  return reply.redirect(safeNextPath(nextPath) ?? fallback, 302);
}

/** Read a form field (urlencoded bodies arrive as strings). */
export function field(body: unknown, name: string): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
