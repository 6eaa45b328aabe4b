/**
 * Scenario — exports (routes/exports): `--items` work items (100,000 by default, with assignees
 * and labels from lib/seed.ts) exported by the admin as csv, xlsx and json, one after another,
 * through the API: POST export-issues/, then the list polled until the export completes. The
 * export job reads the items in keyset batches and streams them into the file, so the server's
 * memory should not grow with the size of the export: the server's RSS is sampled every 100 ms
 * while each export runs. Figures per format: time from the POST to completed (s), the peak RSS
 * and its growth over the RSS just before the export (MB; the goal is under 200 MB), and the
 * file's size (MB). Another item count: `--items=20000`; only some formats: `--formats=csv,json`.
 */
import { seededBoard } from "../lib/board.ts";
import { figures, numberFlag, type Scenario, sleep, stringFlag } from "../lib/scenario.ts";

const MB = 1024 * 1024;

type ExportView = { id: string; status: string; size: number | null; reason: string; exported_items: number };

export const scenario: Scenario = {
  id: "export",
  title: "Exports: 100,000 work items as csv, xlsx and json — time and the server's peak RSS",
  defaults: { items: 100_000, formats: "csv,xlsx,json", port: 3441 },
  async run(ctx) {
    const fig = figures("export", ctx);
    const items = numberFlag(ctx, "items", 100_000);
    const port = numberFlag(ctx, "port", 3441);
    const formats = stringFlag(ctx, "formats", "csv,xlsx,json")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const board = await seededBoard(ctx, { label: "export", port, items, members: 5, labels: 8 });
    const out = [];
    try {
      const { server, fixture } = board;
      const admin = fixture.admin.api;
      const base = `/api/workspaces/${fixture.workspace.slug}/export-issues/`;
      for (const provider of formats) {
        // Settle, then the RSS the export starts from.
        await sleep(2000);
        const before = server.rssBytes();
        let peak = before;
        const started = performance.now();
        const answer = await admin.post<{ export: ExportView }>(base, { provider, project: [fixture.project.id] });
        const id = answer.export.id;
        let view: ExportView | undefined;
        let lastPoll = 0;
        for (;;) {
          peak = Math.max(peak, server.rssBytes());
          if (performance.now() - lastPoll > 500) {
            lastPoll = performance.now();
            const page = await admin.get<{ results: ExportView[] }>(`${base}?per_page=10&cursor=10:0:0`);
            view = page.results.find((e) => e.id === id);
            if (view && (view.status === "completed" || view.status === "failed")) break;
          }
          await sleep(100);
        }
        const seconds = (performance.now() - started) / 1000;
        if (view?.status !== "completed") {
          ctx.log(`${provider} export failed: ${view?.reason}`);
          continue;
        }
        ctx.log(`${provider}: ${view.exported_items} items in ${seconds.toFixed(1)} s`);
        out.push(
          fig(`${provider}: export time`, seconds, "s", `${view.exported_items} work items, POST → completed`),
          fig(`${provider}: peak RSS`, peak / MB, "MB", `sampled every 100 ms; ${(before / MB).toFixed(0)} MB before`),
          fig(`${provider}: RSS growth`, (peak - before) / MB, "MB", "peak − RSS before the export (goal < 200)"),
          fig(`${provider}: file size`, (view.size ?? 0) / MB, "MB"),
        );
      }
    } finally {
      await board.dispose();
    }
    return out;
  },
};
