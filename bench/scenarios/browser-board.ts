/**
 * Scenario 4 — the board in a real browser. Chromium (Playwright) opens a project with N work
 * items, once in the list layout and once in kanban, each in a fresh browser context (no cache):
 * - time to the first painted board: the client's `tideline:board:painted` mark, measured from
 *   navigation start;
 * - time until the whole project is in the local cache (the last v2 sync page has arrived);
 * - time from a filter change (a click on a priority in the Filters menu) to its painted result:
 *   the `tideline:filter:painted` mark after the click, several changes, median and max;
 * - the longest main-thread task (Long Tasks API) during the load and during the filter changes.
 */
import { chromium, type Page } from "playwright-core";
import { buildClient } from "../lib/client-build.ts";
import { figures, max, median, numberFlag, type Scenario, stringFlag } from "../lib/scenario.ts";
import { seedStore } from "../lib/seed.ts";
import { createStore, startServer } from "../lib/server.ts";
import { setupFixture } from "../lib/setup.ts";

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

type Task = { start: number; duration: number };

/** Collect long tasks from the first moment of every document (buffered observer). */
const LONG_TASK_COLLECTOR = `
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
`;

/** The start time (ms since navigation) of the first mark `name` after `after`, waiting for it. */
async function markAfter(page: Page, name: string, after: number, timeoutMs: number): Promise<number> {
  const handle = await page.waitForFunction(
    ([n, a]) => performance.getEntriesByName(n as string, "mark").find((m) => m.startTime > (a as number))?.startTime,
    [name, after] as const,
    { timeout: timeoutMs, polling: 10 },
  );
  return (await handle.jsonValue()) as number;
}

async function longTasks(page: Page): Promise<Task[]> {
  return page.evaluate(() => (window as unknown as { __benchLongTasks: Task[] }).__benchLongTasks ?? []);
}

/** Longest task overlapping [from, to] (0 when there was none: no task over 50 ms). */
function longestIn(tasks: Task[], from: number, to: number): number {
  return tasks.filter((t) => t.start < to && t.start + t.duration > from).reduce((m, t) => Math.max(m, t.duration), 0);
}

