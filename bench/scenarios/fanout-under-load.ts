/**
 * Scenario — live fan-out while the board API is busy. The board of `board-api` (N seeded work
 * items) and the subscribers of `live-fanout` (`--clients` members, one WebSocket each, on
 * `project.{id}`) on one server, then three phases of `--seconds` each:
 * 1. idle: `--patches` PATCHes on a fixed schedule, nothing else running — the fan-out alone;
 * 2. list alone: autocannon with `--connections` connections on the grouped list the board
 *    loads, the subscribers connected but quiet;
 * 3. under load: the same autocannon run and, inside it, the same PATCH schedule again.
 * The headline is the fan-out p99 from a PATCH request's start to its event at the last (Nth)
 * subscriber, idle and under load, next to the grouped list's median and p99 alone and under the
 * fan-out. PGlite runs in its own thread (live-server/src/db/pglite-worker.ts), so a slow query
 * no longer blocks the sockets, but it still runs one statement at a time: a PATCH's queries
 * wait behind the list's.
 *
 * Every client and autocannon run in the bench process (one event loop): its CPU is reported.
 */
import { LIVE_LIMITS, projectChannelName } from "@tideline/shared";
import { adminHeaders, firstItemIds, groupedListPath, seededBoard } from "../lib/board.ts";
import {
  awaitEvents,
  type FanoutLatencies,
  fanoutLatencies,
  type PatchRun,
  sendPatches,
  subscribeClients,
} from "../lib/fanout.ts";
import { type LoadResult, runLoad } from "../lib/load.ts";
import { type Figure, figures, max, median, numberFlag, percentile, type Scenario, sleep } from "../lib/scenario.ts";

