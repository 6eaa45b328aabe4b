/**
 * Scenario 1 — the board API under load. Seeds N work items in one project (states, labels,
 * assignees spread out), then drives autocannon at: the grouped list the board loads
 * (group_by=state_id, order_by=sort_order, 50 per group), the same list filtered by priority and
 * a label, and a single work-item PATCH (a real change each time, rotating over items so rows
 * don't all queue on one lock). Figures: median and p99 latency, requests per second. The lists
 * are shared answers while nothing changes (routes/issues/list-cache.ts); the grouped list is
 * measured again with sharing off (LIST_CACHE_ITEMS=0), the cost of computing it each time.
 */

import { adminHeaders, firstItemIds, groupedListPath, seededBoard } from "../lib/board.ts";
import { runLoad } from "../lib/load.ts";
import { figures, numberFlag, type Scenario, stringFlag } from "../lib/scenario.ts";
import { startServer } from "../lib/server.ts";

const PRIORITIES = ["urgent", "high", "medium", "low"] as const;

export const scenario: Scenario = {
  id: "board-api",
  title: "Board API: grouped list, filtered list and PATCH under autocannon",
  defaults: {
    items: 10_000,
    members: 10,
    labels: 8,
    connections: 10,
    duration: 10,
    "single-duration": 3,
    "patch-items": 200,
    port: 3401,
  },
  async run(ctx) {
    const fig = figures("board-api", ctx);
    const items = numberFlag(ctx, "items", 10_000);
    const connections = numberFlag(ctx, "connections", 10);
    const duration = numberFlag(ctx, "duration", 10);
    const port = numberFlag(ctx, "port", 3401);

    const board = await seededBoard(ctx, {
      label: "board-api",
      port,
      items,
      members: numberFlag(ctx, "members", 10),
      labels: numberFlag(ctx, "labels", 8),
    });
    const { server, fixture } = board;

    const api = fixture.admin.api;
    const headers = adminHeaders(fixture, server);
    const list = groupedListPath(fixture);
    const label = stringFlag(ctx, "label", fixture.labels[0]?.id ?? "");
    const filtered = `${list}&priority=urgent,high&labels=${label}`;

    // Items to PATCH: the first pages of the board (they exist, are visible and not archived).
    const patchIds = await firstItemIds(api, fixture.projectPath, Math.min(numberFlag(ctx, "patch-items", 200), items));
    if (patchIds.length === 0) throw new Error("no work items to PATCH");

    // Sanity: the grouped list answers with every state as a group, and counts the seeded items.
    const grouped = await api.get<{ total_count: number; results: Record<string, unknown> }>(list);
    ctx.log(`grouped list: ${Object.keys(grouped.results).length} groups, total_count ${grouped.total_count}`);
    // Warm-up (JIT, plan caches, PGlite buffers), not measured.
    await runLoad({ url: server.url, path: list, headers, connections: 2, durationSeconds: 2 });

    // One global request counter for every PATCH run: item = n mod items, priority = the next
    // one in the cycle on every visit, so each PATCH is a real change.
    let patchSeq = 0;
    let current = 0;
    const patchPath = (n: number) => `${fixture.projectPath}/issues/${patchIds[n % patchIds.length]}/`;
    const runs = [
      { name: "grouped list", load: { path: list } },
      { name: "filtered list", load: { path: filtered } },
      {
        name: "PATCH work item",
        note: `over ${patchIds.length} items`,
        load: {
          path: patchPath(0),
          method: "PATCH" as const,
          headers: { ...headers, "content-type": "application/json" },
          pathFor: () => {
            current = patchSeq++;
            return patchPath(current);
          },
          body: () =>
            JSON.stringify({ priority: PRIORITIES[Math.floor(current / patchIds.length) % PRIORITIES.length] }),
        },
      },
    ];
    const single = numberFlag(ctx, "single-duration", 3);
    const out = [];
    for (const run of runs) {
      const base = { url: server.url, headers, ...run.load };
      // One connection first: the cost of one request, without queueing behind the others —
      // and without the notifications the busy run's thousand PATCHes leave the server to write.
      const one = single > 0 ? await runLoad({ ...base, connections: 1, durationSeconds: single }) : null;
      const r = await runLoad({ ...base, connections, durationSeconds: duration });
      ctx.log(`${run.name}: p50 ${r.medianMs} ms, p99 ${r.p99Ms} ms, ${Math.round(r.requestsPerSecond)} req/s`);
      const problems = r.non2xx || r.errors || r.timeouts ? `${r.non2xx} non-2xx, ${r.errors} errors` : "";
      const note = [`${connections} connections`, run.note, problems].filter(Boolean).join("; ");
      out.push(
        fig(`${run.name}: median`, r.medianMs, "ms", note),
        fig(`${run.name}: p99`, r.p99Ms, "ms"),
        fig(`${run.name}: requests/s`, r.requestsPerSecond, "req/s"),
      );
      if (one) {
        ctx.log(`${run.name}, 1 connection: p50 ${one.medianMs} ms`);
        out.push(
          fig(
            `${run.name}: median, 1 connection`,
            one.medianMs,
            "ms",
            one.non2xx ? `${one.non2xx} non-2xx` : "measured before the busy run",
          ),
        );
      }
    }
    out.push(fig("seed work items", board.seedMs, "ms", `${items} items, one transaction`));

    // The runs above are served from the shared answers (list-cache.ts: nothing changes during a
    // list run). The cost of computing each list: the same store with sharing off.
    await server.stop();
    const computing = await startServer(ctx, { port, store: board.store, env: { LIST_CACHE_ITEMS: "0" } });
    try {
      await runLoad({ url: computing.url, path: list, headers, connections: 2, durationSeconds: 2 });
      const base = { url: computing.url, headers, path: list };
      const one = single > 0 ? await runLoad({ ...base, connections: 1, durationSeconds: single }) : null;
      const r = await runLoad({ ...base, connections, durationSeconds: duration });
      ctx.log(`grouped list, computed each time: p50 ${r.medianMs} ms, p99 ${r.p99Ms} ms`);
      out.push(
        fig(
          "grouped list, computed each time: median",
          r.medianMs,
          "ms",
          `${connections} connections; LIST_CACHE_ITEMS=0`,
        ),
        fig("grouped list, computed each time: p99", r.p99Ms, "ms"),
        fig("grouped list, computed each time: requests/s", r.requestsPerSecond, "req/s"),
      );
      if (one) out.push(fig("grouped list, computed each time: median, 1 connection", one.medianMs, "ms"));
    } finally {
      await computing.stop();
    }

    await board.dispose();
    return out;
  },
};
