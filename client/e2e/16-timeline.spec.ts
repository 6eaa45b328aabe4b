/**
 * The work-items timeline (issue 11), as a project member uses it: switch the board to the
 * timeline, see the bars, the blocking arrow and the undated items listed apart; drag a bar
 * (moves both dates) and its end handle (resizes), find the new dates after a reload and in a
 * second browser (another member) without a reload; a blocking relation added and removed by
 * another member shows on the open timeline without a reload; drag an undated item onto the chart
 * to date it; the chosen scale is kept after a reload (per user). The spec makes its own users,
 * workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { localDay as day } from "./support/dates.ts";
import { channelSynced, expectNotReloaded, markPage, trackLiveSockets } from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const tara = { email: "tara@timeline.test", password: "Meadow-copper-heron-64", first: "Tara", last: "Planner" };
const ravi = { email: "ravi@timeline.test", password: "Pebble-saffron-lynx-39", first: "Ravi", last: "Reader" };
const LIVE = { timeout: 10_000 };

/** How the bar's label names a day (components/ui showDay). */
function shown(iso: string): string {
  return new Date(`${iso}T00:00:00`).toLocaleDateString("en-US", { month: "short", day: "2-digit", year: "numeric" });
}

type Dated = { start_date: string | null; target_date: string | null };

