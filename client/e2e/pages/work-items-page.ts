/** Page object for a project's work items board (List / Kanban / Spreadsheet, filters, bulk bar, live dot). */
import { expect, type Locator, type Page } from "@playwright/test";

export type Layout = "List" | "Kanban" | "Spreadsheet";

export class WorkItemsPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /**
   * Opens the board and waits until the project's items are in the local cache (the sync list
   * answered): before that the board shows the server's first page, which live events don't edit.
   */
  async open(slug: string, projectId: string): Promise<void> {
    const synced = this.page.waitForResponse(
      (r) => r.url().includes(`/projects/${projectId}/v2/issues/`) && r.request().method() === "GET",
    );
    await this.page.goto(`/${slug}/projects/${projectId}/issues/`);
    expect((await synced).ok(), "the project's items loaded").toBe(true);
    await expect(this.page.getByRole("heading", { name: "Work items", exact: true })).toBeVisible();
  }

  /** The header's live-updates dot (its name says connected, connecting… or offline). */
  get liveStatus(): Locator {
    return this.page.getByRole("status", { name: /^Live updates: / });
  }

  async expectLive(status: "connected" | "offline" = "connected", timeout?: number): Promise<void> {
    await expect(this.liveStatus).toHaveAccessibleName(
      status === "connected" ? "Live updates: connected" : /^Live updates: (offline|connecting…)$/,
      { timeout },
    );
  }

  /**
   * Switches the layout and waits until the view is saved (user-properties/, debounced): a save
   * that fails later — e.g. the network drops first — puts back the layout the server holds.
   */
  async useLayout(layout: Layout): Promise<void> {
    const button = this.page.getByRole("button", { name: layout, exact: true });
    const saved = this.page.waitForResponse(
      (r) => r.request().method() === "PATCH" && r.url().includes("/user-properties/"),
    );
    await button.click();
    await expect(button).toHaveAttribute("aria-pressed", "true");
    expect((await saved).ok(), `the ${layout} layout was saved`).toBe(true);
  }

  /** The create modal: title, optionally a priority, then "Create work item". */
  async createWithModal(title: string, priority?: string): Promise<void> {
    await this.page.getByRole("button", { name: "Add work item" }).first().click();
    const dialog = this.page.getByRole("dialog", { name: "Create work item" });
    await dialog.getByLabel("Title").fill(title);
    if (priority) {
      await dialog.getByRole("button", { name: /^Priority: / }).click();
      await this.page.getByRole("listbox", { name: "Priority" }).getByRole("option", { name: priority }).click();
      await expect(dialog.getByRole("button", { name: `Priority: ${priority}` })).toBeVisible();
    }
    await dialog.getByRole("button", { name: "Create work item" }).click();
    await expect(dialog).toBeHidden();
  }

  /** Quick add in the first group of the list: one title per Enter, then Escape. */
  async quickAdd(titles: string[]): Promise<void> {
    await this.page.getByRole("button", { name: "New work item" }).first().click();
    const input = this.page.getByRole("textbox", { name: "New work item title" });
    for (const title of titles) {
      await input.fill(title);
      await input.press("Enter");
      await expect(this.listRow(title)).toBeVisible();
    }
    await input.press("Escape");
  }

  listRow(name: string): Locator {
    return this.page.getByRole("region", { name: "List" }).locator(".wi-item-row").filter({ hasText: name });
  }

  column(stateName: string): Locator {
    return this.page.getByRole("region", { name: "Kanban" }).getByRole("region", { name: stateName, exact: true });
  }

  card(name: string): Locator {
    return this.page.locator(".wi-card").filter({ hasText: name });
  }

  /** Every card on the Kanban board (the drag overlay is outside the board). */
  get cards(): Locator {
    return this.page.getByRole("region", { name: "Kanban" }).locator(".wi-card");
  }

  /** The card named exactly `name` in a state's column. */
  cardIn(stateName: string, name: string): Locator {
    return this.column(stateName)
      .locator(".wi-card")
      .filter({ has: this.page.locator(".wi-card-name").getByText(name, { exact: true }) });
  }

  /** Names on the cards of a column, sorted (the order within a column is not the point). */
  async cardNames(stateName: string): Promise<string[]> {
    return (await this.column(stateName).locator(".wi-card-name").allTextContents()).sort();
  }

  /** Every row of the List layout. */
  get listRows(): Locator {
    return this.page.getByRole("region", { name: "List" }).locator(".wi-item-row");
  }

  /** The List row named exactly `name`. */
  row(name: string): Locator {
    return this.listRows.filter({ has: this.page.locator(".wi-name").getByText(name, { exact: true }) });
  }

  /** Drags a Kanban card onto a column with real pointer moves (dnd-kit needs several steps). */
  async dragCardTo(name: string, stateName: string): Promise<void> {
    const card = this.card(name);
    await card.scrollIntoViewIfNeeded();
    const from = await card.boundingBox();
    const to = await this.column(stateName).locator(".wi-drop").boundingBox();
    if (!from || !to) throw new Error("card or column not on screen");
    const mouse = this.page.mouse;
    await mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await mouse.down();
    await mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 5 });
    await mouse.move(to.x + to.width / 2, to.y + 40, { steps: 15 });
    await mouse.move(to.x + to.width / 2, to.y + 50, { steps: 5 });
    // Manual ordering: a line shows where the card will land in the other column.
    await expect(this.column(stateName).locator(".wi-card.is-drop-before, .wi-drop-line-end")).toHaveCount(1);
    await mouse.up();
  }

  async toggleFilter(section: string, option: string): Promise<void> {
    await this.page.getByRole("button", { name: "Filters" }).click();
    const button = this.page.getByRole("group", { name: section }).getByRole("button", { name: option });
    const pressed = await button.getAttribute("aria-pressed");
    await button.click();
    await expect(button).toHaveAttribute("aria-pressed", pressed === "true" ? "false" : "true");
    await this.page.keyboard.press("Escape");
  }

  async clearFilters(): Promise<void> {
    await this.page.getByRole("region", { name: "Applied filters" }).getByRole("button", { name: "Clear all" }).click();
  }

  sheetRow(name: string): Locator {
    return this.page.getByRole("grid", { name: "Spreadsheet" }).getByRole("row").filter({ hasText: name });
  }

  /**
   * Opens an item's peek from its Kanban card or List row. The peek is a dialog named "KEY-n
   * name"; the locator returned doesn't depend on the name, which changes with a rename.
   */
  async openPeek(item: Locator, name: string): Promise<Locator> {
    await item.locator(".wi-card-name, .wi-row-main").first().click();
    await expect(
      this.page.getByRole("dialog", { name: new RegExp(`^[A-Z0-9]+-\\d+ ${escapeRegExp(name)}$`) }),
    ).toBeVisible();
    return this.page.getByRole("dialog", { name: /^[A-Z0-9]+-\d+ / });
  }

  /** Picks an option of the open single-choice picker (state, priority…). */
  async pick(listbox: string, option: string): Promise<void> {
    await this.page.getByRole("listbox", { name: listbox }).getByRole("option", { name: option }).click();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
