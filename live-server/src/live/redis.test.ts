/**
 * Two instances behind one Redis and one database: events emitted on one reach the clients of
 * the other (once), documents edited on both stay in sync. Needs `redis-server` on the PATH
 * (skipped otherwise).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  type DomainEvent,
  issueDocumentName,
  LIVE_CLOSE,
  projectChannelName,
  ROLE,
  userChannelName,
  workspaceChannelName,
} from "@tideline/shared";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestDatabase, createUser, ORIGIN, postForm, type TestApp } from "../../test/harness.ts";
import { buildApp } from "../app.ts";
import { createSession } from "../auth/sessions.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { workspaceMembers } from "../db/schema.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import { addMember } from "../routes/projects/test-support.ts";
import { appendParagraph, bodyText, eventually, openTab, synced, type Tab } from "./test-support.ts";

const hasRedis = spawnSync("redis-server", ["--version"]).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

describe.skipIf(!hasRedis)("several instances with Redis", () => {
  let redis: ChildProcess;
  let database: Database;
  let dataDir: string;
  const apps: FastifyInstance[] = [];
  const urls: string[] = [];
  let f: Fixture;
  const tabs: Tab[] = [];
  const tab = (...args: Parameters<typeof openTab>) => {
    const opened = openTab(...args);
    tabs.push(opened);
    return opened;
  };

  beforeAll(async () => {
    const redisPort = await freePort();
    redis = spawn("redis-server", ["--port", String(redisPort), "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "tideline-redis-"));
    const config = loadConfig({
      DATA_DIR: dataDir,
      SECRET_KEY: "test-secret-key-that-is-long-enough-1234567890",
      APP_BASE_URL: ORIGIN,
      LOG_LEVEL: "silent",
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });
    await eventually(async () => {
      const res = spawnSync("redis-cli", ["-p", String(redisPort), "ping"]);
      expect(String(res.stdout)).toContain("PONG");
    });
    for (let i = 0; i < 2; i++) {
      const app = await buildApp(config, { database, serveClient: false, logger: false });
      await app.listen({ port: 0, host: "127.0.0.1" });
      const address = app.server.address();
      if (!address || typeof address === "string") throw new Error("no port");
      app.ctx.live.hocuspocus.configuration.debounce = 100;
      app.ctx.live.hocuspocus.configuration.maxDebounce = 500;
      apps.push(app);
      urls.push(`ws://127.0.0.1:${address.port}/live`);
    }
    const [first] = apps;
    if (!first) throw new Error("no app");
    const t: TestApp = { app: first, db: database.db, close: async () => {} };
    f = await createFixture(t);
  });

  afterAll(async () => {
    for (const t of tabs) t.destroy();
    for (const app of apps) await app.close();
    await database?.close();
    redis?.kill("SIGKILL");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const [a, b] = [0, 1];
  const t = (index: number): TestApp => ({
    app: apps[index] as FastifyInstance,
    db: database.db,
    close: async () => {},
  });

  it("delivers an event emitted on one instance to a client of the other, once", async () => {
    const channel = tab(urls[b] as string, f.w.member).open(projectChannelName(f.project.id));
    await synced(channel);
    const item = await createIssue(t(a), f.w.admin, f.project.url, { name: "From A" });
    await eventually(() => {
      const created = channel.messages.filter((m) => m.event.type === "issue.created" && m.event.entity_id === item.id);
      expect(created).toHaveLength(1);
    });
    // Relayed events are delivered, never re-emitted into B's own bus.
    const seenOnB: DomainEvent[] = [];
    const stop = apps[b]?.ctx.events.subscribe((e) => {
      seenOnB.push(e);
    });
    const res = await client(apps[a] as FastifyInstance, f.w.admin).patch(`${f.project.url}/issues/${item.id}/`, {
      name: "Renamed on A",
    });
    expect(res.statusCode).toBe(200);
    await eventually(() => expect(channel.messages.some((m) => m.event.data.name === "Renamed on A")).toBe(true));
    stop?.();
    expect(seenOnB).toEqual([]);
    expect(channel.messages.filter((m) => m.event.type === "issue.updated")).toHaveLength(1);
  });

  it("broadcasts to a user's tab connected to the other instance", async () => {
    const own = tab(urls[b] as string, f.w.member).open(userChannelName(f.w.member.id));
    await synced(own);
    const received: string[] = [];
    own.provider.on("stateless", ({ payload }: { payload: string }) => received.push(payload));
    apps[a]?.ctx.live.broadcastToUser(f.w.member.id, '{"type":"ping","n":2}');
    await eventually(() => expect(received).toContain('{"type":"ping","n":2}'));
  });

  it("carries workspace channel events to the other instance, a private view's to its owner only", async () => {
    const member = tab(urls[b] as string, f.w.member).open(workspaceChannelName(f.w.workspaceId));
    const admin = tab(urls[b] as string, f.w.admin).open(workspaceChannelName(f.w.workspaceId));
    await synced(member);
    await synced(admin);
    const views = `/api/workspaces/${f.w.slug}/views/`;
    const mine = (await client(apps[a] as FastifyInstance, f.w.member).post(views, { name: "Mine", access: 0 })).json();
    const shared = (await client(apps[a] as FastifyInstance, f.w.admin).post(views, { name: "For all" })).json();
    const created = (channel: typeof member, id: string) =>
      channel.messages.filter((m) => m.event.type === "view.created" && m.event.entity_id === id);
    await eventually(() => {
      expect(created(member, shared.id)).toHaveLength(1);
      expect(created(admin, shared.id)).toHaveLength(1);
      expect(created(member, mine.id)).toHaveLength(1);
    });
    expect(created(admin, mine.id)).toEqual([]);
  });

  it("keeps a document edited on both instances in sync, and stores it once", async () => {
    const item = await createIssue(t(a), f.w.member, f.project.url, { description_html: "<p>Shared</p>" });
    const name = issueDocumentName(item.id);
    const onA = tab(urls[a] as string, f.w.member).open(name);
    await synced(onA);
    const onB = tab(urls[b] as string, f.w.admin).open(name);
    await synced(onB);
    appendParagraph(onA.doc, "from A");
    appendParagraph(onB.doc, "from B");
    await synced(onA);
    await synced(onB);
    await eventually(() => {
      expect(bodyText(onA.doc)).toBe(bodyText(onB.doc));
      expect(bodyText(onA.doc)).toContain("from A");
      expect(bodyText(onA.doc)).toContain("from B");
    });
    for (const opened of tabs.splice(0)) opened.destroy();
    await eventually(async () => {
      const res = await client(apps[b] as FastifyInstance, f.w.member).get(`${f.project.url}/issues/${item.id}/`);
      const html = (res.json() as { description_html: string }).description_html;
      expect(html).toContain("<p>from A</p>");
      expect(html).toContain("<p>from B</p>");
      expect(html.match(/Shared/g)).toHaveLength(1);
    }, 15_000);
  });

  it("revokes on the other instance too: a sign-out and a removal made on A close the sockets on B within a second", async () => {
    const user = await createUser(database.db);
    await database.db
      .insert(workspaceMembers)
      .values({ workspaceId: f.w.workspaceId, memberId: user.id, role: ROLE.member });
    const projectRowId = await addMember(t(a), f.w.admin, f.w.slug, f.project.id, user, ROLE.member);
    const secondBrowser = { token: await createSession(database.db, user.id, {}) };
    const first = tab(urls[b] as string, user);
    const second = tab(urls[b] as string, secondBrowser);
    const firstChannel = first.open(projectChannelName(f.project.id));
    const secondChannel = second.open(projectChannelName(f.project.id));
    await synced(firstChannel);
    await synced(secondChannel);

    let start = performance.now();
    const signOut = await postForm(apps[a] as FastifyInstance, "/auth/sign-out/", {}, { "session-id": user.token });
    expect(signOut.statusCode).toBe(302);
    await eventually(() => expect(first.socketCloses).toContain(LIVE_CLOSE.unauthorized.code), 1000);
    const signOutMs = performance.now() - start;
    expect(second.socketCloses).toEqual([]);

    start = performance.now();
    const removal = await client(apps[a] as FastifyInstance, f.w.admin).delete(
      `${f.project.url}/members/${projectRowId}/`,
    );
    expect(removal.statusCode, removal.body).toBe(204);
    await eventually(() => expect(secondChannel.closes).toContain(LIVE_CLOSE.forbidden.reason), 1000);
    console.info(
      `cross-instance revocation (ms): sign-out ${Math.round(signOutMs)}, removal ${Math.round(performance.now() - start)}`,
    );
  });
});
