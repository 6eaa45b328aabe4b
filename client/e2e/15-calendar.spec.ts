/**
 * The calendar layout (issue 11): the board's Calendar button shows the month (weekends hidden by
 * default, Sunday-first weeks), an item sits on its target day, dragging it to another day changes
 * its target date (kept after a reload, seen live by a second member in another browser), quick add
 * on a day creates an item due that day, a full day says "+N more" and lists the rest in a popover,
 * "Show weekends" adds Saturday and Sunday, the week view and the period kept in ?date=. Pictures in
 * light and dark, desktop and phone, go to the test's output folder (and /tmp/shots when it exists).
 * The spec makes its own users, workspace and project through the API; dates are in March 2030 so
 * "today" never lands among them.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { channelSynced } from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const alice = { email: "alice@calendar.test", password: "Copper-meadow-kite-64", first: "Alice", last: "Planner" };
const bob = { email: "bob@calendar.test", password: "Granite-harbor-wren-27", first: "Bob", last: "Viewer" };
const LIVE = { timeout: 10_000 };
/** A Wednesday; its month (March 2030) starts on a Friday. */
const ANCHOR = "2030-03-13";

/** A weekday of this month before today (yyyy-MM-dd, local), or null early in a month. */
function pastWeekdayThisMonth(): string | null {
  const now = new Date();
  for (let k = 1; k < 28; k++) {
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - k);
    if (d.getMonth() !== now.getMonth()) return null;
    if (d.getDay() !== 0 && d.getDay() !== 6) {
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    }
  }
  return null;
}
const OVERDUE_DAY = pastWeekdayThisMonth();

