/**
 * Scenario 2 — live fan-out. 500 clients subscribed to `project.{id}`, each a project member
 * with a session of their own on a WebSocket of its own (one HocuspocusProviderWebsocket +
 * HocuspocusProvider per simulated member, like one browser tab each, all in the bench process,
 * outside the server), then 200 work-item PATCHes sent on a fixed schedule over 20 s (open
 * loop: a slow answer doesn't delay the next PATCH). Every PATCH carries its own
 * `x-client-mutation-id`; each client notes when the `issue.updated` event with that id
 * arrives. Figures:
 * - PATCH → event: arrival minus the moment the PATCH's response was received, as asked. The
 *   server publishes an event right after its transaction commits, before it writes the
 *   response, so this is usually negative; "request → event" (from the request's start) and
 *   "first → last subscriber" (how long one event takes to reach every client) say more;
 * - lost = a (client, PATCH) pair with no event; doubled = one with more than one.
 *
 * Members are seeded in the database by default (bench/lib/seed-members.ts: 500 sign-ups cost a
 * scrypt hash each); `--signup=form` signs them up through the HTML form instead.
 *
 * One server by default: an event channel admits LIVE_LIMITS.maxClientsPerChannel connections
 * per instance (editable documents only maxClientsPerDocument), so 500 subscribers fit. On the
 * postgres backend `--instances=N` (at most 5, ports 3411–3415) spreads clients and PATCHes
 * round-robin over N servers sharing PostgreSQL + Redis (events cross instances through Redis);
 * clients refused with `too-many-clients` would be counted, not hidden.
 */
import { LIVE_LIMITS, projectChannelName } from "@tideline/shared";
import { awaitEvents, fanoutLatencies, sendPatches, subscribeClients } from "../lib/fanout.ts";
import {
  type Figure,
  figures,
  max,
  median,
  numberFlag,
  percentile,
  type Scenario,
  sleep,
  stringFlag,
} from "../lib/scenario.ts";
import { seedMembers } from "../lib/seed-members.ts";
import { createStore, type ServerHandle, startServer } from "../lib/server.ts";
import { ApiClient, type Member, setupFixture } from "../lib/setup.ts";

