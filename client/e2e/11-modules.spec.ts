/**
 * Modules (issue 10), as a project member uses them: create a module through the modal, add
 * existing work items to it, open it and switch its board's layouts; switch the modules page
 * between list, board and timeline; drag a module card to another status column; drag a
 * timeline bar and find the new dates after a reload. A second browser (another member) sees a
 * module created by the first without a reload. A focused timeline bar moves with the arrow keys; the
 * panel's burndown switches to points when the project estimates in points. The spec makes its own users, workspace and
 * project through the API (01-foundation only for the instance administrator).
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { localDay as day } from "./support/dates.ts";
import { channelSynced } from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const mona = { email: "mona@modules.test", password: "Lantern-quarry-otter-58", first: "Mona", last: "Maker" };
const theo = { email: "theo@modules.test", password: "Harbor-cobalt-finch-27", first: "Theo", last: "Watcher" };
const LIVE = { timeout: 10_000 };

type ModuleJson = { id: string; name: string; status: string; start_date: string | null; target_date: string | null };

test.describe
  .serial("modules", () => {
    test.describe.configure({ timeout: 120_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let page: Page;
    let pageB: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    const modulesUrl = () => `/${f.slug}/projects/${f.projectId}/modules/`;
    const moduleByName = async (name: string) => {
      const list = await api.get<ModuleJson[]>(api.projectUrl(f, "modules/"));
      const found = list.find((m) => m.name === name);
      expect(found, `module "${name}" exists`).toBeTruthy();
      return found as ModuleJson;
    };
    const layout = (p: Page, name: string) => p.getByRole("button", { name, exact: true });
    /** A timeline bar's label from its first to its last day (as the bar writes them). */
    const barDates = (from: number, to: number) => {
      const shown = (offset: number) =>
        new Date(`${day(offset)}T00:00:00`)
          .toLocaleDateString("en-US", { month: "short", day: "2-digit", year: "numeric" })
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return new RegExp(`, ${shown(from)} to ${shown(to)}`);
    };

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ context: contextA, page, api } = await openSession(browser, origin));
      const b = await openSession(browser, origin);
      ({ context: contextB, page: pageB } = b);
      f = await signUpWithProject(api, mona, { slug: "mod-e2e", name: "Atlas", identifier: "AT" });
      await api.patch(`/api/workspaces/${f.slug}/projects/${f.projectId}/`, { module_view: true });
      await addMember(api, b.api, f, theo);
      for (const name of ["Cart summary", "Payment form", "Receipt email"]) await api.createWorkItem(f, { name });
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("a module created through the modal shows live in another member's browser", async () => {
      // Theo watches the modules page (empty) with the project channel synced.
      const synced = channelSynced(pageB, `project.${f.projectId}`);
      await pageB.goto(modulesUrl());
      await synced;
      await expect(pageB.getByRole("heading", { name: "No modules yet" })).toBeVisible();

      await page.goto(modulesUrl());
      await page.getByRole("button", { name: "Add module" }).first().click();
      const dialog = page.getByRole("dialog", { name: "New module" });
      // The name is required: the form says so on the field.
      await dialog.getByRole("button", { name: "Create module" }).click();
      await expect(dialog.getByText("Name is required")).toBeVisible();
      await dialog.getByLabel("Name").fill("Checkout redesign");
      await dialog.getByLabel("Description").fill("The new checkout flow");
      await dialog.getByRole("combobox", { name: "Status" }).click();
      await page.getByRole("listbox", { name: "Status" }).getByRole("option", { name: "In progress" }).click();
      await dialog.getByRole("button", { name: "Create module" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("module-row").filter({ hasText: "Checkout redesign" })).toBeVisible();

      await expect(pageB.getByTestId("module-row").filter({ hasText: "Checkout redesign" })).toBeVisible(LIVE);

      // A second module with the same name: the server's 409 shows on the name field.
      await page.getByRole("button", { name: "Add module" }).first().click();
      await dialog.getByLabel("Name").fill("Checkout redesign");
      await dialog.getByRole("button", { name: "Create module" }).click();
      await expect(dialog.getByText("This name is already taken.")).toBeVisible();
      await dialog.getByLabel("Name").fill("Search relevance");
      await dialog.getByRole("button", { name: "Create module" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("module-row")).toHaveCount(2);
    });

    test("add existing work items, open the module and switch its board's layouts", async () => {
      await page.getByTestId("module-row").filter({ hasText: "Checkout redesign" }).getByRole("link").click();
      await expect(page.getByTestId("module-panel")).toBeVisible();
      await page.getByRole("button", { name: "Add existing" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Add existing work items" });
      await dialog.getByRole("searchbox").fill("a");
      await dialog.getByText("Cart summary").click();
      await dialog.getByText("Payment form").click();
      await dialog.getByRole("button", { name: "Add to module" }).click();
      await expect(dialog).toBeHidden();

      const board = new WorkItemsPage(page);
      await board.useLayout("List");
      await expect(page.getByText("Cart summary")).toBeVisible();
      await expect(page.getByText("Payment form")).toBeVisible();
      await expect(page.getByText("Receipt email")).toHaveCount(0);
      await board.useLayout("Kanban");
      await expect(board.cards).toHaveCount(2);
      await board.useLayout("Spreadsheet");
      await expect(page.getByText("Cart summary")).toBeVisible();

      const module = await moduleByName("Checkout redesign");
      const items = await api.get<{ results: { name: string }[] }>(
        api.projectUrl(f, `modules/${module.id}/issues/?per_page=100`),
      );
      expect(items.results.map((i) => i.name).sort()).toEqual(["Cart summary", "Payment form"]);
      // The panel counts them.
      await expect(page.getByTestId("module-panel").getByText("0 of 2 done").first()).toBeVisible();
    });

    test("the modules page switches between list, board and timeline; a card dragged to another column changes status", async () => {
      await page.goto(modulesUrl());
      await expect(page.getByTestId("module-row")).toHaveCount(2);
      await layout(page, "Board").click();
      await expect(layout(page, "Board")).toHaveAttribute("aria-pressed", "true");
      const column = (status: string) => page.locator(`section[data-status="${status}"]`);
      await expect(column("in-progress").getByTestId("module-card")).toHaveCount(1);

      const card = column("in-progress").getByTestId("module-card");
      const from = await card.boundingBox();
      // Planned sits left of In progress: no edge of the scrolling board is near, so it doesn't scroll.
      const to = await column("planned").boundingBox();
      if (!from || !to) throw new Error("card or column not on screen");
      await page.mouse.move(from.x + 20, from.y + from.height - 10);
      await page.mouse.down();
      await page.mouse.move(from.x + 40, from.y + from.height, { steps: 5 });
      await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 15 });
      await page.mouse.up();
      await expect(column("planned").getByTestId("module-card")).toHaveCount(2);
      await expect(column("in-progress").getByTestId("module-card")).toHaveCount(0);
      await expect.poll(async () => (await moduleByName("Checkout redesign")).status).toBe("planned");

      await layout(page, "Timeline").click();
      await expect(page.locator(".tl")).toBeVisible();
      await layout(page, "List").click();
      await expect(page.getByTestId("module-row")).toHaveCount(2);
      // The layout is remembered for the project.
      await layout(page, "Timeline").click();
      await page.reload();
      await expect(layout(page, "Timeline")).toHaveAttribute("aria-pressed", "true");
    });

    test("dragging a timeline bar moves the module's dates, its end handle resizes it (kept after a reload)", async () => {
      const module = await moduleByName("Checkout redesign");
      await api.patch(api.projectUrl(f, `modules/${module.id}/`), { start_date: day(0), target_date: day(4) });
      await page.reload();
      const bar = page.getByRole("button", { name: /^Checkout redesign, / });
      await expect(bar).toBeVisible();
      // Week scale: 60 px a day; drag three days to the right.
      const box = await bar.boundingBox();
      if (!box) throw new Error("bar not on screen");
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 5 });
      await page.mouse.move(box.x + box.width / 2 + 180, box.y + box.height / 2, { steps: 10 });
      await page.mouse.up();
      await expect
        .poll(async () => {
          const m = await moduleByName("Checkout redesign");
          return [m.start_date, m.target_date];
        })
        .toEqual([day(3), day(7)]);
      // Resize: the end handle two days further; the start stays.
      const handle = page.getByRole("button", { name: /^Checkout redesign, / }).locator(".tl-handle-end");
      const hb = await handle.boundingBox();
      if (!hb) throw new Error("end handle not on screen");
      await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
      await page.mouse.down();
      await page.mouse.move(hb.x + hb.width / 2 + 60, hb.y + hb.height / 2, { steps: 5 });
      await page.mouse.move(hb.x + hb.width / 2 + 120, hb.y + hb.height / 2, { steps: 5 });
      await page.mouse.up();
      await expect
        .poll(async () => {
          const m = await moduleByName("Checkout redesign");
          return [m.start_date, m.target_date];
        })
        .toEqual([day(3), day(9)]);

      await page.reload();
      // Waiting, not read once: the reload paints the stored copy of the modules first (local
      // first), then the server's list replaces it. Both ends: the start alone is the same
      // before and after the resize.
      await expect(page.getByRole("button", { name: /^Checkout redesign, / })).toHaveAttribute(
        "aria-label",
        barDates(3, 9),
      );
    });

    test("a focused timeline bar moves a day with an arrow key; the burndown counts points when the project estimates in points", async () => {
      const module = await moduleByName("Checkout redesign");
      await page.goto(modulesUrl());
      await layout(page, "Timeline").click();
      const bar = page.getByRole("button", { name: /^Checkout redesign, / });
      // The arrow moves the dates the bar shows: wait for the server's (the stored copy that
      // paints first can be one write behind when the last page was left at once).
      await expect(bar).toHaveAttribute("aria-label", barDates(3, 9));
      await bar.focus();
      await page.keyboard.press("ArrowLeft");
      await expect
        .poll(async () => {
          const m = await moduleByName("Checkout redesign");
          return [m.start_date, m.target_date];
        })
        .toEqual([day(2), day(8)]);

      // Points: a points estimate, active, on the module's two items (3 + 5).
      const estimate = await api.post<{ id: string; points: { id: string; value: string }[] }>(
        api.projectUrl(f, "estimates/"),
        { estimate: { name: "Fibonacci", type: "points" }, estimate_points: [{ value: "3" }, { value: "5" }] },
      );
      await api.post(api.projectUrl(f, `estimates/${estimate.id}/activate/`), {});
      const [three, five] = estimate.points;
      await api.updateWorkItem(f, (await api.byName(f, "Cart summary")).id, { estimate_point: three?.id });
      await api.updateWorkItem(f, (await api.byName(f, "Payment form")).id, { estimate_point: five?.id });
      await page.goto(`${modulesUrl()}${module.id}/`);
      const panel = page.getByTestId("module-panel");
      const points = panel.getByRole("tab", { name: "Points" });
      await expect(points).toBeVisible(LIVE);
      await expect(panel.getByRole("tab", { name: "Work items" })).toHaveAttribute("aria-selected", "true");
      await expect(panel.getByRole("figure")).toHaveAttribute("aria-label", /of 2 remaining/);
      await points.click();
      await expect(points).toHaveAttribute("aria-selected", "true");
      await expect(panel.getByRole("figure")).toHaveAttribute("aria-label", /of 8 remaining/);
      // The legend names the lines; the module starts in two days, so no day has a scope yet.
      const legend = panel.locator(".burndown-legend");
      await expect(legend).toHaveText(/^Remaining points\s*Ideal$/);
    });

    test("the panel adds a link (a URL that isn't http(s) says why), edits its title and removes it", async () => {
      const module = await moduleByName("Checkout redesign");
      await page.goto(`${modulesUrl()}${module.id}/`);
      const panel = page.getByTestId("module-panel");
      await expect(panel.getByText("No links yet")).toBeVisible();
      await panel.getByRole("button", { name: "Add a link" }).click();
      await panel.getByLabel("URL").fill("ftp://files.example.com");
      await panel.getByRole("button", { name: "Add link" }).click();
      await expect(panel.getByText("Enter a valid http:// or https:// URL")).toBeVisible();
      await panel.getByLabel("URL").fill("figma.com/file/checkout");
      await panel.getByLabel("Title").fill("Checkout flows");
      await panel.getByRole("button", { name: "Add link" }).click();
      const link = panel.getByRole("link", { name: "Checkout flows" });
      await expect(link).toHaveAttribute("href", "https://figma.com/file/checkout");

      await panel.getByRole("button", { name: "Edit link Checkout flows" }).click();
      await panel.getByLabel("Title").fill("Figma: checkout");
      await panel.getByRole("button", { name: "Save" }).click();
      await expect(panel.getByRole("link", { name: "Figma: checkout" })).toBeVisible();
      const detail = await api.get<{ link_module: { title: string; url: string }[] }>(
        api.projectUrl(f, `modules/${module.id}/`),
      );
      expect(detail.link_module).toMatchObject([{ title: "Figma: checkout", url: "https://figma.com/file/checkout" }]);

      await panel.getByRole("button", { name: "Remove link Figma: checkout" }).click();
      await expect(panel.getByText("No links yet")).toBeVisible();
      await expect
        .poll(async () => {
          const after = await api.get<{ link_module: unknown[] }>(api.projectUrl(f, `modules/${module.id}/`));
          return after.link_module.length;
        })
        .toBe(0);
    });
  });
