/**
 * Each member's own work (issue 11): Alice opens "Your work" from the workspace menu and finds
 * her numbers as the server counts them (assigned, created, completed, overdue) and her assigned
 * work by state group; the Assigned tab is a board of those items across projects (spreadsheet
 * by default, every layout offered): it filters by priority — the filter is kept after a reload —,
 * opens one in the peek and shows them on the kanban too; from the workspace members list she opens
 * Bob's profile (his role, his one item, his activity). The spec signs up its own users, workspace and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { utcDay as day } from "./support/dates.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const alice = { email: "alice@profile.test", password: "Amber-lighthouse-58", first: "Alice", last: "Maker" };
const bob = { email: "bob@profile.test", password: "Silver-orchard-fox-19", first: "Bob", last: "Helper" };

test.describe
  .serial("member profile", () => {
    test.describe.configure({ timeout: 90_000 });

    let context: BrowserContext;
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let aliceId = "";
    let bobId = "";

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ context, page, api } = await openSession(browser, origin));
      const b = await openSession(browser, origin);
      f = await signUpWithProject(api, alice, { slug: "profile-e2e", name: "Profile", identifier: "PF" });
      bobId = await addMember(api, b.api, f, bob);
      aliceId = (await api.me()).id;
      // Bob's browser is only for his sign-up: the tests look through Alice's.
      await b.context.close();

      const state = (group: string) => f.states.find((s) => s.group === group)?.id;
      await api.createWorkItem(f, { name: "Ship the beta", assignee_ids: [aliceId], priority: "urgent" });
      await api.createWorkItem(f, {
        name: "Fix the login",
        assignee_ids: [aliceId],
        priority: "high",
        target_date: day(-1),
      });
      await api.createWorkItem(f, { name: "Write the docs", assignee_ids: [aliceId], state_id: state("completed") });
      await api.createWorkItem(f, { name: "Review the plan", assignee_ids: [bobId], priority: "low" });
    });

    test.afterAll(async () => {
      await context?.close();
    });

    test("Your work opens my profile with the counts of my items", async () => {
      await page.goto(`/${f.slug}/`);
      await page.getByRole("button", { name: /Workspace menu/ }).click();
      await page.getByRole("menuitem", { name: "Your work" }).click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/profile/${aliceId}/$`));
      await expect(page.getByRole("heading", { name: "Your work" })).toBeVisible();

      // The tiles say what the server's list of my items says.
      const assigned = await api.get<{ total_count: number }>(
        `/api/workspaces/${f.slug}/user-issues/${aliceId}/?type=assigned`,
      );
      expect(assigned.total_count).toBe(3);
      await expect(page.getByTestId("profile-count-assigned")).toHaveText("3");
      await expect(page.getByTestId("profile-count-created")).toHaveText("4");
      await expect(page.getByTestId("profile-count-completed")).toHaveText("1");
      await expect(page.getByTestId("profile-count-overdue")).toHaveText("1");
      await expect(page.getByTestId("profile-group-completed")).toContainText("1");
      // The card: my role and my work in the project.
      await expect(page.getByTestId("profile-role")).toHaveText("Admin");
      await expect(page.getByTestId("profile-project")).toContainText("Profile");

      // My history, in the work item's own words, and today's rows as a CSV download.
      await page.getByRole("link", { name: "Activity", exact: true }).click();
      const rows = page.getByTestId("profile-activity-row");
      // People are named by their display name here as everywhere (alice's is her address's first part).
      await expect(rows.filter({ hasText: "alice created the work item" }).filter({ hasText: "PF-4" })).toHaveCount(1);
      await page.getByRole("button", { name: "Export CSV" }).click();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("profile-export-download").click(),
      ]);
      expect(download.suggestedFilename()).toBe(`alice-maker-activity-${new Date().toISOString().slice(0, 10)}.csv`);
      const csv = await download.createReadStream().then(async (stream) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString("utf8");
      });
      expect(csv.split("\n")[0]).toContain("Actor name");
      expect(csv).toContain("PF-1");
    });

    test("the Assigned tab is a board of my items: filters by priority, opens one, every layout", async () => {
      await page.getByRole("link", { name: "Assigned", exact: true }).click();
      await expect(page).toHaveURL(/\/assigned\/$/);
      const grid = page.getByRole("grid", { name: "Spreadsheet" });
      const rows = grid.getByRole("button", { name: /^Open PF-\d+$/ });
      await expect(rows).toHaveCount(3);
      // Newest first.
      await expect(rows.first()).toHaveAccessibleName("Open PF-3");
      await expect(page.getByTestId("profile-list-count")).toHaveText("3 work items");

      const saved = page.waitForResponse(
        (r) =>
          r.request().method() === "PATCH" && r.url().includes("/workspace-views/profile-assigned/user-properties/"),
      );
      await page.getByRole("button", { name: "Filters" }).click();
      await page.getByRole("button", { name: "Urgent", exact: true }).click();
      await page.keyboard.press("Escape");
      expect((await saved).ok(), "the filter was saved for the tab").toBe(true);
      await expect(rows).toHaveCount(1);
      await expect(grid.getByRole("row").filter({ hasText: "Ship the beta" })).toBeVisible();
      // The filter is the caller's own setting for this tab: it survives a reload.
      await page.reload();
      await expect(rows).toHaveCount(1);
      await expect(page.getByRole("button", { name: "Remove filter Priority: Urgent" })).toBeVisible();

      // A row opens the item's peek.
      await grid.getByRole("button", { name: "Open PF-1", exact: true }).click();
      await expect(page.getByRole("dialog", { name: /PF-1 Ship the beta/ })).toBeVisible();
      await page.keyboard.press("Escape");

      // Every layout: the kanban shows the same item.
      await page.getByRole("button", { name: "Kanban", exact: true }).click();
      await expect(page.locator(".wi-card").filter({ hasText: "Ship the beta" })).toBeVisible();
      await page.getByRole("button", { name: "Spreadsheet", exact: true }).click();
      // Wait for the save, so the next test (another profile, same tab settings) starts from it.
      const cleared = page.waitForResponse(
        (r) =>
          r.request().method() === "PATCH" && r.url().includes("/workspace-views/profile-assigned/user-properties/"),
      );
      await page.getByRole("button", { name: "Clear all" }).click();
      await expect(rows).toHaveCount(3);
      expect((await cleared).ok(), "clearing the filters was saved for the tab").toBe(true);
    });

    test("a member's name in the members list opens their profile", async () => {
      await page.goto(`/${f.slug}/settings/members/`);
      await page.getByRole("link", { name: "Bob Helper" }).click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/profile/${bobId}/$`));
      await expect(page.getByRole("heading", { name: "Bob Helper" }).first()).toBeVisible();
      await expect(page.getByTestId("profile-role")).toHaveText("Member");
      await expect(page.getByTestId("profile-count-assigned")).toHaveText("1");
      await expect(page.getByTestId("profile-count-created")).toHaveText("0");

      await page.getByRole("link", { name: "Assigned", exact: true }).click();
      const bobRows = page.getByRole("grid", { name: "Spreadsheet" }).getByRole("row");
      await expect(bobRows.filter({ hasText: "Review the plan" })).toBeVisible();
      await expect(page.getByTestId("profile-list-count")).toHaveText("1 work item");
      // Bob has changed nothing himself: his history is empty, and it says so.
      await page.getByRole("link", { name: "Activity", exact: true }).click();
      await expect(page.getByText("No activity from Bob Helper yet.")).toBeVisible();
    });
    test("dark theme and phone: the Assigned board", async () => {
      await page.goto(`/${f.slug}/profile/${aliceId}/assigned/`);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "dark"));
      await page.reload();
      const rows = page.getByRole("grid", { name: "Spreadsheet" }).getByRole("button", { name: /^Open PF-\d+$/ });
      await expect(rows).toHaveCount(3);
      await shoot(page, "assigned-dark", "profile-");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect(rows).toHaveCount(3);
      await shoot(page, "assigned-phone-dark", "profile-");
      await page.emulateMedia({ colorScheme: "light" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "light"));
      await page.getByRole("button", { name: "List", exact: true }).click();
      await expect(page.getByRole("region", { name: "List" }).locator(".wi-item-row")).toHaveCount(3);
      await shoot(page, "assigned-phone-list", "profile-");
      // Back to the spreadsheet, stored before the next test loads the tab: that page's first
      // answer from the server would otherwise still say List, and the board would turn to it.
      const layout = () =>
        api
          .get<{ display_filters?: { layout?: string } }>(
            `/api/workspaces/${f.slug}/workspace-views/profile-assigned/user-properties/`,
          )
          .then((answer) => answer.display_filters?.layout);
      await page.getByRole("button", { name: "Spreadsheet", exact: true }).click();
      await expect.poll(layout, { timeout: 10_000 }).toBe("spreadsheet");
      await page.setViewportSize({ width: 1440, height: 900 });
    });

    test("a filter changed just before leaving the page is saved all the same", async () => {
      await page.goto(`/${f.slug}/profile/${aliceId}/assigned/`);
      const rows = page.getByRole("grid", { name: "Spreadsheet" }).getByRole("button", { name: /^Open PF-\d+$/ });
      await expect(rows).toHaveCount(3);
      await page.getByRole("button", { name: "Filters" }).click();
      await page.getByRole("button", { name: "High", exact: true }).click();
      await expect(rows).toHaveCount(1);
      // Leave at once, before the debounced save: the page sends it as it goes (pagehide).
      await page.goto(`/${f.slug}/projects/`);
      const saved = () =>
        api
          .get<{ filters?: { priority?: string[] | null } }>(
            `/api/workspaces/${f.slug}/workspace-views/profile-assigned/user-properties/`,
          )
          .then((answer) => answer.filters?.priority ?? null);
      await expect.poll(saved, { timeout: 10_000 }).toEqual(["high"]);
    });
  });