export const scenario: Scenario = {
  id: "browser-board",
  title: "The board in Chromium: first paint, filter change, longest task (list and kanban)",
  defaults: { items: 10_000, members: 10, labels: 8, "filter-changes": 4, layouts: "list,kanban", port: 3403 },
  async run(ctx) {
    const fig = figures("browser-board", ctx);
    const items = numberFlag(ctx, "items", 10_000);
    const changes = Math.max(1, numberFlag(ctx, "filter-changes", 4));
    const layouts = stringFlag(ctx, "layouts", "list,kanban")
      .split(",")
      .map((l) => l.trim())
      .filter((l) => l === "list" || l === "kanban");
    const port = numberFlag(ctx, "port", 3403);
    const timeoutMs = 120_000;

    const clientDist = await buildClient(ctx);
    const store = await createStore(ctx, "browser");
    let server = await startServer(ctx, { port, store, clientDist });
    const fixture = await setupFixture(server.url, {
      members: numberFlag(ctx, "members", 10),
      labels: numberFlag(ctx, "labels", 8),
      log: ctx.log,
    });
    await server.stop();
    const seeded = await seedStore(store, fixture, items);
    ctx.log(`seeded ${items} work items in ${Math.round(seeded.ms)} ms`);
    server = await startServer(ctx, { port, store, clientDist });

    const api = fixture.admin.api;
    const props = `${fixture.projectPath}/user-properties/`;
    const boardUrl = `${server.url}/${fixture.workspace.slug}/projects/${fixture.project.id}/issues/`;
    const token = fixture.admin.cookie.slice(fixture.admin.cookie.indexOf("=") + 1);
    const out = [];

    const browser = await chromium.launch({
      executablePath: stringFlag(ctx, "chromium", "/usr/bin/chromium"),
      args: CHROMIUM_ARGS,
    });
    try {
      for (const layout of layouts) {
        // The saved view decides the layout; start each layout without filters.
        await api.patch(props, { filters: { priority: null }, display_filters: { layout } });
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        await context.addCookies([{ name: "session-id", value: token, url: server.url }]);
        await context.addInitScript(LONG_TASK_COLLECTOR);
        const page = await context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));

        // The local cache is complete when a v2 sync page answers without a next cursor.
        let cacheLoadedAt: number | null = null;
        page.on("response", async (response) => {
          if (!response.url().includes("/v2/issues/")) return;
          try {
            const body = (await response.json()) as { next_cursor: string | null };
            if (body.next_cursor === null) cacheLoadedAt = await page.evaluate(() => performance.now());
          } catch {
            // a page that navigated away
          }
        });

        await page.goto(boardUrl, { waitUntil: "commit" });
        const painted = await markAfter(page, "tideline:board:painted", 0, timeoutMs);
        const deadline = Date.now() + timeoutMs;
        while (cacheLoadedAt === null && Date.now() < deadline) await page.waitForTimeout(50);
        if (cacheLoadedAt === null) throw new Error(`${layout}: the v2 sync never finished`);
        await page.waitForTimeout(500); // let the board settle on the full cache
        const loadTasks = await longTasks(page);
        const loadedAt = cacheLoadedAt as number;
        out.push(
          fig(`${layout}: first painted board`, painted, "ms", "from navigation start"),
          fig(`${layout}: all ${items} items cached`, loadedAt, "ms", "last v2 sync page, from navigation start"),
          fig(`${layout}: longest task during load`, longestIn(loadTasks, 0, Math.max(painted, loadedAt)), "ms"),
        );
        ctx.log(`${layout}: painted at ${Math.round(painted)} ms, cached at ${Math.round(loadedAt)} ms`);

        // Filter changes through the Filters menu: toggle priorities on, then off again.
        await page.getByRole("button", { name: "Filters", exact: true }).click();
        await page.locator(".wi-filter-option").first().waitFor({ timeout: timeoutMs });
        const toggles = ["Urgent", "High", "Urgent", "High", "Medium", "Medium"];
        const durations: number[] = [];
        const windows: [number, number][] = [];
        for (let i = 0; i < changes; i++) {
          const label = toggles[i % toggles.length] as string;
          const clickedAt = await page.evaluate((text) => {
            const section = [...document.querySelectorAll("fieldset.wi-filter-section")].find(
              (f) => f.querySelector("legend")?.textContent?.trim() === "Priority",
            );
            const option = [...(section?.querySelectorAll<HTMLButtonElement>("button.wi-filter-option") ?? [])].find(
              (b) => b.textContent?.trim() === text,
            );
            if (!option) throw new Error(`no priority option ${text}`);
            const at = performance.now();
            option.click();
            return at;
          }, label);
          const done = await markAfter(page, "tideline:filter:painted", clickedAt, timeoutMs);
          durations.push(done - clickedAt);
          windows.push([clickedAt, done]);
          await page.waitForTimeout(300);
        }
        const filterTasks = await longTasks(page);
        out.push(
          fig(`${layout}: filter change → painted, median`, median(durations), "ms", `${changes} changes`),
          fig(`${layout}: filter change → painted, max`, max(durations), "ms"),
          fig(
            `${layout}: longest task during filter changes`,
            max(windows.map(([a, b]) => longestIn(filterTasks, a, b))),
            "ms",
          ),
        );
        ctx.log(`${layout}: filter changes ${durations.map(Math.round).join(", ")} ms`);
        if (errors.length) ctx.log(`${layout}: page errors: ${errors.slice(0, 3).join(" | ")}`);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    // Leave the saved view as a user would expect it.
    await api.patch(props, { filters: { priority: null }, display_filters: { layout: "list" } }).catch(() => undefined);

    await server.stop();
    await store.dispose();
    return out;
  },
};
