/**
 * Rate limits for the auth endpoints. In memory on one instance; in Redis when REDIS_URL is set,
 * so the limits hold across instances.
 *
 * The rule: nothing an attacker does may keep the owner of an account from signing in with the
 * right password or the code mailed to them. Refusals (walls) are kept for calls that check no
 * secret; a credential check is only ever slowed down. Counted separately:
 * - per client source (the IP; an IPv6 address by its /64 network), every auth request that
 *   checks no secret (email-check, code and reset mails, sign-up): a wall, 5900;
 * - per source, requests and failed credential checks (wrong password, code or reset token):
 *   past the budget the source's credential checks queue — one at a time, spaced so that no
 *   more than the budget runs per minute — and a right one still gets in after its turn. Many
 *   people behind one NAT or a proxy without TRUST_PROXY are slowed, never refused, by each
 *   other's mistakes. A queue longer than `maxHoldMs` is a flood: that request alone is 5900;
 * - per e-mail address, the mails sent to it (codes, reset links): a wall against mail bombing;
 *   the code or link already delivered keeps working;
 * - per account, failed password checks: past the threshold every password check for it waits
 *   `lockDelayMs` first and then runs as usual. A success clears the count;
 * - mailed codes (six digits, so guessing needs its own bounds), never on the code itself:
 *   - per address and source: `codeTriesPerSource` wrong guesses per ten minutes; the next try
 *     from there is 5100/5102 without being compared — other sources' tries are untouched, so
 *     an attacker's guesses use up only the attacker's tries;
 *   - per address, from all sources (24 h): past `codeFailuresBeforeQueue` failures, guesses from
 *     sources that have guessed wrong before queue one at a time; the gap starts at `lockDelayMs`
 *     and doubles every `codeFailuresBeforeQueue` failures up to `codeMaxGapMs`. A source's
 *     first guess (the owner typing the code from the mail) is never queued. With the defaults a
 *     single network gets a few hundred guesses a day at one address, against a million codes.
 * Nothing is counted per address for the e-mail check, so hammering someone's address cannot
 * keep them from the sign-in screens.
 */
import { isIPv6 } from "node:net";
import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

export type AuthRateLimits = {
  /** Auth requests from one source per minute (a wall for calls that check no secret). */
  perIpPerMinute: number;
  /** Mails (codes, reset links) to one address per minute (a wall). */
  perEmailPerMinute: number;
  /** Failed credential checks from one source per minute before its checks queue. Default: a third of perIpPerMinute. */
  perIpFailuresPerMinute?: number;
  /** Failed password checks on one account (in 15 minutes) before its checks are slowed down. */
  accountFailuresBeforeDelay?: number;
  /** How long a password check for a locked account waits; the first gap of the code queue. */
  lockDelayMs?: number;
  /** Wrong code guesses one source may make at one address per ten minutes. */
  codeTriesPerSource?: number;
  /** Wrong code guesses at one address (24 h, all sources) before guesses queue. */
  codeFailuresBeforeQueue?: number;
  /** The widest gap between two queued code guesses at one address. */
  codeMaxGapMs?: number;
  /** The longest a credential check waits in a queue; a longer queue is a flood (5900). */
  maxHoldMs?: number;
};

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  perIpPerMinute: 60,
  perEmailPerMinute: 12,
  perIpFailuresPerMinute: 20,
  accountFailuresBeforeDelay: 10,
  lockDelayMs: 1500,
  codeTriesPerSource: 3,
  codeFailuresBeforeQueue: 10,
  codeMaxGapMs: 5 * 60 * 1000,
  maxHoldMs: 30_000,
};

const ACCOUNT_WINDOW_SECONDS = 15 * 60;
const CODE_TRIES_WINDOW_SECONDS = 10 * 60;
const CODE_ADDRESS_WINDOW_SECONDS = 24 * 60 * 60;
/** Points far above any threshold: such a counter is read, never used to refuse. */
const COUNT_ONLY = 1_000_000_000;

/** The key for an e-mail or account: lower-case and bounded, whatever the client sent. */
export const limitKey = (email: string): string => email.trim().toLowerCase().slice(0, 254);

/**
 * The key for a client source: the IP, an IPv4-mapped IPv6 address as IPv4, any other IPv6
 * address by its /64 network (one subscriber's line has a whole /64 to pick addresses from).
 */
