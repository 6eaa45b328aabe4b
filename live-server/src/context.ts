/**
 * What every route and service reaches through `app.ctx`: configuration, database, mailer,
 * job queue and rate limiters. Built once in buildApp(); tests build their own.
 */

import type { AuthRateLimiter } from "./auth/rate-limit.ts";
import type { SessionUser } from "./auth/sessions.ts";
import type { Config } from "./config.ts";
import type { Database, Db } from "./db/client.ts";
import type { EventBus } from "./events/bus.ts";
import type { JobQueue } from "./jobs/queue.ts";
import type { LiveService } from "./live/service.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { ListResponse } from "./routes/issues/list.ts";
import type { ListCache } from "./routes/issues/list-cache.ts";

export type AppContext = {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  jobs: JobQueue;
  authLimiter: AuthRateLimiter;
  /** Domain events, published after commit (live layer, webhooks, notifications). */
  events: EventBus;
  /** The live layer (Hocuspocus): broadcasts to `user.{id}` / `project.{id}`, metrics. */
  live: LiveService;
  /** Work-item list answers shared by those who ask the same way (routes/issues/list-cache.ts). */
  listCache: ListCache<ListResponse>;
};

declare module "fastify" {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** The signed-in user, or null. Set for every /api and /auth request. */
    user: SessionUser | null;
    sessionToken: string | undefined;
    isAdminSession: boolean;
  }
  interface FastifyContextConfig {
    /** Route answers without a session (sign-in, instance info, invitation preview). */
    public?: boolean;
  }
}
