/**
 * What a new user sees (issue 9): the project's features screen lists only the features that
 * exist (Cycles, Modules and Pages since issue 10; Views and Epics since issue 11; Intake, off by
 * default, since its client), and the sidebar links only those that are on; kanban cards show only the properties that
 * have a value, each date once, in display-property order; the notifications screen's All tab
 * lists mentions too (its count and the badge agree with it) and each entry says what changed.
 * It signs up its own two users, workspace and project through the API; screenshots of the board
 * and the notifications screen at 1440×900 go to test-results/screens/.
 */
import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { NotificationsPage } from "./pages/notifications-page.ts";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import { type Fixture, mentionHtml, type WorkItemsApi } from "./support/work-items-api.ts";

const carol = { email: "carol@what-exists.test", password: "Copper-meadow-owl-73", first: "Carol", last: "Lead" };
const dan = { email: "dan@what-exists.test", password: "Granite-harbor-elk-31", first: "Dan", last: "Follower" };
const SCREENS = "test-results/screens";

/** The labels of a card's properties, in the order shown (pickers' names, counts, dates' titles). */
async function propertyNames(card: Locator): Promise<string[]> {
  return card
    .locator(".item-props > *")
    .evaluateAll((els) => els.map((el) => el.getAttribute("aria-label") ?? el.getAttribute("title") ?? ""));
}

