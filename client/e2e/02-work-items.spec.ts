/**
 * Work items, as a project member uses them: create (modal, quick add, API), move a card across
 * Kanban columns, filter by priority and label, edit Spreadsheet cells, work on an item's full
 * page (comment, 👍, attachment, relation, sub-item) and bulk-update rows of the List. The spec
 * signs up its own user, workspace and project through the API, so it needs from 01-foundation
 * only the instance administrator. One page for the whole file: the steps build on each other.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { WorkItemPage } from "./pages/work-item-page.ts";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { signUpWithProject } from "./support/setup.ts";
import { type Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const user = { email: "wendy@work-items.test", password: "Copper-harbour-kite-31", first: "Wendy", last: "Works" };

test.describe
  .serial("work items", () => {
    let page: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let labelId: string;

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      page = await browser.newPage({ baseURL: origin });
      api = new WorkItemsApi(page, origin);
      f = await signUpWithProject(api, user, { slug: "wi-e2e", name: "Board Tests", identifier: "BT" });
      labelId = (await api.createLabel(f, "Frontend", "#3b82f6")).id;
    });

    test.afterAll(async () => {
      await page?.close();
    });

    test("creates work items with the modal, quick add and the API", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await expect(page.getByText("No work items yet")).toBeVisible();

      await board.createWithModal("Homepage hero", "Urgent");
      await expect(page.getByText("BT-1 created")).toBeVisible();
      await board.useLayout("List");
      await expect(board.listRow("Homepage hero")).toBeVisible();
      await expect(board.listRow("Homepage hero").getByRole("button", { name: "Priority: Urgent" })).toBeVisible();

      await board.quickAdd(["Quick one", "Quick two"]);

      const docs = await api.createWorkItem(f, { name: "Docs page", priority: "low" });
      await api.updateWorkItem(f, docs.id, { label_ids: [labelId] });
      await page.reload();
      await expect(board.listRow("Docs page")).toBeVisible();

      const items = await api.workItems(f);
      expect(items.map((i) => i.name).sort()).toEqual(["Docs page", "Homepage hero", "Quick one", "Quick two"]);
      expect(items.find((i) => i.name === "Homepage hero")).toMatchObject({ priority: "urgent", sequence_id: 1 });
    });

    test("drags a card to another state column in Kanban, and it stays there", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("Kanban");
      const target = f.states.find((s) => s.group === "started");
      if (!target) throw new Error("the project has a started state");
      const item = await api.byName(f, "Homepage hero");
      expect(item.state_id).not.toBe(target.id);

      await expect(board.card("Homepage hero")).toBeVisible();
      await board.dragCardTo("Homepage hero", target.name);
      await expect(board.column(target.name).locator(".wi-card").filter({ hasText: "Homepage hero" })).toBeVisible();
      await expect.poll(async () => (await api.byName(f, "Homepage hero")).state_id).toBe(target.id);

      await page.reload();
      await board.useLayout("Kanban");
      await expect(board.column(target.name).locator(".wi-card").filter({ hasText: "Homepage hero" })).toBeVisible();
    });

    test("filters by priority and by label", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("List");
      await expect(board.listRow("Quick one")).toBeVisible();
      // A row that stays through a filter change keeps its element (screens/work-items/row-slots.ts).
      await board.listRow("Homepage hero").evaluate((row) => {
        (row as HTMLElement).dataset.e2eKept = "yes";
      });

      await board.toggleFilter("Priority", "Urgent");
      await expect(page.getByRole("button", { name: "Remove filter Priority: Urgent" })).toBeVisible();
      await expect(board.listRow("Homepage hero")).toBeVisible();
      await expect(board.listRow("Quick one")).toHaveCount(0);
      await expect(board.listRow("Docs page")).toHaveCount(0);
      await expect(board.listRow("Homepage hero")).toHaveAttribute("data-e2e-kept", "yes");
      await board.clearFilters();
      await expect(board.listRow("Quick one")).toBeVisible();

      await board.toggleFilter("Labels", "Frontend");
      await expect(page.getByRole("button", { name: "Remove filter Labels: Frontend" })).toBeVisible();
      await expect(board.listRow("Docs page")).toBeVisible();
      await expect(board.listRow("Homepage hero")).toHaveCount(0);
      await expect(board.listRow("Quick two")).toHaveCount(0);
      await board.clearFilters();
      await expect(board.listRow("Homepage hero")).toBeVisible();
    });

    test("edits Spreadsheet cells, and the changes persist", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("Spreadsheet");

      const row = board.sheetRow("Quick one");
      await row.getByRole("button", { name: /^Priority: / }).click();
      await board.pick("Priority", "High");
      await expect(row.getByRole("button", { name: "Priority: High" })).toBeVisible();

      await board
        .sheetRow("Quick two")
        .getByRole("gridcell")
        .filter({ hasText: "Quick two" })
        .locator(".wi-name")
        .dblclick();
      const editor = page.getByRole("grid", { name: "Spreadsheet" }).getByRole("textbox", { name: "Work items" });
      await editor.fill("Quick two renamed");
      await editor.press("Enter");
      await expect(board.sheetRow("Quick two renamed")).toBeVisible();
      await expect.poll(async () => (await api.byName(f, "Quick one")).priority).toBe("high");

      await page.reload();
      await board.useLayout("Spreadsheet");
      await expect(board.sheetRow("Quick one").getByRole("button", { name: "Priority: High" })).toBeVisible();
      await expect(board.sheetRow("Quick two renamed")).toBeVisible();
    });

    test("works on an item's full page: comment, 👍, attachment, relation and sub-item", async () => {
      const detail = new WorkItemPage(page);
      // The page's first history answer is held until the comment below has been stored — as
      // on a loaded machine, where that older answer once took the new comment off the screen.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(
        "**/history/",
        async (route) => {
          const response = await route.fetch();
          await held;
          await route.fulfill({ response });
        },
        { times: 1 },
      );
      await detail.open(f.slug, "BT-1");
      await expect(detail.title).toHaveValue("Homepage hero");

      const stored = page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname.endsWith("/comments/"),
      );
      await detail.comment("Looks good to ship");
      await stored;
      const historyAnswered = page.waitForEvent("requestfinished", (r) =>
        new URL(r.url()).pathname.endsWith("/history/"),
      );
      release();
      await historyAnswered;
      const comment = page.getByLabel(/ commented$/).filter({ hasText: "Looks good to ship" });
      await expect(comment).toBeVisible();
      await comment.getByRole("button", { name: "Add reaction" }).click();
      await page.getByRole("button", { name: "React with 👍" }).click();
      await expect(comment.getByRole("button", { name: /^👍 1: / })).toHaveAttribute("aria-pressed", "true");

      await detail.attach("notes.txt", "release notes for the hero");

      await detail.addRelation("Relates to", "Quick one");
      await expect(page.getByRole("heading", { name: "Relates to" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Quick one" })).toBeVisible();

      await detail.createSubItem("Hero copy");
      await expect(page.getByRole("link", { name: "Hero copy" })).toBeVisible();

      // All of it is stored: a reload shows the same.
      await page.reload();
      await expect(page.getByText("Looks good to ship")).toBeVisible();
      await expect(page.getByRole("link", { name: "Download notes.txt" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Quick one" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Hero copy" })).toBeVisible();
      const parent = await api.byName(f, "Homepage hero");
      expect((await api.byName(f, "Hero copy")).parent_id).toBe(parent.id);
    });

    test("bulk-updates the priority of two selected rows in List", async () => {
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await board.useLayout("List");
      const docs = await api.byName(f, "Docs page");
      const quick = await api.byName(f, "Quick two renamed");

      await page.getByRole("checkbox", { name: `Select BT-${docs.sequence_id}`, exact: true }).check();
      await page.getByRole("checkbox", { name: `Select BT-${quick.sequence_id}`, exact: true }).check();
      const bar = page.getByRole("toolbar", { name: "Selected work items" });
      await expect(bar.getByText("2 selected")).toBeVisible();
      await bar.getByRole("button", { name: "Priority" }).click();
      await board.pick("Priority", "Medium");
      await expect(page.getByText("2 work items updated")).toBeVisible();

      await expect(board.listRow("Docs page").getByRole("button", { name: "Priority: Medium" })).toBeVisible();
      await expect(board.listRow("Quick two renamed").getByRole("button", { name: "Priority: Medium" })).toBeVisible();
      await expect.poll(async () => (await api.byName(f, "Docs page")).priority).toBe("medium");
      expect((await api.byName(f, "Quick two renamed")).priority).toBe("medium");
      expect((await api.byName(f, "Quick one")).priority).toBe("high");
    });
  });
