/**
 * Scenario — the work-items timeline (gantt_chart layout) in Chromium at N items (issue 11:
 * "the side list virtualised and the chart smooth at 2,000 items"). Seeds N items, gives them
 * dates through POST issue-dates/ (most a range, some only a target date, some none) and a
 * blocking relation every few items, then opens the board in the timeline layout and measures:
 * - the first painted board and the longest task while the whole project loads;
 * - a scripted scroll of the timeline (down through the rows, then sideways along the chart, a
 *   step each animation frame): the longest main-thread task (Long Tasks API) and the longest
 *   frame (gap between animation frames);
 * - a drag of a bar across a week with the mouse: the longest task and longest frame during the
 *   drag, and from the release to the answer of the issue-dates call that saves it.
 * Figures only; nothing here judges a timing.
 */
import type { Page } from "playwright-core";
import { ensureChromium, launchChromium } from "../lib/chromium.ts";
import { buildClient } from "../lib/client-build.ts";
import { figures, numberFlag, type Scenario } from "../lib/scenario.ts";
import { seedStore } from "../lib/seed.ts";
import { createStore, startServer } from "../lib/server.ts";
import { setupFixture } from "../lib/setup.ts";

type Task = { start: number; duration: number };

/** Long tasks from the first moment of every document, and a frame-gap recorder to start on demand. */
const COLLECTORS = `
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__benchLongTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  window.__benchFrames = { on: false, last: 0, gaps: [] };
  window.__benchFramesStart = () => {
    const f = window.__benchFrames;
    f.on = true; f.gaps = []; f.last = performance.now();
    const tick = (now) => { if (!f.on) return; f.gaps.push(now - f.last); f.last = now; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  };
  window.__benchFramesStop = () => { window.__benchFrames.on = false; return window.__benchFrames.gaps; };
`;

async function longTasks(page: Page): Promise<Task[]> {
  return page.evaluate(() => (window as unknown as { __benchLongTasks: Task[] }).__benchLongTasks ?? []);
}

/** Longest task overlapping [from, to] (0 when there was none: no task over 50 ms). */
function longestIn(tasks: Task[], from: number, to: number): number {
  return tasks.filter((t) => t.start < to && t.start + t.duration > from).reduce((m, t) => Math.max(m, t.duration), 0);
}

