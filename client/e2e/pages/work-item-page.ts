/**
 * Page object for a work item's detail: its full page (/:ws/browse/KEY-1/) or, given the peek's
 * dialog as `root`, the peek over the board (both show the same detail).
 */
import { expect, type Locator, type Page } from "@playwright/test";

export class WorkItemPage {
  readonly page: Page;
  readonly root: Locator;

  constructor(page: Page, root?: Locator) {
    this.page = page;
    this.root = root ?? page.locator("body");
  }

  async open(slug: string, key: string): Promise<void> {
    await this.page.goto(`/${slug}/browse/${key}/`);
    await expect(this.title).toBeVisible();
  }

  get title(): Locator {
    return this.root.getByRole("textbox", { name: "Title" });
  }

  /** Retitle the item (saved on Enter) and wait for the server to store it. */
  async rename(name: string): Promise<void> {
    const saved = this.page.waitForResponse(
      (r) => r.request().method() === "PATCH" && /\/issues\/[^/]+\/$/.test(new URL(r.url()).pathname),
    );
    await this.title.fill(name);
    await this.title.press("Enter");
    expect((await saved).ok(), "the new title was stored").toBe(true);
    await expect(this.title).toHaveValue(name);
  }

  /** Delete the item from the "More actions" menu, confirming the dialog. */
  async delete(): Promise<void> {
    await this.root.getByRole("button", { name: "More actions" }).click();
    await this.page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = this.page.getByRole("dialog", { name: "Delete work item?" });
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(this.page.getByText("Work item deleted")).toBeVisible();
  }

  /** Close the peek with its close button. */
  async close(): Promise<void> {
    await this.root.getByRole("button", { name: "Close", exact: true }).click();
    await expect(this.root).toBeHidden();
  }

  async comment(text: string): Promise<void> {
    const editor = this.page.getByRole("textbox", { name: "Add a comment" });
    await editor.click();
    await this.page.keyboard.type(text);
    await this.page.getByRole("button", { name: "Comment", exact: true }).click();
    await expect(this.page.getByLabel(/ commented$/).filter({ hasText: text })).toBeVisible();
  }

  /** Comments "@<query>", picking `person` from the popup with the keyboard, then `text`. */
  async commentMentioning(query: string, person: RegExp, text: string): Promise<void> {
    const editor = this.root.getByRole("textbox", { name: "Add a comment" });
    await editor.click();
    await this.page.keyboard.type(`@${query}`);
    const option = this.page.getByRole("listbox", { name: "People to mention" }).getByRole("option", { name: person });
    await expect(option).toHaveAttribute("aria-selected", "true");
    await this.page.keyboard.press("Enter");
    await this.page.keyboard.type(text);
    await this.root.getByRole("button", { name: "Comment", exact: true }).click();
    await expect(this.root.getByLabel(/ commented$/).filter({ hasText: text })).toBeVisible();
  }

  async attach(name: string, content: string): Promise<void> {
    await this.page
      .getByLabel("Attach files")
      .setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from(content) });
    await expect(this.page.getByRole("link", { name: `Download ${name}` })).toBeVisible();
  }

  async addRelation(kind: string, search: string): Promise<void> {
    await this.page.getByRole("button", { name: "Add relation" }).click();
    await this.page.getByRole("radio", { name: kind }).check();
    await this.page.getByRole("textbox", { name: "Search work items to relate" }).fill(search);
    await this.page
      .getByRole("listbox", { name: "Search work items to relate" })
      .getByRole("option", { name: new RegExp(search) })
      .click();
  }

  async createSubItem(name: string): Promise<void> {
    await this.page.getByRole("button", { name: "Add sub-item" }).click();
    await this.page.getByRole("menuitem", { name: "Create new sub-item" }).click();
    await this.page.getByRole("textbox", { name: "New sub-item name" }).fill(name);
    await this.page.getByRole("button", { name: "Create", exact: true }).click();
  }
}
