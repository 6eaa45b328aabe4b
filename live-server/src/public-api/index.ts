/**
 * The public REST API under /api/v1 (the reference's plane/api): personal API tokens in the
 * X-API-Key header (auth.ts), a per-token rate limit (rate-limit.ts, API_KEY_RATE_LIMIT), the
 * reference's paths, cursor pagination and error bodies, and an OpenAPI document generated
 * from the routes (GET /api/v1/openapi.json, public). Handlers call the same services as the
 * web API, so every change emits the same domain events.
 */
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { apiKeyAuthentication } from "./auth.ts";
import { V1_PREFIX } from "./context.ts";
import { publicApiErrorHandler } from "./errors.ts";
import { registerExtraRoutes } from "./extras.ts";
import { registerIssueDetailRoutes } from "./issue-details.ts";
import { registerIssueRoutes } from "./issues.ts";
import { OpenApiRegistry } from "./openapi.ts";
import { registerPlanningRoutes } from "./planning.ts";
import { registerProjectRoutes } from "./projects.ts";
import { ApiKeyRateLimiter } from "./rate-limit.ts";

const require = createRequire(import.meta.url);

export async function publicApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (v1) => {
    const docs = new OpenApiRegistry();
    // With REDIS_URL the per-token counts are shared by every instance (ioredis loaded only then).
    const redisUrl = v1.ctx.config.redisUrl;
    const redis = redisUrl
      ? new (require("ioredis") as typeof import("ioredis")).Redis(redisUrl, { maxRetriesPerRequest: 2 })
      : undefined;
    if (redis) v1.addHook("onClose", async () => redis.disconnect());
    const limiter = new ApiKeyRateLimiter(v1.ctx.config.apiKeyRateLimit, redis);
    v1.setErrorHandler(publicApiErrorHandler);
    v1.addHook("onRequest", apiKeyAuthentication(v1.ctx.db, limiter));

    registerProjectRoutes({ app: v1, docs });
    registerIssueRoutes({ app: v1, docs });
    registerIssueDetailRoutes({ app: v1, docs });
    registerPlanningRoutes({ app: v1, docs });
    registerExtraRoutes({ app: v1, docs });

    let document: Record<string, unknown> | undefined;
    v1.get(`${V1_PREFIX}/openapi.json`, { config: { public: true } }, async () => {
      document ??= docs.document(`${v1.ctx.config.appBaseUrl}`);
      return document;
    });
  });
}
