/**
 * Cycles (issue 10), as two members of one project see them in two browsers: A creates a cycle
 * through the modal (dates including today) and finds it on the Active tab; the modal says
 * inline when dates overlap another cycle; A adds work items from the cycle's "Add existing" and
 * from the project board's Cycle property; B, with the cycle open, sees A complete an item move
 * the count and the burndown's today point without a reload; A then ends the cycle yesterday
 * (edit dates), creates the next cycle and transfers the unfinished items to it; upcoming rows say
 * when they start, drafts that they have no dates, and the tabs follow the arrow keys. The spec signs
 * up its own users, workspace and project through the API. One pair of pages for the whole file.
 */
import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { utcDay as day } from "./support/dates.ts";
import { channelSynced, expectNotReloaded, markPage, trackLiveSockets } from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const alice = { email: "alice@cycles.test", password: "Amber-lighthouse-58", first: "Alice", last: "Planner" };
const bob = { email: "bob@cycles.test", password: "Silver-orchard-fox-19", first: "Bob", last: "Viewer" };
const LIVE = { timeout: 10_000 };
const MARK = "cycles: loaded once";

/** Clicks a day in the open range calendar, moving a month back or forth when it isn't shown. */
async function pickDay(page: Page, iso: string): Promise<void> {
  const calendar = page.locator(".cy-range-calendar");
  for (let i = 0; i < 3; i += 1) {
    const cell = calendar.locator(`[data-day="${iso}"]:not([data-outside]) button`);
    if (await cell.count()) {
      await cell.first().click();
      return;
    }
    const shown = await calendar.locator("[data-day]:not([data-outside])").first().getAttribute("data-day");
    await calendar.locator(iso < (shown ?? "") ? ".rdp-button_previous" : ".rdp-button_next").click();
  }
  throw new Error(`day ${iso} not found in the calendar`);
}

async function pickRange(page: Page, dialog: Locator, start: string, end: string): Promise<void> {
  await dialog.getByTestId("cycle-dates").click();
  await pickDay(page, start);
  await pickDay(page, end);
  await expect(page.locator(".cy-range-calendar")).toBeHidden();
}

