/**
 * Scenario 4 — the board in a real browser. Chromium (Playwright) opens a project with N work
 * items, once in the list layout and once in kanban, each in a fresh browser context (no cache):
 * - time to the first painted board: the client's `tideline:board:painted` mark, measured from
 *   navigation start;
 * - time until the whole project is in the local cache (the last v2 sync page has arrived);
 * - time from a filter change (a click on a priority in the Filters menu) to its painted result:
 *   the `tideline:filter:painted` mark after the click, several changes, median and max;
 * - the longest main-thread task (Long Tasks API) during the load and during the filter changes;
 * - the warm open: a second visit in the same browser context (same profile: whatever the client
 *   keeps locally is there), first paint and catch-up again; "board on screen" is the kept
 *   picture of the last visit (public/prepaint.js) when there is one, "first painted board" the
 *   app's own (from then on the board answers);
 * - the first interaction: a warm open in a new tab where the first work item is clicked as soon
 *   as one shows (on the picture or the app's board), until its peek is open;
 * - the offline open: the context goes offline and the warm page reloads. Until the app shell
 *   and the board are available offline this fails, and is recorded as "not available" (NaN)
 *   instead of failing the run.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Page, Response } from "playwright-core";
import { seededBoard } from "../lib/board.ts";
import { ensureChromium, launchChromium } from "../lib/chromium.ts";
import { buildClient } from "../lib/client-build.ts";
import { type Figure, figures, max, median, numberFlag, type Scenario, stringFlag } from "../lib/scenario.ts";

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

/**
 * With a folder (--marks-dir, --trace-dir), write a visit's performance entries there: marks,
 * resource timings, and the navigation's timestamps as `nav:*` marks.
 */
async function writeVisitEntries(page: Page, dir: string, file: string, painted: number): Promise<void> {
  if (!dir) return;
  const entries = await page.evaluate(() => [
    ...performance
      .getEntries()
      .map((e) => ({ type: e.entryType, name: e.name, start: e.startTime, duration: e.duration })),
    ...Object.entries(performance.getEntriesByType("navigation")[0]?.toJSON() ?? {})
      .filter(([, v]) => typeof v === "number" && v > 0)
      .map(([k, v]) => ({ type: "mark", name: `nav:${k}`, start: v as number, duration: 0 })),
  ]);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, file), JSON.stringify({ painted, entries }, null, 1));
}

/** What one visit of the board measured (times in ms since that document's navigation start). */
type Visit = { painted: number; prepainted: number | null; cachedAt: number | null; tasks: Task[] };

/**
 * Open the board in `page` with `open` (a goto or a reload) and wait for its first painted board,
 * then up to `syncWaitMs` for the v2 sync's last page (none may come: `cachedAt` stays null).
 */
async function visitBoard(page: Page, open: () => Promise<unknown>, timeoutMs: number, syncWaitMs: number) {
  // The local cache is complete when a v2 sync page answers without a next cursor.
  let cachedAt: number | null = null;
  const onResponse = async (response: Response) => {
    if (!response.url().includes("/v2/issues/")) return;
    try {
      const body = (await response.json()) as { next_cursor: string | null };
      if (body.next_cursor === null) cachedAt = await page.evaluate(() => performance.now());
    } catch {
      // a page that navigated away
    }
  };
  page.on("response", onResponse);
  try {
    await open();
    const painted = await markAfter(page, "tideline:board:painted", 0, timeoutMs);
    // The kept picture of the last visit, painted before the app (public/prepaint.js), if any.
    const prepainted = await page.evaluate(
      () => performance.getEntriesByName("tideline:prepaint:painted", "mark")[0]?.startTime ?? null,
    );
    const deadline = Date.now() + syncWaitMs;
    while (cachedAt === null && Date.now() < deadline) await page.waitForTimeout(50);
    await page.waitForTimeout(500); // let the board settle on the full cache
    const visit: Visit = { painted, prepainted, cachedAt, tasks: await longTasks(page) };
    return visit;
  } finally {
    page.off("response", onResponse);
  }
}

/** When a visit first showed the board: the kept picture (public/prepaint.js) if any, else the app's. */
function boardOnScreen(fig: ReturnType<typeof figures>, prefix: string, visit: Visit): Figure {
  return fig(
    `${prefix}: board on screen`,
    visit.prepainted ?? visit.painted,
    "ms",
    visit.prepainted === null ? "no kept picture: the app's board" : "the kept picture, before the app",
  );
}

