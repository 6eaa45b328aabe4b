/**
 * Cross-site request refusal for cookie-authenticated calls. An unsafe method (POST, PUT,
 * PATCH, DELETE) on /api or /auth is accepted only when its Origin — or, lacking one, its
 * Referer — is the app's own origin. Browsers always send Origin on cross-site POSTs, so no
 * other site can make these calls with our user's cookie; the app itself needs no token.
 */
import type { FastifyRequest } from "fastify";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** The origins the app answers as: APP_BASE_URL's, and the one the request itself addressed. */
export function allowedOrigins(request: FastifyRequest, appBaseUrl: string): Set<string> {
  const own = new Set([new URL(appBaseUrl).origin]);
  const host = request.headers.host;
  if (host) own.add(`${request.protocol}://${host}`);
  return own;
}

export function isSameOriginRequest(request: FastifyRequest, appBaseUrl: string): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
  if (!origin) return false;
  return allowedOrigins(request, appBaseUrl).has(origin);
}
