/**
 * GET /api/timezones/ — the time-zone picker's list (timezones.ts), `{ timezones: [...] }`.
 * Public like the reference's (no workspace data in it); computed at most once an hour, since
 * offsets move only with daylight-saving changes.
 */
import type { FastifyInstance } from "fastify";
import { type TimezoneOption, timezoneOptions } from "./timezones.ts";

const HOUR_MS = 60 * 60 * 1000;

export async function timezonesRoutes(app: FastifyInstance): Promise<void> {
  let cached: { hour: number; body: { timezones: TimezoneOption[] } } | null = null;

  app.get("/api/timezones/", { config: { public: true } }, async (_request, reply) => {
    const hour = Math.floor(Date.now() / HOUR_MS);
    if (cached?.hour !== hour) cached = { hour, body: { timezones: timezoneOptions() } };
    void reply.header("cache-control", "public, max-age=3600");
    return cached.body;
  });
}
