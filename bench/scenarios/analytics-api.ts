/**
 * Scenario — analytics over 100,000 work items (issue 20: "answering in under 200 ms for
 * 100,000 work items on Postgres"). Seeds `--items` work items in one project (states, labels,
 * assignees spread out; lib/seed.ts), then asks every analytics call the screens make, one
 * request at a time, `--samples` times each after 3 warm-up requests: the two totals tabs, the
 * per-project stats, the counts of things, created vs resolved, custom charts (priority by state
 * group, labels by state group, assignees by state group, states in estimate points, created
 * date) and the project's per-assignee stats. Figures: median and p99 per call (ms, measured by
 * the client: HTTP and JSON included).
 */

import { seededBoard } from "../lib/board.ts";
import { figures, median, numberFlag, percentile, type Scenario } from "../lib/scenario.ts";

export const scenario: Scenario = {
  id: "analytics-api",
  title: "Analytics: every analytics call over 100,000 work items, one request at a time",
  defaults: { items: 100_000, members: 10, labels: 8, samples: 30, port: 3433 },
  async run(ctx) {
    const fig = figures("analytics-api", ctx);
    const items = numberFlag(ctx, "items", 100_000);
    const samples = Math.max(numberFlag(ctx, "samples", 30), 1);
    const board = await seededBoard(ctx, {
      label: "analytics-api",
      port: numberFlag(ctx, "port", 3433),
      items,
      members: numberFlag(ctx, "members", 10),
      labels: numberFlag(ctx, "labels", 8),
    });
    const { fixture } = board;
    const api = fixture.admin.api;
    const ws = `/api/workspaces/${fixture.workspace.slug}`;
    const chart = (params: Record<string, string>, base = ws) =>
      `${base}/advance-analytics-charts/?${new URLSearchParams(params)}`;
    const calls: { label: string; path: string }[] = [
      { label: "overview totals", path: `${ws}/advance-analytics/?tab=overview` },
      { label: "work-item totals", path: `${ws}/advance-analytics/?tab=work-items` },
      { label: "stats per project", path: `${ws}/advance-analytics-stats/?type=work-items` },
      { label: "counts of things", path: chart({ type: "projects" }) },
      { label: "created vs resolved", path: chart({ type: "work-items" }) },
      {
        label: "priority by state group",
        path: chart({ type: "custom-work-items", x_axis: "PRIORITY", group_by: "STATE_GROUPS" }),
      },
      {
        label: "labels by state group",
        path: chart({ type: "custom-work-items", x_axis: "LABELS", group_by: "STATE_GROUPS" }),
      },
      {
        label: "assignees by state group",
        path: chart({ type: "custom-work-items", x_axis: "ASSIGNEES", group_by: "STATE_GROUPS" }),
      },
      {
        label: "states in estimate points",
        path: chart({ type: "custom-work-items", x_axis: "STATES", y_axis: "ESTIMATE_POINT_COUNT" }),
      },
      { label: "created date", path: chart({ type: "custom-work-items", x_axis: "CREATED_AT" }) },
      { label: "project stats per assignee", path: `${fixture.projectPath}/advance-analytics-stats/` },
    ];

    const out = [];
    for (const call of calls) {
      let last: unknown = null;
      for (let i = 0; i < 3; i++) last = await api.get(call.path); // warm-up: JIT, plans, buffers
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        last = await api.get(call.path);
        times.push(performance.now() - started);
      }
      const note = summarise(last);
      ctx.log(
        `${call.label}: median ${median(times).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms — ${note}`,
      );
      out.push(
        fig(`${call.label}: median`, median(times), "ms", note),
        fig(`${call.label}: p99`, percentile(times, 99), "ms"),
      );
    }
    out.push(fig("seed", board.seedMs, "ms", `${items} work items`));
    await board.dispose();
    return out;
  },
};

/** A short proof the answer held the seeded work: a total, or how many rows or bars. */
function summarise(answer: unknown): string {
  if (Array.isArray(answer)) return `${answer.length} rows`;
  if (answer && typeof answer === "object") {
    const a = answer as Record<string, unknown>;
    if (Array.isArray(a.data)) return `${a.data.length} bars`;
    const total = a.total_work_items as { count?: number } | undefined;
    if (total?.count !== undefined) return `${total.count} work items`;
  }
  return "";
}
