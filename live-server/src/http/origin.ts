/**
 * Cross-site request refusal for cookie-authenticated calls. An unsafe method (POST, PUT,
 * PATCH, DELETE) on /api or /auth is accepted only when its Origin — or, lacking one, its
 * Referer — is one of the app's configured origins (config.trustedOrigins: APP_BASE_URL's, or
 * the loopback names of PORT when it is unset). Browsers always send Origin on cross-site POSTs,
 * so no other site can make these calls with our user's cookie; the app itself needs no token.
 *
 * The request's own Host header is never trusted: anyone can send `Host: evil.example` with
 * `Origin: http://evil.example` (a DNS-rebinding page does exactly that), so only configuration
 * names the app's origins. The live upgrade (/live) checks the same set (live/extensions).
 */
import type { FastifyRequest } from "fastify";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function originOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

export function isSameOriginRequest(request: FastifyRequest, trusted: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
  if (!origin) return false;
  return trusted.has(origin);
}