export const scenario: Scenario = {
  id: "fanout-under-load",
  title: "Live fan-out to 500 subscribers, idle and while 10 connections load the grouped board list",
  defaults: {
    items: 10_000,
    members: 10,
    labels: 8,
    clients: 500,
    connections: 10,
    patches: 200,
    seconds: 20,
    "patch-items": 20,
    port: 3421,
  },
  async run(ctx) {
    const fig = figures("fanout-under-load", ctx);
    const items = numberFlag(ctx, "items", 10_000);
    const clients = Math.max(1, numberFlag(ctx, "clients", 500));
    const connections = Math.max(1, numberFlag(ctx, "connections", 10));
    const patches = Math.max(1, numberFlag(ctx, "patches", 200));
    const seconds = Math.max(1, numberFlag(ctx, "seconds", 20));
    const port = numberFlag(ctx, "port", 3421);

    const board = await seededBoard(ctx, {
      label: "fanout-under-load",
      port,
      items,
      members: numberFlag(ctx, "members", 10),
      labels: numberFlag(ctx, "labels", 8),
      liveMembers: clients,
    });
    const { server, fixture } = board;
    const api = fixture.admin.api;
    const headers = adminHeaders(fixture, server);
    const list = groupedListPath(fixture);
    const patchItems = await firstItemIds(api, fixture.projectPath, Math.max(1, numberFlag(ctx, "patch-items", 20)));
    if (patchItems.length === 0) throw new Error("no work items to PATCH");

    const channel = projectChannelName(fixture.project.id);
    const subscription = await subscribeClients({
      servers: [server],
      people: board.liveMembers,
      fallback: fixture.admin,
      channel,
      clients,
    });
    const { subscribers, refusals, refused } = subscription;
    ctx.log(
      `${subscribers.length}/${clients} clients subscribed to ${channel} in ${(subscription.connectMs / 1000).toFixed(1)} s` +
        (refused ? `; refused: ${[...refusals].map(([r, n]) => `${n} ${r}`).join(", ")}` : ""),
    );
    if (subscribers.length === 0) throw new Error("no client could subscribe");
    const n = subscribers.length;

    // Warm-up (JIT, plan caches, PGlite buffers) of both paths, not measured.
    await runLoad({ url: server.url, path: list, headers, connections: 2, durationSeconds: 2 });
    const warm = await sendPatches({
      apis: [api],
      projectPath: fixture.projectPath,
      items: patchItems,
      count: Math.min(10, patches),
      seconds: 1,
      first: 0,
    });
    await awaitEvents(subscribers, warm, 5_000);

    /** Server and bench-process CPU over `work`, as % of one core. */
    const measured = async <T>(work: () => Promise<T>) => {
      const cpuStart = server.cpuSeconds();
      const ownStart = process.cpuUsage();
      const started = performance.now();
      const result = await work();
      const elapsed = (performance.now() - started) / 1000;
      const own = process.cpuUsage(ownStart);
      return {
        result,
        serverCpu: ((server.cpuSeconds() - cpuStart) / elapsed) * 100,
        ownCpu: ((own.user + own.system) / 1e6 / elapsed) * 100,
      };
    };
    // PATCH indices key the arrivals: each phase continues where the previous one stopped.
    const patchPhase = (first: number) => async () => {
      const run = await sendPatches({
        apis: [api],
        projectPath: fixture.projectPath,
        items: patchItems,
        count: patches,
        seconds,
        first,
      });
      await awaitEvents(subscribers, run);
      return run;
    };

    // ── 1. idle fan-out ──
    const idle = await measured(patchPhase(warm.indices.length));
    const idleLatencies = fanoutLatencies(subscribers, idle.result);
    ctx.log(`idle: fan-out p99 ${Math.round(percentile(idleLatencies.toLastSubscriber, 99))} ms`);

    // ── 2. the grouped list alone ──
    const alone = await measured(() =>
      runLoad({ url: server.url, path: list, headers, connections, durationSeconds: seconds }),
    );
    ctx.log(`grouped list alone: p50 ${alone.result.medianMs} ms, p99 ${alone.result.p99Ms} ms`);

    // ── 3. the same PATCH schedule inside the list load (which starts a second earlier and ends a second later) ──
    const loaded = await measured(async () => {
      const load = runLoad({ url: server.url, path: list, headers, connections, durationSeconds: seconds + 2 });
      await sleep(1_000);
      const run = await patchPhase(warm.indices.length + patches)();
      return { run, load: await load };
    });
    const loadedLatencies = fanoutLatencies(subscribers, loaded.result.run);
    ctx.log(
      `under load: fan-out p99 ${Math.round(percentile(loadedLatencies.toLastSubscriber, 99))} ms; grouped list p50 ${loaded.result.load.medianMs} ms, p99 ${loaded.result.load.p99Ms} ms`,
    );

    const disconnected = subscribers.filter((s) => s.opened.provider.isSynced === false).length;
    for (const s of subscribers) s.destroy();
    await board.dispose();

    const fanoutFigures = (phase: string, run: PatchRun, l: FanoutLatencies, serverCpu: number): Figure[] => [
      fig(
        `${phase}: fan-out p99 (request → ${n}th subscriber)`,
        percentile(l.toLastSubscriber, 99),
        "ms",
        `per PATCH, from its request's start to the last subscriber's arrival; ${l.toLastSubscriber.length} PATCHes`,
      ),
      fig(`${phase}: fan-out median (request → ${n}th subscriber)`, median(l.toLastSubscriber), "ms"),
      fig(
        `${phase}: request → event p99`,
        percentile(l.fromRequest, 99),
        "ms",
        "over every (subscriber, PATCH) pair, as live-fanout",
      ),
      fig(`${phase}: first → last subscriber, median`, median(l.spread), "ms", "per event: last arrival minus first"),
      fig(`${phase}: PATCH response, median`, median(l.response), "ms"),
      fig(
        `${phase}: events lost`,
        l.lost,
        "count",
        `of ${l.expected} expected; ${l.doubled} doubled; ${run.failed.size} PATCHes failed`,
      ),
      fig(`${phase}: server CPU`, serverCpu, "% core"),
    ];
    const listFigures = (phase: string, r: LoadResult): Figure[] => {
      const problems = r.non2xx || r.errors || r.timeouts ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : "";
      return [
        fig(`${phase}: median`, r.medianMs, "ms", `${connections} connections, ${seconds} s${problems}`),
        fig(`${phase}: p99`, r.p99Ms, "ms"),
        fig(`${phase}: requests/s`, r.requestsPerSecond, "req/s"),
      ];
    };

    const out: Figure[] = [
      fig(
        "clients subscribed",
        n,
        "clients",
        refused
          ? `${refused} refused: ${[...refusals].map(([r, k]) => `${k} ${r}`).join(", ")}`
          : `one WebSocket each; limit ${LIVE_LIMITS.maxClientsPerChannel} per channel`,
      ),
      ...fanoutFigures("idle", idle.result, idleLatencies, idle.serverCpu),
      ...fanoutFigures("under list load", loaded.result.run, loadedLatencies, loaded.serverCpu),
      ...listFigures("grouped list alone", alone.result),
      ...listFigures("grouped list under fan-out", loaded.result.load),
      fig(
        "load generator CPU, under list load",
        loaded.ownCpu,
        "% core",
        `${n} clients and autocannon in the bench process; idle phase ${Math.round(idle.ownCpu)} %`,
      ),
      fig("patched work items", patchItems.length, "items", `${patches} PATCHes per phase over ${seconds} s`),
    ];
    if (disconnected) out.push(fig("subscribers disconnected at the end", disconnected, "clients"));
    ctx.log(`slowest event under load: ${Math.round(max(loadedLatencies.fromRequest))} ms after its request`);
    return out;
  },
};
