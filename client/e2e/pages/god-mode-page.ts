/** Page object for the instance administrator area (first-run set-up and settings). */
import type { Page } from "@playwright/test";

export type AdminDetails = { firstName: string; lastName: string; company: string; email: string; password: string };

export class GodModePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async setUp(admin: AdminDetails): Promise<void> {
    await this.page.getByLabel("First name").fill(admin.firstName);
    await this.page.getByLabel("Last name").fill(admin.lastName);
    await this.page.getByLabel("Company name").fill(admin.company);
    await this.page.getByLabel("Email").fill(admin.email);
    await this.page.getByLabel("Password", { exact: true }).fill(admin.password);
    await this.page.getByRole("button", { name: "Create admin account" }).click();
  }
}