export const scenario: Scenario = {
  id: "live-fanout",
  title: "Live fan-out: 500 clients on project.{id}, 200 PATCHes over 20 s",
  defaults: { clients: 500, patches: 200, seconds: 20, items: 20, instances: 1, signup: "seed", port: 3411 },
  async run(ctx) {
    const fig = figures("live-fanout", ctx);
    const clients = numberFlag(ctx, "clients", 500);
    const patches = numberFlag(ctx, "patches", 200);
    const seconds = numberFlag(ctx, "seconds", 20);
    const itemCount = Math.max(1, numberFlag(ctx, "items", 20));
    const members = Math.max(1, numberFlag(ctx, "members", clients));
    const port = numberFlag(ctx, "port", 3411);
    let instances = Math.max(1, Number(stringFlag(ctx, "instances", "1")) || 1);
    if (ctx.backend === "pglite" && instances > 1) {
      ctx.log("PGlite belongs to one process: running one instance");
      instances = 1;
    }
    // Ports 3411–3415: five instances at most.
    instances = Math.min(instances, 5);

    const signup = stringFlag(ctx, "signup", "seed");

    const store = await createStore(ctx, "live-fanout");
    let first = await startServer(ctx, { port, store });
    const setupStarted = performance.now();
    const fixture = await setupFixture(first.url, { members: signup === "form" ? members : 0, log: ctx.log });
    let people: Member[] = fixture.members;
    if (signup !== "form") {
      // PGlite belongs to the running server: stop it, seed the folder, start again.
      if (ctx.backend === "pglite") await first.stop();
      people = await seedMembers(store, fixture, members);
      if (ctx.backend === "pglite") first = await startServer(ctx, { port, store });
    }
    ctx.log(
      `${people.length} members (${signup === "form" ? "signed up through the form" : "seeded in the database"}) in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );
    const servers: ServerHandle[] = [first];
    for (let i = 1; i < instances; i++) servers.push(await startServer(ctx, { port: port + i, store }));
    const admin = fixture.admin.api;
    const items: string[] = [];
    for (let i = 0; i < itemCount; i++) {
      const item = await admin.post<{ id: string }>(`${fixture.projectPath}/issues/`, { name: `Fan-out ${i + 1}` });
      items.push(item.id);
    }
    // The administrator's session on every instance (each checks Origin against its own URL).
    const apis = servers.map((s) => {
      if (s === first) return admin;
      const api = new ApiClient(s.url, admin.forwardedFor);
      for (const [k, v] of admin.cookies) api.cookies.set(k, v);
      return api;
    });

    // ── subscribe ──
    const channel = projectChannelName(fixture.project.id);
    const { subscribers, refusals, refused, connectMs } = await subscribeClients({
      servers,
      people,
      fallback: fixture.admin,
      channel,
      clients,
    });
    ctx.log(
      `${subscribers.length}/${clients} clients subscribed to ${channel} over ${instances} instance(s) in ${(connectMs / 1000).toFixed(1)} s` +
        (refused ? `; refused: ${[...refusals].map(([r, n]) => `${n} ${r}`).join(", ")}` : ""),
    );
    if (subscribers.length === 0) throw new Error("no client could subscribe");
    await sleep(500);

    // ── PATCHes ──
    const rssBefore = servers.map((s) => s.rssBytes());
    let rssPeak = rssBefore.reduce((a, b) => a + b, 0);
    const sampler = setInterval(() => {
      rssPeak = Math.max(
        rssPeak,
        servers.reduce((sum, s) => sum + s.rssBytes(), 0),
      );
    }, 250);
    const cpuStart = servers.map((s) => s.cpuSeconds());
    const ownStart = process.cpuUsage();
    const started = performance.now();
    const run = await sendPatches({ apis, projectPath: fixture.projectPath, items, count: patches, seconds });
    await awaitEvents(subscribers, run);
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const cpuSeconds = servers.reduce((sum, s, i) => sum + s.cpuSeconds() - (cpuStart[i] as number), 0);
    const own = process.cpuUsage(ownStart);

    const latencies = fanoutLatencies(subscribers, run);
    const { fromResponse, fromRequest, spread, lost, doubled, beforeResponse, expected } = latencies;
    const failedPatches = run.failed.size;
    const closedSockets = subscribers.filter((s) => s.opened.provider.isSynced === false).length;
    for (const s of subscribers) s.destroy();
    for (const server of servers) await server.stop();
    await store.dispose();

    const setupNote = `${subscribers.length} subscribers (one WebSocket each) over ${instances} instance(s)`;
    const out: Figure[] = [
      fig("clients subscribed", subscribers.length, "clients", setupNote),
      fig(
        "clients refused",
        refused,
        "clients",
        refused
          ? [...refusals].map(([r, n]) => `${n} ${r}`).join(", ")
          : `limit ${LIVE_LIMITS.maxClientsPerChannel} per channel per instance`,
      ),
      fig("subscribe all", connectMs, "ms", "20 at a time"),
      fig(
        "PATCH → event: median",
        median(fromResponse),
        "ms",
        `from the PATCH's response; ${beforeResponse} of ${fromResponse.length} arrived before it`,
      ),
      fig("PATCH → event: p99", percentile(fromResponse, 99), "ms"),
      fig("PATCH → event: max", max(fromResponse), "ms"),
      fig("request → event: median", median(fromRequest), "ms", "from the PATCH request's start"),
      fig("request → event: p99", percentile(fromRequest, 99), "ms"),
      fig("first → last subscriber: median", median(spread), "ms", "per event: last arrival minus first"),
      fig("first → last subscriber: max", max(spread), "ms"),
      fig("PATCH response: median", median(latencies.response), "ms"),
      fig("events lost", lost, "count", `of ${expected} expected (${patches - failedPatches} PATCHes × subscribers)`),
      fig("events doubled", doubled, "count"),
      fig("PATCHes failed", failedPatches, "count", `${patches} sent in ${(run.ms / 1000).toFixed(1)} s`),
      fig("server CPU", (cpuSeconds / elapsed) * 100, "% core", `sum over ${instances} instance(s), PATCH phase`),
      fig(
        "server RSS peak",
        rssPeak / 2 ** 20,
        "MB",
        `sum over ${instances} instance(s); before PATCHes ${Math.round(rssBefore.reduce((a, b) => a + b, 0) / 2 ** 20)} MB`,
      ),
      fig(
        "load generator CPU",
        ((own.user + own.system) / 1e6 / elapsed) * 100,
        "% core",
        "all clients in the bench process, 2 cores shared with the server(s)",
      ),
    ];
    if (closedSockets) out.push(fig("subscribers disconnected at the end", closedSockets, "clients"));
    return out;
  },
};
