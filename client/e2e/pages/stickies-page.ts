/**
 * Page object for stickies: the home's "Your stickies" widget, the stickies list modal (opened
 * from the sidebar's Stickies row) and the sticky cards in either.
 */
import { expect, type Locator, type Page } from "@playwright/test";

export type StickyColourName = "Gray" | "Peach" | "Pink" | "Orange" | "Green" | "Light blue" | "Dark blue" | "Purple";

export class StickiesPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /** The home's widget (a region named by its heading). */
  get widget(): Locator {
    return this.page.getByRole("region", { name: "Your stickies" });
  }

  /** The stickies list modal. */
  get modal(): Locator {
    return this.page.getByRole("dialog", { name: "Your stickies" });
  }

  /** The sticky cards in `scope` (the widget or the modal). */
  cards(scope: Locator): Locator {
    return scope.getByTestId("sticky-card");
  }

  /** The card in `scope` whose note holds `text`. */
  card(scope: Locator, text: string | RegExp): Locator {
    return this.cards(scope).filter({ hasText: text });
  }

  /** The note's editing area in a card. */
  editor(card: Locator): Locator {
    return card.getByRole("textbox", { name: "Sticky note" });
  }

  /**
   * "Add sticky" in `scope` (its stickies shown already), then write `text` in the new (first) card and wait until the server
   * has the text (the typing is saved after a pause). Returns the card.
   */
  async add(scope: Locator, text: string): Promise<Locator> {
    const before = await this.cards(scope).count();
    const created = this.page.waitForResponse(
      (r) => r.request().method() === "POST" && /\/stickies\/$/.test(new URL(r.url()).pathname),
    );
    await scope.getByRole("button", { name: "Add sticky" }).click();
    expect((await created).status()).toBe(201);
    await expect(this.cards(scope)).toHaveCount(Math.min(before + 1, await this.shownAtMost(scope)));
    const card = this.cards(scope).first();
    const editor = this.editor(card);
    // The new card's editor takes the focus once its code has loaded.
    await expect(editor).toBeFocused();
    const saved = this.waitForSave();
    await editor.pressSequentially(text);
    await saved;
    return this.card(scope, text);
  }

  /** The widget shows the newest four; the modal every sticky loaded. */
  private async shownAtMost(scope: Locator): Promise<number> {
    return (await scope.getAttribute("role")) === "dialog" ? Number.POSITIVE_INFINITY : 4;
  }

  /** Resolves on the next successful PATCH of a sticky. */
  waitForSave(): Promise<unknown> {
    return this.page.waitForResponse(
      (r) => r.request().method() === "PATCH" && /\/stickies\/[^/]+\/$/.test(new URL(r.url()).pathname) && r.ok(),
    );
  }

  async setColour(card: Locator, colour: StickyColourName, key: string): Promise<void> {
    await card.getByRole("button", { name: "Sticky options" }).click();
    const saved = this.waitForSave();
    await this.page.getByRole("menuitem", { name: colour, exact: true }).click();
    await expect(card).toHaveAttribute("data-colour", key);
    await saved;
  }

  async delete(card: Locator): Promise<void> {
    await card.getByRole("button", { name: "Sticky options" }).click();
    const deleted = this.page.waitForResponse(
      (r) => r.request().method() === "DELETE" && /\/stickies\/[^/]+\/$/.test(new URL(r.url()).pathname),
    );
    await this.page.getByRole("menuitem", { name: "Delete sticky" }).click();
    await expect(card).toHaveCount(0);
    expect((await deleted).status()).toBe(204);
  }

  /** Opens the modal from the sidebar's Stickies row. */
  async openFromSidebar(): Promise<void> {
    await this.page
      .getByRole("navigation", { name: "Workspace navigation" })
      .getByRole("button", { name: "Stickies", exact: true })
      .click();
    await expect(this.modal).toBeVisible();
  }

  get search(): Locator {
    return this.modal.getByRole("searchbox", { name: "Search stickies" });
  }
}
