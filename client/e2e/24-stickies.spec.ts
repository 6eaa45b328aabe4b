/**
 * Stickies (product-domain §3 Sticky, §4 sticky rules; calls-errors-sync §7): Cleo writes a
 * sticky on the workspace home, gives it a colour, and finds both after a reload; she searches
 * her stickies in the list modal (opened from the sidebar, closed with Escape); a second browser
 * signed in as Cleo sees a sticky written in the first appear without a reload (the user's live
 * channel), and its deletion too, and catches up on one written while its connection was down.
 * The modal pages with "Load more". Pictures: the widget and the modal, wide and phone, light and
 * dark. The spec signs up its own user, workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { StickiesPage } from "./pages/stickies-page.ts";
import {
  channelSynced,
  dropLiveSockets,
  expectNotReloaded,
  markPage,
  trackLiveSockets,
} from "./support/live-socket.ts";
import { openSession, type Session, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const cleo = { email: "cleo@stickies.test", password: "Juniper-harbour-owl-73", first: "Cleo", last: "Marsh" };
const LIVE = { timeout: 15_000 };

test.describe
  .serial("stickies", () => {
    test.describe.configure({ timeout: 90_000 });

    let origin = "";
    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let userId = "";
    let stickies: StickiesPage;

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      origin = baseURL ?? "http://localhost:3100";
      ({ context, page, api } = await openSession(browser, origin));
      f = await signUpWithProject(api, cleo, { slug: "stickies-e2e", name: "Notes", identifier: "NT" });
      userId = (await api.me()).id;
      stickies = new StickiesPage(page);
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("a sticky written on home keeps its text and colour after a reload", async () => {
      await page.goto(`/${f.slug}/`);
      const widget = stickies.widget;
      // Nothing yet: the widget says what to do.
      await expect(widget.getByText("No stickies yet")).toBeVisible();
      await expect(widget.getByText(/Choose “Add sticky”/)).toBeVisible();
      await shoot(page, "empty-desktop-light", "stickies-");

      const card = await stickies.add(widget, "Buy oat milk for the retro");
      await stickies.setColour(card, "Green", "green");

      await page.reload();
      const again = stickies.card(stickies.widget, "Buy oat milk for the retro");
      await expect(again).toHaveCount(1);
      await expect(again).toHaveAttribute("data-colour", "green");
      const stored = await api.get<{ results: { description_stripped: string; background_color: string }[] }>(
        `/api/workspaces/${f.slug}/stickies/`,
      );
      expect(stored.results).toEqual([
        expect.objectContaining({ description_stripped: "Buy oat milk for the retro", background_color: "green" }),
      ]);
    });

    test("the list modal finds a sticky by its text, says when nothing matches, and closes with Escape", async () => {
      await api.post(`/api/workspaces/${f.slug}/stickies/`, { description_html: "<p>Call the plumber at 5</p>" });
      await page.goto(`/${f.slug}/`);
      await expect(stickies.cards(stickies.widget)).toHaveCount(2);

      await stickies.openFromSidebar();
      const modal = stickies.modal;
      await expect(stickies.cards(modal)).toHaveCount(2);
      await expect(stickies.search).toBeFocused();

      await stickies.search.fill("OAT MILK");
      await expect(stickies.cards(modal)).toHaveCount(1);
      await expect(stickies.card(modal, "Buy oat milk for the retro")).toHaveCount(1);

      await stickies.search.fill("tractor");
      await expect(modal.getByText("No sticky matches “tractor”")).toBeVisible();
      await modal.getByRole("button", { name: "Clear search" }).click();
      await expect(stickies.cards(modal)).toHaveCount(2);
      await expect(stickies.search).toBeFocused();

      await page.keyboard.press("Escape");
      await expect(modal).toBeHidden();
      // The home shows every sticky again (the search went with the modal).
      await expect(stickies.cards(stickies.widget)).toHaveCount(2);
    });

    test("another browser of the same person sees new and deleted stickies live, and catches up after a drop", async ({
      browser,
    }) => {
      const other: Session = await openSession(
        browser,
        origin,
        { storageState: await context.storageState() },
        trackLiveSockets,
      );
      try {
        const second = new StickiesPage(other.page);
        const synced = channelSynced(other.page, `user.${userId}`);
        await other.page.goto(`/${f.slug}/`);
        await expect(second.cards(second.widget)).toHaveCount(2);
        await synced;
        await markPage(other.page, "before-live-sticky");

        await page.goto(`/${f.slug}/`);
        await expect(stickies.cards(stickies.widget)).toHaveCount(2);
        const card = await stickies.add(stickies.widget, "Written in the first window");

        const arrived = second.card(second.widget, "Written in the first window");
        await expect(arrived).toHaveCount(1, LIVE);
        // Newest first there too.
        await expect(second.cards(second.widget).first()).toContainText("Written in the first window");
        await expectNotReloaded(other.page, "before-live-sticky");

        await stickies.delete(card);
        await expect(arrived).toHaveCount(0, LIVE);
        await expect(second.cards(second.widget)).toHaveCount(2);
        await expectNotReloaded(other.page, "before-live-sticky");

        // A sticky written while the second browser's connection is down: its event is lost, and
        // the list is read again once the channel is back.
        await other.context.setOffline(true);
        await dropLiveSockets(other.page);
        await api.post(`/api/workspaces/${f.slug}/stickies/`, { description_html: "<p>Written while it was away</p>" });
        await other.context.setOffline(false);
        await expect(second.card(second.widget, "Written while it was away")).toHaveCount(1, LIVE);
        await expectNotReloaded(other.page, "before-live-sticky");

        await page.reload();
        await expect(stickies.cards(stickies.widget)).toHaveCount(3);
        await expect(stickies.card(stickies.widget, "Written in the first window")).toHaveCount(0);
        const away = stickies.card(stickies.widget, "Written while it was away");
        await stickies.delete(away);
        await expect(second.card(second.widget, "Written while it was away")).toHaveCount(0, LIVE);
      } finally {
        await other.context.close();
      }
    });

    test("pictures: the widget and the modal, wide and phone, light and dark", async () => {
      for (const [width, height, size] of [
        [1280, 800, "desktop"],
        [390, 844, "phone"],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto(`/${f.slug}/`);
          await expect(stickies.cards(stickies.widget)).toHaveCount(2);
          await shoot(page, `home-${size}-${scheme}`, "stickies-");
          await stickies.widget.getByRole("button", { name: "All stickies" }).click();
          await expect(stickies.cards(stickies.modal)).toHaveCount(2);
          await shoot(page, `modal-${size}-${scheme}`, "stickies-");
          await page.keyboard.press("Escape");
          await expect(stickies.modal).toBeHidden();
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 1280, height: 800 });
      // A card being written in (its formatting bar) and its colour menu.
      await page.goto(`/${f.slug}/`);
      const card = stickies.card(stickies.widget, "Buy oat milk for the retro");
      await stickies.editor(card).click();
      await expect(card.getByRole("toolbar")).toBeVisible();
      await shoot(page, "editing-desktop-light", "stickies-");
      await card.getByRole("button", { name: "Sticky options" }).click();
      await expect(page.getByRole("menuitem", { name: "Delete sticky" })).toBeVisible();
      await shoot(page, "menu-desktop-light", "stickies-");
      await page.keyboard.press("Escape");
    });

    test("the modal pages: the newest twenty, then Load more brings the rest", async () => {
      for (let i = 1; i <= 20; i++) {
        await api.post(`/api/workspaces/${f.slug}/stickies/`, { description_html: `<p>Batch note ${i}</p>` });
      }
      await page.goto(`/${f.slug}/`);
      await stickies.openFromSidebar();
      const modal = stickies.modal;
      await expect(stickies.cards(modal)).toHaveCount(20);
      await expect(stickies.cards(modal).first()).toContainText("Batch note 20");
      await modal.getByRole("button", { name: "Load more" }).click();
      await expect(stickies.cards(modal)).toHaveCount(22);
      await expect(stickies.cards(modal).last()).toContainText("Buy oat milk for the retro");
      await expect(modal.getByRole("button", { name: "Load more" })).toHaveCount(0);
      await page.keyboard.press("Escape");
      await expect(modal).toBeHidden();
    });
  });
