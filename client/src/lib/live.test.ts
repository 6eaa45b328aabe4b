/**
 * watchSharedChannel against the real live server: the app listening on a free port (the
 * server's own test harness, loaded by path), the client's live module over Node's WebSocket
 * (given the session cookie and an Origin, as a browser sends them), real domain events from
 * real API changes. The server's document counts its connections, so sharing is observed there.
 */

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DomainEvent } from "@tideline/shared";
import { projectChannelName } from "@tideline/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

type Injected = { statusCode: number; body: string };
type ApiClient = {
  post(url: string, body?: unknown): Promise<Injected>;
  get(url: string): Promise<Injected>;
  patch(url: string, body?: unknown): Promise<Injected>;
  delete(url: string): Promise<Injected>;
};
type LiveServer = {
  url: string;
  app: { ctx: { live: { hocuspocus: { documents: Map<string, { getConnectionsCount(): number }> } } } };
  close(): Promise<void>;
};
type Fixture = {
  w: { admin: { token: string }; member: { id: string; token: string } };
  project: { id: string; url: string };
};

const SERVER_DIR = new URL("../../../live-server/", import.meta.url).pathname;
const serverModule = async <T>(file: string): Promise<T> =>
  (await import(/* @vite-ignore */ `${SERVER_DIR}${file}`)) as T;

let server: LiveServer;
let fixture: Fixture;
let api: ApiClient;
let live: typeof import("./live");
let channel: string;
let dataDir = "";
/** The headers the page's WebSocket sends (the cookie names whose tab it is). */
let socketHeaders: { cookie: string; origin: string };
let sessionCookie = "";

type Database = { db: unknown; close(): Promise<void> };
type App = LiveServer["app"] & {
  ready(): Promise<unknown>;
  listen(options: { port: number; host: string }): Promise<unknown>;
  server: { address(): { port: number } | string | null };
  close(): Promise<unknown>;
};

beforeAll(async () => {
  const { openPglite, migrateDatabase } = await serverModule<{
    openPglite(options: object): Promise<Database>;
    migrateDatabase(database: Database): Promise<void>;
  }>("src/db/client.ts");
  const { buildApp } = await serverModule<{ buildApp(config: unknown, options: object): Promise<App> }>("src/app.ts");
  const { loadConfig } = await serverModule<{ loadConfig(env: Record<string, string>): unknown }>("src/config.ts");
  const { createFixture } = await serverModule<{ createFixture(t: unknown): Promise<Fixture> }>(
    "src/routes/issues/test-support.ts",
  );
  const harness = await serverModule<{ ORIGIN: string; client(app: unknown, user: unknown): ApiClient }>(
    "test/harness.ts",
  );
  const { SESSION_COOKIE } = await serverModule<{ SESSION_COOKIE: string }>("src/auth/sessions.ts");
  // The app on a fresh embedded database, listening on a free port (the API tests' template
  // database is theirs alone).
  const database = await openPglite({});
  await migrateDatabase(database);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "tideline-live-client-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: "test-secret-key-that-is-long-enough-1234567890",
    APP_BASE_URL: harness.ORIGIN,
    LOG_LEVEL: "silent",
  });
  const app = await buildApp(config, { serveClient: false, database, logger: false, closeDatabase: true });
  await app.ready();
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  server = { url: `ws://127.0.0.1:${address.port}/live`, app, close: async () => void (await app.close()) };
  fixture = await createFixture({ app, db: database.db, close: server.close });
  api = harness.client(server.app, fixture.w.admin);
  channel = projectChannelName(fixture.project.id);

  // The browser's side: its location (the live URL is built from it) and its WebSocket, which
  // sends the session cookie and the page's Origin on the upgrade.
  const host = new URL(server.url).host;
  vi.stubGlobal("window", {
    location: { protocol: "http:", host, assign: () => undefined },
    addEventListener: () => undefined,
  });
  sessionCookie = SESSION_COOKIE;
  const headers = { cookie: `${SESSION_COOKIE}=${fixture.w.admin.token}`, origin: harness.ORIGIN };
  socketHeaders = headers;
  const NodeWebSocket = globalThis.WebSocket;
  vi.stubGlobal(
    "WebSocket",
    class extends NodeWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        // Node's WebSocket takes the upgrade's headers in a second argument browsers don't have.
        super(url, { protocols, headers } as unknown as string[]);
      }
    },
  );
  vi.resetModules();
  live = await import("./live");
}, 120_000);

