/**
 * The command palette and the shortcut help (issue 19; product-domain §2 "command palette,
 * shortcut help"): Ivy opens the palette with Ctrl+K from home and jumps to a screen; finds a
 * work item by its key (SF-2) and by words with a typo, opens it, and changes its state from the
 * palette's nested page (the server holds it); sees it under Recently opened; creates a cycle from home (the palette asks for the
 * project, then the cycles screen opens its form); goes back a page with Backspace; sees her
 * recent search first in an empty box; opens the shortcut help with `?` and filters it. Pictures:
 * the palette wide in light and dark, on a phone as a full-screen sheet, and the help. The spec
 * signs up its own user, workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const ivy = { email: "ivy@palette.test", password: "Quarry-lantern-moth-64", first: "Ivy", last: "Keys" };

test.describe
  .serial("command palette", () => {
    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;

    const palette = () => page.getByRole("dialog", { name: "Command palette" });
    const box = () => palette().getByRole("combobox");
    const option = (name: string | RegExp) => palette().getByRole("option", { name });
    const openPalette = async () => {
      await page.keyboard.press("ControlOrMeta+K");
      await expect(palette()).toBeVisible();
      await expect(box()).toBeFocused();
    };

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      ({ context, page, api } = await openSession(browser, baseURL ?? "http://localhost:3100", {
        viewport: { width: 1440, height: 900 },
      }));
      f = await signUpWithProject(api, ivy, { slug: "palette-e2e", name: "Storefront", identifier: "SF" });
      await api.createWorkItem(f, { name: "Tidy the footer links" });
      await api.createWorkItem(f, { name: "Fix the checkout login loop", priority: "high" });
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("Ctrl+K opens the palette from home; a typed screen's name and Enter go there", async () => {
      await page.goto(`/${f.slug}/`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await openPalette();
      // The empty box offers creating and going places.
      await expect(palette().getByRole("group", { name: "Create" })).toBeVisible();
      await expect(option("Create work item")).toBeVisible();
      await box().fill("notif");
      await expect(option("Notifications")).toBeVisible();
      await page.keyboard.press("Enter");
      await expect(palette()).toBeHidden();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/notifications/$`));
      // Ctrl+K opens it again and closes it.
      await openPalette();
      await page.keyboard.press("ControlOrMeta+K");
      await expect(palette()).toBeHidden();
    });

    test("finds a work item by its key, opens it, and sets its state from a nested page", async () => {
      await openPalette();
      await box().fill("SF-2");
      const hit = option(/SF-2\s*Fix the checkout login loop/);
      await expect(hit).toBeVisible();
      // The best match is the active row: Enter opens it.
      await expect(hit).toHaveAttribute("aria-selected", "true");
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/browse/SF-2/$`));
      await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue(
        "Fix the checkout login loop",
      );

      await openPalette();
      await expect(palette().getByRole("group", { name: "Work item SF-2" })).toBeVisible();
      await box().fill("state");
      await page.keyboard.press("Enter");
      // The nested page lists the project's states, the current one ticked.
      await expect(option("Backlog")).toBeVisible();
      await box().fill("done");
      await expect(option("Done")).toBeVisible();
      await page.keyboard.press("Enter");
      await expect(palette()).toBeHidden();
      await expect(page.getByText("State changed to Done")).toBeVisible();
      await expect
        .poll(async () => (await api.byName(f, "Fix the checkout login loop")).state_id)
        .toBe(f.states.find((s) => s.group === "completed")?.id);
    });

    test("the item just opened is first under Recently opened; words with a typo still find it", async () => {
      await openPalette();
      const opened = palette().getByRole("group", { name: "Recently opened" });
      await expect(opened.getByRole("option").first()).toContainText("SF-2 Fix the checkout login loop");
      await box().fill("chekout login");
      await expect(option(/SF-2\s*Fix the checkout login loop/)).toBeVisible();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/browse/SF-2/$`));
      await openPalette();
      const recent = palette().getByRole("group", { name: "Recent searches" });
      await expect(recent.getByRole("option", { name: "chekout login" })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(palette()).toBeHidden();
    });

    test("Create cycle from home asks for the project, then the cycles screen opens its form", async () => {
      await page.goto(`/${f.slug}/`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await openPalette();
      await box().fill("create cycle");
      await page.keyboard.press("Enter");
      await expect(box()).toHaveAttribute("placeholder", "Choose a project");
      await expect(option(/Storefront/)).toBeVisible();
      // Backspace in the empty box goes back to the first page, and Enter comes back here.
      await page.keyboard.press("Backspace");
      await expect(option("Create work item")).toBeVisible();
      await box().fill("create cycle");
      await page.keyboard.press("Enter");
      await option(/Storefront/).click();
      await expect(page).toHaveURL(new RegExp(`/projects/${f.projectId}/cycles/$`));
      const form = page.getByRole("dialog", { name: "New cycle" });
      await expect(form).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(form).toBeHidden();
    });

    test("? opens the shortcut help, which filters and closes with Escape", async () => {
      await page.locator("#main").click({ position: { x: 5, y: 5 } });
      await page.keyboard.press("?");
      const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await expect(help).toBeVisible();
      await expect(help.getByText("Open or close the command palette")).toBeVisible();
      await expect(help.getByText("New cycle")).toBeVisible();
      await shoot(page, "shortcut-help");
      await help.getByRole("searchbox", { name: "Filter shortcuts" }).fill("cycle");
      await expect(help.getByText("New cycle")).toBeVisible();
      await expect(help.getByText("Open or close the command palette")).toHaveCount(0);
      await shoot(page, "shortcut-help-filtered");
      await page.keyboard.press("Escape");
      await expect(help).toBeHidden();
      // The palette's "Keyboard shortcuts" opens the same help.
      await openPalette();
      await box().fill("keyboard");
      await page.keyboard.press("Enter");
      await expect(help).toBeVisible();
      await page.keyboard.press("Escape");
    });

    test("pictures: wide in light and dark, and a full-screen sheet on a phone", async () => {
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/`);
      await expect(page.getByRole("heading", { name: "Work items", exact: true })).toBeVisible();
      await openPalette();
      await shoot(page, "palette-light");
      await box().fill("fix");
      await expect(option(/SF-2/)).toBeVisible();
      await shoot(page, "palette-results-light");
      await page.keyboard.press("Escape");
      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "dark"));
      await page.reload();
      await expect(page.getByRole("heading", { name: "Work items", exact: true })).toBeVisible();
      await openPalette();
      await box().fill("fix");
      await expect(option(/SF-2/)).toBeVisible();
      await shoot(page, "palette-results-dark");
      await page.keyboard.press("Escape");

      await page.setViewportSize({ width: 390, height: 844 });
      await openPalette();
      const sheet = await palette().boundingBox();
      expect(sheet?.width).toBeGreaterThanOrEqual(389);
      expect(sheet?.height).toBeGreaterThanOrEqual(843);
      await box().fill("fix");
      await expect(option(/SF-2/)).toBeVisible();
      await shoot(page, "palette-phone-dark");
      await palette().getByRole("button", { name: "Close" }).click();
      await expect(palette()).toBeHidden();
      await page.emulateMedia({ colorScheme: "light" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "light"));
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  });
