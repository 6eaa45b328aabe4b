/**
 * Cycles and modules in the board's pipeline (issue 10): Kanban grouped by cycle (the project's
 * cycles by name with their status hint, then No cycle), a card dragged to another cycle's
 * column changes the item's cycle (kept after a reload, said in its history), a completed cycle's
 * column takes nothing; List grouped by module (an item in two modules in both groups); ordering
 * by cycle; the Module filter and its chip; Cycle leaves the menus when the project switches
 * cycles off. Pictures in light and dark, desktop and phone, go to the test's output folder.
 * The spec makes its own user, workspace, project, cycles and modules through the API.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { utcDay as day } from "./support/dates.ts";
import { choose } from "./support/pickers.ts";
import { signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import { type Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const user = { email: "gus@cycle-groups.test", password: "Harbour-quartz-otter-73", first: "Gus", last: "Grouper" };

test.describe
  .serial("cycles and modules on the board", () => {
    let page: Page;
    let api: WorkItemsApi;
    let board: WorkItemsPage;
    let f: Fixture;
    const cycle = { now: "", next: "", old: "" };
    const mod = { checkout: "", search: "" };
    const item = { cart: "", plan: "", box: "" };

    /** The item as the API presents it (its cycle). */
    const cycleOf = async (id: string) =>
      (await api.get<{ cycle_id: string | null }>(api.projectUrl(f, `issues/${id}/`))).cycle_id;
    const view = (display: Record<string, unknown>) =>
      api.patch(api.projectUrl(f, "user-properties/"), { display_filters: display });
    const columns = () =>
      page
        .getByRole("region", { name: "Kanban" })
        .locator("section.wi-column")
        .evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      page = await browser.newPage({ baseURL: origin, viewport: { width: 1440, height: 900 } });
      api = new WorkItemsApi(page, origin);
      board = new WorkItemsPage(page);
      f = await signUpWithProject(api, user, { slug: "cm-groups", name: "Storefront", identifier: "SF" });
      await api.patch(`/api/workspaces/${f.slug}/projects/${f.projectId}/`, { cycle_view: true, module_view: true });
      const make = (body: Record<string, unknown>) => api.post<{ id: string }>(api.projectUrl(f, "cycles/"), body);
      cycle.now = (await make({ name: "Sprint 14", start_date: day(-3), end_date: day(7) })).id;
      cycle.next = (await make({ name: "Sprint 15", start_date: day(8), end_date: day(20) })).id;
      cycle.old = (await make({ name: "Sprint 13", start_date: day(-20), end_date: day(-10) })).id;
      const module = (name: string) => api.post<{ id: string }>(api.projectUrl(f, "modules/"), { name });
      mod.checkout = (await module("Checkout")).id;
      mod.search = (await module("Search")).id;
      item.cart = (
        await api.createWorkItem(f, {
          name: "Fix the cart",
          cycle_id: cycle.now,
          module_ids: [mod.checkout, mod.search],
        })
      ).id;
      item.plan = (await api.createWorkItem(f, { name: "Plan the release" })).id;
      item.box = (
        await api.createWorkItem(f, { name: "Search box", cycle_id: cycle.next, module_ids: [mod.search] })
      ).id;
      await view({ layout: "kanban", group_by: "cycle_id", sub_group_by: null, order_by: "sort_order" });
    });

    test.afterAll(async () => {
      await page?.close();
    });

    test("Kanban by cycle: cycles by name with their status, then No cycle", async () => {
      await board.open(f.slug, f.projectId);
      await expect.poll(columns).toEqual(["Sprint 13", "Sprint 14", "Sprint 15", "No cycle"]);
      await expect(board.column("Sprint 14").locator(".wi-group-hint")).toHaveText(/^Current · \d+ days? left$/);
      await expect(board.column("Sprint 15").locator(".wi-group-hint")).toHaveText(/^Upcoming · starts /);
      await expect(board.column("Sprint 13").locator(".wi-group-hint")).toHaveText(/^Completed · ended /);
      expect(await board.cardNames("Sprint 14")).toEqual(["Fix the cart"]);
      expect(await board.cardNames("No cycle")).toEqual(["Plan the release"]);
      // A completed cycle takes no new items: no add button, no quick add.
      await expect(board.column("Sprint 13").getByRole("button", { name: /^Add a work item to/ })).toHaveCount(0);
      await expect(board.column("Sprint 13").getByRole("button", { name: "New work item" })).toHaveCount(0);
      await expect(board.column("Sprint 15").getByRole("button", { name: "New work item" })).toHaveCount(1);
      await shoot(page, "kanban-by-cycle-light");
    });

    test("a card dragged to another cycle's column moves the item there, with history", async () => {
      await board.dragCardTo("Plan the release", "Sprint 15");
      await expect.poll(() => cycleOf(item.plan)).toBe(cycle.next);
      await page.reload();
      await expect.poll(() => board.cardNames("Sprint 15")).toEqual(["Plan the release", "Search box"]);
      // Opened once: the item is already in the board's cache, and its history loads all the same.
      const peek = await board.openPeek(board.cardIn("Sprint 15", "Plan the release"), "Plan the release");
      await expect(peek.getByRole("button", { name: "Cycle: Sprint 15" })).toBeVisible();
      const activity = peek.getByRole("region", { name: "Activity" });
      await activity.scrollIntoViewIfNeeded();
      await expect(activity.getByText(/added this work item to the cycle Sprint 15$/)).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(peek).toBeHidden();
    });

    test("a completed cycle's column refuses a card", async () => {
      const card = board.card("Search box");
      const from = await card.boundingBox();
      const to = await board.column("Sprint 13").locator(".wi-drop").boundingBox();
      if (!from || !to) throw new Error("card or column not on screen");
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 5 });
      // Near the top of the empty column, where the neighbour's first card is closer by its
      // corners: the column under the pointer still wins.
      await page.mouse.move(to.x + to.width / 2, to.y + 30, { steps: 15 });
      await page.mouse.move(to.x + to.width / 2, to.y + 20, { steps: 5 });
      await expect(board.column("Sprint 13").locator(".wi-drop-blocked")).toBeVisible();
      await shoot(page, "kanban-completed-cycle-refuses-light");
      await page.mouse.up();
      await expect(page.getByText("Completed: takes no new work items")).toBeVisible();
      expect(await cycleOf(item.box)).toBe(cycle.next);
    });

    test("a card dropped near the top of an empty column lands there, not on the neighbour's first card", async () => {
      // No cycle is empty; Sprint 15, at its left, has cards from its top down.
      expect(await board.cardNames("No cycle")).toEqual([]);
      const card = board.card("Fix the cart");
      const from = await card.boundingBox();
      const to = await board.column("No cycle").locator(".wi-drop").boundingBox();
      if (!from || !to) throw new Error("card or column not on screen");
      // Held by its right edge, so the dragged card hangs over Sprint 15 while the pointer is in No cycle.
      await page.mouse.move(from.x + from.width - 12, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width - 2, from.y + from.height / 2 + 10, { steps: 5 });
      await page.mouse.move(to.x + 40, to.y + 30, { steps: 15 });
      await page.mouse.move(to.x + 40, to.y + 20, { steps: 5 });
      await expect(board.column("No cycle").locator(".wi-drop.is-over")).toHaveCount(1);
      await expect(board.column("Sprint 15").locator(".wi-card.is-drop-before")).toHaveCount(0);
      await page.mouse.up();
      await expect.poll(() => cycleOf(item.cart)).toBeNull();
      await expect.poll(() => board.cardNames("No cycle")).toEqual(["Fix the cart"]);
      // Back where the next tests expect it.
      await api.updateWorkItem(f, item.cart, { cycle_id: cycle.now });
      await expect.poll(() => board.cardNames("Sprint 14")).toEqual(["Fix the cart"]);
    });

    test("List by module: an item in two modules is in both groups; No module last", async () => {
      await view({ layout: "list", group_by: "module_id", order_by: "sort_order" });
      await board.open(f.slug, f.projectId);
      const list = page.getByRole("region", { name: "List" });
      await expect
        .poll(() => list.locator(".wi-group-row:not(.wi-group-row-sticky) .wi-group-name").allTextContents())
        .toEqual(["Checkout", "Search", "No module"]);
      await expect(board.row("Fix the cart")).toHaveCount(2);
      await shoot(page, "list-by-module-light");
    });

    test("the display menu orders by cycle; items without one come last", async () => {
      await view({ layout: "list", group_by: null, order_by: "sort_order" });
      await board.open(f.slug, f.projectId);
      await page.getByRole("button", { name: "Display" }).click();
      await choose(page, page.getByRole("combobox", { name: "Order by" }), "Order by", "Cycle");
      await page.keyboard.press("Escape");
      await expect
        .poll(() => board.listRows.locator(".wi-name").allTextContents())
        .toEqual(["Fix the cart", "Plan the release", "Search box"]);
      await api.updateWorkItem(f, item.plan, { cycle_id: null });
      await expect
        .poll(() => board.listRows.locator(".wi-name").allTextContents())
        .toEqual(["Fix the cart", "Search box", "Plan the release"]);
    });

    test("the Module filter narrows the board and its chip names the module", async () => {
      await page.getByRole("button", { name: "Filters" }).click();
      await expect(page.getByRole("group", { name: "Cycle" }).getByRole("button", { name: "Sprint 13" })).toBeVisible();
      await page.getByRole("group", { name: "Module" }).getByRole("button", { name: "Checkout" }).click();
      await shoot(page, "filters-menu-light");
      await page.keyboard.press("Escape");
      await expect.poll(() => board.listRows.locator(".wi-name").allTextContents()).toEqual(["Fix the cart"]);
      const chips = page.getByRole("region", { name: "Applied filters" });
      await expect(chips.getByText("Checkout")).toBeVisible();
      await board.toggleFilter("Module", "No module");
      await expect
        .poll(() => board.listRows.locator(".wi-name").allTextContents())
        .toEqual(["Fix the cart", "Plan the release"]);
      await board.clearFilters();
      // The next test loads the board afresh: wait until the cleared filters are saved.
      await expect
        .poll(async () => {
          const props = await api.get<{ filters: Record<string, unknown> }>(api.projectUrl(f, "user-properties/"));
          return Object.values(props.filters).filter((v) => Array.isArray(v) && v.length > 0).length;
        })
        .toBe(0);
    });

    test("dark theme and phone", async () => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "dark"));
      await view({ layout: "kanban", group_by: "cycle_id", order_by: "sort_order" });
      await board.open(f.slug, f.projectId);
      await expect.poll(columns).toEqual(["Sprint 13", "Sprint 14", "Sprint 15", "No cycle"]);
      await shoot(page, "kanban-by-cycle-dark");
      await view({ layout: "list", group_by: "cycle_id", order_by: "sort_order" });
      await board.open(f.slug, f.projectId);
      await expect(page.getByRole("region", { name: "List" }).getByText(/Current · \d+ days? left/)).toHaveCount(1);
      await shoot(page, "list-by-cycle-dark");
      await view({ layout: "list", group_by: "module_id", order_by: "sort_order" });
      await board.open(f.slug, f.projectId);
      await shoot(page, "list-by-module-dark");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect(board.row("Search box")).toBeVisible();
      await shoot(page, "phone-list-by-module-dark");
      await page.emulateMedia({ colorScheme: "light" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "light"));
      await view({ layout: "kanban", group_by: "cycle_id", order_by: "sort_order" });
      await page.reload();
      await expect(board.column("Sprint 14")).toBeVisible();
      await shoot(page, "phone-kanban-by-cycle-light");
      await page.setViewportSize({ width: 1440, height: 900 });
    });

    test("with cycles switched off, Cycle leaves the display menu and the filters", async () => {
      await api.patch(`/api/workspaces/${f.slug}/projects/${f.projectId}/`, { cycle_view: false });
      await view({ layout: "list", group_by: null, order_by: "sort_order" });
      await board.open(f.slug, f.projectId);
      // The board paints first from the local copy (still Kanban from the last test), then takes
      // the List saved above from the server: open the menu once that has arrived.
      await expect(page.getByRole("region", { name: "List" })).toBeVisible();
      await page.getByRole("button", { name: "Display" }).click();
      await page.getByRole("combobox", { name: "Group by", exact: true }).click();
      const groups = page.getByRole("listbox", { name: "Group by" });
      await expect(groups.getByRole("option", { name: "Module", exact: true })).toBeVisible();
      await expect(groups.getByRole("option", { name: "Cycle", exact: true })).toHaveCount(0);
      await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Filters" }).click();
      await expect(page.getByRole("group", { name: "Module" })).toBeVisible();
      await expect(page.getByRole("group", { name: "Cycle" })).toHaveCount(0);
      await page.keyboard.press("Escape");
    });
  });
