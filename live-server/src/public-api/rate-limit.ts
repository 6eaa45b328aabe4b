/**
 * Per-token rate limit of the public API (the reference: 60 a minute, API_KEY_RATE_LIMIT). A
 * fixed window per token, whose end is the X-RateLimit-Reset it answers.
 */
import type { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
export type RateLimitRule = { limit: number; windowMs: number };

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "60/minute", "100/m", "5/second", "1000/hour", "10000/day" → a rule; undefined when malformed. */
export function parseRate(text: string): RateLimitRule | undefined {
  const m = /^\s*(\d{1,9})\s*\/\s*([smhd])[a-z]*\s*$/i.exec(text);
  if (!m) return undefined;
  const limit = Number(m[1]);
  const unit = UNITS[(m[2] as string).toLowerCase()];
  if (!unit || limit < 1) return undefined;
  return { limit, windowMs: unit };
}

export type RateLimitState = { limit: number; remaining: number; resetAt: number; allowed: boolean };

/**
 * One window per token (rate-limiter-flexible): in this process's memory, or in Redis when
 * REDIS_URL is set, so that several instances count one allowance together.
 */
export class ApiKeyRateLimiter {
  readonly #rule: RateLimitRule;
  readonly #limiter: RateLimiterAbstract;

  constructor(rule: RateLimitRule, redis?: Redis) {
    this.#rule = rule;
    const options = {
      keyPrefix: "api-key",
      points: rule.limit,
      duration: Math.max(1, Math.round(rule.windowMs / 1000)),
    };
    this.#limiter = redis ? new RateLimiterRedis({ storeClient: redis, ...options }) : new RateLimiterMemory(options);
  }

  /** Count one call of `key`; answers whether it may run and the headers' figures. */
  async hit(key: string, now = Date.now()): Promise<RateLimitState> {
    const limit = this.#rule.limit;
    try {
      const res = await this.#limiter.consume(key);
      return { limit, remaining: res.remainingPoints, resetAt: now + res.msBeforeNext, allowed: true };
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        return { limit, remaining: 0, resetAt: now + error.msBeforeNext, allowed: false };
      }
      throw error;
    }
  }
}
