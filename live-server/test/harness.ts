/**
 * Test harness for API integration tests: a real database per test file (a PGlite copy of the
 * migrated template, or a fresh PostgreSQL database cloned from it), the real app through
 * inject(), and factories that build users, sessions and workspaces with overrides.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROLE, type Role } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { type BuildOptions, buildApp } from "../src/app.ts";
import { hashPassword } from "../src/auth/crypto.ts";
import { createSession, SESSION_COOKIE } from "../src/auth/sessions.ts";
import { loadConfig } from "../src/config.ts";
import { type Database, openPostgres } from "../src/db/client.ts";
import { PgliteWorkerClient } from "../src/db/pglite-worker-client.ts";
import * as schema from "../src/db/schema.ts";
import { instance, instanceAdmins, userProfiles, users, workspaceMembers, workspaces } from "../src/db/schema.ts";
import { withDatabase } from "./global-setup.ts";

export const ORIGIN = "http://localhost:3000";

export async function createTestDatabase(): Promise<Database> {
  const pgTemplate = inject("postgresTemplate");
  const url = process.env.TEST_DATABASE_URL;
  if (pgTemplate && url) {
    const name = `${pgTemplate}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}" template "${pgTemplate}"`);
    // A test database is thrown away after its file: a commit need not wait for the disk. Every
    // commit of the suite otherwise waits for an fsync, which on a CI machine's disk is most of
    // the PostgreSQL pass's time. (The server itself never sets this; only test databases.)
    await admin.query(`alter database "${name}" set synchronous_commit = off`);
    await admin.end();
    return openPostgres(withDatabase(url, name), 5);
  }
  return leasePglite();
}

/**
 * Embedded databases this test worker keeps between files. Opening a copy of the template costs
 * about 0.8 s and 1.4 CPU-seconds (a thread, PostgreSQL's start, 43 MB of data folder) — over a
 * hundred files, a third of the suite's CPU. Vitest runs a worker's files one after another
 * (isolate: false keeps this module), so a database a file has closed is emptied and handed to
 * the next: the template has no rows (migrations create tables, no data), so emptying every
 * table and restarting their identities brings it back to the template's state.
 */
const idlePglite: PgliteWorkerClient[] = [];
let publicTables: string[] | undefined;

async function emptyDatabase(client: PgliteWorkerClient): Promise<void> {
  publicTables ??= (
    await client.query<{ name: string }>(
      "select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by tablename",
    )
  ).rows.map((row) => row.name);
  await client.query(`truncate table ${publicTables.join(", ")} restart identity cascade`);
}

async function leasePglite(): Promise<Database> {
  let client = idlePglite.pop();
  if (client) {
    client.keepProcessAlive(true);
    await emptyDatabase(client);
  } else {
    client = await PgliteWorkerClient.create({ loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]) });
  }
  const leased = client;
  // The file's app gets its own handle: once it has closed the database, a late query of that
  // app (a timer that outlived it) is refused instead of writing into the next file's data.
  let returned = false;
  const refuse = () => Promise.reject(new Error("This test database was closed."));
  const handle = {
    query: (...args: Parameters<PgliteWorkerClient["query"]>) => (returned ? refuse() : leased.query(...args)),
    transaction: <T>(fn: Parameters<PgliteWorkerClient["transaction"]>[0]) =>
      returned ? refuse() : (leased.transaction(fn as never) as Promise<T>),
  };
  return {
    // biome-ignore lint/suspicious/noExplicitAny: drizzle types its client as the PGlite class
    db: drizzlePglite({ client: handle as any, schema }) as unknown as Database["db"],
    kind: "pglite",
    close: async () => {
      if (returned) return;
      returned = true;
      if (leased.closed) return;
      leased.keepProcessAlive(false);
      idlePglite.push(leased);
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  db: Database["db"];
  close: () => Promise<void>;
};

/**
 * A fresh app on a fresh database; call close() in afterAll. `options` reaches buildApp (e.g.
 * `authRateLimits` to test the auth rate limit with tiny limits).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: Pick<BuildOptions, "authRateLimits" | "serveClient"> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tideline-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: "test-secret-key-that-is-long-enough-1234567890",
    APP_BASE_URL: ORIGIN,
    LOG_LEVEL: "silent",
    ...env,
  });
  const app = await buildApp(config, { serveClient: false, ...options, database, logger: false });
  await app.ready();
  return {
    app,
    db: database.db,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export type TestUser = typeof users.$inferSelect & { token: string; password: string };

/**
 * One scrypt hash per password for the whole file: the hash is real (sign-in verifies it the
 * way it verifies any stored hash), but scrypt is built to be slow, and suites make hundreds of
 * users with the same password. Only the salt is shared, which tests never look at.
 */
const hashedPasswords = new Map<string, Promise<string>>();
function testPasswordHash(password: string): Promise<string> {
  let hash = hashedPasswords.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashedPasswords.set(password, hash);
  }
  return hash;
}