afterAll(async () => {
  live?.liveSocket().destroy();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  vi.unstubAllGlobals();
});

/** Connections the server holds on the channel's document (0 once it is unloaded). */
const connections = () => server.app.ctx.live.hocuspocus.documents.get(channel)?.getConnectionsCount() ?? 0;

/** A real change in the project: the server emits issue.created on the channel after commit. */
async function createItem(name: string): Promise<string> {
  const res = await api.post(`${fixture.project.url}/issues/`, { name });
  expect(res.statusCode, res.body).toBe(201);
  return (JSON.parse(res.body) as { id: string }).id;
}
const createdId = (e: DomainEvent) => (e.type === "issue.created" ? e.entity_id : null);

describe("watchSharedChannel", () => {
  it("shares one subscription per channel between watchers and closes it with the last one", async () => {
    const applied: string[] = [];
    const heard: string[] = [];
    const store = {
      apply: (e: DomainEvent) => applied.push(createdId(e) ?? e.type),
      catchUp: async () => undefined,
    };
    const stopFirst = live.watchSharedChannel(channel, store, {
      onEvent: (e) => heard.push(`first:${createdId(e)}`),
    });
    const stopSecond = live.watchSharedChannel(channel, store, {
      onEvent: (e) => heard.push(`second:${createdId(e)}`),
    });
    await vi.waitFor(() => expect(connections()).toBe(1), { timeout: 10_000 });

    const first = await createItem("Shared once");
    // The store applies it once, then every listener hears it.
    await vi.waitFor(() => expect(heard).toEqual([`first:${first}`, `second:${first}`]), { timeout: 10_000 });
    expect(applied).toEqual([first]);

    stopFirst();
    stopFirst(); // a second call must not count twice
    expect(connections()).toBe(1);
    const later = await createItem("Heard by the second only");
    await vi.waitFor(() => expect(heard.at(-1)).toBe(`second:${later}`), { timeout: 10_000 });
    expect(heard.filter((h) => h.startsWith("first:"))).toHaveLength(1);

    stopSecond();
    await vi.waitFor(() => expect(connections()).toBe(0), { timeout: 10_000 });
    // Watched again: a new subscription.
    const stopAgain = live.watchSharedChannel(channel, store);
    await vi.waitFor(() => expect(connections()).toBe(1), { timeout: 10_000 });
    stopAgain();
    await vi.waitFor(() => expect(connections()).toBe(0), { timeout: 10_000 });
  }, 60_000);

  it("a channel left and watched again at once (one screen to the next) still hears every event", async () => {
    const store = { apply: () => undefined, catchUp: async () => undefined };
    const heard: string[] = [];
    const stopBoard = live.watchSharedChannel(channel, store);
    await vi.waitFor(() => expect(connections()).toBe(1), { timeout: 10_000 });
    // The board unmounts and the next screen watches the same channel in the same tick: a close
    // and a new subscription under one name cross on the socket.
    stopBoard();
    const stopNext = live.watchSharedChannel(channel, store, { onEvent: (e) => heard.push(createdId(e) ?? e.type) });
    await vi.waitFor(() => expect(live.channelStates[channel]).toBe("live"), { timeout: 10_000 });
    const item = await createItem("Heard on the next screen");
    await vi.waitFor(() => expect(heard).toContain(item), { timeout: 10_000 });
    stopNext();
    await vi.waitFor(() => expect(connections()).toBe(0), { timeout: 10_000 });
  }, 60_000);

  it("tells the listeners of a (re)sync, catches the store up and holds events until it is done", async () => {
    const order: string[] = [];
    let finishCatchUp = () => {};
    const store = {
      apply: (e: DomainEvent) => order.push(`apply:${createdId(e)}`),
      catchUp: () =>
        new Promise<void>((resolve) => {
          order.push("catch-up");
          finishCatchUp = resolve;
        }),
    };
    const stop = live.watchSharedChannel(channel, store, { onSynced: () => order.push("listener-synced") });
    await vi.waitFor(() => expect(order).toEqual(["listener-synced", "catch-up"]), { timeout: 10_000 });

    // An event while the store catches up: held, not applied yet.
    const held = await createItem("Held during the catch-up");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(order).toEqual(["listener-synced", "catch-up"]);
    finishCatchUp();
    await vi.waitFor(() => expect(order).toEqual(["listener-synced", "catch-up", `apply:${held}`]), {
      timeout: 10_000,
    });
    stop();
  }, 60_000);
});