export function sourceKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || "0", 16).toString(16))
    .join(":")}::/64`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * First-come turns, spaced: `reserve` books the next free moment of `key` (now, or `gapMs` after
 * the last booking) and answers how long to wait for it — or null, booking nothing, when that is
 * more than `maxWaitMs` away. Kept in Redis when the limits are, so every instance queues alike.
 */
export type TurnQueue = { reserve(key: string, gapMs: number, maxWaitMs: number): Promise<number | null> };

class MemoryTurns implements TurnQueue {
  private readonly next = new Map<string, number>();

  async reserve(key: string, gapMs: number, maxWaitMs: number): Promise<number | null> {
    const now = Date.now();
    if (this.next.size > 10_000) for (const [k, at] of this.next) if (at <= now) this.next.delete(k);
    const turn = Math.max(now, this.next.get(key) ?? 0);
    if (turn - now > maxWaitMs) return null;
    this.next.set(key, turn + gapMs);
    return turn - now;
  }
}

// One round trip, atomic: read the next free moment, book it, keep the key only as long as it matters.
const RESERVE_SCRIPT = `
local now = tonumber(ARGV[1])
local turn = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
if turn - now > tonumber(ARGV[3]) then return -1 end
local nextFree = turn + tonumber(ARGV[2])
redis.call('SET', KEYS[1], tostring(nextFree), 'PX', math.max(1, nextFree - now))
return turn - now
`;

class RedisTurns implements TurnQueue {
  private readonly redis: Redis;

  constructor(redis: Redis) {
    this.redis = redis;
  }

  async reserve(key: string, gapMs: number, maxWaitMs: number): Promise<number | null> {
    const wait = Number(
      await this.redis.eval(RESERVE_SCRIPT, 1, `auth-turn:${key}`, Date.now(), Math.ceil(gapMs), maxWaitMs),
    );
    return wait < 0 ? null : wait;
  }
}

/** A code guess allowed to go ahead; `clean`: the source's first try here, never queued. */
export type CodeGuess = { clean: boolean };

export class AuthRateLimiter {
  private readonly byIp: RateLimiterAbstract;
  private readonly failuresByIp: RateLimiterAbstract;
  private readonly mailsByEmail: RateLimiterAbstract;
  private readonly failuresByAccount: RateLimiterAbstract;
  private readonly codeTries: RateLimiterAbstract;
  private readonly codeFailuresBySource: RateLimiterAbstract;
  private readonly codeFailuresByAddress: RateLimiterAbstract;
  private readonly turns: TurnQueue;
  private readonly accountThreshold: number;
  private readonly codeQueueThreshold: number;
  private readonly codeMaxGapMs: number;
  readonly lockDelayMs: number;
  readonly maxHoldMs: number;

  constructor(limits: AuthRateLimits = DEFAULT_AUTH_RATE_LIMITS, redis?: Redis) {
    const make = (keyPrefix: string, points: number, duration = 60) =>
      redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    const d = DEFAULT_AUTH_RATE_LIMITS;
    const perIpFailures = limits.perIpFailuresPerMinute ?? Math.max(1, Math.floor(limits.perIpPerMinute / 3));
    this.accountThreshold = limits.accountFailuresBeforeDelay ?? d.accountFailuresBeforeDelay ?? 10;
    this.lockDelayMs = limits.lockDelayMs ?? d.lockDelayMs ?? 1500;
    this.maxHoldMs = limits.maxHoldMs ?? d.maxHoldMs ?? 30_000;
    this.codeQueueThreshold = limits.codeFailuresBeforeQueue ?? d.codeFailuresBeforeQueue ?? 10;
    this.codeMaxGapMs = limits.codeMaxGapMs ?? d.codeMaxGapMs ?? 300_000;
    this.byIp = make("auth-ip", limits.perIpPerMinute);
    this.failuresByIp = make("auth-ip-fail", perIpFailures);
    this.mailsByEmail = make("auth-mail", limits.perEmailPerMinute);
    this.failuresByAccount = make("auth-account-fail", COUNT_ONLY, ACCOUNT_WINDOW_SECONDS);
    this.codeTries = make(
      "auth-code-tries",
      limits.codeTriesPerSource ?? d.codeTriesPerSource ?? 3,
      CODE_TRIES_WINDOW_SECONDS,
    );
    this.codeFailuresBySource = make("auth-code-src-fail", COUNT_ONLY, CODE_ADDRESS_WINDOW_SECONDS);
    this.codeFailuresByAddress = make("auth-code-fail", COUNT_ONLY, CODE_ADDRESS_WINDOW_SECONDS);
    this.turns = redis ? new RedisTurns(redis) : new MemoryTurns();
  }

  /**
   * Count one auth request from `ip`; false when the source is over its request or failure wall.
   * For god-mode's first-run set-up form; every credential check (sign-in, codes, reset tokens,
   * the administrator's sign-in) uses `holdSource` instead.
   */
  async allowIp(ip: string): Promise<boolean> {
    const key = sourceKey(ip);
    const failures = await this.failuresByIp.get(key);
    if (failures && failures.consumedPoints >= this.failuresByIp.points) return false;
    return consumed(this.byIp, key);
  }

  /** Count one request that checks no secret; false when the source has had its share this minute. */
  allowRequest(ip: string): Promise<boolean> {
    return consumed(this.byIp, sourceKey(ip));
  }

  /** Count one request that checks a secret: counted like any other, never refused for it. */
  async noteRequest(ip: string): Promise<void> {
    await this.byIp.penalty(sourceKey(ip), 1);
  }

  /**
   * Before a credential check from `ip`: when the source is past its request or failure budget,
   * wait for its turn (one check per gap, so the budget is never exceeded per minute). False when
   * the queue is longer than `maxHoldMs` — a flood; the caller answers 5900.
   */
  async holdSource(ip: string): Promise<boolean> {
    const key = sourceKey(ip);
    const [requests, failures] = await Promise.all([this.byIp.get(key), this.failuresByIp.get(key)]);
    const gaps: number[] = [];
    if (requests && requests.consumedPoints > this.byIp.points) gaps.push(60_000 / this.byIp.points);
    if (failures && failures.consumedPoints >= this.failuresByIp.points) gaps.push(60_000 / this.failuresByIp.points);
    if (gaps.length === 0) return true;
    return this.waitTurn(`ip:${key}`, Math.max(...gaps));
  }

  /** Count one mail to `email`; false when the address has had its share this minute. */
  allowMail(email: string): Promise<boolean> {
    return consumed(this.mailsByEmail, limitKey(email));
  }

  /** Whether `account` has failed often enough to have its password checks slowed down. */
  async isLocked(account: string): Promise<boolean> {
    const res = await this.failuresByAccount.get(limitKey(account));
    return Boolean(res && res.consumedPoints >= this.accountThreshold);
  }

  /** Wait before a password check when the account is locked (never refuse: the owner gets in). */
  async holdIfLocked(account: string | undefined): Promise<void> {
    if (account && (await this.isLocked(account))) await sleep(this.lockDelayMs);
  }

  /** A failed credential check: one point for the source (a queue) and one for the account (a delay). */
  async recordFailure(ip: string, account: string | undefined): Promise<void> {
    await this.failuresByIp.penalty(sourceKey(ip), 1);
    if (account) await this.failuresByAccount.penalty(limitKey(account), 1);
  }

  /** A right password: the account's failure count starts again. */
  async recordSuccess(account: string | undefined): Promise<void> {
    if (account) await this.failuresByAccount.delete(limitKey(account));
  }

  /**
   * Take one of the source's tries at the codes of `email` before the guess is compared (so a
   * burst of parallel guesses cannot compare more than the tries). "exhausted": none left.
   */
  async startCodeGuess(email: string, ip: string): Promise<CodeGuess | "exhausted"> {
    const key = codeSourceKey(email, ip);
    let taken: RateLimiterRes;
    try {
      taken = await this.codeTries.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) return "exhausted";
      throw error;
    }
    const failed = await this.codeFailuresBySource.get(key);
    return { clean: taken.consumedPoints === 1 && !(failed && failed.consumedPoints > 0) };
  }

  /** Give back a try taken by `startCodeGuess` whose guess was never compared. */
  async returnCodeTry(email: string, ip: string): Promise<void> {
    await this.codeTries.reward(codeSourceKey(email, ip), 1);
  }

  /** Whether the source has used up its tries at the codes of `email`. */
  async codeTriesUsedUp(email: string, ip: string): Promise<boolean> {
    const res = await this.codeTries.get(codeSourceKey(email, ip));
    return Boolean(res && res.consumedPoints >= this.codeTries.points);
  }

  /** A new code was mailed at the source's request: its tries start again (its failures stay). */
  async restartCodeTries(email: string, ip: string): Promise<void> {
    await this.codeTries.delete(codeSourceKey(email, ip));
  }

  /**
   * Before comparing a guess from a source that guessed wrong before: once the address has had
   * its share of failures, wait for the address's turn. False when the queue is longer than
   * `maxHoldMs` (the caller answers 5900 and the guess is not compared).
   */
  async holdCodeGuess(email: string): Promise<boolean> {
    const key = limitKey(email);
    const failures = (await this.codeFailuresByAddress.get(key))?.consumedPoints ?? 0;
    if (failures < this.codeQueueThreshold) return true;
    const doublings = Math.floor((failures - this.codeQueueThreshold) / this.codeQueueThreshold);
    const gap = Math.min(this.codeMaxGapMs, this.lockDelayMs * 2 ** Math.min(doublings, 30));
    return this.waitTurn(`code:${key}`, gap);
  }

  /** A wrong code: counted for the address, the source at this address, and the source. */
  async recordCodeFailure(email: string, ip: string): Promise<void> {
    await Promise.all([
      this.codeFailuresByAddress.penalty(limitKey(email), 1),
      this.codeFailuresBySource.penalty(codeSourceKey(email, ip), 1),
      this.failuresByIp.penalty(sourceKey(ip), 1),
    ]);
  }

  /** A right code: the source's tries and failures at this address start again. */
  async recordCodeSuccess(email: string, ip: string): Promise<void> {
    const key = codeSourceKey(email, ip);
    await Promise.all([this.codeTries.delete(key), this.codeFailuresBySource.delete(key)]);
  }

  private async waitTurn(key: string, gapMs: number): Promise<boolean> {
    const wait = await this.turns.reserve(key, gapMs, this.maxHoldMs);
    if (wait === null) return false;
    if (wait > 0) await sleep(wait);
    return true;
  }
}

const codeSourceKey = (email: string, ip: string) => `${limitKey(email)}|${sourceKey(ip)}`;

async function consumed(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}
