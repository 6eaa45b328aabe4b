/**
 * Rate limits for the auth endpoints. In memory on one instance; in Redis when REDIS_URL is set,
 * so the limits hold across instances.
 *
 * Counted separately, so that an attacker's failures cannot lock the victim out:
 * - per client IP, every auth request and, more tightly, every failed credential check (wrong
 *   password, wrong or used-up code, bad reset token): walls — over them, the IP gets 5900;
 * - per e-mail address, the mails sent to it (sign-in and verification codes, reset links): a
 *   wall against mail bombing; the code or link already delivered keeps working;
 * - per account, failed credential checks: over the threshold the account is "locked", which
 *   only slows it down — every credential check for it waits `lockDelayMs` first and then runs
 *   as usual, so the right password or code still signs the owner in. A success clears the count.
 * Nothing is counted per address for the e-mail check, so hammering someone's address cannot
 * keep them from the sign-in screens.
 */
import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

export type AuthRateLimits = {
  /** Auth requests from one IP per minute (a wall). */
  perIpPerMinute: number;
  /** Mails (codes, reset links) to one address per minute (a wall). */
  perEmailPerMinute: number;
  /** Failed credential checks from one IP per minute (a wall). Default: a third of perIpPerMinute. */
  perIpFailuresPerMinute?: number;
  /** Failed credential checks on one account (in 15 minutes) before its checks are slowed down. */
  accountFailuresBeforeDelay?: number;
  /** How long a credential check for a locked account waits before it runs. */
  lockDelayMs?: number;
};

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  perIpPerMinute: 60,
  perEmailPerMinute: 12,
  perIpFailuresPerMinute: 20,
  accountFailuresBeforeDelay: 10,
  lockDelayMs: 1500,
};

const ACCOUNT_WINDOW_SECONDS = 15 * 60;

/** The key for an e-mail or account: lower-case and bounded, whatever the client sent. */
export const limitKey = (email: string): string => email.trim().toLowerCase().slice(0, 254);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class AuthRateLimiter {
  private readonly byIp: RateLimiterAbstract;
  private readonly failuresByIp: RateLimiterAbstract;
  private readonly mailsByEmail: RateLimiterAbstract;
  private readonly failuresByAccount: RateLimiterAbstract;
  private readonly accountThreshold: number;
  readonly lockDelayMs: number;

  constructor(limits: AuthRateLimits = DEFAULT_AUTH_RATE_LIMITS, redis?: Redis) {
    const make = (keyPrefix: string, points: number, duration = 60) =>
      redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    const perIpFailures = limits.perIpFailuresPerMinute ?? Math.max(1, Math.floor(limits.perIpPerMinute / 3));
    this.accountThreshold =
      limits.accountFailuresBeforeDelay ?? DEFAULT_AUTH_RATE_LIMITS.accountFailuresBeforeDelay ?? 10;
    this.lockDelayMs = limits.lockDelayMs ?? DEFAULT_AUTH_RATE_LIMITS.lockDelayMs ?? 1500;
    this.byIp = make("auth-ip", limits.perIpPerMinute);
    this.failuresByIp = make("auth-ip-fail", perIpFailures);
    this.mailsByEmail = make("auth-mail", limits.perEmailPerMinute);
    // Points far above the threshold: this counter is read, never used to refuse.
    this.failuresByAccount = make("auth-account-fail", 1_000_000, ACCOUNT_WINDOW_SECONDS);
  }

  /** Count one auth request from `ip`; false when the IP is over its request or failure wall. */
  async allowIp(ip: string): Promise<boolean> {
    const failures = await this.failuresByIp.get(ip);
    if (failures && failures.consumedPoints >= this.failuresByIp.points) return false;
    return consumed(this.byIp, ip);
  }

  /** Count one mail to `email`; false when the address has had its share this minute. */
  allowMail(email: string): Promise<boolean> {
    return consumed(this.mailsByEmail, limitKey(email));
  }

  /** Whether `account` has failed often enough to have its credential checks slowed down. */
  async isLocked(account: string): Promise<boolean> {
    const res = await this.failuresByAccount.get(limitKey(account));
    return Boolean(res && res.consumedPoints >= this.accountThreshold);
  }

  /** Wait before a credential check when the account is locked (never refuse: the owner gets in). */
  async holdIfLocked(account: string | undefined): Promise<void> {
    if (account && (await this.isLocked(account))) await sleep(this.lockDelayMs);
  }

  /** A failed credential check: one point for the IP (a wall) and one for the account (a delay). */
  async recordFailure(ip: string, account: string | undefined): Promise<void> {
    await this.failuresByIp.penalty(ip, 1);
    if (account) await this.failuresByAccount.penalty(limitKey(account), 1);
  }

  /** A right password or code: the account's failure count starts again. */
  async recordSuccess(account: string | undefined): Promise<void> {
    if (account) await this.failuresByAccount.delete(limitKey(account));
  }
}

async function consumed(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}