/**
 * Open the board in a new tab of a warm profile and click its first work item as soon as one is
 * on screen — on the kept picture (public/prepaint.js replays the click once the app is there)
 * or on the app's board — then wait for the item's peek. Times from navigation start.
 */
async function firstInteraction(page: Page, url: string, timeoutMs: number, trace?: { dir: string; name: string }) {
  // With --trace-dir: a CPU profile of the page from before its navigation to the open peek.
  const cdp = trace ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  try {
    await page.goto(url, { waitUntil: "commit" });
    const target = await page.waitForFunction(
      () => {
        const picture = (globalThis as Record<string, unknown>).__tidelinePrepaint as
          | { shadow?: ShadowRoot }
          | undefined;
        const inPicture = document.getElementById("prepaint") ? picture?.shadow?.querySelector("[data-item-id]") : null;
        // Rows and cards of a client before data-item-id by their classes.
        const item = inPicture ?? document.querySelector("#root [data-item-id], #root .wi-row-main, #root .wi-card");
        if (!item) return null;
        const box = item.getBoundingClientRect();
        return { x: box.x + Math.min(box.width / 2, 80), y: box.y + box.height / 2, onPicture: Boolean(inPicture) };
      },
      undefined,
      { polling: "raf", timeout: timeoutMs },
    );
    const { x, y, onPicture } = (await target.jsonValue()) as { x: number; y: number; onPicture: boolean };
    await page.mouse.click(x, y);
    const clicked = await page.evaluate(() => performance.now());
    const opened = await page.waitForFunction(
      () => (document.querySelector('[role="dialog"]') ? performance.now() : null),
      undefined,
      { polling: "raf", timeout: timeoutMs },
    );
    if (cdp && trace) {
      const { profile } = await cdp.send("Profiler.stop");
      await writeFile(path.join(trace.dir, `${trace.name}.cpuprofile`), JSON.stringify(profile));
      await writeVisitEntries(page, trace.dir, `${trace.name}.json`, 0);
    }
    return { clicked, opened: (await opened.jsonValue()) as number, onPicture };
  } finally {
    await page.close();
  }
}

/** A short reason from a Playwright error (its first line, without the call log). */
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n")[0] ?? text).slice(0, 160);
}

