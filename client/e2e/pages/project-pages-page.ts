/**
 * Page objects for a project's pages: the list (/:ws/projects/:id/pages/, tabs Public /
 * Private / Archived) and one page (title that saves itself, live body, header controls).
 */
import { expect, type Locator, type Page } from "@playwright/test";

export class PagesListPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async open(slug: string, projectId: string, tab?: "public" | "private" | "archived"): Promise<void> {
    await this.page.goto(`/${slug}/projects/${projectId}/pages/${tab && tab !== "public" ? `?tab=${tab}` : ""}`);
    await expect(this.page.getByRole("heading", { name: "Pages", level: 1 })).toBeVisible();
  }

  tab(name: "Public" | "Private" | "Archived"): Locator {
    return this.page.getByRole("tab", { name: new RegExp(`^${name}`) });
  }

  row(name: string): Locator {
    return this.page.locator(".pg-row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole("searchbox", { name: "Search pages" }).fill(text);
  }

  /** New page through the form; lands on the new page. */
  async create(name: string, access: "Public" | "Private" = "Public"): Promise<PageView> {
    await this.page.getByRole("button", { name: "New page" }).first().click();
    const dialog = this.page.getByRole("dialog", { name: "New page" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByText(access, { exact: true }).click();
    await dialog.getByRole("button", { name: "Create page" }).click();
    await expect(dialog).toBeHidden();
    const view = new PageView(this.page);
    await expect(view.title).toHaveValue(name);
    return view;
  }

  /** A sub-page through the row's "+" and the form; lands on the new page. */
  async createSubPage(parentName: string, name: string): Promise<PageView> {
    const row = this.row(parentName);
    await row.hover();
    await row.getByRole("button", { name: `Add a sub-page to ${parentName}` }).click();
    const dialog = this.page.getByRole("dialog", { name: "New sub-page" });
    await expect(dialog).toContainText(`Inside ${parentName}`);
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("button", { name: "Create page" }).click();
    await expect(dialog).toBeHidden();
    const view = new PageView(this.page);
    await expect(view.title).toHaveValue(name);
    return view;
  }

  /** The chevron that shows or hides a row's sub-pages. */
  subPagesToggle(parentName: string): Locator {
    return this.row(parentName).getByRole("button", { name: new RegExp(`sub-pages? of ${parentName}$`) });
  }

  async rowAction(name: string, action: string): Promise<void> {
    await this.row(name)
      .getByRole("button", { name: `Actions for ${name}` })
      .click();
    await this.page.getByRole("menuitem", { name: action }).click();
  }
}

export class PageView {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async open(slug: string, projectId: string, pageId: string): Promise<void> {
    await this.page.goto(`/${slug}/projects/${projectId}/pages/${pageId}/`);
    await expect(this.title).toBeVisible();
  }

  /** The page id, read from the address. */
  id(): string {
    const match = /\/pages\/([0-9a-f-]{36})\/?/.exec(this.page.url());
    if (!match?.[1]) throw new Error(`not on a page: ${this.page.url()}`);
    return match[1];
  }

  get title(): Locator {
    return this.page.getByRole("textbox", { name: "Page title" });
  }

  get body(): Locator {
    return this.page.getByRole("textbox", { name: "Page content" });
  }

  get saveState(): Locator {
    return this.page.locator(".pg-save-state");
  }

  get banner(): Locator {
    return this.page.locator(".pg-banner");
  }

  /** Replace the title and wait for the 2-second autosave to report "Saved". */
  async rename(name: string): Promise<void> {
    await this.title.fill(name);
    await expect(this.saveState).toHaveText("Saving…");
    await expect(this.saveState).toHaveText("Saved", { timeout: 10_000 });
  }

  /** Type at the end of the body. */
  async typeInBody(text: string): Promise<void> {
    await this.body.click();
    await this.page.keyboard.press("ControlOrMeta+End");
    await this.page.keyboard.type(text);
  }

  headerButton(name: string | RegExp): Locator {
    return this.page.locator(".page-header").getByRole("button", { name });
  }

  /** Someone else's caret in the body, labelled with their name. */
  caretLabel(name: string): Locator {
    return this.page.locator(".collaboration-carets__label", { hasText: name });
  }
}