test.describe
  .serial("what exists, and only what has a value", () => {
    test.describe.configure({ timeout: 120_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let pageA: Page;
    let pageB: Page;
    let apiA: WorkItemsApi;
    let f: Fixture;
    let danId: string;

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      const viewport = { width: 1440, height: 900 };
      ({ context: contextA, page: pageA, api: apiA } = await openSession(browser, origin, { viewport }));
      const b = await openSession(browser, origin, { viewport });
      ({ context: contextB, page: pageB } = b);
      f = await signUpWithProject(apiA, carol, { slug: "exists-e2e", name: "Website", identifier: "WEB" });
      danId = await addMember(apiA, b.api, f, dan);
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    // Cycles and modules exist now (issue 10): they are features of their own, on by default.
    test("the features screen shows Cycles, Modules, Views and Pages; the sidebar links work items, cycles, modules, views and pages", async () => {
      await pageA.goto(`/${f.slug}/projects/${f.projectId}/settings/features/`);
      await expect(pageA.getByRole("heading", { name: "Features", level: 1 })).toBeVisible();
      const main = pageA.locator(".feature-list").first();
      // Epics exist too (issue 11), and Intake (its screen and sidebar entry since the intake
      // client): listed, off by default (no Epics or Intake link in the sidebar then).
      await expect(main.getByRole("switch", { name: "Epics" })).not.toBeChecked();
      await expect(main.getByRole("switch", { name: "Intake" })).not.toBeChecked();
      await expect(main.getByRole("switch")).toHaveCount(6);
      // Saved views exist too (issue 11): on by default, linked under the project.
      for (const on of ["Cycles", "Modules", "Views", "Pages"])
        await expect(main.getByRole("switch", { name: on })).toBeChecked();
      await pageA.screenshot({ path: `${SCREENS}/features.png` });
      for (const gone of ["Time tracking"]) {
        await expect(pageA.getByRole("switch", { name: gone })).toHaveCount(0);
        await expect(pageA.getByText(gone, { exact: true })).toHaveCount(0);
      }
      // The guests' setting is not a feature: it stays.
      await expect(pageA.getByRole("switch", { name: "Guests see all work items" })).toBeVisible();

      const nav = pageA.getByRole("navigation", { name: "Workspace navigation" });
      for (const shown of ["Work items", "Cycles", "Modules", "Pages"])
        await expect(nav.getByRole("link", { name: shown, exact: true })).toBeVisible();
      // The project's saved views (the workspace has a "Views" entry of its own too).
      await expect(
        nav
          .getByRole("link", { name: "Views", exact: true })
          .and(nav.locator(`a[href$="/projects/${f.projectId}/views/"]`)),
      ).toBeVisible();
      for (const gone of ["Intake", "Epics"]) {
        await expect(nav.getByRole("link", { name: gone, exact: true })).toHaveCount(0);
      }
      // Switched on, Intake is linked under the project; switched off again, the link goes.
      const intake = main.getByRole("switch", { name: "Intake" });
      await intake.click();
      await expect(intake).toBeChecked();
      await expect(nav.getByRole("link", { name: "Intake", exact: true })).toBeVisible();
      await intake.click();
      await expect(intake).not.toBeChecked();
      await expect(nav.getByRole("link", { name: "Intake", exact: true })).toHaveCount(0);
    });

    test("kanban cards show only what has a value, each date once, in display-property order", async () => {
      const label = await apiA.createLabel(f, "Frontend", "#3b82f6");
      await apiA.createWorkItem(f, { name: "Bare item" });
      await apiA.createWorkItem(f, {
        name: "Full item",
        priority: "high",
        label_ids: [label.id],
        assignee_ids: [danId],
        start_date: "2026-11-20",
        target_date: "2026-11-30",
      });
      const board = new WorkItemsPage(pageA);
      await board.open(f.slug, f.projectId);
      await board.useLayout("Kanban");

      const bare = await propertyNames(board.card("Bare item"));
      expect(bare).toEqual([expect.stringMatching(/^State: /), "Created on"]);

      const full = await propertyNames(board.card("Full item"));
      expect(full).toEqual([
        expect.stringMatching(/^Assignees: /),
        "Start date: Nov 20, 2026",
        "Due date: Nov 30, 2026",
        "Labels: Frontend",
        "Priority: High",
        expect.stringMatching(/^State: /),
        "Created on",
      ]);
      // No empty placeholder anywhere on the board.
      await expect(pageA.locator(".wi-card .prop-btn-empty")).toHaveCount(0);
      await pageA.screenshot({ path: `${SCREENS}/kanban.png` });

      // The list rows show the same.
      await board.useLayout("List");
      expect(await propertyNames(board.listRow("Full item"))).toEqual(full);
      expect(await propertyNames(board.listRow("Bare item"))).toEqual(bare);
      await pageA.screenshot({ path: `${SCREENS}/list.png` });
      await board.useLayout("Spreadsheet");
      // An empty cell's placeholder is not repeated down the column: it shows on the hovered row.
      const bareRow = board.sheetRow("Bare item");
      const placeholder = bareRow.getByRole("button", { name: "Assignees: None" }).locator(".prop-btn-text");
      await pageA.mouse.move(0, 0);
      await expect(placeholder).toBeHidden();
      await pageA.screenshot({ path: `${SCREENS}/spreadsheet.png` });
      await bareRow.hover();
      await expect(placeholder).toBeVisible();
    });

    test("All lists mentions too, as the badge counts them; each entry says what changed", async () => {
      const started = f.states.find((s) => s.group === "started");
      if (!started) throw new Error("the project has a started state");
      const item = await apiA.createWorkItem(f, { name: "Launch page", assignee_ids: [danId] });
      await apiA.updateWorkItem(f, item.id, { priority: "urgent" });
      await apiA.updateWorkItem(f, item.id, { state_id: started.id });
      await apiA.updateWorkItem(f, item.id, { target_date: "2026-12-24" });
      await apiA.comment(f, item.id, "<p>The hero copy is final, shipping it after the review tomorrow morning.</p>");
      await apiA.comment(f, item.id, `<p>${mentionHtml(danId, "Dan")} can you check the numbers?</p>`);

      const notifications = new NotificationsPage(pageB);
      await pageB.goto(`/${f.slug}/`);
      // The Full item's assignment from the previous test, plus these six.
      await notifications.expectUnread(7, 15_000);
      await notifications.openFromSidebar();
      await notifications.showTab("All");
      await expect(notifications.rows).toHaveCount(7);
      await expect(notifications.tab("All")).toContainText("7");
      await expect(notifications.tab("Mentions")).toContainText("1");

      const key = `${f.identifier}-${item.sequence_id}`;
      const change = (title: RegExp) => notifications.row(title).getByTestId("notification-change");
      await expect(change(new RegExp(`changed the priority of ${key}`))).toHaveText("Priority: No priority → Urgent");
      await expect(change(new RegExp(`changed the state of ${key}`))).toHaveText(
        new RegExp(`^State: .+ → ${started.name}$`),
      );
      await expect(change(new RegExp(`changed the due date of ${key}`))).toHaveText("Due date: None → Dec 24, 2026");
      await expect(change(new RegExp(`commented on ${key}`))).toHaveText(
        "“The hero copy is final, shipping it after the review tomorrow morning.”",
      );
      await expect(change(new RegExp(`mentioned you in a comment on ${key}`))).toContainText(
        "can you check the numbers?",
      );
      // "assigned you to" says it all: no second line.
      await expect(notifications.row(new RegExp(`assigned you to ${key}`))).toHaveCount(1);
      await expect(change(new RegExp(`assigned you to ${key}`))).toHaveCount(0);
      await pageB.screenshot({ path: `${SCREENS}/notifications.png` });

      await notifications.showTab("Mentions");
      await expect(notifications.rows).toHaveCount(1);
      // Reading the mention moves the badge and both tabs.
      await notifications.rows.first().hover();
      await notifications.rows.first().getByRole("button", { name: "Mark as read" }).click();
      await notifications.expectUnread(6);
      await expect(notifications.tab("Mentions")).not.toContainText("1");
      await expect(notifications.tab("All")).toContainText("6");
    });

    test("the assignee picker offers each project member once, under the name they go by (their display name)", async () => {
      const item = await apiA.createWorkItem(f, { name: "Pick people" });
      await pageA.goto(`/${f.slug}/browse/${f.identifier}-${item.sequence_id}/`);
      await pageA.getByRole("button", { name: /^Assignees:/ }).click();
      const list = pageA.getByRole("listbox", { name: /^Assignees:/ });
      // Members are keyed by their user id: a nested member object once made them collapse into one.
      await expect(list.getByRole("option")).toHaveCount(2);
      await expect(list.getByRole("option", { name: /carol$/ })).toBeVisible();
      await expect(list.getByRole("option", { name: /dan$/ })).toBeVisible();
      await list.getByRole("option", { name: /dan$/ }).click();
      await expect(pageA.getByRole("button", { name: "Assignees: dan", exact: true })).toBeVisible();
      await pageA.keyboard.press("Escape");
    });

    test("the description's history lists its saved versions, newest first, and shows the one picked", async () => {
      const item = await apiA.createWorkItem(f, { name: "Versioned", description_html: "<p>First draft</p>" });
      await apiA.updateWorkItem(f, item.id, { description_html: "<p>Second draft</p>" });
      await pageA.goto(`/${f.slug}/browse/${f.identifier}-${item.sequence_id}/`);
      await pageA.getByRole("button", { name: "History", exact: true }).click();
      const dialog = pageA.getByRole("dialog", { name: "Description history" });
      const entries = dialog.getByRole("list", { name: "Saved versions" }).getByRole("button");
      await expect(entries).toHaveCount(2);
      await expect(entries.first()).toContainText("carol");
      // The newest is shown first; picking the older one shows it.
      await expect(dialog.getByText("Second draft")).toBeVisible();
      await entries.nth(1).click();
      await expect(dialog.getByText("First draft")).toBeVisible();
      await pageA.screenshot({ path: `${SCREENS}/description-history.png` });
      await pageA.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    });
  });