export const scenario: Scenario = {
  id: "browser-board",
  title: "The board in Chromium: cold, warm and offline open, filter change, longest task (list and kanban)",
  defaults: {
    items: 10_000,
    members: 10,
    labels: 8,
    "filter-changes": 4,
    layouts: "list,kanban",
    "offline-timeout": 20,
    visits: "warm,offline,click",
    port: 3403,
  },
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
    const offlineTimeoutMs = numberFlag(ctx, "offline-timeout", 20) * 1000;
    // The visits after the cold open and its filter changes (--visits=none: only those two).
    const visits = new Set(
      stringFlag(ctx, "visits", "warm,offline,click")
        .split(",")
        .map((v) => v.trim()),
    );

    // Before the build and the seeding: a missing browser is found (or installed) first.
    await ensureChromium(ctx);
    const clientDist = await buildClient(ctx);
    // With --trace-dir, keep the build the profiles were taken on (its source maps name the frames).
    const traceRoot = stringFlag(ctx, "trace-dir", "");
    if (traceRoot) await cp(clientDist, path.join(traceRoot, "dist"), { recursive: true });
    const board = await seededBoard(ctx, {
      label: "browser",
      port,
      items,
      members: numberFlag(ctx, "members", 10),
      labels: numberFlag(ctx, "labels", 8),
      clientDist,
    });
    const { server, fixture } = board;

    const api = fixture.admin.api;
    const props = `${fixture.projectPath}/user-properties/`;
    const boardUrl = `${server.url}/${fixture.workspace.slug}/projects/${fixture.project.id}/issues/`;
    const token = fixture.admin.cookie.slice(fixture.admin.cookie.indexOf("=") + 1);
    const out: Figure[] = [];

    const browser = await launchChromium(ctx);
    try {
      for (const layout of layouts) {
        // The saved view decides the layout; start each layout without filters.
        await api.patch(props, { filters: { priority: null }, display_filters: { layout } });
        // One context per layout: a fresh profile for the cold open, kept for the warm and offline opens.
        const context: BrowserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        await context.addCookies([{ name: "session-id", value: token, url: server.url }]);
        await context.addInitScript(LONG_TASK_COLLECTOR);
        const page = await context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));

        // ── cold open: nothing local yet ──
        const cold = await visitBoard(page, () => page.goto(boardUrl, { waitUntil: "commit" }), timeoutMs, timeoutMs);
        if (cold.cachedAt === null) throw new Error(`${layout}: the v2 sync never finished`);
        await writeVisitEntries(page, stringFlag(ctx, "marks-dir", ""), `${layout}-cold.json`, cold.painted);
        const cachedAt = cold.cachedAt;
        out.push(
          fig(`${layout}: first painted board`, cold.painted, "ms", "cold: fresh profile, from navigation start"),
          fig(`${layout}: all ${items} items cached`, cachedAt, "ms", "last v2 sync page, from navigation start"),
          fig(`${layout}: longest task during load`, longestIn(cold.tasks, 0, Math.max(cold.painted, cachedAt)), "ms"),
        );
        ctx.log(`${layout}: painted at ${Math.round(cold.painted)} ms, cached at ${Math.round(cachedAt)} ms`);

        // Filter changes through the Filters menu: toggle priorities on, then off again.
        await page.getByRole("button", { name: "Filters", exact: true }).click();
        await page.locator(".wi-filter-option").first().waitFor({ timeout: timeoutMs });
        const toggles = ["Urgent", "High", "Urgent", "High", "Medium", "Medium"];
        const filterTraceDir = stringFlag(ctx, "trace-dir", "");
        const filterCdp = filterTraceDir ? await context.newCDPSession(page) : null;
        if (filterCdp) {
          await filterCdp.send("Profiler.enable");
          await filterCdp.send("Profiler.setSamplingInterval", { interval: 100 });
          await filterCdp.send("Profiler.start");
          // And Chromium's own timeline (style, layout, paint: what a CPU profile calls "(program)").
          await mkdir(filterTraceDir, { recursive: true });
          await browser.startTracing(page, {
            path: path.join(filterTraceDir, `${layout}-filter.trace.json`),
            categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8.execute"],
          });
        }
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
        if (filterCdp) {
          await browser.stopTracing();
          const { profile } = await filterCdp.send("Profiler.stop");
          await mkdir(filterTraceDir, { recursive: true });
          await writeFile(path.join(filterTraceDir, `${layout}-filter.cpuprofile`), JSON.stringify(profile));
        }
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
        await page.close();
        const keptReport = async (from: Page) => {
          // What the closed tab kept of its board for the next open (lib/prepaint.ts), in kB.
          const kept = await from.evaluate(() => {
            const raw = localStorage.getItem("tideline:prepaint");
            const record = raw ? (JSON.parse(raw) as { html: string; css: string }) : null;
            return record ? { html: record.html.length / 1024, css: record.css.length / 1024 } : null;
          });
          ctx.log(
            kept
              ? `${layout}: kept picture: markup ${Math.round(kept.html)} kB, styles ${Math.round(kept.css)} kB`
              : `${layout}: no picture kept`,
          );
        };

        if (!visits.has("warm")) {
          if (errors.length) ctx.log(`${layout}: page errors: ${errors.slice(0, 3).join(" | ")}`);
          await context.close();
          continue;
        }

        // ── warm open: a second visit in the same profile (a new tab) ──
        const warmPage = await context.newPage();
        warmPage.on("pageerror", (e) => errors.push(e.message));
        // --trace-dir=<dir>: a CPU profile and every performance entry of the warm visit, to find
        // where its time goes (DevTools opens the .cpuprofile; the .json lists marks and files).
        const traceDir = stringFlag(ctx, "trace-dir", "");
        const cdp = traceDir ? await context.newCDPSession(warmPage) : null;
        if (cdp) {
          await cdp.send("Profiler.enable");
          await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
          await cdp.send("Profiler.start");
          // And Chromium's timeline of the visit: each task, its style, layout and paint.
          await browser.startTracing(warmPage, {
            path: path.join(traceDir, `${layout}-warm.trace.json`),
            categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8.execute"],
          });
        }
        const warm = await visitBoard(
          warmPage,
          () => warmPage.goto(boardUrl, { waitUntil: "commit" }),
          timeoutMs,
          30_000,
        );
        await writeVisitEntries(warmPage, stringFlag(ctx, "marks-dir", ""), `${layout}-warm.json`, warm.painted);
        await keptReport(warmPage);
        if (cdp) {
          await browser.stopTracing();
          const { profile } = await cdp.send("Profiler.stop");
          await writeVisitEntries(warmPage, traceDir, `${layout}-warm.json`, warm.painted);
          await writeFile(path.join(traceDir, `${layout}-warm.cpuprofile`), JSON.stringify(profile));
          ctx.log(`${layout}: warm visit traced in ${traceDir}`);
        }
        out.push(
          boardOnScreen(fig, `${layout}: warm`, warm),
          fig(`${layout}: warm: first painted board`, warm.painted, "ms", "second visit, same profile: the app's own"),
          warm.cachedAt === null
            ? fig(`${layout}: warm: all items in sync`, Number.NaN, "ms", "not available: no last v2 sync page in 30 s")
            : fig(
                `${layout}: warm: all items in sync`,
                warm.cachedAt,
                "ms",
                "last v2 sync page, from navigation start",
              ),
          fig(
            `${layout}: warm: longest task during load`,
            longestIn(warm.tasks, 0, Math.max(warm.painted, warm.cachedAt ?? warm.painted)),
            "ms",
          ),
        );
        ctx.log(
          `${layout}: warm: painted at ${Math.round(warm.painted)} ms, in sync at ${warm.cachedAt === null ? "—" : Math.round(warm.cachedAt)} ms`,
        );

        // ── offline open: no network at all, the warm page reloaded ──
        if (visits.has("offline")) {
          await context.setOffline(true);
          try {
            const offline = await visitBoard(
              warmPage,
              () => warmPage.reload({ waitUntil: "commit", timeout: offlineTimeoutMs }),
              offlineTimeoutMs,
              0,
            );
            await writeVisitEntries(
              warmPage,
              stringFlag(ctx, "marks-dir", ""),
              `${layout}-offline.json`,
              offline.painted,
            );
            out.push(
              boardOnScreen(fig, `${layout}: offline`, offline),
              fig(`${layout}: offline: first painted board`, offline.painted, "ms", "reload with the network off"),
              fig(`${layout}: offline: longest task during load`, longestIn(offline.tasks, 0, offline.painted), "ms"),
            );
            ctx.log(`${layout}: offline: painted at ${Math.round(offline.painted)} ms`);
          } catch (error) {
            out.push(
              fig(`${layout}: offline: first painted board`, Number.NaN, "ms", `not available: ${reason(error)}`),
            );
            ctx.log(`${layout}: offline open not available: ${reason(error)}`);
          } finally {
            await context.setOffline(false);
          }
        }

        // ── first interaction: a warm open, a row clicked as soon as one shows ──
        const clickName = `${layout}: warm: a row clicked at once → its peek open`;
        if (visits.has("click")) {
          try {
            const interaction = await firstInteraction(
              await context.newPage(),
              boardUrl,
              timeoutMs,
              traceDir ? { dir: traceDir, name: `${layout}-first-click` } : undefined,
            );
            out.push(
              fig(
                clickName,
                interaction.opened,
                "ms",
                `from navigation start; clicked at ${Math.round(interaction.clicked)} ms on ${interaction.onPicture ? "the kept picture" : "the app's board"}`,
              ),
            );
            ctx.log(
              `${layout}: first interaction: clicked at ${Math.round(interaction.clicked)} ms, peek open at ${Math.round(interaction.opened)} ms`,
            );
          } catch (error) {
            // A client whose rows do not name their items (data-item-id) cannot be clicked this way.
            out.push(fig(clickName, Number.NaN, "ms", `not available: ${reason(error)}`));
          }
        }

        if (errors.length) ctx.log(`${layout}: page errors: ${errors.slice(0, 3).join(" | ")}`);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    // Leave the saved view as a user would expect it.
    await api.patch(props, { filters: { priority: null }, display_filters: { layout: "list" } }).catch(() => undefined);

    await board.dispose();
    return out;
  },
};
