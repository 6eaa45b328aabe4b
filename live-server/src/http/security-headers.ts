/**
 * Security headers on every response (an onSend hook; a header a route set itself — like the
 * sandboxing CSP of a served file, routes/assets/service.ts — is never replaced).
 *
 * - The app's pages and static files (the SPA's index.html, its scripts, styles, fonts): a
 *   Content-Security-Policy that allows only our own scripts (no inline script: the theme
 *   script is client/public/theme.js), no framing (`frame-ancestors 'none'` and
 *   X-Frame-Options DENY), no plugins, no <base> or form posts elsewhere. Images may come from
 *   any https address: the product stores external image URLs (workspace logos, avatars,
 *   covers, images in rich text). Connections go to our origins (HTTP and the /live
 *   WebSocket) and the S3 endpoint when uploads go there.
 * - API and auth responses (JSON, redirects): `default-src 'none'` — nothing they answer is
 *   meant to run as a page.
 * - Everywhere: nosniff, X-Frame-Options DENY and Referrer-Policy strict-origin-when-cross-origin.
 *   Not no-referrer: with it, browsers send `Origin: null` on same-origin form posts and
 *   fetches, which the Origin check (http/origin.ts) would refuse.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";

type Headers = Record<string, string>;

const COMMON: Headers = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
};

/** The origin browsers upload to and download from when files live in S3, if they do. */
export function storageOrigin(storage: Config["storage"]): string | null {
  if (storage.driver !== "s3") return null;
  if (storage.endpoint) return new URL(storage.endpoint).origin;
  // AWS itself: virtual-host addressing (S3Storage without an endpoint).
  return `https://${storage.bucket}.s3.${storage.region}.amazonaws.com`;
}

/** The Content-Security-Policy of the app's pages. */
export function pagePolicy(config: Pick<Config, "trustedOrigins" | "storage">): string {
  const s3 = storageOrigin(config.storage);
  // The live sockets of the trusted origins, for browsers whose 'self' leaves out ws: (CSP3's
  // matches it). Not an IPv6 literal such as [::1] (an origin when APP_BASE_URL is unset): a
  // source list can't name one, browsers log the policy as broken on every page load, and a
  // page served there reaches its own socket through 'self' anyway.
  const sockets = [...config.trustedOrigins]
    .filter((origin) => !new URL(origin).hostname.startsWith("["))
    .map((origin) => origin.replace(/^http/, "ws"));
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'"],
    // Styles: our stylesheets, plus the <style> elements and style attributes that the UI
    // libraries write at run time (toasts, editor, positioned popovers).
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:", "https:", ...(s3 ? [s3] : [])],
    ["font-src", "'self'", "data:"],
    ["connect-src", "'self'", ...sockets, ...(s3 ? [s3] : [])],
    ["worker-src", "'self'", "blob:"],
    ["manifest-src", "'self'"],
    ["frame-src", "'none'"],
    ["frame-ancestors", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["object-src", "'none'"],
  ];
  return directives.map((d) => d.join(" ")).join("; ");
}

export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Paths answered by the API (JSON), never by the client's files. */
const API_PATH = /^\/(api|auth|live)(\/|$|\?)/;

/** The onSend hook: adds the headers a response does not already carry. */
export function securityHeaders(config: Pick<Config, "trustedOrigins" | "storage">) {
  const page: Headers = { ...COMMON, "content-security-policy": pagePolicy(config) };
  const api: Headers = { ...COMMON, "content-security-policy": API_POLICY };
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const headers = API_PATH.test(request.url) ? api : page;
    for (const [name, value] of Object.entries(headers)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  };
}
