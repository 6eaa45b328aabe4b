/**
 * Exports (Settings → Exports, workspace admins): Erin opens the empty history, exports her
 * project's work items as Excel, watches the row finish, downloads the file and finds a valid
 * xlsx with her items — a name that looks like a formula kept as text. The screen at phone width
 * and in the dark theme. The spec signs up its own user, workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const erin = { email: "erin@exports.test", password: "Copper-meadow-kite-73", first: "Erin", last: "Exporter" };

test.describe
  .serial("exports", () => {
    test.describe.configure({ timeout: 90_000 });

    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ context, page, api } = await openSession(browser, origin));
      f = await signUpWithProject(api, erin, { slug: "exports-e2e", name: "Launch", identifier: "EX" });
      await api.createWorkItem(f, { name: "Plan the launch", priority: "high" });
      await api.createWorkItem(f, { name: '=HYPERLINK("http://x","y")' });
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("an admin exports xlsx from settings and downloads a valid file", async () => {
      await page.goto(`/${f.slug}/settings/`);
      await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Exports" }).click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/settings/exports/$`));
      await expect(page.getByRole("heading", { name: "Exports", level: 1 })).toBeVisible();
      await expect(page.getByText("No exports yet")).toBeVisible();
      await shoot(page, "exports-empty");

      // The format picker (the app's Select).
      await page.getByRole("combobox", { name: "Format" }).click();
      await page.getByRole("option", { name: "Excel (xlsx)" }).click();
      await expect(page.getByRole("combobox", { name: "Format" })).toContainText("Excel (xlsx)");
      await page.getByRole("button", { name: "Export", exact: true }).click();

      const row = page.getByTestId("export-row").first();
      await expect(row).toContainText("XLSX");
      await expect(row).toContainText("Launch");
      const link = row.getByRole("link", { name: /^Download / });
      await expect(link).toBeVisible({ timeout: 30_000 });
      await expect(row).toHaveAttribute("data-status", "completed");
      await shoot(page, "exports-done");

      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      expect(download.suggestedFilename()).toMatch(/^exports-e2e-work-items-.+\.xlsx$/);
      const path = await download.path();
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(path);
      const sheet = book.worksheets[0];
      if (!sheet) throw new Error("the file has no sheet");
      expect(sheet.getRow(1).getCell(1).value).toBe("ID");
      const rows: [unknown, unknown][] = [];
      sheet.eachRow((r, n) => {
        if (n > 1) rows.push([r.getCell(1).value, r.getCell(3).value]);
      });
      expect(rows.sort()).toEqual(
        [
          ["EX-1", "Plan the launch"],
          ["EX-2", `'=HYPERLINK("http://x","y")`],
        ].sort(),
      );
    });

    test("the screen at phone width and in the dark theme", async () => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.goto(`/${f.slug}/settings/exports/`);
      await expect(page.getByTestId("export-row").first()).toBeVisible();
      await shoot(page, "exports-dark");
      await page.setViewportSize({ width: 390, height: 800 });
      await expect(page.getByRole("button", { name: "Export", exact: true })).toBeVisible();
      await shoot(page, "exports-phone");
      await page.emulateMedia({ colorScheme: "light" });
      await shoot(page, "exports-phone-light");
    });
  });
