/**
 * Favorites with folders (product-domain §2 favorites sidebar, §4 favorites; calls-errors-sync §7
 * "Favorites"): Fern stars a cycle (its star in the cycles list) and a page (the star in the
 * page's header); both show in the sidebar's Favorites at once. She makes a folder with "New
 * folder", drags both into it (dnd-kit: the pointer pressed, moved in steps, released), and
 * after a reload the folder holds them in the order she left; she drags the page back out to
 * the top level, renames the folder in place, and the server holds the same layout. Pictures of
 * the sidebar's favorites, wide and phone, light and dark. The spec signs up its own user,
 * workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const fern = { email: "fern@favorites.test", password: "Lichen-compass-pier-58", first: "Fern", last: "Alder" };

type Fav = { id: string; entity_type: string; name: string | null; parent: string | null; sequence: number };

/** Drag `from` onto `to` the way a hand does: press, move in steps (dnd-kit waits for 4 px), release. */
async function drag(page: Page, from: Locator, to: Locator, where: "middle" | "top" = "middle") {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error("drag: an end is not on screen");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 6, { steps: 3 });
  // Picked up: the dragged row follows the pointer.
  await expect(page.locator(".favorite-drag-overlay")).toBeVisible();
  const y = where === "top" ? b.y + 4 : b.y + b.height / 2;
  await page.mouse.move(b.x + b.width / 2, y, { steps: 12 });
  await page.mouse.move(b.x + b.width / 2, y + 1, { steps: 2 });
  await page.mouse.up();
  await expect(page.locator(".favorite-drag-overlay")).toHaveCount(0);
}

