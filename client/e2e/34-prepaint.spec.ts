/**
 * A board paints before the app has started (issue 21): the board shown when the page was left is
 * kept (lib/prepaint.ts) and painted by public/prepaint.js on the next open of that address, over
 * #root, while the app's code is held back here. A row clicked then opens its peek once the app
 * has taken over; the app's board takes the picture's place without anything moving; signing out
 * forgets the picture. Pictures at desktop and phone sizes, light and dark.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const owner = { email: "pia@prepaint.test", password: "Quartz-meadow-heron-61", first: "Pia", last: "Paint" };
const NAMES = ["Sketch the landing page", "Order the bookshelves", "Call the plumber"];
const PREPAINT_KEY = "tideline:prepaint";

type Rect = { x: number; y: number; width: number; height: number };

/** Where the picture shows the List row named `name` (the picture is in a closed shadow root; its script hands it to tests). */
function pictureRow(page: Page, name: string): Promise<Rect | null> {
  return page.evaluate((wanted) => {
    const state = (globalThis as Record<string, unknown>).__tidelinePrepaint as { shadow?: ShadowRoot } | undefined;
    if (!document.getElementById("prepaint") || !state?.shadow) return null;
    const row = [...state.shadow.querySelectorAll(".wi-item-row")].find(
      (r) => r.querySelector(".wi-name")?.textContent === wanted,
    );
    if (!row) return null;
    const { x, y, width, height } = row.getBoundingClientRect();
    return { x, y, width, height };
  }, name);
}

test.describe
  .serial("the board paints before the app has started", () => {
    test.describe.configure({ timeout: 120_000 });

    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let board: WorkItemsPage;
    let f: Fixture;
    /** Holds the app's entry script until released (the page then shows only the picture). */
    let release: () => void = () => undefined;

    const holdTheApp = async () => {
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
    };

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      // No service worker: the held script must come through page.route.
      ({ context, page, api } = await openSession(browser, baseURL ?? "http://localhost:3100", {
        serviceWorkers: "block",
      }));
      f = await signUpWithProject(api, owner, { slug: "prepaint-e2e", name: "Home", identifier: "HM" });
      for (const name of NAMES) await api.createWorkItem(f, { name });
      board = new WorkItemsPage(page);
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("the last board paints while the app's code is held, and a row clicked then opens once the app is there", async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await board.open(f.slug, f.projectId);
      await board.useLayout("List");
      await expect(board.row(NAMES[0] as string)).toBeVisible();

      await holdTheApp();
      try {
        // Leaving the page keeps the board; the reload paints it with the app's code still held.
        await page.reload({ waitUntil: "commit" });
        await expect.poll(() => pictureRow(page, NAMES[1] as string)).not.toBeNull();
        expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "null")?.path, PREPAINT_KEY)).toBe(
          `/${f.slug}/projects/${f.projectId}/issues/`,
        );
        // Nothing of the app has started: no heading of its own yet (the picture is not the page's).
        await expect(page.getByRole("heading", { name: "Work items", exact: true })).toHaveCount(0);
        await shoot(page, "prepaint-wide-light", "prepaint-");

        // A click on a row of the picture, before the app exists.
        const before = (await pictureRow(page, NAMES[1] as string)) as Rect;
        await page.mouse.click(before.x + 120, before.y + before.height / 2);
        release();

        // The app takes over: the clicked item's peek opens, and the row is where the picture had it.
        await expect(page.getByRole("dialog", { name: new RegExp(`^HM-\\d+ ${NAMES[1]}$`) })).toBeVisible();
        await expect(page.locator("#prepaint")).toHaveCount(0);
        const after = await board.row(NAMES[1] as string).boundingBox();
        expect(after && { x: after.x, y: after.y, width: after.width, height: after.height }).toEqual(before);
      } finally {
        release();
        await page.unrouteAll({ behavior: "wait" });
      }
    });

    test("phone and dark: the picture is the board as it was left", async () => {
      await page.keyboard.press("Escape");
      for (const [size, scheme] of [
        [{ width: 390, height: 844 }, "dark"],
        [{ width: 1280, height: 800 }, "dark"],
      ] as const) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await board.open(f.slug, f.projectId);
        await expect(board.row(NAMES[2] as string)).toBeVisible();
        await holdTheApp();
        try {
          await page.reload({ waitUntil: "commit" });
          await expect.poll(() => pictureRow(page, NAMES[2] as string)).not.toBeNull();
          await shoot(page, `prepaint-${size.width}-${scheme}`, "prepaint-");
        } finally {
          release();
          await page.unrouteAll({ behavior: "wait" });
        }
        await expect(board.row(NAMES[2] as string)).toBeVisible();
        await expect(page.locator("#prepaint")).toHaveCount(0);
      }
      await page.emulateMedia({ colorScheme: "light" });
    });

    test("another address paints nothing kept, and signing out forgets the picture", async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`/${f.slug}/projects/`);
      await expect(page.getByRole("heading", { name: "Projects", exact: true })).toBeVisible();
      await expect(page.locator("#prepaint")).toHaveCount(0);
      expect(await page.evaluate((key) => localStorage.getItem(key), PREPAINT_KEY)).not.toBeNull();

      await page.getByRole("button", { name: /^Account menu: / }).click();
      await page.getByRole("menuitem", { name: "Sign out" }).click();
      await expect(page.getByLabel("Email")).toBeVisible();
      expect(await page.evaluate((key) => localStorage.getItem(key), PREPAINT_KEY)).toBeNull();
      // The board's address now paints no picture before sign-in asks who this is.
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/`);
      await expect(page.getByLabel("Email")).toBeVisible();
      await expect(page.locator("#prepaint")).toHaveCount(0);
    });
  });
