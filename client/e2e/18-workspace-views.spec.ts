/**
 * Workspace (global) views (issue 11): the sidebar's Views opens all-issues, which lists the work
 * items of every project the user is in (two projects here, with the project column) and never an
 * item of a private project they aren't in; the Assigned tab narrows to their own; a project
 * filter saved as a view reopens after a reload with its filter. A row opens the item's peek. The
 * spec makes its own users, workspace and projects through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import type { Fixture } from "./support/work-items-api.ts";

const vera = { email: "vera@wsviews.test", password: "Copper-meadow-kite-61", first: "Vera", last: "Viewer" };
const omar = { email: "omar@wsviews.test", password: "Granite-willow-sun-33", first: "Omar", last: "Other" };

test.describe
  .serial("workspace views", () => {
    test.describe.configure({ timeout: 90_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let page: Page;
    let f: Fixture;
    const grid = () => page.getByRole("grid", { name: "Work items" });
    const tabs = () => page.getByRole("navigation", { name: "Workspace views" });

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      const { api, ...a } = await openSession(browser, origin);
      const { api: apiB, ...b } = await openSession(browser, origin);
      ({ context: contextA, page } = a);
      contextB = b.context;
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
      await expect(grid().getByRole("button", { name: "Open BE-1 Beacon onboarding" })).toBeVisible();
      await expect(grid().getByRole("button", { name: "Open AT-1 Atlas launch plan" })).toBeVisible();
      await expect(grid().getByRole("button", { name: "Open AT-2 Atlas copy review" })).toBeVisible();
      // Newest first (product-domain §2): Beacon's item was created last.
      await expect(
        grid()
          .getByRole("button", { name: /^Open / })
          .first(),
      ).toHaveAccessibleName("Open BE-1 Beacon onboarding");
      await expect(grid().getByRole("row").filter({ hasText: "Beacon onboarding" })).toContainText("Beacon");
      await expect(page.getByText("Vault payroll")).toHaveCount(0);

      // A row opens the item's peek.
      await grid().getByRole("button", { name: "Open AT-1 Atlas launch plan" }).click();
      await expect(page.getByRole("dialog", { name: /AT-1 Atlas launch plan/ })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog", { name: /AT-1 Atlas launch plan/ })).toBeHidden();
    });

    test("Assigned shows only the user's own work items", async () => {
      await tabs().getByRole("link", { name: "Assigned" }).click();
      await expect(page).toHaveURL(/\/workspace-views\/assigned\/$/);
      await expect(grid().getByRole("button", { name: "Open AT-1 Atlas launch plan" })).toBeVisible();
      await expect(grid().getByRole("button", { name: /^Open / })).toHaveCount(1);
      await expect(page.getByText("Atlas copy review")).toHaveCount(0);
    });

    test("a project filter saved as a view reopens with its filter", async () => {
      await tabs().getByRole("link", { name: "All work items" }).click();
      await expect(grid().getByRole("button", { name: /^Open / })).toHaveCount(3);
      await page.getByRole("button", { name: "Filters" }).click();
      await page.getByRole("button", { name: "Beacon", exact: true }).click();
      await page.keyboard.press("Escape");
      await expect(grid().getByRole("button", { name: /^Open / })).toHaveCount(1);

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
      await expect(grid().getByRole("button", { name: "Open BE-1 Beacon onboarding" })).toBeVisible();
      await expect(grid().getByRole("button", { name: /^Open / })).toHaveCount(1);
      await tabs().getByRole("link", { name: "All work items" }).click();
      await expect(grid().getByRole("button", { name: /^Open / })).toHaveCount(3);
    });
  });
