/**
 * Cycle and module properties on work items (issue 10), as a project member sets them: from the
 * peek's property rows, from a List row's chips and from the bulk bar; the Spreadsheet shows them
 * in its Cycle and Modules columns; a reload keeps everything; the item's history says it was
 * added to the cycle. A completed cycle is never offered, and a refused change is undone. The spec makes its own user, workspace,
 * project, cycles and modules through the API (01-foundation only for the instance admin).
 */
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { utcDay as day } from "./support/dates.ts";
import { signUpWithProject } from "./support/setup.ts";
import { type Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const user = { email: "cyra@cycle-props.test", password: "Lantern-quarry-otter-58", first: "Cyra", last: "Planner" };

type Placed = { id: string; cycle_id: string | null; module_ids: string[] };

test.describe
  .serial("cycle and module properties", () => {
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    const cycle = { now: "", next: "", old: "" };
    const mod = { checkout: "", search: "" };
    const item = { peek: "", row: "", bulkA: "", bulkB: "" };

    const placed = (id: string) => api.get<Placed>(api.projectUrl(f, `issues/${id}/`));

    /** Opens a picker from its trigger and clicks an option (its name starts with `option`). */
    async function pickIn(trigger: Locator, listbox: string, option: string): Promise<void> {
      await trigger.click();
      await page
        .getByRole("listbox", { name: listbox })
        .getByRole("option", { name: new RegExp(`^${option}`) })
        .click();
    }

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      page = await browser.newPage({ baseURL: origin });
      api = new WorkItemsApi(page, origin);
      f = await signUpWithProject(api, user, { slug: "cm-e2e", name: "Planning", identifier: "PL" });
      await api.patch(`/api/workspaces/${f.slug}/projects/${f.projectId}/`, { cycle_view: true, module_view: true });
      const make = (body: Record<string, unknown>) => api.post<{ id: string }>(api.projectUrl(f, "cycles/"), body);
      cycle.now = (await make({ name: "Sprint 14", start_date: day(-3), end_date: day(7) })).id;
      cycle.next = (await make({ name: "Sprint 15", start_date: day(8), end_date: day(20) })).id;
      cycle.old = (await make({ name: "Sprint 13", start_date: day(-20), end_date: day(-10) })).id;
      const module = (name: string) => api.post<{ id: string }>(api.projectUrl(f, "modules/"), { name });
      mod.checkout = (await module("Checkout")).id;
      mod.search = (await module("Search")).id;
      item.peek = (await api.createWorkItem(f, { name: "Plan the release" })).id;
      item.row = (
        await api.createWorkItem(f, { name: "Fix the cart", cycle_id: cycle.now, module_ids: [mod.checkout] })
      ).id;
      item.bulkA = (await api.createWorkItem(f, { name: "Bulk alpha", module_ids: [mod.checkout] })).id;
      item.bulkB = (await api.createWorkItem(f, { name: "Bulk beta" })).id;
    });

    test.afterAll(async () => {
      await page?.close();
    });

    test("sets the cycle and modules from the peek; a completed cycle is not offered", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("List");
      const peek = await board.openPeek(board.row("Plan the release"), "Plan the release");

      const cycleButton = peek.getByRole("button", { name: /^Cycle: / });
      await expect(cycleButton).toHaveAccessibleName("Cycle: No cycle");
      await cycleButton.click();
      const list = page.getByRole("listbox", { name: "Cycle" });
      await expect(list.getByRole("option", { name: /^Sprint 14/ })).toBeVisible();
      await expect(list.getByRole("option", { name: /^Sprint 15/ })).toBeVisible();
      await expect(list.getByRole("option", { name: /^Sprint 13/ })).toHaveCount(0);
      // Keyboard: type to search, Enter picks.
      await page.keyboard.type("14");
      await page.keyboard.press("Enter");
      await expect(peek.getByRole("button", { name: "Cycle: Sprint 14" })).toBeVisible();

      await pickIn(peek.getByRole("button", { name: /^Modules: / }), "Modules", "Checkout");
      await page.keyboard.press("Escape");
      await expect(peek.getByRole("button", { name: "Modules: Checkout" })).toBeVisible();

      await expect.poll(async () => (await placed(item.peek)).cycle_id).toBe(cycle.now);
      await expect.poll(async () => (await placed(item.peek)).module_ids).toEqual([mod.checkout]);
      // The history says so.
      await expect(peek.getByRole("region", { name: "Activity" }).getByText(/added .*cycle Sprint 14/)).toBeVisible();
      await page.keyboard.press("Escape");
    });

    test("changes them from a List row's chips", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("List");
      const row = board.row("Fix the cart");
      await expect(row.getByRole("button", { name: "Cycle: Sprint 14" })).toBeVisible();

      await pickIn(row.getByRole("button", { name: "Cycle: Sprint 14" }), "Cycle", "Sprint 15");
      await expect(row.getByRole("button", { name: "Cycle: Sprint 15" })).toBeVisible();

      await pickIn(row.getByRole("button", { name: "Modules: Checkout" }), "Modules", "Search");
      await page.keyboard.press("Escape");
      const modules = row.getByRole("button", { name: "Modules: Checkout, Search" });
      await expect(modules).toHaveText("2 modules");

      await expect.poll(async () => (await placed(item.row)).cycle_id).toBe(cycle.next);
      await expect
        .poll(async () => [...(await placed(item.row)).module_ids].sort())
        .toEqual([mod.checkout, mod.search].sort());

      // A refused change is undone: the request is pointed at the completed cycle, which the
      // server refuses (400); the chip goes back to Sprint 15 with a toast.
      const itemPatch = /\/issues\/[^/]+\/$/;
      await page.route(itemPatch, async (route) => {
        const request = route.request();
        if (request.method() !== "PATCH") return route.continue();
        await route.continue({ postData: JSON.stringify({ ...request.postDataJSON(), cycle_id: cycle.old }) });
      });
      const refused = page.waitForResponse((r) => r.request().method() === "PATCH" && itemPatch.test(r.url()));
      await pickIn(row.getByRole("button", { name: "Cycle: Sprint 15" }), "Cycle", "Sprint 14");
      expect((await refused).status()).toBe(400);
      await expect(page.getByText("Couldn't update the work item")).toBeVisible();
      await expect(row.getByRole("button", { name: "Cycle: Sprint 15" })).toBeVisible();
      await page.unroute(itemPatch);
      expect((await placed(item.row)).cycle_id).toBe(cycle.next);
    });

    test("sets the cycle and adds modules to two rows from the bulk bar", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("List");
      for (const name of ["Bulk alpha", "Bulk beta"]) await board.row(name).getByRole("checkbox").check();
      const bar = page.getByRole("toolbar", { name: "Selected work items" });
      await expect(bar.getByText("2 selected")).toBeVisible();

      await pickIn(bar.getByRole("button", { name: "Set cycle" }), "Set cycle", "Sprint 15");
      await expect(page.getByText("2 work items updated")).toBeVisible();

      await pickIn(bar.getByRole("button", { name: "Add to modules" }), "Add to modules", "Search");
      await page.keyboard.press("Escape");
      await expect.poll(async () => (await placed(item.bulkB)).module_ids).toEqual([mod.search]);
      // Added to each item's own: alpha keeps Checkout.
      expect([...(await placed(item.bulkA)).module_ids].sort()).toEqual([mod.checkout, mod.search].sort());
      expect((await placed(item.bulkA)).cycle_id).toBe(cycle.next);
      expect((await placed(item.bulkB)).cycle_id).toBe(cycle.next);
      await expect(board.row("Bulk alpha").getByRole("button", { name: "Cycle: Sprint 15" })).toBeVisible();
      await expect(board.row("Bulk beta").getByRole("button", { name: "Modules: Search" })).toBeVisible();

      // "No cycle" takes them out again.
      await pickIn(bar.getByRole("button", { name: "Set cycle" }), "Set cycle", "No cycle");
      await expect.poll(async () => (await placed(item.bulkB)).cycle_id).toBeNull();
      await expect(board.row("Bulk beta").getByRole("button", { name: /^Cycle: / })).toHaveCount(0);
    });

    test("the Spreadsheet shows them in its columns, and a reload keeps everything", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("Spreadsheet");
      const grid = page.getByRole("grid", { name: "Spreadsheet" });
      await expect(grid.getByRole("columnheader", { name: "Cycle" })).toBeVisible();
      await expect(grid.getByRole("columnheader", { name: "Modules" })).toBeVisible();
      const check = async () => {
        await expect(
          board.sheetRow("Plan the release").getByRole("button", { name: "Cycle: Sprint 14" }),
        ).toBeVisible();
        await expect(
          board.sheetRow("Plan the release").getByRole("button", { name: "Modules: Checkout" }),
        ).toBeVisible();
        await expect(board.sheetRow("Fix the cart").getByRole("button", { name: "Cycle: Sprint 15" })).toBeVisible();
        await expect(
          board.sheetRow("Fix the cart").getByRole("button", { name: "Modules: Checkout, Search" }),
        ).toHaveText("2 modules");
      };
      await check();
      await expect(board.sheetRow("Bulk beta").getByRole("button", { name: "Cycle: No cycle" })).toBeVisible();

      // Edit a cell: the cycle column of "Bulk beta".
      await pickIn(board.sheetRow("Bulk beta").getByRole("button", { name: "Cycle: No cycle" }), "Cycle", "Sprint 14");
      await expect(board.sheetRow("Bulk beta").getByRole("button", { name: "Cycle: Sprint 14" })).toBeVisible();
      await expect.poll(async () => (await placed(item.bulkB)).cycle_id).toBe(cycle.now);

      // The layout is saved per user: after a reload the Spreadsheet comes back by itself.
      await page.reload();
      await check();
      await expect(board.sheetRow("Bulk beta").getByRole("button", { name: "Cycle: Sprint 14" })).toBeVisible();
    });
  });
