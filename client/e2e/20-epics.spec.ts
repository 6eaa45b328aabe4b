/**
 * Epics (issue 11): a project admin turns epics on in the project's features and the sidebar
 * links "Epics"; "Add epic" on the epics board creates an epic (kept off the work-items board);
 * the epic's page (reached from the peek's full page) gets two new child work items, and when
 * one is completed elsewhere the epic's progress by state group moves without a reload; the
 * epics board shows each epic's progress chip ("1/2") in List and Kanban, moved live too. Pictures
 * of the board (List, Kanban, Spreadsheet) and the page, light and dark, desktop and phone, go to
 * the test's output folder (and /tmp/shots when it exists). The spec signs up its own user,
 * workspace and project.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { type Layout, WorkItemsPage } from "./pages/work-items-page.ts";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const user = { email: "esme@epics.test", password: "Copper-meadow-kestrel-27", first: "Esme", last: "Epicson" };
const EPIC = "Checkout revamp";
const LIVE = { timeout: 10_000 };

test.describe
  .serial("epics", () => {
    test.describe.configure({ timeout: 90_000 });
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let epicId = "";
    let childIds: Record<string, string> = {};
    const epicsUrl = () => `/${f.slug}/projects/${f.projectId}/epics/`;

    /** Like WorkItemsPage.useLayout, for the epics board (saved at epics-user-properties/). */
    async function switchEpicsLayout(layout: Layout): Promise<void> {
      const button = page.getByRole("button", { name: layout, exact: true });
      const saved = page.waitForResponse(
        (r) => r.request().method() === "PATCH" && r.url().includes("/epics-user-properties/"),
      );
      await button.click();
      await expect(button).toHaveAttribute("aria-pressed", "true");
      expect((await saved).ok(), `the ${layout} layout was saved`).toBe(true);
    }

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ page, api } = await openSession(browser, origin, { viewport: { width: 1440, height: 900 } }));
      f = await signUpWithProject(api, user, { slug: "epics-e2e", name: "Storefront", identifier: "SF" });
      await api.createWorkItem(f, { name: "Fix the footer" });
    });

    test.afterAll(async () => {
      await page?.context().close();
    });

    test("an admin turns epics on; the sidebar links Epics; Add epic creates one, kept off the work-items board", async () => {
      await page.goto(`/${f.slug}/projects/${f.projectId}/settings/features/`);
      const epics = page.locator(".feature-list").first().getByRole("switch", { name: "Epics" });
      await expect(epics).not.toBeChecked();
      await epics.click();
      await expect(epics).toBeChecked();
      expect((await api.get<{ is_epic_enabled: boolean }>(api.projectUrl(f, ""))).is_epic_enabled).toBe(true);

      const nav = page.getByRole("navigation", { name: "Workspace navigation" });
      await nav.getByRole("link", { name: "Epics", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${epicsUrl()}$`));
      await expect(page.getByRole("heading", { name: "Epics", level: 1 })).toBeVisible();
      await expect(page.getByText("No epics yet")).toBeVisible();

      // The empty state offers the board's Add too (the header has one as well).
      await expect(page.getByRole("button", { name: "Add epic" })).toHaveCount(2);
      await page.getByRole("button", { name: "Add epic" }).last().click();
      const dialog = page.getByRole("dialog", { name: "Create epic" });
      await dialog.getByLabel("Title").fill(EPIC);
      await dialog.getByRole("button", { name: "Create epic" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(EPIC, { exact: true })).toBeVisible();
      await expect(page.getByText("Fix the footer")).toHaveCount(0);

      // Quick add on the epics board makes an epic too.
      await page.getByRole("button", { name: "New epic" }).click();
      await page.getByLabel("New epic title").fill("Loyalty program");
      await page.getByLabel("New epic title").press("Enter");
      await page.getByLabel("New epic title").press("Escape");
      await expect(page.getByText("Loyalty program", { exact: true })).toBeVisible();

      const listed = await api.get<{ results: { id: string; name: string; is_epic: boolean }[] }>(
        api.projectUrl(f, "epics/"),
      );
      expect(listed.results.map((e) => e.name).sort()).toEqual([EPIC, "Loyalty program"]);
      const epic = listed.results.find((e) => e.name === EPIC);
      expect(epic?.is_epic).toBe(true);
      epicId = epic?.id ?? "";

      // The project's board shows work items only (after a reload, from the cache with epics in it too).
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/`);
      await expect(page.getByText("Fix the footer")).toBeVisible();
      await expect(page.getByText(EPIC, { exact: true })).toHaveCount(0);
      await page.goto(epicsUrl());
      await expect(page.getByText(EPIC, { exact: true })).toBeVisible();
      await shoot(page, "epics-board", "w4-");
    });

    test("the epic's page: two new children, one completed elsewhere moves the progress live", async () => {
      await page.getByText(EPIC, { exact: true }).click();
      await page.getByRole("link", { name: "Open in full page" }).click();
      await expect(page).toHaveURL(new RegExp(`/epics/${epicId}/$`));
      await expect(page.getByText("Epic", { exact: true })).toBeVisible();
      const progress = page.getByTestId("epic-progress");
      await expect(progress).toContainText("Its progress shows here once the epic has work items.");
      await expect(page.getByText("No work items in this epic yet.")).toBeVisible();

      await page.getByRole("button", { name: "Add work item" }).click();
      await page.getByRole("menuitem", { name: "Create new work item" }).click();
      const input = page.getByLabel("New work item name");
      for (const name of ["Design the cart", "Wire the payments"]) {
        await input.fill(name);
        await input.press("Enter");
        await expect(page.locator(".wid-row-name", { hasText: name })).toBeVisible();
      }
      await input.press("Escape");
      await expect(page.getByTestId("epic-progress-summary")).toHaveText("0 of 2 done");
      // The children's list speaks of work items, not sub-items.
      const childrenList = page.getByRole("region", { name: "Work items" });
      await expect(childrenList.getByText("0 of 2 work items done")).toBeVisible();
      await expect(childrenList.getByRole("button", { name: /^Remove SF-\d+ from this epic$/ })).toHaveCount(2);
      await expect(page.getByTestId("epic-progress-percent")).toHaveText("0%");

      // Completed through the API (another client, as far as this page knows): the live layer brings it.
      const children = await api.get<{ sub_issues: { id: string; name: string }[] }>(
        api.projectUrl(f, `epics/${epicId}/issues/`),
      );
      expect(children.sub_issues.map((c) => c.name).sort()).toEqual(["Design the cart", "Wire the payments"]);
      const done = f.states.find((s) => s.group === "completed");
      const cart = children.sub_issues.find((c) => c.name === "Design the cart");
      childIds = Object.fromEntries(children.sub_issues.map((c) => [c.name, c.id]));
      await api.updateWorkItem(f, cart?.id ?? "", { state_id: done?.id });
      await expect(page.getByTestId("epic-progress-summary")).toHaveText("1 of 2 done", LIVE);
      await expect(page.getByTestId("epic-progress-percent")).toHaveText("50%");
      await expect(page.getByTestId("epic-progress-completed")).toHaveText("1");
      await expect(childrenList.getByText("1 of 2 work items done")).toBeVisible();
      await shoot(page, "epic-page", "w4-");
      // A work-item link to the epic (its key under /browse/) opens the epic's page.
      await page.goto(`/${f.slug}/browse/${f.identifier}-1/`);
      await expect(page.getByText("Fix the footer").first()).toBeVisible();
      await page.goto(`/${f.slug}/browse/${f.identifier}-2/`);
      await expect(page).toHaveURL(new RegExp(`/epics/${epicId}/$`));
      await expect(page.getByTestId("epic-progress-summary")).toHaveText("1 of 2 done");

      await page.emulateMedia({ colorScheme: "dark" });
      await shoot(page, "epic-page-dark", "w4-");
      await page.goto(epicsUrl());
      await expect(page.getByText(EPIC, { exact: true })).toBeVisible();
      await shoot(page, "epics-board-dark", "w4-");
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(page, "epics-board-phone", "w4-");
      await page.goto(`/${f.slug}/projects/${f.projectId}/epics/${epicId}/`);
      await expect(page.getByTestId("epic-progress-summary")).toHaveText("1 of 2 done");
      await shoot(page, "epic-page-phone", "w4-");
    });

    test("the epics board shows each epic's progress from its work items, in List and Kanban, live", async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(epicsUrl());
      const board = new WorkItemsPage(page);
      const chip = board.row(EPIC).getByTestId("epic-progress-chip");
      await expect(chip).toHaveText("1/2");
      await expect(chip).toHaveAttribute("title", "1 of 2 work items done\nCompleted: 1\nBacklog: 1");
      // An epic without work items shows no chip.
      await expect(board.row("Loyalty program").getByTestId("epic-progress-chip")).toHaveCount(0);
      await shoot(page, "epics-board-list", "w4-");

      // The other child completed elsewhere: the chip moves without a reload.
      const done = f.states.find((s) => s.group === "completed");
      await api.updateWorkItem(f, childIds["Wire the payments"] ?? "", { state_id: done?.id });
      await expect(chip).toHaveText("2/2", LIVE);

      await switchEpicsLayout("Kanban");
      await expect(board.card(EPIC).getByTestId("epic-progress-chip")).toHaveText("2/2");
      await shoot(page, "epics-board-kanban", "w4-");
      await page.emulateMedia({ colorScheme: "dark" });
      await shoot(page, "epics-board-kanban-dark", "w4-");
      await page.emulateMedia({ colorScheme: "light" });
      await switchEpicsLayout("Spreadsheet");
      await expect(board.sheetRow(EPIC)).toBeVisible();
      await shoot(page, "epics-board-spreadsheet", "w4-");
      await page.emulateMedia({ colorScheme: "dark" });
      await shoot(page, "epics-board-spreadsheet-dark", "w4-");
      await switchEpicsLayout("List");
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(board.row(EPIC).getByTestId("epic-progress-chip")).toHaveText("2/2");
      await shoot(page, "epics-board-phone-dark", "w4-");
      await page.goto(`/${f.slug}/projects/${f.projectId}/epics/${epicId}/`);
      await expect(page.getByTestId("epic-progress-summary")).toHaveText("2 of 2 done");
      await page.getByRole("region", { name: "Work items" }).scrollIntoViewIfNeeded();
      await shoot(page, "epic-page-phone-dark", "w4-");
      await page.emulateMedia({ colorScheme: "light" });
    });
  });
