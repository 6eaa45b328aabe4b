/**
 * Page object for the workspace home (/:ws/): its widgets (each a region named by its heading),
 * the quick link modal, the Recents filter and the Manage widgets modal.
 */
import { expect, type Locator, type Page } from "@playwright/test";

export const WIDGET_TITLES = ["Quick links", "Recents", "Your stickies", "Your work items"] as const;
export type WidgetTitle = (typeof WIDGET_TITLES)[number];

export class HomePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /** Open the home and wait until its widgets are laid out (placeholders gone). */
  async open(slug: string): Promise<void> {
    await this.page.goto(`/${slug}/`);
    await this.ready();
  }

  async ready(): Promise<void> {
    await expect(this.page.getByRole("status", { name: "Loading your home" })).toHaveCount(0);
    await expect(this.page.getByRole("button", { name: "Manage widgets" }).first()).toBeEnabled();
  }

  widget(title: WidgetTitle): Locator {
    return this.page.getByRole("region", { name: title, exact: true });
  }

  /** The titles of the widgets shown, top to bottom. */
  async shownWidgets(): Promise<string[]> {
    const titles = await this.page.locator("section[aria-labelledby] > div > h2.section-title").allTextContents();
    return titles.filter((title): title is WidgetTitle => (WIDGET_TITLES as readonly string[]).includes(title));
  }

  get linkDialog(): Locator {
    return this.page.getByRole("dialog", { name: /quick link/i });
  }

  /** A quick link's card link (it opens in a new tab). */
  quickLink(name: string): Locator {
    return this.widget("Quick links").getByRole("link", { name: `${name} (opens in a new tab)` });
  }

  /** Fill the open quick link modal and submit it. */
  async submitLink(url: string, title: string): Promise<void> {
    await this.linkDialog.getByLabel("URL").fill(url);
    await this.linkDialog.getByLabel("Display title").fill(title);
    await this.linkDialog.getByRole("button", { name: /^(Add link|Save)$/ }).click();
  }

  recentRows(): Locator {
    return this.widget("Recents").getByRole("listitem");
  }

  async filterRecents(name: "All" | "Work items" | "Pages" | "Projects"): Promise<void> {
    const button = this.widget("Recents").getByRole("button", { name, exact: true });
    await button.click();
    await expect(button).toHaveAttribute("aria-pressed", "true");
  }

  get manageDialog(): Locator {
    return this.page.getByRole("dialog", { name: "Manage widgets" });
  }

  async openManage(): Promise<void> {
    await this.page.getByRole("button", { name: "Manage widgets" }).first().click();
    await expect(this.manageDialog).toBeVisible();
  }

  /** The widget names in the modal, top to bottom. */
  async manageOrder(): Promise<string[]> {
    return this.manageDialog.locator("li .manage-widget-name").allTextContents();
  }
}
