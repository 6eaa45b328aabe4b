/**
 * Page objects for the invitation link's landing page (/workspace-invitations/), the
 * "Verify your e-mail address" panel, and the onboarding steps a new member walks through.
 */
import { expect, type Locator, type Page } from "@playwright/test";
import { mailCount, waitForMagicCode, waitForMail } from "../support/mail-log.ts";

/** The invitation link mailed to `email` (from the server log), as a same-origin path. */
export async function invitationLinkFor(email: string): Promise<string> {
  const mail = await waitForMail(email, { match: (m) => /workspace-invitations\//.test(m.text) });
  const link = /https?:\/\/\S+workspace-invitations\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no invitation link in "${mail.subject}"`);
  const url = new URL(link);
  return url.pathname + url.search;
}

export class InvitationPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async open(path: string): Promise<void> {
    await this.page.goto(path);
  }

  /** "Olga Owner invited you to join Harbour Ops". */
  headline(inviter: string, workspace: string): Locator {
    return this.page.getByRole("heading", { name: `${inviter} invited you to join ${workspace}` });
  }

  createAccountLink(): Locator {
    return this.page.getByRole("link", { name: "Create account" });
  }

  async accept(): Promise<void> {
    await this.page.getByRole("button", { name: "Accept" }).click();
  }
}

/** The "Verify your e-mail address" panel (onboarding, /invitations/, the landing page). */
export class VerifyEmailPanel {
  readonly page: Page;
  readonly region: Locator;

  constructor(page: Page) {
    this.page = page;
    this.region = page.getByRole("region", { name: "Verify your e-mail address" });
  }

  /** Ask for a code, read it from the mail log and enter it. */
  async verify(email: string): Promise<void> {
    const before = mailCount(email);
    await this.region.getByRole("button", { name: "Send me a code" }).click();
    const code = await waitForMagicCode(email, { after: before });
    await this.region.getByLabel("Verification code").fill(code);
    await this.region.getByRole("button", { name: "Verify", exact: true }).click();
    await expect(this.region).toBeHidden();
  }
}

/** The onboarding steps a person who joins an existing workspace walks through. */
export class OnboardingPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async completeProfile(firstName: string, lastName = ""): Promise<void> {
    await this.page.waitForURL((url) => url.pathname.startsWith("/onboarding"));
    await this.page.getByLabel("First name").fill(firstName);
    if (lastName) await this.page.getByLabel("Last name").fill(lastName);
    await this.page.getByRole("button", { name: "Continue" }).click();
  }
}
