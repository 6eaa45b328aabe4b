/**
 * A cycle's and a module's board (issue 10 polish): the header gives its room to the title (the
 * project as its logo, named for screen readers and by its tooltip); rows don't repeat the board's
 * own cycle (nor its own module: the chip names the item's other modules), the Spreadsheet drops
 * its Cycle column on a cycle's board; narrow rows (details panel open) keep the name readable and
 * drop whole chips instead of cutting them; the bulk bar takes the selection out of the cycle or
 * module. Pictures at 1440 and 1280 px, light and dark, go to the test's output folder. The spec
 * makes its own user, workspace, project, cycle, modules and items through the API.
 */
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { utcDay as day } from "./support/dates.ts";
import { signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import { type Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const user = { email: "sol@scoped-board.test", password: "Meadow-cobalt-heron-61", first: "Sol", last: "Scoper" };
const PROJECT = "Storefront web platform";
const CYCLE = "Sprint 14 — Checkout and payments";

/**
 * Every chip of a row is either wholly shown or wholly dropped (wrapped below the clipped line,
 * and inert so Tab skips it): none is cut, and none overlaps the name. Counts both.
 */
async function chipsWhole(row: Locator): Promise<{ shown: number; dropped: number; cut: string[]; nameWidth: number }> {
  return row.evaluate((el) => {
    const props = el.querySelector(".item-props");
    const name = el.querySelector(".wi-row-main");
    const nameWidth = name?.getBoundingClientRect().width ?? 0;
    if (!props) return { shown: 0, dropped: 0, cut: [], nameWidth };
    const box = props.getBoundingClientRect();
    const nameRight = name?.getBoundingClientRect().right ?? 0;
    let shown = 0;
    let dropped = 0;
    const cut: string[] = [];
    for (const chip of Array.from(props.children) as HTMLElement[]) {
      const r = chip.getBoundingClientRect();
      const label = chip.getAttribute("aria-label") ?? chip.textContent ?? "?";
      if (r.top >= box.bottom - 1) {
        // Wrapped below: dropped whole, and out of the tab order.
        if (chip.inert) dropped += 1;
        else cut.push(`${label} (dropped but focusable)`);
        continue;
      }
      const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5;
      if (!inside || r.left < nameRight || chip.inert) cut.push(label);
      else shown += 1;
    }
    return { shown, dropped, cut, nameWidth };
  });
}

test.describe
  .serial("a cycle's and a module's board", () => {
    let page: Page;
    let api: WorkItemsApi;
    let board: WorkItemsPage;
    let f: Fixture;
    let cycleId = "";
    const mod = { checkout: "", payments: "" };
    const item = { form: "", refund: "", coupon: "" };

    const placed = (id: string) =>
      api.get<{ cycle_id: string | null; module_ids: string[] }>(api.projectUrl(f, `issues/${id}/`));
    const cycleBoard = () => `/${f.slug}/projects/${f.projectId}/cycles/${cycleId}/`;
    const moduleBoard = () => `/${f.slug}/projects/${f.projectId}/modules/${mod.checkout}/`;
    const header = () => page.locator("header.page-header").first();

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      page = await browser.newPage({ baseURL: origin, viewport: { width: 1440, height: 900 } });
      api = new WorkItemsApi(page, origin);
      board = new WorkItemsPage(page);
      f = await signUpWithProject(api, user, { slug: "scoped-board", name: PROJECT, identifier: "SWP" });
      const me = await api.me();
      await api.patch(`/api/workspaces/${f.slug}/projects/${f.projectId}/`, { cycle_view: true, module_view: true });
      cycleId = (
        await api.post<{ id: string }>(api.projectUrl(f, "cycles/"), {
          name: CYCLE,
          start_date: day(-3),
          end_date: day(7),
        })
      ).id;
      const module = (name: string) => api.post<{ id: string }>(api.projectUrl(f, "modules/"), { name });
      mod.checkout = (await module("Checkout")).id;
      mod.payments = (await module("Payments")).id;
      const labels = [
        (await api.createLabel(f, "frontend", "#3b82f6")).id,
        (await api.createLabel(f, "accessibility", "#10b981")).id,
      ];
      // Rows with many chips: on a cycle's board with its panel open they can't all fit.
      const busy = {
        cycle_id: cycleId,
        priority: "high",
        label_ids: labels,
        assignee_ids: [me.id],
        start_date: day(-2),
        target_date: day(5),
      };
      item.form = (
        await api.createWorkItem(f, {
          ...busy,
          name: "Rework the checkout form's validation messages",
          module_ids: [mod.checkout, mod.payments],
        })
      ).id;
      item.refund = (
        await api.createWorkItem(f, { ...busy, name: "Refund flow for partial orders", module_ids: [mod.checkout] })
      ).id;
      item.coupon = (
        await api.createWorkItem(f, { name: "Coupon codes in the cart", cycle_id: cycleId, module_ids: [mod.checkout] })
      ).id;
    });

    test.afterAll(async () => {
      await page?.close();
    });

    test("the header keeps the cycle's name whole: the project shows as its logo", async () => {
      await page.goto(cycleBoard());
      await expect(board.row("Coupon codes in the cart")).toBeVisible();
      const title = header().getByRole("heading", { name: CYCLE });
      await expect(title).toBeVisible();
      const project = header().getByRole("link", { name: PROJECT });
      await expect(project).toBeVisible();
      await expect(project).toHaveAttribute("title", PROJECT);
      await expect(project).not.toContainText("Storefront");
      const truncated = () => title.evaluate((el) => el.scrollWidth > el.clientWidth);
      expect(await truncated()).toBe(false);
      await shoot(page, "cycle-board-header-1440-light");
      await page.setViewportSize({ width: 1280, height: 800 });
      await expect(title).toBeVisible();
      // Narrower: the title may end with an ellipsis (its tooltip names it) but keeps most of the room.
      await expect(title).toHaveAttribute("title", CYCLE);
      expect(await title.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThanOrEqual(180);
      await shoot(page, "cycle-board-header-1280-light");
      // The logo leads back to the project's board.
      await project.click();
      await expect(page).toHaveURL(new RegExp(`/projects/${f.projectId}/issues/$`));
      await page.setViewportSize({ width: 1440, height: 900 });
    });

    test("rows leave out the board's own cycle and keep whole chips beside a readable name", async () => {
      await page.goto(cycleBoard());
      const list = page.getByRole("region", { name: "List" });
      await expect(board.row("Rework the checkout form's validation messages")).toBeVisible();
      await expect(list.getByRole("button", { name: /^Cycle: / })).toHaveCount(0);
      await expect(
        board.row("Rework the checkout form's validation messages").getByRole("button", { name: /^Priority: / }),
      ).toBeVisible();
      let droppedAny = 0;
      for (const name of ["Rework the checkout form's validation messages", "Refund flow for partial orders"]) {
        // Once the row's chips have settled: which chips fit is decided after the panel's width
        // reaches the row (a resize observer), a frame or more after the row shows.
        await expect.poll(async () => (await chipsWhole(board.row(name))).cut).toEqual([]);
        const { shown, dropped, cut, nameWidth } = await chipsWhole(board.row(name));
        droppedAny += dropped;
        expect(cut, `${name}: no chip cut or over the name`).toEqual([]);
        expect(shown, `${name}: the first chips still show`).toBeGreaterThan(0);
        expect(nameWidth, `${name}: the name keeps its room`).toBeGreaterThanOrEqual(200);
      }
      // With the details panel open, these rows can't show every chip.
      expect(droppedAny).toBeGreaterThan(0);
      await shoot(page, "cycle-board-rows-panel-open-light");
    });

    test("the Spreadsheet of a cycle's board has no Cycle column", async () => {
      await board.useLayout("Spreadsheet");
      const grid = page.getByRole("grid", { name: "Spreadsheet" });
      await expect(grid.getByRole("columnheader", { name: "Modules" })).toBeVisible();
      await expect(grid.getByRole("columnheader", { name: "Cycle" })).toHaveCount(0);
      await board.useLayout("List");
    });

    test("the bulk bar takes the selection out of the cycle", async () => {
      await page.goto(cycleBoard());
      await board.row("Coupon codes in the cart").getByRole("checkbox").check();
      const bar = page.getByRole("toolbar", { name: "Selected work items" });
      await bar.getByRole("button", { name: "Remove from cycle" }).click();
      await expect(page.getByText("1 work item removed from the cycle")).toBeVisible();
      await expect(board.row("Coupon codes in the cart")).toHaveCount(0);
      await expect(bar).toBeHidden();
      await expect.poll(async () => (await placed(item.coupon)).cycle_id).toBeNull();
      // Still in the project.
      await page.reload();
      await expect(board.row("Refund flow for partial orders")).toBeVisible();
      await expect(board.row("Coupon codes in the cart")).toHaveCount(0);
    });

    test("a module's board names only the item's other modules, and takes items out of the module", async () => {
      await page.goto(moduleBoard());
      await expect(board.row("Coupon codes in the cart")).toBeVisible();
      // In Checkout and Payments: the chip says Payments (its name lists both for screen readers).
      // With the details panel open the row has no room for it: hide the panel.
      await header().getByRole("button", { name: "Hide details" }).click();
      await expect(
        board.row("Rework the checkout form's validation messages").getByRole("button", { name: /^Modules: / }),
      ).toHaveText("Payments");
      // Only in Checkout: no modules chip at all.
      await expect(board.row("Coupon codes in the cart").getByRole("button", { name: /^Modules: / })).toHaveCount(0);
      await shoot(page, "module-board-rows-light");

      await board.row("Coupon codes in the cart").getByRole("checkbox").check();
      const bar = page.getByRole("toolbar", { name: "Selected work items" });
      await bar.getByRole("button", { name: "Remove from module" }).click();
      await expect(page.getByText("1 work item removed from the module")).toBeVisible();
      await expect(board.row("Coupon codes in the cart")).toHaveCount(0);
      await expect.poll(async () => (await placed(item.coupon)).module_ids).toEqual([]);
    });

    test("the history names a renamed cycle by its current name and links to its board", async () => {
      await api.patch(api.projectUrl(f, `cycles/${cycleId}/`), { name: "Sprint 14 — Payments" });
      await page.goto(cycleBoard());
      const peek = await board.openPeek(board.row("Refund flow for partial orders"), "Refund flow for partial orders");
      const activity = peek.getByRole("region", { name: "Activity" });
      await activity.scrollIntoViewIfNeeded();
      const link = activity.getByRole("link", { name: "Sprint 14 — Payments" }).first();
      await expect(link).toBeVisible();
      await expect(activity.getByText(CYCLE)).toHaveCount(0);
      await shoot(page, "peek-history-cycle-link-light");
      await link.click();
      await expect(page).toHaveURL(new RegExp(`/cycles/${cycleId}/$`));
      await expect(header().getByRole("heading", { name: "Sprint 14 — Payments" })).toBeVisible();
    });

    test("dark theme", async () => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "dark"));
      await page.goto(cycleBoard());
      await expect(board.row("Refund flow for partial orders")).toBeVisible();
      await shoot(page, "cycle-board-1440-dark");
      await page.setViewportSize({ width: 1280, height: 800 });
      await shoot(page, "cycle-board-1280-dark");
      // A phone: the header keeps the logo, the list and the title; rows wrap their chips under the name.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(header().getByRole("heading", { name: "Sprint 14 — Payments" })).toBeVisible();
      await shoot(page, "cycle-board-phone-dark");
      await page.emulateMedia({ colorScheme: "light" });
      await page.evaluate(() => localStorage.setItem("tideline:theme", "light"));
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  });