test.describe
  .serial("favorites", () => {
    test.describe.configure({ timeout: 90_000 });

    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let pageId = "";

    const sidebar = () => page.getByRole("navigation", { name: "Workspace navigation" });
    const favoriteRow = (name: string) =>
      sidebar().locator(`[data-testid="favorite-row"][data-favorite-name="${name}"]`);
    const folder = (name: string) => sidebar().locator(`[data-testid="favorite-folder"][data-favorite-name="${name}"]`);
    const favs = () => api.get<Fav[]>(`/api/workspaces/${f.slug}/user-favorites/?all=true`);

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      ({ context, page, api } = await openSession(browser, baseURL ?? "http://localhost:3100"));
      f = await signUpWithProject(api, fern, { slug: "favorites-e2e", name: "Garden", identifier: "GD" });
      const base = `/api/workspaces/${f.slug}/projects/${f.projectId}`;
      await api.post(`${base}/cycles/`, { name: "Spring sprint" });
      pageId = (await api.post<{ id: string }>(`${base}/pages/`, { name: "Planting plan" })).id;
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("stars on a cycle and a page show in the sidebar's Favorites at once", async () => {
      await page.goto(`/${f.slug}/projects/${f.projectId}/cycles/`);
      await page.getByRole("tab", { name: /^All/ }).click();
      await page.getByRole("button", { name: "Add Spring sprint to favorites" }).first().click();
      await expect(favoriteRow("Spring sprint")).toBeVisible();

      await page.goto(`/${f.slug}/projects/${f.projectId}/pages/${pageId}/`);
      await page.getByRole("button", { name: "Add to favorites" }).click();
      await expect(favoriteRow("Planting plan")).toBeVisible();
      await expect.poll(async () => (await favs()).map((x) => x.entity_type)).toEqual(["cycle", "page"]);
    });

    test("a new folder; both dragged into it; the layout is kept after a reload", async () => {
      await page.goto(`/${f.slug}/`);
      // The list settled (the kept copy read again from the server) before anything is dragged.
      await expect(favoriteRow("Spring sprint")).toBeVisible();
      await expect(favoriteRow("Planting plan")).toBeVisible();
      await sidebar().getByRole("button", { name: "New folder" }).click();
      const input = sidebar().getByRole("textbox", { name: "Folder name" });
      await input.fill("Seasonal");
      await input.press("Enter");
      await expect(folder("Seasonal")).toBeVisible();
      await expect.poll(async () => (await favs()).find((x) => x.entity_type === "folder")?.name).toBe("Seasonal");

      const folderHeader = folder("Seasonal").getByRole("button", { name: "Seasonal", exact: true });
      await drag(page, favoriteRow("Spring sprint"), folderHeader);
      await expect(folder("Seasonal").locator('[data-testid="favorite-row"]')).toHaveCount(1);
      await drag(page, favoriteRow("Planting plan"), folderHeader);
      await expect(folder("Seasonal").locator('[data-testid="favorite-row"]')).toHaveCount(2);
      // Reorder inside the folder: the page before the cycle.
      await drag(page, favoriteRow("Planting plan"), favoriteRow("Spring sprint"), "top");
      const inFolder = folder("Seasonal").locator('[data-testid="favorite-row"]');
      await expect
        .poll(async () => inFolder.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-favorite-name"))))
        .toEqual(["Planting plan", "Spring sprint"]);
      await expect
        .poll(async () => {
          const list = await favs();
          const dir = list.find((x) => x.entity_type === "folder");
          return list
            .filter((x) => x.parent === dir?.id)
            .sort((a, b) => a.sequence - b.sequence)
            .map((x) => x.entity_type);
        })
        .toEqual(["page", "cycle"]);

      await page.reload();
      await expect
        .poll(async () =>
          folder("Seasonal")
            .locator('[data-testid="favorite-row"]')
            .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-favorite-name"))),
        )
        .toEqual(["Planting plan", "Spring sprint"]);
      await shoot(page, "folder-desktop-light", "favorites-");
    });

    test("a folder closes and stays closed; the page dragged back out; the folder renamed in place", async () => {
      await page.goto(`/${f.slug}/`);
      await expect(favoriteRow("Planting plan")).toBeVisible();
      const header = folder("Seasonal").getByRole("button", { name: "Seasonal", exact: true });
      await header.click();
      await expect(header).toHaveAttribute("aria-expanded", "false");
      await expect(favoriteRow("Spring sprint")).toHaveCount(0);
      await page.reload();
      await expect(folder("Seasonal").getByRole("button", { name: "Seasonal", exact: true })).toHaveAttribute(
        "aria-expanded",
        "false",
      );
      await folder("Seasonal").getByRole("button", { name: "Seasonal", exact: true }).click();
      await expect(favoriteRow("Planting plan")).toBeVisible();

      // Out of the folder: onto the space under the list.
      await drag(page, favoriteRow("Planting plan"), sidebar().getByTestId("favorites-root-end"));
      await expect(folder("Seasonal").locator('[data-testid="favorite-row"]')).toHaveCount(1);
      await expect.poll(async () => (await favs()).find((x) => x.entity_type === "page")?.parent ?? null).toBeNull();

      await folder("Seasonal").hover();
      await sidebar().getByRole("button", { name: "Rename Seasonal" }).click();
      const input = sidebar().getByRole("textbox", { name: "Folder name" });
      await input.fill("Spring things");
      await input.press("Enter");
      await expect(folder("Spring things")).toBeVisible();
      await expect.poll(async () => (await favs()).find((x) => x.entity_type === "folder")?.name).toBe("Spring things");
      // Put the page back for the pictures.
      await drag(
        page,
        favoriteRow("Planting plan"),
        folder("Spring things").getByRole("button", { name: "Spring things", exact: true }),
      );
      await expect(folder("Spring things").locator('[data-testid="favorite-row"]')).toHaveCount(2);
    });

    test("pictures: the sidebar's favorites, wide and phone, light and dark", async () => {
      const base = `/api/workspaces/${f.slug}/projects/${f.projectId}`;
      // One more unfiled favorite so the top level shows both kinds.
      const mod = await api.post<{ id: string }>(`${base}/modules/`, { name: "Irrigation" });
      await api.post(`/api/workspaces/${f.slug}/user-favorites/`, {
        entity_type: "module",
        entity_identifier: mod.id,
        project_id: f.projectId,
      });
      for (const [width, height, size] of [
        [1280, 800, "desktop"],
        [390, 844, "phone"],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto(`/${f.slug}/`);
          if (size === "phone") await page.getByRole("button", { name: "Open navigation" }).click();
          await expect(favoriteRow("Irrigation")).toBeVisible();
          await expect(favoriteRow("Planting plan")).toBeVisible();
          await shoot(page, `sidebar-${size}-${scheme}`, "favorites-");
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  });
