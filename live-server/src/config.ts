/**
 * Configuration from the environment, parsed and validated once at start-up. A bad value stops
 * the process with a message that names the variable and what it expects.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseRate, type RateLimitRule } from "./public-api/rate-limit.ts";

const boolish = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9]\d{0,5}(kB|MB|GB)$/, "must be a size such as 32MB")
    .default("32MB"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must start with redis:// or rediss://")
    .optional(),
  APP_BASE_URL: z.url({ message: "must be an absolute URL such as https://work.example.com" }).optional(),
  SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_FROM: z.string().optional(),
  SMTP_SECURE: boolish.optional(),
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default("us-east-1"),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  CLIENT_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: boolish.default(false),
  API_KEY_RATE_LIMIT: z
    .string()
    .refine((v) => parseRate(v) !== undefined, 'must be "<number>/<second|minute|hour|day>", e.g. 60/minute')
    .default("60/minute"),
  WEBHOOK_ALLOW_PRIVATE: boolish.default(false),
  LIST_CACHE_ITEMS: z.coerce.number().int().min(0, "must be 0 (off) or more").default(20_000),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /**
   * The embedded database's buffer pool (PostgreSQL's shared_buffers). PGlite's own default is
   * 128MB, which the pool fills as boards are read; 32MB keeps a small team's server lean (the
   * operating system's file cache still holds the rest). Raise it for large workspaces.
   */
  pgliteSharedBuffers: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Public origin of the app, e.g. http://localhost:3000 — used for links in mail and Origin checks. */
  appBaseUrl: string;
  /**
   * The origins a browser may call the app from (the Origin check of unsafe methods and of the
   * /live upgrade): APP_BASE_URL's origin when it is set; otherwise this machine's loopback
   * names on PORT (localhost, 127.0.0.1, [::1]), so `npm start` works from any of them.
   */
  trustedOrigins: ReadonlySet<string>;
  secretKey: string;
  smtp: { host: string; port: number; user?: string; password?: string; from: string; secure: boolean } | undefined;
  storage:
    | { driver: "local"; dir: string }
    | {
        driver: "s3";
        endpoint?: string;
        region: string;
        bucket: string;
        accessKeyId: string;
        secretAccessKey: string;
      };
  clientDist: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  /** Calls a public-API token may make per window (API_KEY_RATE_LIMIT, the reference's 60/minute). */
  apiKeyRateLimit: RateLimitRule;
  /**
   * Webhooks may target loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7) and CGNAT
   * addresses (a receiver on the same machine or network). Off by default: a workspace admin
   * could otherwise make the server call services that only it can reach.
   */
  webhookAllowPrivate: boolean;
  /**
   * How many work items the shared list answers may hold in memory across them
   * (routes/issues/list-cache.ts); 0 turns the sharing off (each list computed for its caller).
   */
  listCacheItems: number;
};

export class ConfigError extends Error {}

/** Parse the environment; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.STORAGE_DRIVER === "s3" && (!e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "Invalid configuration:\n  STORAGE_DRIVER=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
    );
  }
  const appBaseUrl = (e.APP_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const trustedOrigins = new Set(
    e.APP_BASE_URL
      ? [new URL(appBaseUrl).origin]
      : ["localhost", "127.0.0.1", "[::1]"].map((host) => new URL(`http://${host}:${e.PORT}`).origin),
  );
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    listCacheItems: e.LIST_CACHE_ITEMS,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    appBaseUrl,
    trustedOrigins,
    secretKey: e.SECRET_KEY ?? loadOrCreateSecret(dataDir),
    smtp: e.SMTP_HOST
      ? {
          host: e.SMTP_HOST,
          port: e.SMTP_PORT ?? 587,
          user: e.SMTP_USER,
          password: e.SMTP_PASSWORD,
          from: e.SMTP_FROM ?? `Tideline <no-reply@${new URL(appBaseUrl).hostname}>`,
          secure: e.SMTP_SECURE ?? false,
        }
      : undefined,
    storage:
      e.STORAGE_DRIVER === "s3"
        ? {
            driver: "s3",
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            bucket: e.S3_BUCKET as string,
            accessKeyId: e.S3_ACCESS_KEY_ID as string,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
          }
        : { driver: "local", dir: path.join(dataDir, "uploads") },
    clientDist: e.CLIENT_DIST,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    apiKeyRateLimit: parseRate(e.API_KEY_RATE_LIMIT) as RateLimitRule,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
  };
}

/** The secret key is generated on first start and kept in the data folder (mode 0600). */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString("base64url");
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  return key;
}
