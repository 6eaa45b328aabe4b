/**
 * Rate limits for the auth endpoints, per client IP and per e-mail address. In memory on one
 * instance; in Redis when REDIS_URL is set, so the limit holds across instances.
 */
import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

export type AuthRateLimits = { perIpPerMinute: number; perEmailPerMinute: number };

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = { perIpPerMinute: 60, perEmailPerMinute: 12 };

export class AuthRateLimiter {
  private readonly byIp: RateLimiterAbstract;
  private readonly byEmail: RateLimiterAbstract;

  constructor(limits: AuthRateLimits = DEFAULT_AUTH_RATE_LIMITS, redis?: Redis) {
    const make = (keyPrefix: string, points: number) =>
      redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: 60 })
        : new RateLimiterMemory({ keyPrefix, points, duration: 60 });
    this.byIp = make("auth-ip", limits.perIpPerMinute);
    this.byEmail = make("auth-email", limits.perEmailPerMinute);
  }

  /** Count one attempt; false when either the IP or the e-mail is over its limit. */
  async allow(ip: string, email?: string): Promise<boolean> {
    try {
      await this.byIp.consume(ip);
      if (email) await this.byEmail.consume(email.toLowerCase());
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }
}
