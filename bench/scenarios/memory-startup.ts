/**
 * Scenario 5 — memory and start-up. On one server process (RSS read from /proc): idle, with
 * 1,000 connected live clients (WebSockets each subscribed to project.{id} or user.{id}), with
 * 200 page documents open on top of them, and after everything closes and the documents unload
 * (it should come back near the idle figure). Start-up: time from spawning the process to the
 * first 200 from /api/instances/ on an existing data folder (median of several restarts).
 */
import { readFileSync } from "node:fs";
import type { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { ensureTemplate } from "../../live-server/src/db/build-template.ts";
import { figures, median, numberFlag, type Scenario, sleep, waitFor } from "../lib/scenario.ts";
import { createStore, type ServerHandle, startServer } from "../lib/server.ts";
import { liveClient, mapLimit, openDocument, setupFixture } from "../lib/setup.ts";

const MB = 1024 * 1024;

type LiveMetrics = { documents: number; connections: number; memory: { rss_bytes: number; heap_used_bytes: number } };

/** RSS sampled `samples` times over ~1 s, median (one sample can catch a GC in flight). */
async function rssMb(server: ServerHandle, samples = 5): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    values.push(server.rssBytes() / MB);
    await sleep(200);
  }
  return median(values);
}

export const scenario: Scenario = {
  id: "memory-startup",
  title: "Memory (idle, 1,000 live clients, 200 open pages, after close) and start-up time",
  defaults: { clients: 1000, pages: 200, members: 20, restarts: 3, settle: 3, port: 3402 },
  async run(ctx) {
    const fig = figures("memory-startup", ctx);
    const clients = numberFlag(ctx, "clients", 1000);
    const pageCount = numberFlag(ctx, "pages", 200);
    const restarts = Math.max(1, numberFlag(ctx, "restarts", 3));
    const settleMs = numberFlag(ctx, "settle", 3) * 1000;
    const port = numberFlag(ctx, "port", 3402);

    // A fresh data folder starts from the prepared database (npm run build makes it; made here
    // when missing, as a fresh clone's bench has not built): its first start is the fresh figure.
    if (ctx.backend === "pglite") {
      const template = await ensureTemplate();
      if (template.made) ctx.log(`embedded database template prepared: ${template.file}`);
    }
    const store = await createStore(ctx, "memory");
    let server = await startServer(ctx, { port, store });
    const freshStartMs = server.startupMs;
    const fixture = await setupFixture(server.url, { members: numberFlag(ctx, "members", 20), log: ctx.log });
    const admin = fixture.admin.api;
    const body = Array.from({ length: 20 }, (_, i) => `<p>Paragraph ${i + 1} of a benchmark page.</p>`).join("");
    const pageIds = await mapLimit(Array.from({ length: pageCount }), 4, async (_, i) => {
      const page = await admin.post<{ id: string }>(`${fixture.projectPath}/pages/`, {
        name: `Bench page ${i + 1}`,
        description_html: body,
      });
      return page.id;
    });
    ctx.log(`${pageIds.length} pages created`);
    await server.stop();

    // Start-up on the existing data folder, several times. At info level the server logs its own
    // start-up time (from main.ts running, i.e. after its modules loaded), which splits the figure.
    const startups: number[] = [];
    const mains: number[] = [];
    for (let i = 0; i < restarts; i++) {
      const probe = await startServer(ctx, { port, store, env: { LOG_LEVEL: "info" } });
      startups.push(probe.startupMs);
      await probe.stop();
      const logged = /"startupMs":(\d+)/.exec(readFileSync(probe.logFile, "utf8"))?.[1];
      if (logged) mains.push(Number(logged));
    }
    const out = [
      fig(
        "start-up to first 200 (fresh data folder)",
        freshStartMs,
        "ms",
        ctx.backend === "pglite"
          ? "the first start: database from the prepared template"
          : "the first start: migrations",
      ),
      fig(
        "start-up to first 200 (existing data)",
        median(startups),
        "ms",
        `median of ${restarts}: ${startups.map(Math.round).join(", ")} ms`,
      ),
    ];
    if (mains.length === startups.length) {
      const loading = startups.map((s, i) => s - (mains[i] as number));
      out.push(
        fig("start-up: Node until main.ts runs", median(loading), "ms", "spawn → main.ts's first line"),
        fig(
          "start-up: main.ts → listening",
          median(mains),
          "ms",
          "server's log: importing the app (compile cache on), opening + migrating the database, listening",
        ),
      );
    }
    // The server measured from here on logs at warn, as in production-like runs.
    server = await startServer(ctx, { port, store });

    const metrics = () => admin.get<LiveMetrics>("/api/instances/live-metrics/");
    await admin.get("/api/instances/");
    await sleep(settleMs);
    const idle = await rssMb(server);
    const heap = (m: LiveMetrics) => `heap ${Math.round(m.memory.heap_used_bytes / MB)} MB`;
    out.push(fig("RSS idle", idle, "MB", heap(await metrics())));
    ctx.log(`idle RSS ${idle.toFixed(0)} MB`);

    // 1,000 live clients: each its own WebSocket ("tab"), spread over the admin and members so
    // no channel passes the per-document client limit (LIVE_LIMITS.maxClientsPerDocument).
    const people = [fixture.admin, ...fixture.members];
    const projectChannelClients = Math.min(90, clients);
    const sockets: HocuspocusProviderWebsocket[] = [];
    const providers: HocuspocusProvider[] = [];
    const cpuBefore = server.cpuSeconds();
    const connectStarted = performance.now();
    try {
      await mapLimit(Array.from({ length: clients }), 50, async (_, i) => {
        const person = people[i % people.length] as (typeof people)[number];
        const socket = liveClient(server.url, person.cookie);
        sockets.push(socket);
        const channel = i < projectChannelClients ? `project.${fixture.project.id}` : `user.${person.id}`;
        providers.push((await openDocument(socket, channel)).provider);
      });
      const connectMs = performance.now() - connectStarted;
      ctx.log(`${clients} clients connected in ${Math.round(connectMs)} ms`);
      await sleep(settleMs);
      const withClients = await rssMb(server);
      const m1 = await metrics();
      out.push(
        fig(
          `RSS with ${clients} connected clients`,
          withClients,
          "MB",
          `${m1.connections} connections, ${m1.documents} channels; ${heap(m1)}`,
        ),
        fig(
          `connect ${clients} clients`,
          connectMs,
          "ms",
          `server CPU ${(server.cpuSeconds() - cpuBefore).toFixed(1)} s`,
        ),
      );

      // 200 page documents opened on 200 of those tabs (loaded from the database, built from HTML).
      const pagesStarted = performance.now();
      await mapLimit(pageIds, 20, async (pageId, i) => {
        providers.push(
          (await openDocument(sockets[i % sockets.length] as HocuspocusProviderWebsocket, `page.${pageId}`)).provider,
        );
      });
      const pagesMs = performance.now() - pagesStarted;
      await sleep(settleMs);
      const withPages = await rssMb(server);
      const m2 = await metrics();
      out.push(
        fig(
          `RSS with ${pageIds.length} open pages (+ clients)`,
          withPages,
          "MB",
          `${m2.documents} documents open; ${heap(m2)}`,
        ),
        fig(`open ${pageIds.length} pages`, pagesMs, "ms"),
      );
      ctx.log(`clients ${withClients.toFixed(0)} MB, + pages ${withPages.toFixed(0)} MB`);
    } finally {
      for (const provider of providers) provider.destroy();
      for (const socket of sockets) socket.destroy();
    }

    // Everything closed: wait until the server has unloaded every document, then let it settle.
    const closeStarted = performance.now();
    await waitFor(
      "every live document to unload",
      async () => {
        const m = await metrics();
        return m.documents === 0 && m.connections === 0;
      },
      60_000,
      200,
    );
    const unloadMs = performance.now() - closeStarted;
    await sleep(settleMs * 2);
    const after = await rssMb(server);
    const m3 = await metrics();
    const vsIdle = Math.round(((after - idle) / idle) * 100);
    out.push(
      fig(
        "RSS after all closed",
        after,
        "MB",
        `${Math.abs(vsIdle)}% ${vsIdle < 0 ? "under" : "over"} idle; unloaded in ${Math.round(unloadMs)} ms; ${heap(m3)}`,
      ),
    );
    ctx.log(`after close ${after.toFixed(0)} MB (idle ${idle.toFixed(0)} MB)`);

    await server.stop();
    await store.dispose();
    return out;
  },
};
