/**
 * The home dashboard (product-domain §2 "Home dashboard with widgets. Quick links. Recent
 * visits."): Hana adds a quick link (a scheme other than http/https is refused inline with the
 * server's message), opens its card in a new tab and renames it; a second browser of hers sees
 * the link arrive without a reload. A work item and a page she opens show under Recents, newest
 * first, the filter narrows them and a row opens its screen. In Manage widgets she hides Recents
 * and moves "Your work items" up (by keyboard on the drag handle, and with the arrow buttons);
 * both hold after a reload. Pictures: the home and its modals, wide and phone, light and dark.
 * The spec signs up its own user, workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { HomePage } from "./pages/home-page.ts";
import { WorkItemPage } from "./pages/work-item-page.ts";
import { pickUp } from "./support/drag.ts";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const hana = { email: "hana@home.test", password: "Meadow-lantern-quartz-58", first: "Hana", last: "Ito" };
const LIVE = { timeout: 15_000 };

test.describe
  .serial("home dashboard", () => {
    test.describe.configure({ timeout: 90_000 });

    let origin = "";
    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let home: HomePage;
    let pageId = "";

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      origin = baseURL ?? "http://localhost:3100";
      ({ context, page, api } = await openSession(browser, origin));
      f = await signUpWithProject(api, hana, { slug: "home-e2e", name: "Garden", identifier: "GD" });
      const me = await api.me();
      await api.createWorkItem(f, { name: "Prune the apple trees", priority: "high", assignee_ids: [me.id] });
      await api.createWorkItem(f, { name: "Order seed catalogue", target_date: "2020-03-01", assignee_ids: [me.id] });
      const created = await api.post<{ id: string }>(api.projectUrl(f, "pages/"), { name: "Planting calendar" });
      pageId = created.id;
      home = new HomePage(page);
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("a new home shows every widget, each saying what it is for", async () => {
      await home.open(f.slug);
      expect(await home.shownWidgets()).toEqual(["Quick links", "Recents", "Your stickies", "Your work items"]);
      await expect(home.widget("Quick links").getByText("No quick links yet")).toBeVisible();
      await expect(home.widget("Recents").getByText("Nothing opened yet")).toBeVisible();
      // Your work items: the profile's counts on the tabs and the newest assigned items.
      const work = home.widget("Your work items");
      await expect(work.getByRole("tab", { name: /Assigned\s*2/ })).toHaveAttribute("aria-selected", "true");
      await expect(work.getByRole("link", { name: /GD-1.*Prune the apple trees/ })).toBeVisible();
      await work.getByRole("tab", { name: /Overdue\s*1/ }).click();
      await expect(work.getByRole("link", { name: /GD-2.*Order seed catalogue/ })).toBeVisible();
      await expect(work.getByRole("link", { name: /Prune the apple trees/ })).toHaveCount(0);
      await work.getByRole("tab", { name: /Assigned/ }).click();
      // The projects stay below the widgets.
      await expect(page.getByRole("region", { name: "Your projects" }).getByText("Garden")).toBeVisible();
      // The empty widgets on the narrowest phone.
      await page.setViewportSize({ width: 360, height: 740 });
      await home.widget("Quick links").scrollIntoViewIfNeeded();
      await shoot(page, "empty-narrow-light", "home-");
      await page.setViewportSize({ width: 1280, height: 720 });
    });

    test("a quick link is added (only http/https), opens in a new tab and is renamed", async () => {
      await home
        .widget("Quick links")
        .getByRole("button", { name: /No quick links yet/ })
        .click();
      await expect(home.linkDialog).toBeVisible();
      await home.submitLink("javascript:alert(1)", "Sneaky");
      // The server's refusal, next to the field; the modal stays open and nothing is added.
      await expect(home.linkDialog.getByRole("alert")).toHaveText(
        "Enter a web address starting with http:// or https://",
      );
      await expect(home.linkDialog.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
      await shoot(page, "quick-link-refused", "home-");

      const target = `${origin}/${f.slug}/projects/`;
      await home.submitLink(target, "All projects");
      await expect(home.linkDialog).toBeHidden();
      const card = home.quickLink("All projects");
      await expect(card).toHaveAttribute("href", target);
      await expect(card).toHaveAttribute("target", "_blank");

      const [opened] = await Promise.all([context.waitForEvent("page"), card.click()]);
      await expect(opened).toHaveURL(target);
      await opened.close();

      await home.widget("Quick links").getByRole("button", { name: "Options for All projects" }).click();
      await page.getByRole("menuitem", { name: "Edit" }).click();
      await expect(home.linkDialog.getByLabel("URL")).toHaveValue(target);
      await home.linkDialog.getByLabel("Display title").fill("Every project");
      await home.linkDialog.getByRole("button", { name: "Save" }).click();
      await expect(home.linkDialog).toBeHidden();
      await expect(home.quickLink("Every project")).toBeVisible();

      await page.reload();
      await home.ready();
      await expect(home.quickLink("Every project")).toHaveAttribute("href", target);
    });

    test("another browser of hers sees a quick link added and removed without a reload", async ({ browser }) => {
      const other = await openSession(browser, origin, { storageState: await context.storageState() });
      try {
        const second = new HomePage(other.page);
        await second.open(f.slug);
        await expect(second.quickLink("Every project")).toBeVisible();
        // Its user channel is subscribed once the shell is up; an add before that is read with the home.
        await home.widget("Quick links").getByRole("button", { name: "Add quick link" }).click();
        await home.submitLink("https://example.org/almanac", "Almanac");
        await expect(home.linkDialog).toBeHidden();
        await expect(second.quickLink("Almanac")).toBeVisible(LIVE);

        await home.widget("Quick links").getByRole("button", { name: "Options for Almanac" }).click();
        await page.getByRole("menuitem", { name: "Remove" }).click();
        await expect(home.quickLink("Almanac")).toHaveCount(0);
        await expect(second.quickLink("Almanac")).toHaveCount(0, LIVE);
      } finally {
        await other.context.close();
      }
    });

    test("a project, a work item and a page she opens show under Recents, newest first, and open again from there", async () => {
      // The project's work items (its board), then one of them, then a page.
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/`);
      await expect(page.getByRole("main").getByText("Prune the apple trees").first()).toBeVisible();
      await new WorkItemPage(page).open(f.slug, "GD-1");
      await page.goto(`/${f.slug}/projects/${f.projectId}/pages/${pageId}/`);
      await expect(page.getByRole("textbox", { name: "Page title" })).toHaveValue("Planting calendar");

      await home.open(f.slug);
      const rows = home.recentRows();
      await expect(rows.first()).toContainText("Planting calendar");
      await expect(rows.nth(1)).toContainText("Prune the apple trees");
      await expect(rows.nth(1)).toContainText("GD-1");
      await expect(rows.nth(2)).toContainText("Garden");
      await expect(rows).toHaveCount(3);
      await shoot(page, "recents-desktop-light", "home-");

      await home.filterRecents("Work items");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Prune the apple trees");
      await home.filterRecents("Projects");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Garden");
      await home.filterRecents("Pages");
      await expect(rows).toHaveCount(1);
      await rows.first().getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/projects/${f.projectId}/pages/${pageId}/$`));

      await home.open(f.slug);
      await home.filterRecents("Work items");
      await home.recentRows().first().getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/browse/GD-1/$`));
      await home.open(f.slug);
      await home.filterRecents("All");
    });

    test("a widget turned off and the order changed hold after a reload", async () => {
      await home.open(f.slug);
      await home.openManage();
      expect(await home.manageOrder()).toEqual(["Quick links", "Recents", "Your stickies", "Your work items"]);
      await shoot(page, "manage-desktop-light", "home-");

      // Hide Recents (the home behind the modal follows at once; checked once the modal is closed).
      const recentsSwitch = home.manageDialog.getByRole("switch", { name: "Show Recents" });
      await recentsSwitch.click();
      await expect(recentsSwitch).toHaveAttribute("aria-checked", "false");

      // "Your work items" to the top by keyboard on its handle: pick up, three places up, drop.
      const handle = home.manageDialog.getByRole("button", { name: "Reorder Your work items" });
      await pickUp(page, handle);
      // Each step is announced (dnd-kit's live region) once the drag has moved over the next row.
      for (const over of ["Your stickies", "Recents", "Quick links"]) {
        await page.keyboard.press("ArrowUp");
        await expect(page.getByText(`Your work items is over ${over}.`)).toBeAttached();
      }
      await page.keyboard.press("Space");
      await expect(handle).not.toHaveAttribute("aria-pressed", "true");
      await expect
        .poll(() => home.manageOrder())
        .toEqual(["Your work items", "Quick links", "Recents", "Your stickies"]);
      // And Stickies one place up with its arrow button.
      await home.manageDialog.getByRole("button", { name: "Move Your stickies up" }).click();
      await expect
        .poll(() => home.manageOrder())
        .toEqual(["Your work items", "Quick links", "Your stickies", "Recents"]);
      await home.manageDialog.getByRole("button", { name: "Done" }).click();
      await expect(home.manageDialog).toBeHidden();
      expect(await home.shownWidgets()).toEqual(["Your work items", "Quick links", "Your stickies"]);

      await page.reload();
      await home.ready();
      await expect.poll(() => home.shownWidgets()).toEqual(["Your work items", "Quick links", "Your stickies"]);
      await home.openManage();
      expect(await home.manageOrder()).toEqual(["Your work items", "Quick links", "Your stickies", "Recents"]);
      await expect(home.manageDialog.getByRole("switch", { name: "Show Recents" })).toHaveAttribute(
        "aria-checked",
        "false",
      );
      // Back on for the pictures.
      await home.manageDialog.getByRole("switch", { name: "Show Recents" }).click();
      await page.keyboard.press("Escape");
      await expect(home.manageDialog).toBeHidden();
      await expect(home.widget("Recents")).toBeVisible();
    });

    test("with every widget hidden, the home says how to bring them back", async () => {
      await home.open(f.slug);
      await home.openManage();
      for (const name of ["Your work items", "Quick links", "Your stickies", "Recents"]) {
        await home.manageDialog.getByRole("switch", { name: `Show ${name}` }).click();
      }
      await page.keyboard.press("Escape");
      await expect(page.getByText("Every widget is hidden")).toBeVisible();
      await shoot(page, "no-widgets", "home-");
      await page.getByRole("main").getByRole("button", { name: "Manage widgets" }).last().click();
      for (const name of ["Your work items", "Quick links", "Your stickies", "Recents"]) {
        await home.manageDialog.getByRole("switch", { name: `Show ${name}` }).click();
      }
      await page.keyboard.press("Escape");
      await expect.poll(() => home.shownWidgets()).toHaveLength(4);
    });

    test("a widget switched off and straight back on is stored on, even when the first answer is slow", async () => {
      // Both clicks used to leave at once, on two connections; the "off" that reached the server
      // last was stored, and the next visit opened without Recents (CI, the pictures below).
      // The "off" is held here until the "on" has been clicked: the client must not send the "on"
      // before the "off" is answered.
      const patches: string[] = [];
      let releaseOff: () => void = () => undefined;
      const offHeld = new Promise<void>((resolve) => {
        releaseOff = resolve;
      });
      await page.route("**/home-preferences/recents/", async (route) => {
        const body = route.request().postDataJSON() as { is_enabled?: boolean };
        patches.push(body.is_enabled ? "on" : "off");
        if (body.is_enabled === false) await offHeld;
        await route.continue();
      });
      try {
        await home.open(f.slug);
        await home.openManage();
        const recentsSwitch = home.manageDialog.getByRole("switch", { name: "Show Recents" });
        await recentsSwitch.click();
        await expect(recentsSwitch).toHaveAttribute("aria-checked", "false");
        await recentsSwitch.click();
        await expect(recentsSwitch).toHaveAttribute("aria-checked", "true");
        expect(patches).toEqual(["off"]);
        const onStored = page.waitForResponse(
          (r) => r.url().endsWith("/home-preferences/recents/") && r.request().postDataJSON()?.is_enabled === true,
        );
        releaseOff();
        expect((await onStored).status()).toBe(200);
        expect(patches).toEqual(["off", "on"]);
      } finally {
        releaseOff();
        await page.unroute("**/home-preferences/recents/");
      }
      await page.keyboard.press("Escape");
      await page.reload();
      await home.ready();
      await expect.poll(() => home.shownWidgets()).toHaveLength(4);
    });

    test("pictures: the home, the link modal and Manage widgets, wide and phone, light and dark", async () => {
      for (const [width, height, size] of [
        [1440, 900, "wide"],
        [390, 844, "phone"],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await home.open(f.slug);
          await expect(home.recentRows().first()).toBeVisible();
          await expect(home.quickLink("Every project")).toBeVisible();
          await shoot(page, `home-${size}-${scheme}`, "home-");
          // Lower down: Recents and the projects.
          await home.widget("Recents").scrollIntoViewIfNeeded();
          await shoot(page, `recents-${size}-${scheme}`, "home-");
          await home.widget("Quick links").getByRole("button", { name: "Add quick link" }).click();
          await expect(home.linkDialog).toBeVisible();
          await shoot(page, `link-modal-${size}-${scheme}`, "home-");
          await page.keyboard.press("Escape");
          await home.openManage();
          await shoot(page, `manage-${size}-${scheme}`, "home-");
          await page.keyboard.press("Escape");
          await expect(home.manageDialog).toBeHidden();
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  });
