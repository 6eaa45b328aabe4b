/**
 * For the local database's tests against the real server: the app on a fresh, migrated PGlite
 * database, reached through app.inject in place of the network (the browser's fetch is stubbed to
 * answer from it, with the session cookie of the user whose page it is). The server's modules are
 * loaded by path and typed here by the little the tests use: the client's type check must not
 * take in the server's sources (they have their own settings).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { vi } from "vitest";

export type Injected = {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
  json(): { id: string };
};
type App = {
  inject(request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: string;
  }): Promise<Injected>;
  ready(): Promise<unknown>;
  close(): Promise<unknown>;
};
type Database = { db: unknown; close(): Promise<void> };
export type TestUser = { id: string; token: string };
export type ApiClient = {
  get(url: string): Promise<Injected>;
  post(url: string, body?: unknown): Promise<Injected>;
  patch(url: string, body?: unknown): Promise<Injected>;
  delete(url: string): Promise<Injected>;
};
export type TestServer = {
  app: App;
  db: unknown;
  /** The API as `user` (app.inject with their session cookie and a trusted Origin). */
  client(user: TestUser): ApiClient;
  createUser(): Promise<TestUser>;
  /** A workspace owned by `owner`, with `members` at their workspace role. */
  createWorkspace(owner: TestUser, members?: { user: TestUser; role: number }[]): Promise<{ slug: string }>;
  /** From now on the page's fetch answers as `user`. */
  serveFetchAs(user: TestUser): void;
  close(): Promise<void>;
};

const SERVER_DIR = new URL("../../../../live-server/", import.meta.url).pathname;
const serverModule = async <T>(file: string): Promise<T> =>
  (await import(/* @vite-ignore */ `${SERVER_DIR}${file}`)) as T;

export async function startTestServer(): Promise<TestServer> {
  const { openPglite, migrateDatabase } = await serverModule<{
    openPglite(options: object): Promise<Database>;
    migrateDatabase(database: Database): Promise<void>;
  }>("src/db/client.ts");
  const { buildApp } = await serverModule<{ buildApp(config: unknown, options: object): Promise<App> }>("src/app.ts");
  const { loadConfig } = await serverModule<{ loadConfig(env: Record<string, string>): unknown }>("src/config.ts");
  const { SESSION_COOKIE } = await serverModule<{ SESSION_COOKIE: string }>("src/auth/sessions.ts");
  const harness = await serverModule<{
    ORIGIN: string;
    client(app: App, user: TestUser): ApiClient;
    createUser(db: unknown): Promise<TestUser>;
    createWorkspace(
      db: unknown,
      owner: TestUser,
      members?: { user: TestUser; role: number }[],
    ): Promise<{ slug: string }>;
  }>("test/harness.ts");
  const database = await openPglite({});
  await migrateDatabase(database);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tideline-local-db-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: "test-secret-key-that-is-long-enough-1234567890",
    APP_BASE_URL: harness.ORIGIN,
    LOG_LEVEL: "silent",
  });
  const app = await buildApp(config, { serveClient: false, database, logger: false });
  await app.ready();

  /** The browser's fetch, answered by the real app: same-origin requests carry the session cookie. */
  const serveFetchAs = (user: TestUser) => {
    const fetchThroughApp = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
      const res = await app.inject({
        method: request.method,
        url: url.pathname + url.search,
        headers: {
          ...Object.fromEntries(request.headers),
          origin: harness.ORIGIN,
          cookie: `${SESSION_COOKIE}=${user.token}`,
        },
        payload: body,
      });
      return new Response(res.statusCode === 204 ? null : res.body, {
        status: res.statusCode,
        headers: res.headers as Record<string, string>,
      });
    };
    vi.stubGlobal("fetch", fetchThroughApp);
    // Relative URLs (`/api/…`) resolve against the app's origin, as in the browser.
    (globalThis as Record<symbol, unknown>)[Symbol.for("undici.globalOrigin.1")] = new URL(harness.ORIGIN);
  };

  return {
    app,
    db: database.db,
    client: (user) => harness.client(app, user),
    createUser: () => harness.createUser(database.db),
    createWorkspace: (owner, members) => harness.createWorkspace(database.db, owner, members),
    serveFetchAs,
    close: async () => {
      vi.unstubAllGlobals();
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
