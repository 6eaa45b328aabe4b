/**
 * Workspace (global) views (issue 11): the sidebar's Views opens all-issues, which lists the work
 * items of every project the user is in (two projects here, with the project column) and never an
 * item of a private project they aren't in; the Assigned tab narrows to their own; a project
 * filter saved as a view reopens after a reload with its filter. A row opens the item's peek. A
 * public view another member creates appears in the tab strip of an open screen without a reload
 * (workspace.{id} live channel) and leaves it when deleted; a private one never shows there. The
 * spec makes its own users, workspace and projects through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const vera = { email: "vera@wsviews.test", password: "Copper-meadow-kite-61", first: "Vera", last: "Viewer" };
const omar = { email: "omar@wsviews.test", password: "Granite-willow-sun-33", first: "Omar", last: "Other" };

test.describe
  .serial("workspace views", () => {
    test.describe.configure({ timeout: 90_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let page: Page;
    let pageB: Page;
    let apiA: WorkItemsApi;
    let f: Fixture;
    const grid = () => page.getByRole("grid", { name: "Spreadsheet" });
    // A spreadsheet row's "Open AT-1" button (the peek), by the item's key.
    const openButton = (key: string) => grid().getByRole("button", { name: `Open ${key}`, exact: true });
    const openButtons = () => grid().getByRole("button", { name: /^Open [A-Z]+-\d+$/ });
    const tabs = () => page.getByRole("navigation", { name: "Workspace views" });

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      const { api, ...a } = await openSession(browser, origin);
      const { api: apiB, ...b } = await openSession(browser, origin);
      ({ context: contextA, page } = a);
      ({ context: contextB, page: pageB } = b);
      apiA = api;
      f = await signUpWithProject(api, vera, { slug: "wsv-e2e", name: "Atlas", identifier: "AT" });
      const beacon = await api.post<{ id: string }>(`/api/workspaces/${f.slug}/projects/`, {
        name: "Beacon",
        identifier: "BE",
      });
      const omarId = await addMember(api, apiB, f, omar);
      const me = await api.me();
      await api.createWorkItem(f, { name: "Atlas launch plan", assignee_ids: [me.id] });
      await api.createWorkItem(f, { name: "Atlas copy review", assignee_ids: [omarId] });
      await api.createWorkItem({ ...f, projectId: beacon.id }, { name: "Beacon onboarding" });
      // Omar's private project: Vera (even as the workspace's admin) is not in it.
      const vault = await apiB.post<{ id: string }>(`/api/workspaces/${f.slug}/projects/`, {
        name: "Vault",
        identifier: "VA",
        network: 0,
      });
      await apiB.createWorkItem({ ...f, projectId: vault.id }, { name: "Vault payroll" });
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("all-issues lists the items of both projects, never a private project's the user isn't in", async () => {
      await page.goto(`/${f.slug}/`);
      // The workspace's Views (a project's saved views are also named "Views", under the open project).
      const nav = page.getByRole("navigation", { name: "Workspace navigation" });
      await nav
        .getByRole("link", { name: "Views", exact: true })
        .and(nav.locator('a[href$="/workspace-views/all-issues/"]'))
        .click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/workspace-views/all-issues/$`));
      await expect(tabs().getByRole("link", { name: "All work items" })).toHaveAttribute("aria-current", "page");
      await expect(openButton("BE-1")).toBeVisible();
      await expect(openButton("AT-1")).toBeVisible();
      await expect(openButton("AT-2")).toBeVisible();
      // Newest first (product-domain §2): Beacon's item was created last.
      await expect(openButtons().first()).toHaveAccessibleName("Open BE-1");
      await expect(grid().getByRole("row").filter({ hasText: "Beacon onboarding" })).toContainText("Beacon");
      await expect(page.getByText("Vault payroll")).toHaveCount(0);

      // A row opens the item's peek.
      await openButton("AT-1").click();
      await expect(page.getByRole("dialog", { name: /AT-1 Atlas launch plan/ })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog", { name: /AT-1 Atlas launch plan/ })).toBeHidden();
    });

    test("Assigned shows only the user's own work items", async () => {
      await tabs().getByRole("link", { name: "Assigned" }).click();
      await expect(page).toHaveURL(/\/workspace-views\/assigned\/$/);
      await expect(openButton("AT-1")).toBeVisible();
      await expect(openButtons()).toHaveCount(1);
      await expect(page.getByText("Atlas copy review")).toHaveCount(0);
    });

    test("a project filter saved as a view reopens with its filter", async () => {
      await tabs().getByRole("link", { name: "All work items" }).click();
      await expect(openButtons()).toHaveCount(3);
      await page.getByRole("button", { name: "Filters" }).click();
      await page.getByRole("button", { name: "Beacon", exact: true }).click();
      await page.keyboard.press("Escape");
      await expect(openButtons()).toHaveCount(1);

      await page.getByRole("button", { name: "Save as view" }).click();
      const dialog = page.getByRole("dialog", { name: "New view" });
      await dialog.getByLabel("Name").fill("Beacon only");
      await dialog.getByRole("button", { name: "Create view" }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/workspace-views\/[0-9a-f-]{36}\/$/);
      await expect(page.getByRole("heading", { name: "Beacon only" })).toBeVisible();

      // The built-in view is back to no filter; the saved view keeps its own.
      await page.reload();
      await expect(tabs().getByRole("link", { name: "Beacon only" })).toHaveAttribute("aria-current", "page");
      await expect(openButton("BE-1")).toBeVisible();
      await expect(openButtons()).toHaveCount(1);
      await tabs().getByRole("link", { name: "All work items" }).click();
      await expect(openButtons()).toHaveCount(3);
    });

    test("every layout over both projects: grouped by project, a kanban drag, calendar and timeline", async () => {
      const board = new WorkItemsPage(page);
      await tabs().getByRole("link", { name: "All work items" }).click();
      await expect(openButtons()).toHaveCount(3);
      // The spreadsheet of several projects has a Project column.
      await expect(grid().getByRole("row").filter({ hasText: "Beacon onboarding" })).toContainText("Beacon");
      await shoot(page, "spreadsheet", "wsv-");

      // The list, grouped by project (the projects by name).
      await board.useLayout("List");
      await page.getByRole("button", { name: "Display" }).click();
      await page.getByRole("combobox", { name: "Group by", exact: true }).click();
      await page
        .getByRole("listbox", { name: "Group by", exact: true })
        .getByRole("option", { name: "Project" })
        .click();
      await page.keyboard.press("Escape");
      const groups = page.getByRole("region", { name: "List" }).locator(".wi-group-row:not(.wi-group-row-sticky)");
      await expect(groups).toHaveCount(2);
      await expect(groups.nth(0)).toContainText("Atlas");
      await expect(groups.nth(1)).toContainText("Beacon");
      await expect(board.listRows).toHaveCount(3);
      await shoot(page, "list-by-project", "wsv-");

      // The kanban by priority: dragging Beacon's item from None to Low (the next column) changes it
      // in its own project.
      await board.useLayout("Kanban");
      await page.getByRole("button", { name: "Display" }).click();
      await page.getByRole("combobox", { name: "Group by", exact: true }).click();
      await page
        .getByRole("listbox", { name: "Group by", exact: true })
        .getByRole("option", { name: "Priority" })
        .click();
      await page.keyboard.press("Escape");
      const card = board.card("Beacon onboarding");
      await expect(card).toBeVisible();
      await card.scrollIntoViewIfNeeded();
      const from = await card.boundingBox();
      const to = await board.column("Low").locator(".wi-drop").boundingBox();
      if (!from || !to) throw new Error("card or column not on screen");
      const saved = page.waitForResponse(
        (r) => r.request().method() === "PATCH" && /\/projects\/[0-9a-f-]+\/issues\/[0-9a-f-]+\/$/.test(r.url()),
        { timeout: 15_000 },
      );
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 5 });
      await page.mouse.move(to.x + to.width / 2, to.y + 40, { steps: 15 });
      await page.mouse.up();
      expect((await saved).ok(), "the priority was saved in the item's project").toBe(true);
      await expect(board.cardIn("Low", "Beacon onboarding")).toBeVisible();
      await shoot(page, "kanban-by-priority", "wsv-");

      // The calendar and the timeline show the items of both projects.
      await page.getByRole("button", { name: "Calendar", exact: true }).click();
      await expect(page.getByRole("region", { name: "Calendar" })).toBeVisible();
      await shoot(page, "calendar", "wsv-");
      await page.getByRole("button", { name: "Timeline", exact: true }).click();
      await expect(page.locator(".tl.wit")).toBeVisible();
      await expect(page.locator(".wit-side", { hasText: "Beacon onboarding" })).toBeVisible();
      await expect(page.locator(".wit-side", { hasText: "Atlas launch plan" })).toBeVisible();
      await shoot(page, "timeline", "wsv-");
      await board.useLayout("Spreadsheet");
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(openButtons()).toHaveCount(3);
      await shoot(page, "phone-spreadsheet", "wsv-");
      await board.useLayout("List");
      await shoot(page, "phone-list-by-project", "wsv-");
      await board.useLayout("Spreadsheet");
      await page.setViewportSize({ width: 1280, height: 720 });
    });

    test("another member's new public view appears in an open screen's tabs without a reload; a private one doesn't", async () => {
      const tabsB = () => pageB.getByRole("navigation", { name: "Workspace views" });
      const views = `/api/workspaces/${f.slug}/views/`;
      await apiA.post(views, { name: "Before the screen" });
      await pageB.goto(`/${f.slug}/workspace-views/all-issues/`);
      // The list is loaded: from here on only the live channel can bring new views.
      await expect(tabsB().getByRole("link", { name: "Before the screen" })).toBeVisible();
      await apiA.post(views, { name: "Vera's own", access: 0 });
      const shared = await apiA.post<{ id: string }>(views, { name: "Shared live" });
      await expect(tabsB().getByRole("link", { name: "Shared live" })).toBeVisible();
      await expect(tabsB().getByRole("link", { name: "Vera's own" })).toHaveCount(0);
      await apiA.delete(`${views}${shared.id}/`);
      await expect(tabsB().getByRole("link", { name: "Shared live" })).toHaveCount(0);
    });
  });
