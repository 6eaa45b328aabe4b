/**
 * Sidebar preferences and collapse toggles (product-domain §2 "Workspace menu" and the persisted
 * collapse toggles; calls-errors-sync "GET, PATCH /sidebar-preferences/{id}/"): Iris opens
 * "Customize sidebar" from the sidebar's More menu, sends Drafts under More (a switch) and moves
 * Stickies to the top (the keyboard: Space, arrows, Space) and Archives above Views (a drag); the
 * sidebar follows at once, the server holds it, a reload keeps it and a second browser of hers
 * follows live. She collapses the main sidebar (its button and Mod+B), the work item's
 * properties, the profile card and a cycle's details; a reload keeps each. Pictures of the
 * sidebar with More open and of the Customize dialog, wide and phone, light and dark, and of the
 * collapsed sidebar and properties.
 */
import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { pickUp } from "./support/drag.ts";
import { channelSynced, expectNotReloaded, markPage, trackLiveSockets } from "./support/live-socket.ts";
import { openSession, type Session, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const iris = { email: "iris@sidebar.test", password: "Quarry-meadow-lantern-71", first: "Iris", last: "Moss" };
const LIVE = { timeout: 15_000 };
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The first group of a new person's sidebar: the defaults, in the reference's numbering. */
const DEFAULT_ROWS = [
  "Search",
  "Home",
  "Notifications",
  "Projects",
  "Views",
  "Drafts",
  "Your work",
  "Stickies",
  "More",
];

type Prefs = Record<string, { is_pinned: boolean; sort_order: number }>;

const nav = (page: Page) => page.getByRole("navigation", { name: "Workspace navigation" });
/** The labels of the sidebar's first group, top to bottom (Search, Home … More). */
const topRows = (page: Page) => nav(page).locator(".sidebar-group").first().locator(".sidebar-row .sidebar-label");

/** Drag `from` onto `to` the way a hand does: press, move in steps (dnd-kit waits for 4 px), release. */
async function drag(page: Page, from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error("drag: an end is not on screen");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 6, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 4, { steps: 12 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 4 - 1, { steps: 2 });
  await page.mouse.up();
}

test.describe
  .serial("sidebar preferences", () => {
    // Reloads of four screens on a machine shared with other runs: each test has three minutes.
    test.describe.configure({ timeout: 180_000 });

    let origin = "";
    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let userId = "";
    let cycleId = "";
    const prefs = () => api.get<Prefs>(`/api/workspaces/${f.slug}/sidebar-preferences/`);

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      origin = baseURL ?? "http://localhost:3100";
      ({ context, page, api } = await openSession(browser, origin, { viewport: WIDE }, trackLiveSockets));
      f = await signUpWithProject(api, iris, { slug: "sidebar-e2e", name: "Harbor", identifier: "HB" });
      userId = (await api.me()).id;
      await api.createWorkItem(f, { name: "Paint the lighthouse" });
      cycleId = (
        await api.post<{ id: string }>(`/api/workspaces/${f.slug}/projects/${f.projectId}/cycles/`, {
          name: "Autumn sprint",
        })
      ).id;
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("entries: unpinned under More, reordered by keyboard and drag, kept after a reload and followed live", async ({
      browser,
    }) => {
      await page.goto(`/${f.slug}/`);
      // Views, Drafts, Your work and Stickies pinned; Archives under More.
      await expect(topRows(page)).toHaveText(DEFAULT_ROWS);

      const other: Session = await openSession(
        browser,
        origin,
        { storageState: await context.storageState(), viewport: WIDE },
        trackLiveSockets,
      );
      try {
        const synced = channelSynced(other.page, `user.${userId}`);
        await other.page.goto(`/${f.slug}/`);
        await expect(topRows(other.page)).toHaveText(DEFAULT_ROWS);
        await synced;
        await markPage(other.page, "before-sidebar-change");

        // More holds Analytics, Archives and the way to customise.
        await nav(page).getByRole("button", { name: "More", exact: true }).click();
        const menu = page.getByRole("menu");
        await expect(menu.getByRole("menuitem")).toHaveText(["Analytics", "Archives", "Customize sidebar"]);
        await menu.getByRole("menuitem", { name: "Customize sidebar" }).click();
        const dialog = page.getByRole("dialog", { name: "Customize sidebar" });
        await expect(dialog).toBeVisible();
        const rows = dialog.getByTestId("sidebar-customize-row");
        await expect(rows.locator(".sbc-name")).toHaveText([
          "Views",
          "Analytics",
          "Drafts",
          "Your work",
          "Archives",
          "Stickies",
        ]);

        // Drafts goes under More.
        const draftsSwitch = dialog.getByRole("switch", { name: "Show Drafts in the sidebar" });
        await expect(draftsSwitch).toBeChecked();
        await draftsSwitch.click();
        await expect(draftsSwitch).not.toBeChecked();
        await expect(nav(page).getByRole("link", { name: "Drafts", exact: true })).toHaveCount(0);

        // Stickies to the top with the keyboard.
        const stickiesHandle = dialog.getByRole("button", { name: "Move Stickies" });
        // dnd-kit listens for the arrows only once the pick-up has settled (pickUp waits for it),
        // and measures between moves: each step waits for its announcement before the next key.
        await pickUp(page, stickiesHandle);
        for (const over of ["Archives", "Your work", "Drafts", "Analytics", "Views"]) {
          await page.keyboard.press("ArrowUp");
          await expect(page.getByText(`Stickies is over ${over}.`)).toBeAttached();
        }
        await page.keyboard.press("Space");
        await expect(stickiesHandle).not.toHaveAttribute("aria-pressed", "true");
        await expect(rows.locator(".sbc-name")).toHaveText([
          "Stickies",
          "Views",
          "Analytics",
          "Drafts",
          "Your work",
          "Archives",
        ]);

        // Archives pinned, and dragged above Views.
        await dialog.getByRole("switch", { name: "Show Archives in the sidebar" }).click();
        await drag(
          page,
          dialog.getByRole("button", { name: "Move Archives" }),
          rows.filter({ hasText: "Views" }).getByRole("button", { name: "Move Views" }),
        );
        await expect(rows.locator(".sbc-name")).toHaveText([
          "Stickies",
          "Archives",
          "Views",
          "Analytics",
          "Drafts",
          "Your work",
        ]);
        await dialog.getByRole("button", { name: "Done" }).click();
        await expect(dialog).toBeHidden();

        const expected = [
          "Search",
          "Home",
          "Notifications",
          "Projects",
          "Stickies",
          "Archives",
          "Views",
          "Your work",
          "More",
        ];
        await expect(topRows(page)).toHaveText(expected);
        await expect
          .poll(async () => {
            const p = await prefs();
            return [p.drafts?.is_pinned, p.archives?.is_pinned, Object.keys(p).filter((k) => p[k]?.is_pinned)];
          })
          .toEqual([false, true, ["stickies", "archives", "views", "your_work"]]);

        // The second browser follows without a reload.
        await expect(topRows(other.page)).toHaveText(expected, LIVE);
        await expectNotReloaded(other.page, "before-sidebar-change");

        // Kept after a reload; Drafts is one click away under More, which marks where you are.
        await page.reload();
        await expect(topRows(page)).toHaveText(expected);
        await nav(page).getByRole("button", { name: "More", exact: true }).click();
        await expect(page.getByRole("menu").getByRole("menuitem")).toHaveText([
          "Analytics",
          "Drafts",
          "Customize sidebar",
        ]);
        await page.getByRole("menuitem", { name: "Drafts" }).click();
        await expect(page).toHaveURL(new RegExp(`/${f.slug}/drafts/$`));
        await expect(nav(page).getByRole("button", { name: "More", exact: true })).toHaveClass(/active/);
        // The pinned Archives row is the archives' own: Projects is not lit there any more.
        await nav(page).getByRole("link", { name: "Archives", exact: true }).click();
        await expect(nav(page).getByRole("link", { name: "Archives", exact: true })).toHaveClass(/active/);
        await expect(nav(page).getByRole("link", { name: "Projects", exact: true })).not.toHaveClass(/active/);
      } finally {
        await other.context.close();
      }
    });

    test("collapse toggles: the main sidebar, the work item's properties, the profile card and a cycle's details are kept", async () => {
      await page.goto(`/${f.slug}/`);
      const sidebar = nav(page);
      await page.getByRole("button", { name: "Collapse sidebar" }).click();
      await expect(page.getByRole("button", { name: "Expand sidebar" })).toHaveAttribute("aria-expanded", "false");
      await page.reload();
      await expect(page.getByRole("button", { name: "Expand sidebar" })).toBeVisible();
      expect((await sidebar.boundingBox())?.width ?? 0).toBeLessThan(80);
      // The pinned entries and More stay reachable as icons.
      await expect(
        sidebar.getByRole("link", { name: "Stickies" }).or(sidebar.getByRole("button", { name: "Stickies" })),
      ).toBeVisible();
      await expect(sidebar.getByRole("button", { name: "More", exact: true })).toBeVisible();
      // Mod+B (the reference's shortcut) expands and collapses it, outside text fields.
      await page.locator("main").click({ position: { x: 5, y: 5 } });
      await page.keyboard.press("ControlOrMeta+b");
      await expect(page.getByRole("button", { name: "Collapse sidebar" })).toHaveAttribute("aria-expanded", "true");
      await page.keyboard.press("ControlOrMeta+b");
      await expect(page.getByRole("button", { name: "Expand sidebar" })).toBeVisible();
      await page.getByRole("button", { name: "Expand sidebar" }).click();
      await expect(page.getByRole("button", { name: "Collapse sidebar" })).toBeVisible();

      // The work item's properties column.
      await page.goto(`/${f.slug}/browse/HB-1/`);
      const properties = page.getByRole("region", { name: "Properties" });
      await expect(properties).toBeVisible();
      const hide = page.getByRole("button", { name: "Hide properties" });
      await expect(hide).toHaveAttribute("aria-expanded", "true");
      await hide.click();
      await expect(properties).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole("button", { name: "Show properties" })).toHaveAttribute("aria-expanded", "false");
      await expect(properties).toHaveCount(0);
      await page.getByRole("button", { name: "Show properties" }).click();
      await expect(properties).toBeVisible();

      // The member profile's card.
      await page.goto(`/${f.slug}/profile/${userId}/`);
      const card = page.getByTestId("profile-card");
      await expect(card).toBeVisible();
      await page.getByRole("button", { name: "Hide profile details" }).click();
      await expect(card).toBeHidden();
      await page.reload();
      await expect(page.getByRole("button", { name: "Show profile details" })).toHaveAttribute(
        "aria-expanded",
        "false",
      );
      await expect(card).toBeHidden();
      await page.getByRole("button", { name: "Show profile details" }).click();
      await expect(card).toBeVisible();

      // A cycle's details panel.
      await page.goto(`/${f.slug}/projects/${f.projectId}/cycles/${cycleId}/`);
      const details = page.getByRole("complementary", { name: "Details" });
      await expect(details).toBeVisible();
      await page.getByRole("button", { name: "Hide details" }).first().click();
      await expect(details).toHaveCount(0);
      await page.reload();
      await expect(page.getByRole("button", { name: "Show details" })).toBeVisible();
      await expect(details).toHaveCount(0);
      await page.getByRole("button", { name: "Show details" }).click();
      await expect(details).toBeVisible();
    });

    test("pictures: the sidebar with More open and the Customize dialog, wide and phone, light and dark", async () => {
      for (const [viewport, size] of [
        [WIDE, "wide"],
        [PHONE, "phone"],
      ] as const) {
        await page.setViewportSize(viewport);
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto(`/${f.slug}/browse/HB-1/`);
          if (size === "phone") await page.getByRole("button", { name: "Open navigation" }).click();
          await expect(topRows(page).first()).toBeVisible();
          await nav(page).getByRole("button", { name: "More", exact: true }).click();
          await expect(page.getByRole("menuitem", { name: "Customize sidebar" })).toBeVisible();
          await shoot(page, `more-${size}-${scheme}`, "sidebar-");
          await page.getByRole("menuitem", { name: "Customize sidebar" }).click();
          const dialog = page.getByRole("dialog", { name: "Customize sidebar" });
          await expect(dialog.getByTestId("sidebar-customize-row")).toHaveCount(6);
          await shoot(page, `customize-${size}-${scheme}`, "sidebar-");
          await dialog.getByRole("button", { name: "Done" }).click();
          await expect(dialog).toBeHidden();
        }
      }
      // Wide, with the sidebar and the properties collapsed: icons only, More opening beside it.
      await page.setViewportSize(WIDE);
      await page.goto(`/${f.slug}/browse/HB-1/`);
      await page.getByRole("button", { name: "Collapse sidebar" }).click();
      await page.getByRole("button", { name: "Hide properties" }).click();
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await nav(page).getByRole("button", { name: "More", exact: true }).click();
        await expect(page.getByRole("menuitem", { name: "Customize sidebar" })).toBeVisible();
        await shoot(page, `collapsed-wide-${scheme}`, "sidebar-");
        await page.keyboard.press("Escape");
        await expect(page.getByRole("menu")).toBeHidden();
      }
      await page.getByRole("button", { name: "Expand sidebar" }).click();
      await page.getByRole("button", { name: "Show properties" }).click();
      await page.emulateMedia({ colorScheme: "light" });
    });
  });