describe("a channel that follows the user's rights", () => {
  /** Where the member's project membership row is (to change their role as the admin). */
  let memberRow = "";
  let watching: (() => void) | null = null;

  beforeAll(async () => {
    // The member's tab from now on: a new socket with their cookie (a fresh module, as a new page).
    live.liveSocket().destroy();
    socketHeaders.cookie = `${sessionCookie}=${fixture.w.member.token}`;
    vi.resetModules();
    live = await import("./live");
    const rows = JSON.parse((await api.get(`${fixture.project.url}/members/`)).body) as {
      id: string;
      member: string;
    }[];
    memberRow = rows.find((r) => r.member === fixture.w.member.id)?.id ?? "";
    expect(memberRow).not.toBe("");
  });

  afterEach(async () => {
    watching?.();
    watching = null;
    // The server has let the channel go before the next test opens it again (a Close still in
    // flight would otherwise end the next connection of the same name).
    await vi.waitFor(() => expect(connections()).toBe(0), { timeout: 10_000 });
  });

  const status = () => live.channelStates[channel];
  const setRole = async (role: number) => {
    const res = await api.patch(`${fixture.project.url}/members/${memberRow}/`, { role });
    expect(res.statusCode, res.body).toBe(200);
  };

  it("a failed catch-up leaves it behind, is tried again on its own, and is live once it succeeds", async () => {
    let calls = 0;
    watching = live.watchSharedChannel(channel, {
      apply: () => undefined,
      catchUp: async () => {
        calls += 1;
        if (calls === 1) throw new Error("the delta call failed");
      },
    });
    await vi.waitFor(() => expect(status()).toBe("behind"), { timeout: 10_000 });
    await vi.waitFor(() => expect(status()).toBe("live"), { timeout: 10_000 });
    expect(calls).toBe(2);
  }, 30_000);

  it("demoted to a restricted guest and promoted back: each time the store is told, the channel opens again and catches up", async () => {
    const log: string[] = [];
    watching = live.watchSharedChannel(channel, {
      apply: () => undefined,
      catchUp: async () => {
        log.push("catch-up");
      },
      accessChanged: () => log.push("access-changed"),
    });
    await vi.waitFor(() => expect(status()).toBe("live"), { timeout: 10_000 });
    expect(log).toEqual(["catch-up"]);
    await setRole(5);
    await vi.waitFor(() => expect(log).toEqual(["catch-up", "access-changed", "catch-up"]), { timeout: 10_000 });
    await vi.waitFor(() => expect(status()).toBe("live"), { timeout: 10_000 });
    await setRole(15);
    await vi.waitFor(
      () => expect(log).toEqual(["catch-up", "access-changed", "catch-up", "access-changed", "catch-up"]),
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(status()).toBe("live"), { timeout: 10_000 });
  }, 60_000);

  it("removed from the project: the channel is refused forbidden and the store told", async () => {
    const refusals: string[] = [];
    watching = live.watchSharedChannel(channel, {
      apply: () => undefined,
      catchUp: async () => undefined,
      refused: (reason) => refusals.push(reason),
    });
    await vi.waitFor(() => expect(status()).toBe("live"), { timeout: 10_000 });
    const res = await api.delete(`${fixture.project.url}/members/${memberRow}/`);
    expect(res.statusCode, res.body).toBeLessThan(300);
    await vi.waitFor(() => expect(refusals).toEqual(["forbidden"]), { timeout: 10_000 });
    expect(status()).toBe("refused");
  }, 30_000);
});
