/**
 * API tokens (Settings → API tokens, workspace admins): Tess opens the empty list, creates a
 * token (title, description, 30 days), copies the secret shown once from the clipboard, calls
 * the public API with it from the test (fetch against /api/v1 with X-API-Key: lists projects,
 * creates a work item), and sees the token listed with its last use; then opens the API
 * reference, and deletes the token — after which the API refuses it. The screens at phone
 * width and in the dark theme. The spec signs up its own user and workspace.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture } from "./support/work-items-api.ts";

const tess = { email: "tess@tokens.test", password: "Keyring-orchard-lamp-71", first: "Tess", last: "Tokener" };

test.describe
  .serial("api tokens", () => {
    test.describe.configure({ timeout: 90_000 });

    let context: BrowserContext;
    let page: Page;
    let f: Fixture;
    let origin: string;
    let key = "";

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      origin = baseURL ?? "http://localhost:3100";
      let api: Awaited<ReturnType<typeof openSession>>["api"];
      ({ context, page, api } = await openSession(browser, origin));
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      f = await signUpWithProject(api, tess, { slug: "tokens-e2e", name: "Keys", identifier: "KEY" });
    });

    test.afterAll(async () => {
      await context?.close();
    });

    const v1 = (path: string, init: RequestInit = {}) =>
      fetch(`${origin}/api/v1/workspaces/${f.slug}${path}`, {
        ...init,
        headers: { "X-API-Key": key, "content-type": "application/json", ...(init.headers ?? {}) },
      });

    test("an admin creates a token, copies it once, and a script uses it", async () => {
      await page.goto(`/${f.slug}/settings/`);
      await page
        .getByRole("navigation", { name: "Workspace settings" })
        .getByRole("link", { name: "API tokens" })
        .click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/settings/api-tokens/$`));
      await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
      await expect(page.getByText("No API tokens yet")).toBeVisible();
      await shoot(page, "api-tokens-empty");

      await page.getByRole("button", { name: "Add API token" }).click();
      const dialog = page.getByRole("dialog", { name: "Add API token" });
      // The title is required.
      await dialog.getByRole("button", { name: "Create token" }).click();
      await expect(dialog.getByText("Give the token a title.")).toBeVisible();
      await dialog.getByLabel("Title").fill("Nightly sync");
      await dialog.getByLabel("Description").fill("CI job that files work items");
      await expect(dialog.getByRole("combobox", { name: "Expiration" })).toContainText("30 days");
      await shoot(page, "api-tokens-create");
      await dialog.getByRole("button", { name: "Create token" }).click();

      const created = page.getByRole("dialog", { name: "API token created" });
      const secret = created.getByTestId("api-token-secret");
      await expect(secret).toHaveText(/^tideline_api_[A-Za-z0-9_-]{43}$/);
      await created.getByRole("button", { name: "Copy token" }).click();
      await expect(created.getByRole("button", { name: "Copied" })).toBeVisible();
      key = await page.evaluate(() => navigator.clipboard.readText());
      expect(key).toBe(await secret.textContent());
      await shoot(page, "api-tokens-secret");
      await created.getByRole("button", { name: "Done" }).click();
      await expect(created).toBeHidden();

      const row = page.getByTestId("api-token-row").filter({ hasText: "Nightly sync" });
      await expect(row).toContainText("CI job that files work items");
      await expect(row).toContainText("Active");
      await expect(row).toContainText("Expires");
      await expect(row.getByTestId("api-token-last-used")).toHaveText("Never used");
      // The secret is never shown again.
      await expect(page.getByText(key)).toHaveCount(0);

      // A script calls the public API with the key.
      const projects = await v1("/projects/");
      expect(projects.status).toBe(200);
      expect(projects.headers.get("x-ratelimit-limit")).toBeTruthy();
      const page1 = (await projects.json()) as { results: { id: string; identifier: string }[]; total_results: number };
      expect(page1.results.map((p) => p.identifier)).toContain("KEY");
      const made = await v1(`/projects/${f.projectId}/issues/`, {
        method: "POST",
        body: JSON.stringify({ name: "Filed by the nightly job", priority: "high" }),
      });
      expect(made.status).toBe(201);
      const item = (await made.json()) as { sequence_id: number; name: string };
      const byKey = await v1(`/issues/KEY-${item.sequence_id}/`);
      expect(((await byKey.json()) as { name: string }).name).toBe("Filed by the nightly job");
      // A cookie-less call without the key is refused.
      expect((await fetch(`${origin}/api/v1/workspaces/${f.slug}/projects/`)).status).toBe(401);

      // Listed with its last use.
      await page.reload();
      await expect(row.getByTestId("api-token-last-used")).toHaveText(/^Last used /);
      await shoot(page, "api-tokens-list");
    });

    test("the API reference opens from the screen", async () => {
      await page.goto(`/${f.slug}/settings/api-tokens/`);
      await page.getByRole("link", { name: "API reference" }).click();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/settings/api-tokens/reference/$`));
      await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Work items", level: 2 })).toBeVisible();
      const op = page.locator("summary").filter({ hasText: "Create a work item" }).first();
      await op.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("cell", { name: "name *" }).first()).toBeVisible();
      await shoot(page, "api-reference");
    });

    test("keyboard: delete with confirmation; the key stops working", async () => {
      await page.goto(`/${f.slug}/settings/api-tokens/`);
      await page.getByRole("button", { name: "Actions for Nightly sync" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("menuitem", { name: "Delete token" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete this API token?" });
      await expect(confirm).toBeVisible();
      await confirm.getByRole("button", { name: "Delete token" }).click();
      await expect(page.getByText("No API tokens yet")).toBeVisible();
      await expect.poll(async () => (await v1("/projects/")).status).toBe(401);
    });

    test("the screens at phone width and in the dark theme", async () => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/${f.slug}/settings/api-tokens/`);
      await page.getByRole("button", { name: "Add API token" }).click();
      const dialog = page.getByRole("dialog", { name: "Add API token" });
      await dialog.getByLabel("Title").fill("Phone token");
      await dialog.getByRole("combobox", { name: "Expiration" }).click();
      await page.getByRole("option", { name: "Custom date" }).click();
      await expect(dialog.getByText("Expiry date")).toBeVisible();
      await shoot(page, "api-tokens-create-phone-dark");
      await dialog.getByRole("combobox", { name: "Expiration" }).click();
      await page.getByRole("option", { name: "Never expires" }).click();
      await dialog.getByRole("button", { name: "Create token" }).click();
      await page.getByRole("dialog", { name: "API token created" }).getByRole("button", { name: "Done" }).click();
      const row = page.getByTestId("api-token-row").filter({ hasText: "Phone token" });
      await expect(row).toContainText("Never expires");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shoot(page, "api-tokens-phone-dark");
      await page.goto(`/${f.slug}/settings/api-tokens/reference/`);
      await expect(page.getByRole("heading", { name: "Work items", level: 2 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await shoot(page, "api-reference-phone-dark");
      await page.emulateMedia({ colorScheme: "light" });
    });
  });
