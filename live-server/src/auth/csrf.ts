/**
 * CSRF token for the HTML forms (double submit): GET /auth/get-csrf-token/ sets a random
 * `csrftoken` cookie and returns the same value; each form posts it as csrfmiddlewaretoken.
 * Together with the Origin check this refuses forged form posts.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { randomToken, safeEqual } from "./crypto.ts";

export const CSRF_COOKIE = "csrftoken";

export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = request.cookies[CSRF_COOKIE];
  const token = existing && existing.length >= 32 && existing.length <= 64 ? existing : randomToken(24);
  reply.setCookie(CSRF_COOKIE, token, { path: "/", sameSite: "lax", secure, httpOnly: false, maxAge: 365 * 24 * 3600 });
  return token;
}

export function hasValidCsrf(request: FastifyRequest, submitted: string | undefined): boolean {
  const cookie = request.cookies[CSRF_COOKIE];
  return Boolean(cookie && submitted && safeEqual(cookie, submitted));
}
