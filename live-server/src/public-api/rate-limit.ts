/**
 * Per-token rate limit of the public API (the reference: 60 a minute, API_KEY_RATE_LIMIT). A
 * fixed window per token: simple, and the window's end is the X-RateLimit-Reset it answers.
 * Counted in this process's memory: with several instances behind a balancer each counts its
 * own share (documented in README).
 */
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

export class ApiKeyRateLimiter {
  readonly #rule: RateLimitRule;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(rule: RateLimitRule) {
    this.#rule = rule;
  }

  /** Count one call of `key`; answers whether it may run and the headers' figures. */
  hit(key: string, now = Date.now()): RateLimitState {
    const { limit, windowMs } = this.#rule;
    let w = this.#windows.get(key);
    if (!w || now >= w.start + windowMs) {
      w = { start: now, count: 0 };
      this.#windows.set(key, w);
      if (this.#windows.size > 10_000) this.#sweep(now);
    }
    const allowed = w.count < limit;
    if (allowed) w.count += 1;
    return { limit, remaining: Math.max(0, limit - w.count), resetAt: w.start + windowMs, allowed };
  }

  #sweep(now: number): void {
    for (const [key, w] of this.#windows) if (now >= w.start + this.#rule.windowMs) this.#windows.delete(key);
  }
}