test.describe
  .serial("calendar layout", () => {
    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let page: Page;
    let pageB: Page;
    let api: WorkItemsApi;
    let board: WorkItemsPage;
    let f: Fixture;

    const day = (p: Page, date: string) => p.locator(`.cal-day[data-date="${date}"]`);
    const card = (p: Page, date: string, name: string) => day(p, date).locator(".cal-card").filter({ hasText: name });
    /** The item's due day on the server, or null while it has none — or no such item yet (polls read it). */
    const targetOf = async (name: string) =>
      ((await api.findByName(f, name)) as { target_date?: string | null } | undefined)?.target_date?.slice(0, 10) ??
      null;

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      const desktop = { viewport: { width: 1440, height: 900 } };
      ({ context: contextA, page, api } = await openSession(browser, origin, desktop));
      const b = await openSession(browser, origin, desktop);
      ({ context: contextB, page: pageB } = b);
      board = new WorkItemsPage(page);
      f = await signUpWithProject(api, alice, { slug: "cal-e2e", name: "Launch plan", identifier: "LP" });
      await addMember(api, b.api, f, bob);

      await api.createWorkItem(f, { name: "Write the brief", target_date: "2030-03-12", priority: "high" });
      await api.createWorkItem(f, { name: "Book the venue", target_date: "2030-03-13" });
      await api.createWorkItem(f, { name: "Weekend deploy", target_date: "2030-03-16" });
      await api.createWorkItem(f, { name: "Someday idea" });
      if (OVERDUE_DAY)
        await api.createWorkItem(f, { name: "Renew the domain", target_date: OVERDUE_DAY, priority: "urgent" });
      const busy = ["Print badges", "Order coffee", "Test the mics", "Seat plan", "Label the boxes", "Call caterer"];
      for (const name of busy) await api.createWorkItem(f, { name, target_date: "2030-03-21" });
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("the Calendar button shows the month: weekdays only, items on their day, undated counted", async () => {
      await board.open(f.slug, f.projectId);
      await board.useLayout("Calendar" as "List");
      const calendar = page.getByRole("region", { name: "Calendar" });
      await expect(calendar).toBeVisible();
      // The period goes in the URL; go to March 2030.
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/?date=${ANCHOR}`);
      await expect(calendar.getByRole("heading", { name: "March 2030" })).toBeVisible();
      // Weekends hidden by default: Monday to Friday.
      await expect(calendar.getByRole("columnheader")).toHaveText(["Mon", "Tue", "Wed", "Thu", "Fri"]);
      await expect(card(page, "2030-03-12", "Write the brief")).toBeVisible();
      await expect(card(page, "2030-03-12", "Write the brief")).toContainText("LP-1");
      await expect(card(page, "2030-03-13", "Book the venue")).toBeVisible();
      // Saturday the 16th isn't shown; "Someday idea" has no date.
      await expect(page.locator('.cal-day[data-date="2030-03-16"]')).toHaveCount(0);
      await expect(calendar.getByText("1 without a due date")).toBeVisible();
      // March 1st 2030 is a Friday: the first row starts on Monday February 25th, outside the month.
      await expect(page.locator(".cal-day").first()).toHaveAttribute("data-date", "2030-02-25");
      await expect(page.locator(".cal-day").first()).toHaveClass(/is-outside/);
    });

    test("a full day says +N more and lists every item in a popover", async () => {
      const more = day(page, "2030-03-21").getByRole("button", { name: /^\+\d+ more$/ });
      await expect(more).toBeVisible();
      const shown = await day(page, "2030-03-21").locator(".cal-card").count();
      await expect(more).toHaveText(`+${6 - shown} more`);
      await shoot(page, "month-light", "calendar-");
      await more.click();
      const pop = page.locator(".cal-more-pop");
      await expect(pop.locator(".cal-card")).toHaveCount(6);
      await expect(pop).toContainText("Call caterer");
      await shoot(page, "more-popover", "calendar-");
      await page.keyboard.press("Escape");
      await expect(pop).toBeHidden();
    });

    test("dragging a card to another day changes its target date, kept after a reload and seen live", async () => {
      // Bob watches the same month in another browser.
      const boardB = new WorkItemsPage(pageB);
      const synced = channelSynced(pageB, `project.${f.projectId}`);
      await boardB.open(f.slug, f.projectId);
      await synced;
      await boardB.useLayout("Calendar" as "List");
      await pageB.goto(`/${f.slug}/projects/${f.projectId}/issues/?date=${ANCHOR}`);
      await expect(card(pageB, "2030-03-12", "Write the brief")).toBeVisible();

      const from = await card(page, "2030-03-12", "Write the brief").boundingBox();
      const to = await day(page, "2030-03-19").boundingBox();
      if (!from || !to) throw new Error("card or day not on screen");
      const saved = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().includes("/issues/"));
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 5 });
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
      await expect(day(page, "2030-03-19")).toHaveClass(/is-over/);
      await shoot(page, "dragging", "calendar-");
      await page.mouse.up();
      expect((await saved).ok(), "the move was saved").toBe(true);
      await expect(card(page, "2030-03-19", "Write the brief")).toBeVisible();
      await expect(card(page, "2030-03-12", "Write the brief")).toHaveCount(0);
      expect(await targetOf("Write the brief")).toBe("2030-03-19");

      // Live in Bob's browser, without a reload.
      await expect(card(pageB, "2030-03-19", "Write the brief")).toBeVisible(LIVE);
      await expect(card(pageB, "2030-03-12", "Write the brief")).toHaveCount(0);

      // And after a reload the month and the new day are still there.
      await page.reload();
      await expect(page.getByRole("heading", { name: "March 2030" })).toBeVisible();
      await expect(card(page, "2030-03-19", "Write the brief")).toBeVisible();
    });

    test("quick add on a day creates an item due that day", async () => {
      const cell = day(page, "2030-03-20");
      await cell.hover();
      await cell.getByRole("button", { name: /^Add a work item due / }).click();
      const input = cell.getByRole("textbox");
      await input.fill("Send the invites");
      await shoot(page, "quick-add", "calendar-");
      await input.press("Enter");
      await expect(card(page, "2030-03-20", "Send the invites")).toBeVisible();
      await input.press("Escape");
      await expect(cell.getByRole("textbox")).toHaveCount(0);
      await expect.poll(() => targetOf("Send the invites")).toBe("2030-03-20");
      await expect(card(pageB, "2030-03-20", "Send the invites")).toBeVisible(LIVE);
    });

    test("navigation: next and previous month, keyboard between days, Today", async () => {
      const calendar = page.getByRole("region", { name: "Calendar" });
      await calendar.getByRole("button", { name: "Next month" }).click();
      await expect(calendar.getByRole("heading", { name: "April 2030" })).toBeVisible();
      await expect(page).toHaveURL(/date=2030-04-13/);
      await calendar.getByRole("button", { name: "Previous month" }).click();
      await expect(calendar.getByRole("heading", { name: "March 2030" })).toBeVisible();

      // Arrows move the focus between days; Friday → Monday with weekends hidden.
      await day(page, "2030-03-15").focus();
      await page.keyboard.press("ArrowRight");
      await expect(day(page, "2030-03-18")).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await expect(day(page, "2030-03-25")).toBeFocused();
      // Enter goes into the day (an empty one opens its quick add); Escape closes it.
      await page.keyboard.press("Enter");
      await expect(day(page, "2030-03-25").getByRole("textbox")).toBeFocused();
      await page.keyboard.press("Escape");
      // On a day with items Enter goes to its first card; Escape comes back to the day.
      await day(page, "2030-03-19").focus();
      await page.keyboard.press("Enter");
      await expect(card(page, "2030-03-19", "Write the brief")).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(day(page, "2030-03-19")).toBeFocused();
      // "c" on a focused day opens the create modal with that day as the due date.
      await page.keyboard.press("c");
      const dialog = page.getByRole("dialog", { name: "Create work item" });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("button", { name: /Mar 19, 2030/ })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();

      await calendar.getByRole("button", { name: "Today" }).click();
      await expect(page).not.toHaveURL(/date=2030/);
      await expect(page.locator(".cal-day.is-today")).toHaveCount(new Date().getDay() % 6 === 0 ? 0 : 1);
      // An open item due before today is marked overdue.
      if (OVERDUE_DAY) {
        await expect(card(page, OVERDUE_DAY, "Renew the domain").locator(".is-overdue")).toHaveCount(1);
        await expect(card(page, OVERDUE_DAY, "Renew the domain")).toContainText("Overdue");
      }
      await shoot(page, "today-light", "calendar-");
    });

    test("Show weekends and the week view are saved with the board", async () => {
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/?date=${ANCHOR}`);
      const calendar = page.getByRole("region", { name: "Calendar" });
      await page.getByRole("button", { name: "Display" }).click();
      const saved = page.waitForResponse(
        (r) => r.request().method() === "PATCH" && r.url().includes("/user-properties/"),
      );
      await page.getByRole("switch", { name: "Show weekends" }).click();
      expect((await saved).ok()).toBe(true);
      await page.keyboard.press("Escape");
      await expect(calendar.getByRole("columnheader")).toHaveCount(7);
      await expect(calendar.getByRole("columnheader").first()).toHaveText("Sun");
      await expect(card(page, "2030-03-16", "Weekend deploy")).toBeVisible();

      const savedWeek = page.waitForResponse(
        (r) => r.request().method() === "PATCH" && r.url().includes("/user-properties/"),
      );
      await calendar.getByRole("button", { name: "Week", exact: true }).click();
      expect((await savedWeek).ok()).toBe(true);
      await expect(page.locator(".cal-day")).toHaveCount(7);
      await expect(page.locator(".cal-day").first()).toHaveAttribute("data-date", "2030-03-10");
      await page.reload();
      await expect(page.locator(".cal-day")).toHaveCount(7);
      await expect(card(page, "2030-03-13", "Book the venue")).toBeVisible();
      await shoot(page, "week-light", "calendar-");
      await calendar.getByRole("button", { name: "Next week" }).click();
      await expect(page).toHaveURL(/date=2030-03-20/);
      await expect(card(page, "2030-03-19", "Write the brief")).toBeVisible();

      // Back to the month for the pictures.
      await calendar.getByRole("button", { name: "Month", exact: true }).click();
      await expect(page.locator(".cal-day").first()).toHaveAttribute("data-date", "2030-02-24");
    });

    test("a module's board has the calendar too: quick add there puts the item in the module", async () => {
      await api.patch(`/api/workspaces/${f.slug}/projects/${f.projectId}/`, { module_view: true });
      const mod = await api.post<{ id: string }>(api.projectUrl(f, "modules/"), { name: "Venue" });
      await api.createWorkItem(f, { name: "Walk the venue", target_date: "2030-03-14", module_ids: [mod.id] });
      const url = `/${f.slug}/projects/${f.projectId}/modules/${mod.id}/`;
      await page.goto(url);
      // Each board keeps its own layout: the module's starts as a list.
      const button = page.getByRole("button", { name: "Calendar", exact: true });
      const saved = page.waitForResponse(
        (r) => r.request().method() === "PATCH" && r.url().includes("user-properties"),
      );
      await button.click();
      expect((await saved).ok()).toBe(true);
      await page.goto(`${url}?date=${ANCHOR}`);
      await expect(card(page, "2030-03-14", "Walk the venue")).toBeVisible();
      // Only the module's items: the project's others stay off this calendar.
      await expect(page.locator(".cal-card").filter({ hasText: "Book the venue" })).toHaveCount(0);
      const cell = day(page, "2030-03-22");
      await cell.hover();
      await cell.getByRole("button", { name: /^Add a work item due / }).click();
      await cell.getByRole("textbox").fill("Sign the venue contract");
      await cell.getByRole("textbox").press("Enter");
      await expect(card(page, "2030-03-22", "Sign the venue contract")).toBeVisible();
      await expect
        .poll(async () => {
          // The card shows at once; the item reaches the server through the outbox just after.
          const item = (await api.findByName(f, "Sign the venue contract")) as
            | { target_date?: string; module_ids?: string[] }
            | undefined;
          return [item?.target_date?.slice(0, 10), item?.module_ids];
        })
        .toEqual(["2030-03-22", [mod.id]]);
    });

    test("dark theme and phone", async () => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/?date=${ANCHOR}`);
      await expect(card(page, "2030-03-13", "Book the venue")).toBeVisible();
      await shoot(page, "month-dark", "calendar-");
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/${f.slug}/projects/${f.projectId}/issues/?date=${ANCHOR}`);
      // A phone shows the week as an agenda, one row per day.
      await expect(page.locator(".cal-agenda .cal-day")).toHaveCount(7);
      await expect(card(page, "2030-03-13", "Book the venue")).toBeVisible();
      await shoot(page, "phone-light", "calendar-");
      await page.emulateMedia({ colorScheme: "dark" });
      await shoot(page, "phone-dark", "calendar-");
    });
  });