const pad = (n: number) => String(n).padStart(2, "0");
function dayFromToday(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export const scenario: Scenario = {
  id: "browser-timeline",
  title: "The work-items timeline in Chromium: scroll and drag at N items (longest task, longest frame)",
  defaults: { items: 2_000, relations: 150, port: 3405 },
  async run(ctx) {
    const fig = figures("browser-timeline", ctx);
    const items = numberFlag(ctx, "items", 2_000);
    const relations = numberFlag(ctx, "relations", 150);
    const port = numberFlag(ctx, "port", 3405);
    const timeoutMs = 120_000;

    // Before the build and the seeding: a missing browser is found (or installed) first.
    await ensureChromium(ctx);
    const clientDist = await buildClient(ctx);
    const store = await createStore(ctx, "timeline");
    let server = await startServer(ctx, { port, store, clientDist });
    const fixture = await setupFixture(server.url, { members: 2, labels: 4, log: ctx.log });
    await server.stop();
    const seeded = await seedStore(store, fixture, items);
    ctx.log(`seeded ${items} work items in ${Math.round(seeded.ms)} ms`);
    server = await startServer(ctx, { port, store, clientDist });
    const api = fixture.admin.api;

    // Every item's id in sequence order (the v2 sync list, page by page).
    const all: { id: string; sequence_id: number }[] = [];
    for (let cursor = ""; ; ) {
      const page = await api.get<{ results: { id: string; sequence_id: number }[]; next_cursor: string | null }>(
        `${fixture.projectPath}/v2/issues/?per_page=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      all.push(...page.results);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    all.sort((a, b) => a.sequence_id - b.sequence_id);
    // Dates: nine in ten dated (one of those with only a target date), spread over ~6 months.
    const updates = all.map((item, i) => {
      if (i % 10 === 9) return { id: item.id, start_date: null, target_date: null };
      const start = ((i * 37) % 180) - 60;
      const target = dayFromToday(start + 1 + ((i * 7) % 12));
      return i % 10 === 8
        ? { id: item.id, start_date: null, target_date: target }
        : { id: item.id, start_date: dayFromToday(start), target_date: target };
    });
    for (let i = 0; i < updates.length; i += 500) {
      await api.post(`${fixture.projectPath}/issue-dates/`, { updates: updates.slice(i, i + 500) });
    }
    // Blocking pairs among the first rows (so some arrows are on screen at once).
    for (let i = 0; i < relations && i * 3 + 1 < all.length; i++) {
      const blocker = all[i * 3] as { id: string };
      const blocked = all[i * 3 + 1] as { id: string };
      await api.post(`${fixture.projectPath}/issues/${blocked.id}/issue-relation/`, {
        relation_type: "blocked_by",
        issues: [blocker.id],
      });
    }
    ctx.log(`dated ${updates.length} items, ${Math.min(relations, Math.floor(all.length / 3))} blocking pairs`);

    const props = `${fixture.projectPath}/user-properties/`;
    await api.patch(props, { filters: {}, display_filters: { layout: "gantt_chart", order_by: "sequence_id" } });
    const boardUrl = `${server.url}/${fixture.workspace.slug}/projects/${fixture.project.id}/issues/`;
    const token = fixture.admin.cookie.slice(fixture.admin.cookie.indexOf("=") + 1);
    const out = [];

    const browser = await launchChromium(ctx);
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies([{ name: "session-id", value: token, url: server.url }]);
      await context.addInitScript(COLLECTORS);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));

      await page.goto(boardUrl, { waitUntil: "commit" });
      await page.locator(".tl.wit .tl-bar").first().waitFor({ timeout: timeoutMs });
      const painted = await page.evaluate(
        () => performance.getEntriesByName("tideline:board:painted", "mark")[0]?.startTime ?? performance.now(),
      );
      const shownAt = await page.evaluate(() => performance.now());
      await page.waitForTimeout(1500); // the relations of the rows on screen, the board settled
      const loadTasks = await longTasks(page);
      out.push(
        fig(`first painted board (timeline layout)`, painted, "ms", "from navigation start"),
        fig(`longest task until the timeline shows`, longestIn(loadTasks, 0, shownAt), "ms"),
      );
      const rowsInDom = await page.locator(".tl-vrow").count();
      ctx.log(`timeline shown at ${Math.round(shownAt)} ms, ${rowsInDom} rows in the DOM of ${items}`);
      out.push(fig("rows in the DOM", rowsInDom, "rows", `of ${items} items (virtualised)`));

      // Scripted scroll: 240 frames down (150 px each), 120 frames sideways (60 px each).
      const scroll = await page.evaluate(async () => {
        const w = window as unknown as { __benchFramesStart(): void; __benchFramesStop(): number[] };
        const scroller = document.querySelector(".tl.wit .tl-scroller") as HTMLElement;
        const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
        const from = performance.now();
        w.__benchFramesStart();
        for (let i = 0; i < 240; i++) {
          scroller.scrollTop += 150;
          await frame();
        }
        for (let i = 0; i < 120; i++) {
          scroller.scrollLeft += 60;
          await frame();
        }
        const gaps = w.__benchFramesStop();
        return { from, to: performance.now(), gaps, top: scroller.scrollTop };
      });
      const scrollTasks = await longTasks(page);
      const scrollGaps = [...scroll.gaps].sort((a, b) => a - b);
      out.push(
        fig("scroll: longest task", longestIn(scrollTasks, scroll.from, scroll.to), "ms", "360 frames scripted"),
        fig("scroll: longest frame", scrollGaps[scrollGaps.length - 1] ?? 0, "ms"),
        fig("scroll: 95th percentile frame", scrollGaps[Math.floor(scrollGaps.length * 0.95)] ?? 0, "ms"),
      );
      ctx.log(`scrolled to ${Math.round(scroll.top)} px in ${Math.round(scroll.to - scroll.from)} ms`);

      // A drag: back to the top, the first full bar on screen, a week to the right in 40 steps.
      await page.evaluate(() => {
        const scroller = document.querySelector(".tl.wit .tl-scroller") as HTMLElement;
        scroller.scrollTop = 0;
      });
      await page.getByRole("button", { name: "Today", exact: true }).click();
      // "Today" scrolls smoothly: wait until the chart stands still.
      await page.waitForFunction(
        () => {
          const el = document.querySelector(".tl.wit .tl-scroller") as HTMLElement & { __last?: number };
          const still = el.__last === el.scrollLeft;
          el.__last = el.scrollLeft;
          return still;
        },
        undefined,
        { polling: 250, timeout: 10_000 },
      );
      // A bar starting in view with room to its right for the drag (further down if none).
      let found = false;
      for (let tries = 0; tries < 30 && !found; tries++) {
        found = await page.evaluate(() => {
          const side = document.querySelector(".tl.wit .tl-head-side")?.getBoundingClientRect();
          const scroller = document.querySelector(".tl.wit .tl-scroller") as HTMLElement | null;
          const view = scroller?.getBoundingClientRect();
          if (!side || !scroller || !view) return false;
          for (const el of document.querySelectorAll<HTMLElement>(".tl.wit .tl-bar:not(.is-marker)")) {
            const r = el.getBoundingClientRect();
            if (
              r.left > side.right + 10 &&
              r.left < view.right - 480 &&
              r.top > side.bottom &&
              r.bottom < view.bottom
            ) {
              el.dataset.bench = "drag";
              return true;
            }
          }
          scroller.scrollTop += 400;
          return false;
        });
        if (!found) await page.waitForTimeout(200);
      }
      if (!found) throw new Error("no bar on screen to drag");
      const box = await page.locator('[data-bench="drag"]').boundingBox();
      if (!box) throw new Error("no bar on screen to drag");
      const x = box.x + Math.min(box.width / 2, 20);
      const y = box.y + box.height / 2;
      ctx.log(
        `drag from ${Math.round(x)},${Math.round(y)}: ${await page.evaluate(
          ([px, py]) => {
            const el = document.elementFromPoint(px as number, py as number);
            return `${el?.tagName}.${el?.className} ${el?.closest("[data-bench]") ? "(the bar)" : "(not the bar)"}`;
          },
          [x, y],
        )}`,
      );
      await page.mouse.move(x, y);
      const dragFrom = await page.evaluate(() => {
        (window as unknown as { __benchFramesStart(): void }).__benchFramesStart();
        return performance.now();
      });
      await page.mouse.down();
      for (let i = 1; i <= 40; i++) await page.mouse.move(x + (420 * i) / 40, y);
      const saved = page.waitForResponse((r) => r.url().includes("/issue-dates/") && r.request().method() === "POST");
      const releasedAt = await page.evaluate(() => performance.now());
      await page.mouse.up();
      await saved;
      const savedAt = await page.evaluate(() => performance.now());
      const dragGaps = await page.evaluate(() =>
        (window as unknown as { __benchFramesStop(): number[] }).__benchFramesStop(),
      );
      const dragTasks = await longTasks(page);
      out.push(
        fig("drag: longest task", longestIn(dragTasks, dragFrom, savedAt), "ms", "40 pointer moves over 7 days"),
        fig("drag: longest frame", Math.max(0, ...dragGaps), "ms"),
        fig("drag: release → saved", savedAt - releasedAt, "ms", "until POST issue-dates/ answers"),
      );
      if (errors.length) ctx.log(`page errors: ${errors.slice(0, 3).join(" | ")}`);
      await context.close();
    } finally {
      await browser.close();
    }
    await api.patch(props, { display_filters: { layout: "list" } }).catch(() => undefined);
    await server.stop();
    await store.dispose();
    return out;
  },
};
