/** Page object for a work item's full page (/:ws/browse/KEY-1/). */
import { expect, type Locator, type Page } from "@playwright/test";

export class WorkItemPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async open(slug: string, key: string): Promise<void> {
    await this.page.goto(`/${slug}/browse/${key}/`);
    await expect(this.title).toBeVisible();
  }

  get title(): Locator {
    return this.page.getByRole("textbox", { name: "Title" });
  }

  async comment(text: string): Promise<void> {
    const editor = this.page.getByRole("textbox", { name: "Add a comment" });
    await editor.click();
    await this.page.keyboard.type(text);
    await this.page.getByRole("button", { name: "Comment", exact: true }).click();
    await expect(this.page.getByLabel(/ commented$/).filter({ hasText: text })).toBeVisible();
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
