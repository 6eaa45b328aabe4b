/**
 * buildApp(config) assembles the one server: REST API, auth forms, static client and (later)
 * the live WebSocket. It does not listen — main.ts does — so tests drive it with inject().
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { Redis } from "ioredis";
import { ZodError } from "zod";
import { AuthRateLimiter, type AuthRateLimits } from "./auth/rate-limit.ts";
import { SESSION_COOKIE, userForToken } from "./auth/sessions.ts";
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { EventBus } from "./events/bus.ts";
import { ApiError, forbidden, unauthorized, zodToApiError } from "./http/errors.ts";
import { databaseInputError, rejectUnstorableInput } from "./http/input.ts";
import { isSameOriginRequest } from "./http/origin.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { JobQueue } from "./jobs/queue.ts";
import { liveRoutes } from "./live/routes.ts";
import { LiveService } from "./live/service.ts";
import { Mailer } from "./mail/mailer.ts";
import { registerRoutes } from "./routes/index.ts";
import { ensureInstance } from "./routes/instances/service.ts";
import type { ListResponse } from "./routes/issues/list.ts";
import { ListCache } from "./routes/issues/list-cache.ts";

export type BuildOptions = {
  /** Use this database instead of opening the configured one (tests; main.ts opens it early). */
  database?: Database;
  /** Close `database` when the app closes (it is the caller's otherwise). */
  closeDatabase?: boolean;
  authRateLimits?: AuthRateLimits;
  /** Serve the built client (default: when client/dist exists). */
  serveClient?: boolean;
  logger?: boolean;
};

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
/** ioredis is loaded only when REDIS_URL is set: a faster start without it. */
const loadRedis = (): typeof Redis => (require("ioredis") as typeof import("ioredis")).Redis;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ["req.headers.cookie", "req.headers.authorization", 'req.headers["x-api-key"]'],
          },
    trustProxy: config.trustProxy,
    bodyLimit: 6 * 1024 * 1024,
    // `/api/users/notifications` and `/api/users/notifications/` are the same route.
    routerOptions: { ignoreTrailingSlash: true },
    // One line per request only when debugging; errors are logged either way.
    logController: new LogController({ disableRequestLogging: !["debug", "trace"].includes(config.logLevel) }),
  });

  const database = options.database ?? (await openDatabase(config));
  const jobs = new JobQueue(database.db, app.log);
  const rateLimitRedis = config.redisUrl
    ? new (loadRedis())(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : undefined;
  const events = new EventBus(app.log);
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    jobs,
    mailer: new Mailer(database.db, config, jobs, app.log),
    // With several instances the auth limits must count across all of them: keep them in Redis.
    authLimiter: new AuthRateLimiter(options.authRateLimits, rateLimitRedis),
    events,
    live: new LiveService({ db: database.db, events, config, log: app.log }),
    listCache: new ListCache<ListResponse>((page) => page.count, config.listCacheItems),
  };
  // Every change of a workspace, made here or relayed from another instance, retires its lists.
  events.subscribe((event) => ctx.listCache.onEvent(event));
  events.subscribeRelayed((event) => ctx.listCache.onEvent(event));
  app.decorate("ctx", ctx);
  await ensureInstance(ctx.db);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);

  app.decorateRequest("user", null);
  app.decorateRequest("sessionToken", undefined);
  app.decorateRequest("isAdminSession", false);

  const secureCookies = config.appBaseUrl.startsWith("https://");
  app.decorate("secureCookies", secureCookies);

  // Who is calling, and may they? Runs before body parsing so refusals are cheap.
  app.addHook("onRequest", async (request) => {
    const url = request.url;
    const isApi = url.startsWith("/api/");
    const isAuth = url.startsWith("/auth/");
    if (!isApi && !isAuth) return;
    // The public API (public-api/) authenticates with X-API-Key only: no cookie session, and no
    // Origin check (a browser never sends the key on its own, so there is no CSRF to stop).
    if (url === "/api/v1" || url.startsWith("/api/v1/") || url.startsWith("/api/v1?")) return;
    if (!isSameOriginRequest(request, config.trustedOrigins)) {
      throw forbidden("Cross-site request refused: the Origin header is not this app's origin.");
    }
    const token = request.cookies[SESSION_COOKIE];
    const found = await userForToken(ctx.db, token);
    if (found) {
      request.user = found.user;
      request.sessionToken = token;
      request.isAdminSession = found.isAdminSession;
    }
    if (isApi && !found && !request.routeOptions.config?.public) throw unauthorized();
  });

  // CSP, framing, referrer and sniffing headers on every answer (http/security-headers.ts).
  app.addHook("onSend", securityHeaders(config));

  // Malformed input (NUL, lone surrogates) is a 400 before any handler or SQL (http/input.ts).
  app.addHook("preValidation", rejectUnstorableInput);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send({ error: error.message, code: error.code, fields: error.fields });
    }
    if (error instanceof ZodError) {
      const apiError = zodToApiError(error);
      return reply.status(400).send({ error: apiError.message, code: apiError.code, fields: apiError.fields });
    }
    const inputError = databaseInputError(error);
    if (inputError) {
      request.log.warn({ err: error }, "input the database refused");
      return reply.status(400).send({ error: inputError.message, code: inputError.code });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ error: (error as Error).message, code: (error as { code?: string }).code });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ error: "Error! Something went wrong. Please try again.", code: "INTERNAL" });
  });

  await app.register(registerRoutes);
  await app.register(liveRoutes);

  const clientDist = config.clientDist ?? path.resolve(HERE, "../../client/dist");
  const serveClient = options.serveClient ?? existsSync(path.join(clientDist, "index.html"));
  if (serveClient) {
    await app.register(fastifyStatic, { root: clientDist, wildcard: false, index: false });
    app.get("/*", { config: { public: true } }, async (request, reply) => {
      const file = request.url.split("?")[0] ?? "/";
      // API, auth and live paths never fall back to the SPA: an unknown one is a JSON 404.
      if (/^\/(api|auth|live)(\/|$)/.test(file)) {
        return reply.status(404).send({ error: `No route for GET ${file}`, code: "NOT_FOUND" });
      }
      // Real files (hashed assets, icons) are served as they are; every app route gets the SPA.
      if (file !== "/" && existsSync(path.join(clientDist, file)) && !file.endsWith("/")) {
        return reply.sendFile(file.slice(1), {
          maxAge: file.startsWith("/assets/") ? "365d" : 0,
          immutable: file.startsWith("/assets/"),
        });
      }
      return reply.header("cache-control", "no-cache").sendFile("index.html");
    });
  }
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: `No route for ${request.method} ${request.url.split("?")[0]}`, code: "NOT_FOUND" }),
  );

  app.addHook("onReady", async () => {
    await ctx.live.ready();
    jobs.start();
  });
  app.addHook("onClose", async () => {
    await jobs.stop();
    rateLimitRedis?.disconnect();
    if (!options.database || options.closeDatabase) await database.close();
  });
  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    secureCookies: boolean;
  }
}
