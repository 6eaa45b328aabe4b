/** Page object for the sign-in and sign-up screens (email step, then password or code). */
import { expect, type Page } from "@playwright/test";
import { mailCount, waitForMagicCode } from "../support/mail-log.ts";

export class AuthPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async enterEmail(email: string): Promise<void> {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByRole("button", { name: "Continue" }).click();
  }

  /** Sign up with a password from the sign-up screen. */
  async signUpWithPassword(email: string, password: string): Promise<void> {
    await this.page.goto("/sign-up/");
    await this.enterEmail(email);
    await this.page.getByLabel("Password", { exact: true }).fill(password);
    await this.page.getByLabel("Confirm password").fill(password);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  /** Sign up with a unique code read from the server's mail log. */
  async signUpWithCode(email: string, path = "/sign-up/"): Promise<void> {
    if (path) await this.page.goto(path);
    const before = mailCount(email);
    await this.enterEmail(email);
    const codeLink = this.page.getByRole("link", { name: "Sign up with a code instead" });
    const codeField = this.page.getByLabel("Code");
    await expect(codeLink.or(codeField)).toBeVisible();
    if (await codeLink.isVisible()) await codeLink.click();
    const code = await waitForMagicCode(email, { after: before });
    await codeField.fill(code);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  /** Sign in with a password from wherever the sign-in screen is shown (keeps next_path). */
  async signInWithPassword(email: string, password: string): Promise<void> {
    await this.enterEmail(email);
    await this.page.getByLabel("Password", { exact: true }).fill(password);
    await this.page.getByRole("button", { name: "Sign in", exact: true }).click();
  }
}