test.describe
  .serial("cycles", () => {
    test.describe.configure({ timeout: 120_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let pageA: Page;
    let pageB: Page;
    let apiA: WorkItemsApi;
    let f: Fixture;
    let sprintOne = "";

    const stateName = (group: string) => {
      const found = f.states.find((s) => s.group === group);
      if (!found) throw new Error(`the project has a ${group} state`);
      return found.name;
    };
    const cyclesUrl = () => `/${f.slug}/projects/${f.projectId}/cycles/`;
    const panel = (page: Page) => page.getByTestId("cycle-panel");

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ context: contextA, page: pageA, api: apiA } = await openSession(browser, origin));
      await contextA.grantPermissions(["clipboard-read", "clipboard-write"]);
      const b = await openSession(browser, origin, {}, trackLiveSockets);
      ({ context: contextB, page: pageB } = b);
      f = await signUpWithProject(apiA, alice, { slug: "cycles-e2e", name: "Cycles", identifier: "CY" });
      await addMember(apiA, b.api, f, bob);
      for (const name of ["Ship the beta", "Draft the memo", "Fix the login", "Write the docs"])
        await apiA.createWorkItem(f, { name });
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("creates a cycle through the modal and shows it on the Active tab", async () => {
      await pageA.goto(cyclesUrl());
      await expect(pageA.getByRole("heading", { name: "No active cycle" })).toBeVisible();
      await pageA.getByRole("button", { name: "Add cycle" }).first().click();
      const dialog = pageA.getByRole("dialog", { name: "New cycle" });
      await dialog.getByTestId("cycle-name").fill("Sprint One");
      await pickRange(pageA, dialog, day(-2), day(3));
      await dialog.getByTestId("cycle-submit").click();
      await expect(dialog).toBeHidden();

      const card = pageA.getByTestId("active-cycle");
      await expect(card.getByRole("heading", { name: "Sprint One" })).toBeVisible();
      await expect(card.getByText("In progress")).toBeVisible();
      await expect(card.getByText("4 days left")).toBeVisible();
      // The tab is in the address: a reload keeps the choice (All), and Active is the default.
      await pageA.getByRole("tab", { name: /^All/ }).click();
      await expect(pageA).toHaveURL(/\?tab=all$/);
      await pageA.reload();
      await expect(pageA.getByTestId("cycle-row").filter({ hasText: "Sprint One" })).toBeVisible();
      const cycles = await apiA.get<{ id: string; name: string; start_date: string; end_date: string }[]>(
        apiA.projectUrl(f, "cycles/"),
      );
      expect(cycles).toMatchObject([{ name: "Sprint One", start_date: day(-2), end_date: day(3) }]);
      sprintOne = cycles[0]?.id ?? "";
    });

    test("says inline when the dates overlap another cycle", async () => {
      await pageA.goto(cyclesUrl());
      await pageA.getByRole("button", { name: "Add cycle" }).first().click();
      const dialog = pageA.getByRole("dialog", { name: "New cycle" });
      await dialog.getByTestId("cycle-name").fill("Clash");
      await pickRange(pageA, dialog, day(0), day(1));
      await expect(dialog.getByRole("alert")).toContainText(/overlap.*Sprint One/, LIVE);
      await expect(dialog.getByTestId("cycle-submit")).toBeDisabled();
      // Clearing the dates makes it a valid draft again.
      await dialog.getByRole("button", { name: "Clear dates" }).click();
      await expect(dialog.getByRole("alert")).toHaveCount(0);
      await expect(dialog.getByTestId("cycle-submit")).toBeEnabled();
      await pageA.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    });

    test("adds work items from Add existing and from the board's Cycle property", async () => {
      await pageA.goto(cyclesUrl());
      await pageA.getByTestId("active-cycle").getByRole("link", { name: "View work items" }).click();
      await expect(pageA).toHaveURL(new RegExp(`/cycles/${sprintOne}/$`));
      const board = new WorkItemsPage(pageA);
      await expect(board.listRows).toHaveCount(0);

      await pageA.getByTestId("add-existing").click();
      const dialog = pageA.getByRole("dialog", { name: /^Add work items to/ });
      await dialog.getByRole("checkbox", { name: /Ship the beta/ }).check();
      await dialog.getByRole("checkbox", { name: /Draft the memo/ }).check();
      await dialog.getByTestId("add-existing-submit").click();
      await expect(dialog).toBeHidden();
      await expect(board.row("Ship the beta")).toHaveCount(1);
      await expect(board.row("Draft the memo")).toHaveCount(1);
      await expect(panel(pageA).getByTestId("cycle-done-count")).toHaveText("0/2 done");

      // From the project board: the peek's Cycle property.
      await board.open(f.slug, f.projectId);
      await board.useLayout("List");
      const peek = await board.openPeek(board.row("Fix the login"), "Fix the login");
      await peek.getByRole("button", { name: "Cycle: No cycle" }).click();
      await pageA
        .getByRole("listbox", { name: "Cycle" })
        .getByRole("option", { name: /^Sprint One/ })
        .click();
      await expect(peek.getByRole("button", { name: "Cycle: Sprint One" })).toBeVisible();
      await pageA.keyboard.press("Escape");

      await expect
        .poll(async () =>
          (await apiA.workItems(f))
            .filter((i) => (i as { cycle_id?: string | null }).cycle_id === sprintOne)
            .map((i) => i.name)
            .sort(),
        )
        .toEqual(["Draft the memo", "Fix the login", "Ship the beta"]);
    });

    test("B sees A complete an item: the count and the burndown's today point move without a reload", async () => {
      const synced = channelSynced(pageB, `project.${f.projectId}`);
      await pageB.goto(`${cyclesUrl()}${sprintOne}/`);
      await synced;
      await expect(panel(pageB).getByTestId("cycle-done-count")).toHaveText("0/3 done", LIVE);
      const chartB = panel(pageB).locator("figure.burndown");
      await expect(chartB).toHaveAttribute("data-today-pending", "3", LIVE);
      await expect(chartB.locator(".recharts-surface")).toBeVisible(LIVE);
      // Remaining against scope: the legend names the three lines; today's scope is the cycle's items.
      await expect(chartB.locator(".burndown-legend")).toHaveText(/Remaining work items.*Ideal.*Scope/);
      await expect(chartB).toHaveAttribute("data-today-scope", "3");
      await markPage(pageB, MARK);

      await pageA.goto(`${cyclesUrl()}${sprintOne}/`);
      const board = new WorkItemsPage(pageA);
      await board
        .row("Ship the beta")
        .getByRole("button", { name: /^State: / })
        .click();
      await board.pick("State", stateName("completed"));
      await expect(panel(pageA).getByTestId("cycle-done-count")).toHaveText("1/3 done");

      await expect(panel(pageB).getByTestId("cycle-done-count")).toHaveText("1/3 done", LIVE);
      await expect(panel(pageB).getByTestId("cycle-count-completed")).toHaveText("1");
      await expect(chartB).toHaveAttribute("data-today-pending", "2", LIVE);
      // Completing work moves the remaining line, not the scope.
      await expect(chartB).toHaveAttribute("data-today-scope", "3");
      await expectNotReloaded(pageB, MARK);
    });

    test("ends the cycle yesterday, creates the next one and transfers the unfinished items to it", async () => {
      // Edit: the cycle's actions menu in its panel.
      await panel(pageA).getByRole("button", { name: "Actions for Sprint One" }).click();
      await pageA.getByRole("menuitem", { name: "Edit" }).click();
      const edit = pageA.getByRole("dialog", { name: "Edit cycle" });
      await pickRange(pageA, edit, day(-4), day(-1));
      await expect(edit.getByTestId("cycle-submit")).toBeEnabled(LIVE);
      await edit.getByTestId("cycle-submit").click();
      await expect(edit).toBeHidden();
      await expect(panel(pageA).locator(".cy-badge")).toHaveText("Completed");

      // The next cycle, from today: it no longer overlaps.
      await pageA.goto(cyclesUrl());
      await pageA.getByRole("button", { name: "Add cycle" }).first().click();
      const create = pageA.getByRole("dialog", { name: "New cycle" });
      await create.getByTestId("cycle-name").fill("Sprint Two");
      await pickRange(pageA, create, day(0), day(6));
      await create.getByTestId("cycle-submit").click();
      await expect(create).toBeHidden();
      await expect(pageA.getByTestId("active-cycle").getByRole("heading", { name: "Sprint Two" })).toBeVisible();

      // Sprint One is under Completed; its panel offers the transfer of the 2 unfinished items.
      await pageA.getByRole("tab", { name: /^Completed/ }).click();
      await pageA.getByTestId("cycle-row").filter({ hasText: "Sprint One" }).getByRole("link").click();
      await expect(panel(pageA).getByText("2 work items were not finished.")).toBeVisible(LIVE);
      await panel(pageA).getByRole("button", { name: "Transfer work items" }).click();
      const transfer = pageA.getByRole("dialog", { name: "Transfer work items" });
      await transfer.getByRole("radio", { name: /Sprint Two/ }).check();
      await transfer.getByTestId("transfer-submit").click();
      await expect(transfer).toBeHidden();
      await expect(pageA.getByText("2 work items moved to “Sprint Two”")).toBeVisible();
      const board = new WorkItemsPage(pageA);
      await expect(board.listRows).toHaveCount(1);
      await expect(board.row("Ship the beta")).toHaveCount(1);

      // They are in Sprint Two.
      await pageA.goto(cyclesUrl());
      await pageA.getByTestId("active-cycle").getByRole("link", { name: "View work items" }).click();
      await expect(board.row("Draft the memo")).toHaveCount(1);
      await expect(board.row("Fix the login")).toHaveCount(1);
      await expect(board.listRows).toHaveCount(2);
    });

    test("rows say when upcoming cycles start and that drafts have no dates; the tabs follow the arrow keys", async () => {
      await apiA.post(apiA.projectUrl(f, "cycles/"), { name: "Sprint Three", start_date: day(7), end_date: day(13) });
      await apiA.post(apiA.projectUrl(f, "cycles/"), { name: "Sprint Four", start_date: day(14), end_date: day(20) });
      await apiA.post(apiA.projectUrl(f, "cycles/"), { name: "Someday" });
      await pageA.goto(`${cyclesUrl()}?tab=all`);
      const row = (name: string) => pageA.getByTestId("cycle-row").filter({ hasText: name });
      await expect(row("Sprint Three")).toContainText("Starts in 7 days", LIVE);
      await expect(row("Sprint Four")).toContainText("Starts in 14 days");
      await expect(row("Someday")).toContainText("No dates");
      await expect(row("Sprint Two")).toContainText("days left");

      // One tab stop; arrows move and select (the address follows), Home goes back to Active.
      const all = pageA.getByRole("tab", { name: /^All/ });
      await expect(all).toHaveAttribute("tabindex", "0");
      await all.focus();
      await pageA.keyboard.press("ArrowLeft");
      await expect(pageA).toHaveURL(/\?tab=completed$/);
      await expect(pageA.getByRole("tab", { name: /^Completed/ })).toBeFocused();
      await pageA.keyboard.press("ArrowLeft");
      await expect(pageA).toHaveURL(/\?tab=upcoming$/);
      await expect(pageA.getByTestId("cycle-row")).toHaveCount(2);
      await pageA.keyboard.press("Home");
      await expect(pageA.getByTestId("active-cycle").getByRole("heading", { name: "Sprint Two" })).toBeVisible();
      await expect(pageA.getByRole("tab", { name: /^Active/ })).toBeFocused();
    });
  });
