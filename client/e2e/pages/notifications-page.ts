/** Page object for notifications: the sidebar's unread badge and the /:ws/notifications/ screen. */
import { expect, type Locator, type Page } from "@playwright/test";

export class NotificationsPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /** The sidebar's "Notifications" entry. */
  get sidebarLink(): Locator {
    return this.page.getByRole("link", { name: /^Notifications\b/ });
  }

  /** The unread badge next to it (absent at zero). */
  get badge(): Locator {
    return this.page.getByTestId("notifications-badge");
  }

  /** The badge says `count` unread (its hidden text for screen readers, then the number). */
  async expectUnread(count: number, timeout?: number): Promise<void> {
    if (count === 0) {
      await expect(this.badge).toHaveCount(0, { timeout });
      return;
    }
    const text = `${count} unread notification${count === 1 ? "" : "s"}`;
    await expect(this.badge).toHaveText(`${text}${count > 99 ? "99+" : count}`, { timeout });
  }

  /** Opens the screen from the sidebar (an in-app navigation, not a page load). */
  async openFromSidebar(): Promise<void> {
    await this.sidebarLink.click();
    await expect(this.page.getByRole("heading", { name: "Notifications", exact: true })).toBeVisible();
  }

  tab(name: "All" | "Mentions"): Locator {
    return this.page.getByRole("tab", { name: new RegExp(`^${name}`) });
  }

  async showTab(name: "All" | "Mentions"): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute("aria-selected", "true");
  }

  /** The notifications listed on the current tab. */
  get rows(): Locator {
    return this.page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
  }

  row(title: string | RegExp): Locator {
    return this.rows.filter({ hasText: title });
  }
}