test.describe
  .serial("work-items timeline", () => {
    test.describe.configure({ timeout: 120_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let page: Page;
    let pageB: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    const ids: Record<string, string> = {};
    const boardUrl = () => `/${f.slug}/projects/${f.projectId}/issues/`;
    const dates = async (name: string): Promise<[string | null, string | null]> => {
      const item = await api.get<Dated>(api.projectUrl(f, `issues/${ids[name]}/`));
      return [item.start_date, item.target_date];
    };
    const bar = (p: Page, name: string) => p.getByRole("button", { name: new RegExp(`^${name}, `) });
    const openTimeline = async (p: Page) => {
      await p.goto(boardUrl());
      await p.getByRole("button", { name: "Timeline", exact: true }).click();
      await expect(p.locator(".tl.wit")).toBeVisible();
    };
    const dragBy = async (p: Page, box: { x: number; y: number; width: number; height: number }, dx: number) => {
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await p.mouse.move(x, y);
      await p.mouse.down();
      await p.mouse.move(x + dx / 3, y, { steps: 4 });
      await p.mouse.move(x + dx, y, { steps: 8 });
      await p.mouse.up();
    };

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      const desktop = { viewport: { width: 1440, height: 900 } };
      ({ context: contextA, page, api } = await openSession(browser, origin, desktop));
      const b = await openSession(browser, origin, desktop, trackLiveSockets);
      ({ context: contextB, page: pageB } = b);
      f = await signUpWithProject(api, tara, { slug: "tl-e2e", name: "Orbit", identifier: "OR" });
      await addMember(api, b.api, f, ravi);
      const items: [string, string | null, string | null][] = [
        ["Design review", day(0), day(4)],
        ["Ship beta", day(6), day(8)],
        ["Release notes", null, day(10)],
        ["Write docs", null, null],
      ];
      for (const [name, start_date, target_date] of items) {
        ids[name] = (await api.createWorkItem(f, { name, start_date, target_date })).id;
      }
      // Design review blocks Ship beta.
      await api.post(api.projectUrl(f, `issues/${ids["Ship beta"]}/issue-relation/`), {
        relation_type: "blocked_by",
        issues: [ids["Design review"]],
      });
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("the timeline shows bars, a one-day marker, the blocking arrow and the undated items apart", async () => {
      await openTimeline(page);
      await expect(bar(page, "Design review")).toHaveAttribute("aria-label", new RegExp(`${shown(day(0))} to`));
      await expect(bar(page, "Ship beta")).toBeVisible();
      // Only a target date: a one-day marker on it.
      await expect(bar(page, "Release notes")).toHaveClass(/is-marker/);
      await expect(page.getByText("No dates · 1 item")).toBeVisible();
      await expect(page.locator(".tl-row", { hasText: "Write docs" }).locator(".tl-chip")).toBeVisible();
      await expect(page.locator(".tl-arrow")).toHaveCount(1, LIVE);
      // The side list names the key; a click opens the peek.
      await page.locator(".wit-side", { hasText: "Design review" }).click();
      await expect(page).toHaveURL(/peekId=/);
      await page.getByRole("button", { name: "Close", exact: true }).click();
      await expect(page).not.toHaveURL(/peekId=/);
    });

    test("a dragged bar keeps its new dates after a reload, and another member sees them live", async () => {
      // Ravi watches the timeline with the project channel synced.
      const synced = channelSynced(pageB, `project.${f.projectId}`);
      await openTimeline(pageB);
      await synced;
      await expect(bar(pageB, "Design review")).toBeVisible();
      await markPage(pageB, "timeline-live");

      // Week scale: 60 px a day; three days to the right.
      const box = await bar(page, "Design review").boundingBox();
      if (!box) throw new Error("bar not on screen");
      await dragBy(page, box, 180);
      await expect.poll(() => dates("Design review")).toEqual([day(3), day(7)]);
      await expect(bar(pageB, "Design review")).toHaveAttribute(
        "aria-label",
        new RegExp(`${shown(day(3))} to ${shown(day(7))}`),
        LIVE,
      );
      await expectNotReloaded(pageB, "timeline-live");

      // The end handle two days further: the start stays.
      const handle = bar(page, "Design review").locator(".tl-handle-end");
      const hb = await handle.boundingBox();
      if (!hb) throw new Error("end handle not on screen");
      await dragBy(page, hb, 120);
      await expect.poll(() => dates("Design review")).toEqual([day(3), day(9)]);

      await page.reload();
      await expect(bar(page, "Design review")).toHaveAttribute(
        "aria-label",
        new RegExp(`${shown(day(3))} to ${shown(day(9))}`),
      );
    });

    test("a blocking relation added or removed by another member shows on an open timeline", async () => {
      // Ravi's timeline is still open (no reload since the previous test).
      await expect(pageB.locator(".tl-arrow")).toHaveCount(1, LIVE);
      // Ship beta blocks Release notes (added through the API as Tara).
      await api.post(api.projectUrl(f, `issues/${ids["Ship beta"]}/issue-relation/`), {
        relation_type: "blocking",
        issues: [ids["Release notes"]],
      });
      await expect(pageB.locator(".tl-arrow")).toHaveCount(2, LIVE);
      await api.post(api.projectUrl(f, `issues/${ids["Ship beta"]}/remove-relation/`), {
        relation_type: "blocking",
        related_issue: ids["Release notes"],
      });
      await expect(pageB.locator(".tl-arrow")).toHaveCount(1, LIVE);
      await expectNotReloaded(pageB, "timeline-live");
    });

    test("an undated item dragged onto the chart gets a week from that day", async () => {
      const chip = page.locator(".tl-row", { hasText: "Write docs" }).locator(".tl-chip");
      const from = await chip.boundingBox();
      const todayCell = await page.locator(".tl-head-cell.is-today").boundingBox();
      if (!from || !todayCell) throw new Error("chip or today not on screen");
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + 200, from.y - 40, { steps: 5 });
      await page.mouse.move(todayCell.x + todayCell.width / 2, from.y - 80, { steps: 10 });
      await page.mouse.up();
      await expect.poll(() => dates("Write docs")).toEqual([day(0), day(6)]);
      await expect(page.getByText("No dates · 1 item")).toHaveCount(0);
      await expect(bar(page, "Write docs")).toBeVisible();
    });

    test("the chosen scale is kept after a reload, for this user only", async () => {
      const scale = (p: Page, name: string) => p.getByRole("button", { name, exact: true });
      await expect(scale(page, "Week")).toHaveAttribute("aria-pressed", "true");
      const saved = page.waitForResponse(
        (r) => r.request().method() === "PATCH" && r.url().includes("/user-properties/") && r.ok(),
      );
      await scale(page, "Month").click();
      await expect(scale(page, "Month")).toHaveAttribute("aria-pressed", "true");
      await saved;
      await page.reload();
      await expect(page.locator(".tl.wit")).toHaveAttribute("data-scale", "month");
      await expect(scale(page, "Month")).toHaveAttribute("aria-pressed", "true");
      // Ravi's board keeps his own scale.
      await pageB.reload();
      await expect(pageB.locator(".tl.wit")).toHaveAttribute("data-scale", "week");
      await expect(scale(pageB, "Week")).toHaveAttribute("aria-pressed", "true");
    });
  });
