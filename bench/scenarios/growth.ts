/**
 * Scenario — how cost grows with size. The figures that matter most, measured at several board
 * sizes (`--sizes`, 1,000 / 10,000 / 50,000 work items) and memory at several counts of live
 * connections (`--connections-sizes`, 100 / 1,000 / 5,000), one row per size so the slope shows:
 *
 * - the grouped board list computed for each request (LIST_CACHE_ITEMS=0: the work a change
 *   costs) at 1 and 10 connections, and served shared (the steady state of a watched board);
 * - one PATCH alone (1 connection) and PATCH → fan-out to 100 subscribers of the project;
 * - the browser's first paint, warm first paint and filter → paint (list layout);
 * - the server's RSS with N live connections.
 *
 * It runs the scenarios that measure each (board-api, fanout-under-load, browser-board) once per
 * size with shorter runs, and keeps the figures named here, relabelled with the size.
 */
import type { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import {
  type BenchContext,
  type Figure,
  figures,
  median,
  numberFlag,
  type Scenario,
  sleep,
  stringFlag,
} from "../lib/scenario.ts";
import { createStore, startServer } from "../lib/server.ts";
import { liveClient, mapLimit, openDocument, setupFixture } from "../lib/setup.ts";
import { scenario as boardApi } from "./board-api.ts";
import { scenario as browserBoard } from "./browser-board.ts";
import { scenario as fanoutUnderLoad } from "./fanout-under-load.ts";

const MB = 1024 * 1024;

/** Which figures of each scenario the curve keeps, and the name it gives them. */
const KEPT: Record<string, Record<string, string>> = {
  "board-api": {
    "grouped list, computed each time: median, 1 connection": "grouped list computed, 1 connection: median",
    "grouped list, computed each time: p99": "grouped list computed, 10 connections: p99",
    "grouped list, computed each time: requests/s": "grouped list computed, 10 connections: requests/s",
    "grouped list: p99": "grouped list shared, 10 connections: p99",
    "PATCH work item: median, 1 connection": "PATCH alone (1 connection): median",
  },
  "fanout-under-load": {
    "idle: fan-out p99 (request → 100th subscriber)": "PATCH → fan-out to 100 subscribers: p99",
    "under list load: fan-out p99 (request → 100th subscriber)":
      "PATCH → fan-out to 100 subscribers, under the list load: p99",
  },
  "browser-board": {
    "list: first painted board": "browser: cold first paint (list)",
    "list: warm: board on screen": "browser: warm, board on screen (list; the kept picture)",
    "list: warm: first painted board": "browser: warm first paint (list)",
    "list: filter change → painted, median": "browser: filter → paint, median (list)",
  },
};

const sized = (n: number) => n.toLocaleString("en-US");

/** Run `scenario` with `flags` over its defaults, in a context of its own (same scratch folder). */
async function runWith(ctx: BenchContext, scenario: Scenario, flags: Record<string, string | number>) {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...scenario.defaults, ...flags })) merged[k] = String(v);
  const inner: BenchContext = { ...ctx, flags: merged, log: (msg) => ctx.log(`${scenario.id}: ${msg}`) };
  return scenario.run(inner);
}

export const scenario: Scenario = {
  id: "growth",
  title: "How cost grows: list, PATCH, fan-out and browser at 1k/10k/50k items; memory at 100/1k/5k connections",
  defaults: { sizes: "1000,10000,50000", "connections-sizes": "100,1000,5000", port: 3441 },
  async run(ctx) {
    const fig = figures("growth", ctx);
    const sizes = stringFlag(ctx, "sizes", "1000,10000,50000").split(",").map(Number).filter(Boolean);
    const connectionSizes = stringFlag(ctx, "connections-sizes", "100,1000,5000")
      .split(",")
      .map(Number)
      .filter(Boolean);
    const port = numberFlag(ctx, "port", 3441);
    const rows = new Map<string, Figure[]>();
    const keep = (name: string, figure: Figure) => rows.set(name, [...(rows.get(name) ?? []), figure]);

    for (const items of sizes) {
      const runs: [Scenario, Record<string, string | number>][] = [
        [boardApi, { items, duration: 5, "single-duration": 2, port }],
        [fanoutUnderLoad, { items, clients: 100, patches: 60, seconds: 6, port: port + 1 }],
        [browserBoard, { items, layouts: "list", "filter-changes": 4, port: port + 2 }],
      ];
      for (const [inner, flags] of runs) {
        const kept = KEPT[inner.id] ?? {};
        let found: Figure[] = [];
        try {
          found = await runWith(ctx, inner, flags);
        } catch (error) {
          ctx.log(`${inner.id} at ${sized(items)} items failed: ${error instanceof Error ? error.message : error}`);
        }
        for (const [metric, name] of Object.entries(kept)) {
          const figure = found.find((f) => f.metric === metric);
          keep(
            name,
            fig(
              `${name} — ${sized(items)} items`,
              figure?.value ?? Number.NaN,
              figure?.unit ?? "ms",
              figure ? undefined : "not measured",
            ),
          );
        }
      }
    }

    // Memory with N live connections: one server, clients added up to each size in turn.
    const store = await createStore(ctx, "growth-memory");
    const first = await startServer(ctx, { port: port + 3, store });
    const fixture = await setupFixture(first.url, { members: 20, log: ctx.log }).finally(() => first.stop());
    // Started again on the filled folder, as memory-startup measures: a fresh folder's first start
    // (its database created and migrated) leaves the process hundreds of MB larger.
    const server = await startServer(ctx, { port: port + 3, store });
    const sockets: HocuspocusProviderWebsocket[] = [];
    const providers: HocuspocusProvider[] = [];
    try {
      const people = [fixture.admin, ...fixture.members];
      await sleep(2000);
      const rss = async () => {
        const samples: number[] = [];
        for (let i = 0; i < 5; i++) {
          samples.push(server.rssBytes() / MB);
          await sleep(200);
        }
        return median(samples);
      };
      keep("RSS, idle", fig("RSS with live connections — 0 connections", await rss(), "MB"));
      for (const target of connectionSizes) {
        const from = sockets.length;
        await mapLimit(Array.from({ length: Math.max(0, target - from) }), 50, async (_, k) => {
          const i = from + k;
          const person = people[i % people.length] as (typeof people)[number];
          const socket = liveClient(server.url, person.cookie);
          sockets.push(socket);
          // Like memory-startup: the first 90 watch the project, the others their own channel.
          const channel = i < 90 ? `project.${fixture.project.id}` : `user.${person.id}`;
          providers.push((await openDocument(socket, channel)).provider);
        });
        await sleep(2000);
        keep("RSS", fig(`RSS with live connections — ${sized(target)} connections`, await rss(), "MB"));
        ctx.log(`${sized(sockets.length)} connections: RSS ${(server.rssBytes() / MB).toFixed(0)} MB`);
      }
    } finally {
      for (const provider of providers) provider.destroy();
      for (const socket of sockets) socket.destroy();
      await server.stop();
      await store.dispose();
    }

    // One metric's sizes together, in the order measured.
    return [...rows.values()].flat();
  },
};
