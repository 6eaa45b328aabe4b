/**
 * X-API-Key authentication of /api/v1 (the reference's APIKeyAuthentication): no cookie, no
 * Origin check — a key is not sent by browsers on their own, so there is no CSRF to guard.
 * A deleted, switched-off or expired token, or one of a deactivated user, is a 401. The token
 * acts as its user (request.user), with that user's current roles, and only in its workspace:
 * a path naming another workspace is a 404, as a workspace the caller is not in.
 */
import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sha256 } from "../auth/crypto.ts";
import type { DbOrTx } from "../db/client.ts";
import { apiTokens, users, workspaces } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import type { ApiKeyRateLimiter } from "./rate-limit.ts";

export const API_KEY_HEADER = "x-api-key";
/** last_used is written at most this often per token: one small write a minute, not one a call. */
const LAST_USED_EVERY_MS = 60_000;

export type ApiTokenIdentity = { id: string; workspaceId: string; workspaceSlug: string };

const invalid = () => new ApiError(401, "Given API token is not valid", { code: "INVALID_API_TOKEN" });

/** The onRequest hook of /api/v1: who calls, within what limit, and in which workspace. */
export function apiKeyAuthentication(db: DbOrTx, limiter: ApiKeyRateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.routeOptions.config?.public) return;
    const raw = request.headers[API_KEY_HEADER];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key) throw new ApiError(401, "Authentication credentials were not provided.", { code: "UNAUTHENTICATED" });
    if (key.length > 200) throw invalid();
    const [row] = await db
      .select({ token: apiTokens, user: users, slug: workspaces.slug })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .innerJoin(workspaces, eq(workspaces.id, apiTokens.workspaceId))
      .where(eq(apiTokens.tokenHash, sha256(key)))
      .limit(1);
    const now = new Date();
    if (!row?.token.isActive || !row.user.isActive) throw invalid();
    if (row.token.expiredAt && row.token.expiredAt <= now) throw invalid();

    const state = await limiter.hit(row.token.id, now.getTime());
    reply.header("x-ratelimit-limit", String(state.limit));
    reply.header("x-ratelimit-remaining", String(state.remaining));
    reply.header("x-ratelimit-reset", String(Math.ceil(state.resetAt / 1000)));
    if (!state.allowed) {
      const wait = Math.max(1, Math.ceil((state.resetAt - now.getTime()) / 1000));
      reply.header("retry-after", String(wait));
      throw new ApiError(429, `Request was throttled. Expected available in ${wait} seconds.`, { code: "THROTTLED" });
    }

    request.user = row.user;
    request.apiToken = { id: row.token.id, workspaceId: row.token.workspaceId, workspaceSlug: row.slug };
    if (!row.token.lastUsed || now.getTime() - row.token.lastUsed.getTime() >= LAST_USED_EVERY_MS) {
      await db.update(apiTokens).set({ lastUsed: now }).where(eq(apiTokens.id, row.token.id));
    }

    const slug = (request.params as { slug?: string } | undefined)?.slug;
    if (slug !== undefined && String(slug).toLowerCase() !== row.slug) {
      throw new ApiError(404, "Workspace not found", { code: "NOT_FOUND" });
    }
  };
}

declare module "fastify" {
  interface FastifyRequest {
    /** The API token a /api/v1 call was made with. */
    apiToken?: ApiTokenIdentity;
  }
}
