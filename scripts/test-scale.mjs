#!/usr/bin/env node
/**
 * `npm run test:scale`: the "outgrown one machine" set-up under test. Runs the API suite against
 * a real PostgreSQL instead of the embedded PGlite (the vitest global setup builds a migrated
 * template database, clones one per test file and drops them all afterwards), then, when it
 * passed, the `scale` project: two server processes sharing a fresh database and Redis
 * (live-server/test/scale/).
 *
 *   DATABASE_URL  admin connection, default postgres://postgres@127.0.0.1:5432/postgres
 *                 (needs CREATE DATABASE; the suite never touches existing databases)
 *   REDIS_URL     default redis://127.0.0.1:6379 (required: the run stops when it does not answer)
 */
import { spawnSync } from "node:child_process";
import net from "node:net";
import pg from "pg";

const DATABASE_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

/** The URL without its password, for messages. */
function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}

async function checkPostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query("select current_setting('server_version') as version");
    return { ok: true, version: rows[0]?.version };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.end().catch(() => {});
  }
}

/** PING over a plain socket, so this check needs no Redis client library. */
function pingRedis(url, timeoutMs = 2000) {
  return new Promise((resolve) => {
    let u;
    try {
      u = new URL(url);
    } catch {
      resolve({ ok: false, error: "not a URL" });
      return;
    }
    if (u.protocol === "rediss:") {
      resolve({ ok: true, skipped: "TLS (rediss://) is not checked here" });
      return;
    }
    const socket = net.connect({ host: u.hostname || "127.0.0.1", port: Number(u.port || 6379) });
    let answer = "";
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, error: `no answer within ${timeoutMs} ms` }));
    socket.on("error", (error) => done({ ok: false, error: error.message }));
    socket.on("connect", () => {
      const password = decodeURIComponent(u.password);
      const user = decodeURIComponent(u.username);
      if (password) socket.write(user ? `AUTH ${user} ${password}\r\n` : `AUTH ${password}\r\n`);
      socket.write("PING\r\n");
    });
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
      if (answer.includes("+PONG")) done({ ok: true });
      else if (answer.startsWith("-") && answer.includes("\r\n")) done({ ok: false, error: answer.trim() });
    });
  });
}

const postgres = await checkPostgres(DATABASE_URL);
if (!postgres.ok) {
  console.error(
    [
      `test:scale: PostgreSQL does not answer at ${redact(DATABASE_URL)}: ${postgres.error}`,
      "Start a PostgreSQL (14 or later) and point DATABASE_URL at a role that may CREATE DATABASE, e.g.",
      "  docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:17",
      "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run test:scale",
    ].join("\n"),
  );
  process.exit(1);
}
console.log(`test:scale: PostgreSQL ${postgres.version} at ${redact(DATABASE_URL)}`);

const redis = await pingRedis(REDIS_URL);
if (!redis.ok) {
  // The multi-instance live tests relay documents and events through Redis: they cannot run without it.
  console.error(
    [
      `test:scale: Redis does not answer at ${redact(REDIS_URL)}: ${redis.error}`,
      "The live tests across two instances need it. Start a Redis (6 or later) and point REDIS_URL at it, e.g.",
      "  redis-server --daemonize yes --port 6379 --save '' --appendonly no",
      "  docker run -d -p 6379:6379 redis:7",
      "  REDIS_URL=redis://127.0.0.1:6379 npm run test:scale",
    ].join("\n"),
  );
  process.exit(1);
}
console.log(`test:scale: Redis at ${redact(REDIS_URL)}${redis.skipped ? ` (${redis.skipped})` : " answers PING"}`);

const env = { ...process.env, TEST_DATABASE_URL: DATABASE_URL, REDIS_URL };
// The API suite builds its own app per file; the server itself must not pick the admin URL up.
delete env.DATABASE_URL;

function run(label, args) {
  console.log(`\ntest:scale: ${label}\n$ npx ${args.join(" ")}`);
  const result = spawnSync("npx", args, { stdio: "inherit", env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

let status = run("API integration suite on PostgreSQL", ["vitest", "run", "--project", "api"]);

// Two real server processes (ports 3301 and 3302) on a fresh database and the same Redis: a
// page co-edited by a client on each, and board events crossing instances.
if (status === 0) {
  status = run("live layer across two instances (PostgreSQL + Redis)", ["vitest", "run", "--project", "scale"]);
}

process.exit(status);