/** A user with a profile and a live session; onboarded, with a proven address, unless told otherwise. */
export async function createUser(
  db: Database["db"],
  overrides: Partial<typeof users.$inferInsert> & { password?: string; onboarded?: boolean } = {},
): Promise<TestUser> {
  const { password = "correct horse battery staple", onboarded = true, ...fields } = overrides;
  const id = unique();
  const [user] = await db
    .insert(users)
    .values({
      email: `user-${id}@example.com`,
      passwordHash: await testPasswordHash(password),
      isPasswordAutoset: false,
      firstName: "Test",
      lastName: `User ${id}`,
      displayName: `user${id}`,
      isEmailVerified: true,
      ...fields,
    })
    .returning();
  if (!user) throw new Error("user insert failed");
  await db.insert(userProfiles).values({ userId: user.id, isOnboarded: onboarded });
  const token = await createSession(db, user.id, {});
  return { ...user, token, password };
}

/** Mark the instance as set up, with `admin` (or a new user) as its administrator. */
export async function setupInstance(db: Database["db"], admin?: TestUser): Promise<TestUser> {
  const user = admin ?? (await createUser(db, { email: `admin-${unique()}@example.com` }));
  await db.insert(instanceAdmins).values({ userId: user.id });
  await db.update(instance).set({ isSetupDone: true });
  return user;
}

export type TestWorkspace = typeof workspaces.$inferSelect;

/** A workspace owned by `owner` (admin), with extra members at the given roles. */
export async function createWorkspace(
  db: Database["db"],
  owner: TestUser,
  members: { user: TestUser; role: Role }[] = [],
  overrides: Partial<typeof workspaces.$inferInsert> = {},
): Promise<TestWorkspace> {
  const slug = `ws-${unique()}`;
  const [ws] = await db
    .insert(workspaces)
    .values({ name: `Workspace ${slug}`, slug, ownerId: owner.id, createdById: owner.id, ...overrides })
    .returning();
  if (!ws) throw new Error("workspace insert failed");
  await db
    .insert(workspaceMembers)
    .values([
      { workspaceId: ws.id, memberId: owner.id, role: ROLE.admin },
      ...members.map((m) => ({ workspaceId: ws.id, memberId: m.user.id, role: m.role })),
    ]);
  return ws;
}

export async function reloadUser(db: Database["db"], id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

type Body = InjectOptions["payload"];

/** Requests as `user` (or anonymous), from the app's own origin unless told otherwise. */
export function client(app: FastifyInstance, user?: { token: string } | null, headers: Record<string, string> = {}) {
  const call = (method: InjectOptions["method"], url: string, payload?: Body, extra: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      payload,
      headers: {
        origin: ORIGIN,
        ...(user ? { cookie: `${SESSION_COOKIE}=${user.token}` } : {}),
        ...headers,
        ...extra,
      },
    });
  return {
    get: (url: string, extra?: Record<string, string>) => call("GET", url, undefined, extra),
    post: (url: string, body?: Body, extra?: Record<string, string>) => call("POST", url, body ?? {}, extra),
    put: (url: string, body?: Body, extra?: Record<string, string>) => call("PUT", url, body ?? {}, extra),
    patch: (url: string, body?: Body, extra?: Record<string, string>) => call("PATCH", url, body ?? {}, extra),
    delete: (url: string, body?: Body, extra?: Record<string, string>) => call("DELETE", url, body, extra),
  };
}

/** POST an HTML form (urlencoded) the way a browser does, with a valid CSRF pair. */
export async function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  cookies: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const csrf = "csrf-token-for-tests-0123456789abcdef";
  const cookie = Object.entries({ csrftoken: csrf, ...cookies })
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
  return app.inject({
    method: "POST",
    url,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", cookie },
    payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, ...fields }).toString(),
  });
}

/** The query of a redirect's Location header, as an object. */
export function redirectQuery(res: LightMyRequestResponse): { path: string; query: Record<string, string> } {
  const location = String(res.headers.location ?? "");
  const url = new URL(location, ORIGIN);
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

/** The session token a response set, if any. */
export function sessionFrom(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === SESSION_COOKIE && c.value)?.value;
}
