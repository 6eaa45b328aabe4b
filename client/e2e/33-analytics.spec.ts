/**
 * Analytics (product-domain §2 "Analytics tabs: scope_and_demand, custom"): Rui opens Analytics
 * from the sidebar's More menu; Scope and demand counts his project's work (tiles, demand by
 * state and priority, the project table); on Custom he switches the chart's x-axis to State
 * group and segments it by Priority — the table follows, and the choice is in the address, so
 * a reload keeps it; the metric switches to estimate points. From the work-items board the
 * project's analytics open in a modal. Pictures: both tabs and the modal, wide and phone, light
 * and dark. The spec signs up its own user, workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const rui = { email: "rui@charts.test", password: "Granite-harbour-violet-71", first: "Rui", last: "Costa" };

test.describe
  .serial("analytics", () => {
    test.describe.configure({ timeout: 90_000 });

    let origin = "";
    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      origin = baseURL ?? "http://localhost:3100";
      ({ context, page, api } = await openSession(browser, origin));
      f = await signUpWithProject(api, rui, { slug: "charts-e2e", name: "Harbour", identifier: "HB" });
      const state = (group: string) => f.states.find((s) => s.group === group)?.id;
      await api.createWorkItem(f, { name: "Dredge the channel", priority: "urgent", state_id: state("started") });
      await api.createWorkItem(f, { name: "Paint the lighthouse", priority: "high", state_id: state("completed") });
      await api.createWorkItem(f, { name: "Count the buoys", priority: "high", state_id: state("backlog") });
      await api.createWorkItem(f, { name: "Fix the crane", priority: "low", target_date: "2020-01-01" });
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("Analytics opens from the sidebar's More menu; Scope and demand counts the work", async () => {
      await page.goto(`/${f.slug}/`);
      await page.getByRole("navigation").getByRole("button", { name: "More" }).click();
      await page.getByRole("menuitem", { name: "Analytics" }).click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/analytics/scope_and_demand/`));
      await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
      await expect(page.getByRole("tab", { name: "Scope and demand" })).toHaveAttribute("aria-selected", "true");
      const tile = (label: string) => page.locator(".stat-tile", { hasText: label });
      await expect(tile("Work items").locator(".stat-tile-value")).toHaveText("4");
      await expect(tile("Open").locator(".stat-tile-value")).toHaveText("3");
      await expect(tile("Completed").locator(".stat-tile-value")).toHaveText("1");
      await expect(tile("Overdue").locator(".stat-tile-value")).toHaveText("1");
      await expect(tile("Projects").locator(".stat-tile-value")).toHaveText("1");
      await expect(page.getByTestId("an-demand-state").locator(".recharts-wrapper")).toBeVisible();
      await expect(page.getByTestId("an-demand-priority").locator(".recharts-wrapper")).toBeVisible();
      const row = page.getByTestId("an-projects-table").getByRole("row", { name: /Harbour/ });
      await expect(row.getByRole("cell").last()).toBeVisible();
      await expect(row).toContainText("4");
    });

    test("Custom: x-axis State group segmented by Priority, kept in the address across a reload", async () => {
      await page.getByRole("tab", { name: "Custom" }).click();
      await expect(page).toHaveURL(/\/analytics\/custom\//);
      const table = page.getByTestId("an-custom-table");
      // Priority is the first x-axis.
      await expect(table.getByRole("row", { name: /^High/ })).toContainText("2");
      await page.getByRole("combobox", { name: "X-axis" }).click();
      await page.getByRole("option", { name: "State group" }).click();
      await expect(table.getByRole("columnheader").first()).toHaveText("State group");
      await expect(table.getByRole("row", { name: /^Backlog/ })).toBeVisible();
      await page.getByRole("combobox", { name: "Segment" }).click();
      await page.getByRole("option", { name: "Priority" }).click();
      await expect(table.getByRole("columnheader", { name: "Urgent" })).toBeVisible();
      await expect(page).toHaveURL(/x=STATE_GROUPS/);
      await expect(page).toHaveURL(/segment=PRIORITY/);
      await page.reload();
      await expect(page.getByRole("tab", { name: "Custom" })).toHaveAttribute("aria-selected", "true");
      await expect(table.getByRole("columnheader").first()).toHaveText("State group");
      await expect(table.getByRole("row", { name: /^Started/ })).toContainText("1");
      await page.getByRole("combobox", { name: "Metric" }).click();
      await page.getByRole("option", { name: "Estimate points" }).click();
      await expect(page.getByRole("heading", { name: "Estimate points by State group" })).toBeVisible();
    });

    test("the project's analytics open in a modal from its work items", async () => {
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/`);
      await page.getByTestId("project-analytics-open").click();
      const dialog = page.getByRole("dialog", { name: "Harbour analytics" });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator(".stat-tile", { hasText: "Work items" }).locator(".stat-tile-value")).toHaveText("4");
      await dialog.getByRole("tab", { name: "Custom" }).click();
      await expect(dialog.getByTestId("an-custom-table").getByRole("row", { name: /^Urgent/ })).toContainText("1");
      // The board's address is left alone.
      expect(page.url()).not.toContain("x=");
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    });

    test("pictures: both tabs and the modal, wide and phone, light and dark", async () => {
      for (const [width, height, size] of [
        [1280, 860, "wide"],
        [390, 844, "phone"],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto(`/${f.slug}/analytics/scope_and_demand/`);
          await expect(page.getByTestId("an-demand-state").locator(".recharts-wrapper")).toBeVisible();
          await expect(page.getByTestId("an-trend").locator(".recharts-wrapper")).toBeVisible();
          await shoot(page, `analytics-scope-${size}-${scheme}`, "analytics-");
          await page.goto(`/${f.slug}/analytics/custom/?x=STATE_GROUPS&segment=PRIORITY`);
          await expect(page.getByTestId("an-custom").locator(".recharts-wrapper")).toBeVisible();
          await shoot(page, `analytics-custom-${size}-${scheme}`, "analytics-");
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/`);
      await page.getByTestId("project-analytics-open").click();
      await expect(page.getByRole("dialog").locator(".recharts-wrapper").first()).toBeVisible();
      await shoot(page, "analytics-project-modal", "analytics-");
    });
  });
