/**
 * The shape every benchmark scenario shares: what it is given (flags, backend, a scratch
 * folder, a logger), what it returns (figures), and small statistics helpers. Scenarios measure
 * and report; they never judge a timing, so nothing here can fail a run on a number.
 */

export type Backend = "pglite" | "postgres";

/** One measured number: a row of the printed table and of bench/results/latest.json. */
export type Figure = {
  scenario: string;
  metric: string;
  value: number;
  unit: string;
  backend: Backend;
  note?: string;
};

export type BenchContext = {
  /** `--name=value` flags from the command line (`--name` alone is "true"), merged over the scenario's defaults. */
  flags: Record<string, string>;
  backend: Backend;
  /** Admin URL of PostgreSQL (backend "postgres"): scenarios create and drop their own database through it. */
  databaseUrl?: string;
  redisUrl?: string;
  log(msg: string): void;
  /** A scratch folder of this scenario's run, removed afterwards. */
  tmpDir: string;
};

export type Scenario = {
  /** Kebab-case, equal to the file name: "board-api". */
  id: string;
  title: string;
  /** Flag defaults; each may be overridden with `--key=value`. */
  defaults: Record<string, number | string>;
  run(ctx: BenchContext): Promise<Figure[]>;
};

/** A numeric flag (falls back to `fallback` when absent or not a number). */
export function numberFlag(ctx: BenchContext, name: string, fallback: number): number {
  const raw = ctx.flags[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) ? value : fallback;
}

/** A string flag. */
export function stringFlag(ctx: BenchContext, name: string, fallback: string): string {
  return ctx.flags[name] ?? fallback;
}

/** The `p`-th percentile (0–100) by nearest rank on a sorted copy; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((Math.min(Math.max(p, 0), 100) / 100) * sorted.length);
  return sorted[Math.max(rank - 1, 0)] as number;
}

/** The median (mean of the two middle values for an even count); NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function max(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => Math.max(a, b));
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Round to `digits` decimals (figures are printed and stored rounded). */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A figure-maker bound to one scenario and backend: `fig("median", 12.3, "ms")`. */
export function figures(scenario: string, ctx: Pick<BenchContext, "backend">) {
  return (metric: string, value: number, unit: string, note?: string): Figure => ({
    scenario,
    metric,
    value: round(value, unit === "ms" || unit === "MB" || unit === "s" ? 1 : 2),
    unit,
    backend: ctx.backend,
    ...(note ? { note } : {}),
  });
}

/** Milliseconds since `start` (a performance.now() value). */
export function since(start: number): number {
  return performance.now() - start;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry `check` until it returns a truthy value, or throw after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    }
    await sleep(everyMs);
  }
}
