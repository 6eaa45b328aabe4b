/**
 * Page object for a project's intake screen: the list pane (tabs Open / Closed, rows), the open
 * request (its triage toolbar, status badge), the "Create intake request" modal and the
 * sidebar's Intake row with its pending count.
 */
import { expect, type Locator, type Page } from "@playwright/test";

export class IntakePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  goto(slug: string, projectId: string): Promise<unknown> {
    return this.page.goto(`/${slug}/projects/${projectId}/intake/`);
  }

  /** The list pane (a region named after the tabs). */
  get list(): Locator {
    return this.page.getByRole("region", { name: "Requests" });
  }

  tab(name: "Open" | "Closed"): Locator {
    return this.list.getByRole("tab", { name: new RegExp(`^${name}`) });
  }

  /** The rows of the shown tab. */
  get rows(): Locator {
    return this.list.getByRole("listitem");
  }

  row(name: string): Locator {
    return this.rows.filter({ hasText: name });
  }

  /** The open request. */
  get detail(): Locator {
    return this.page.locator("article.intake-detail");
  }

  action(name: string): Locator {
    return this.detail.getByRole("toolbar", { name: "Triage" }).getByRole("button", { name, exact: true });
  }

  get status(): Locator {
    return this.detail.getByTestId("intake-status");
  }

  get createModal(): Locator {
    return this.page.getByRole("dialog", { name: "Create intake request" });
  }

  get nav(): Locator {
    return this.page.getByRole("navigation", { name: "Workspace navigation" });
  }

  /** The sidebar's Intake row. */
  get navLink(): Locator {
    return this.nav.getByRole("link", { name: /^Intake/ });
  }

  /** The sidebar's pending count (absent at 0). */
  get navCount(): Locator {
    return this.nav.getByTestId("intake-count");
  }

  async open(name: string): Promise<void> {
    await this.row(name).getByRole("button").click();
    await expect(this.detail.getByRole("textbox", { name: "Title" }).or(this.detail.getByRole("heading"))).toHaveText(
      name,
    );
  }

  /** Fill and send the create modal (opened by the caller). */
  async submit(name: string, description: string, priority?: string): Promise<void> {
    const modal = this.createModal;
    await expect(modal).toBeVisible();
    await modal.getByLabel("Title").fill(name);
    await modal.getByRole("textbox", { name: "Description" }).click();
    await this.page.keyboard.type(description);
    if (priority) {
      await modal.getByRole("combobox", { name: "Priority" }).click();
      await this.page.getByRole("option", { name: priority }).click();
    }
    await modal.getByRole("button", { name: "Create request" }).click();
    await expect(modal).toBeHidden();
  }

  /** Snooze the open request until `iso` (a day in the calendar, moving a month on if need be). */
  async snoozeUntil(iso: string): Promise<void> {
    await this.action("Snooze").click();
    const calendar = this.page.locator(".date-picker-pop");
    await expect(calendar).toBeVisible();
    for (let i = 0; i < 3; i += 1) {
      const cell = calendar.locator(`[data-day="${iso}"]:not([data-outside]) button`);
      if (await cell.count()) {
        await cell.first().click();
        await expect(calendar).toBeHidden();
        return;
      }
      await calendar.locator(".rdp-button_next").click();
    }
    throw new Error(`day ${iso} not found in the calendar`);
  }
}
