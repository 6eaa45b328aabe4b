/**
 * The foundation, as people use it: the first visitor sets the instance up, a new user signs
 * up, onboards, creates a workspace and a project, invites a teammate who signs up with a
 * unique code from the mail log and joins (and, a member, sees the members page read-only), and
 * an expired session returns to the same page after signing in again. One database for the whole file, so the steps run in order.
 */
import { type BrowserContext, expect, test } from "@playwright/test";
import { AuthPage } from "./pages/auth-page.ts";
import { GodModePage } from "./pages/god-mode-page.ts";
import { waitForMail } from "./support/mail-log.ts";
import { choose } from "./support/pickers.ts";

const admin = {
  firstName: "Ada",
  lastName: "Admin",
  company: "Acme Labs",
  email: "ada@acme.test",
  password: "Harbour-lantern-42",
};
const owner = { email: "olivia@acme.test", password: "Quiet-meadow-river-7", firstName: "Olivia", lastName: "Owner" };
const teammate = { email: "tom@acme.test" };
const workspace = { name: "Acme Product", slug: "acme-product" };
/** The teammate's signed-in browser state, kept from the step where they join for the next one. */
let teammateSession: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;

test.describe
  .serial("foundation", () => {
    test("the first visitor sets up the instance administrator", async ({ page }) => {
      await page.goto("/");
      await expect(page).toHaveURL(/\/god-mode\/setup\/?$/);
      await new GodModePage(page).setUp(admin);
      await expect(page).toHaveURL(/\/god-mode\/general\/?$/);
      await expect(page.getByRole("heading", { name: "General" }).first()).toBeVisible();
      const info = await page.request.get("/api/instances/");
      expect((await info.json()).instance).toMatchObject({ is_setup_done: true, instance_name: admin.company });
    });

    test("a new user signs up, onboards, creates a workspace and a project", async ({ page }) => {
      const auth = new AuthPage(page);
      await auth.signUpWithPassword(owner.email, owner.password);

      await expect(page).toHaveURL(/\/onboarding\/?/);
      // The name made from the address at sign-up is not offered as the person's display name:
      // the field starts empty and suggests the first name, which it takes when left so.
      const displayName = page.getByLabel("Display name");
      await expect(displayName).toHaveValue("");
      await page.getByLabel("First name").fill(owner.firstName);
      await expect(displayName).toHaveAttribute("placeholder", owner.firstName);
      await page.getByLabel("Last name").fill(owner.lastName);
      await page.getByRole("button", { name: "Continue" }).click();

      await page.getByLabel("Workspace name").fill(workspace.name);
      await expect(page.getByLabel("Workspace URL")).toHaveValue(workspace.slug);
      await choose(page, page.getByRole("combobox", { name: "Organization size" }), "Organization size", "2-10");
      await expect(page.getByRole("combobox", { name: "Organization size" })).toHaveText("2-10");
      // The step marker the client sends after "Create workspace" (without waiting for it) is
      // answered only once onboarding has finished and the workspace shows — as happened once on
      // a loaded machine, when that older answer put `is_onboarded: false` back and the guards
      // sent the person back to onboarding. Every step below needs the guards to let them in.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let delivered: () => void = () => {};
      const answered = new Promise<void>((resolve) => {
        delivered = resolve;
      });
      await page.route("**/api/users/me/profile/", async (route) => {
        const marker = route.request().method() === "PATCH" && route.request().postData()?.includes("workspace_create");
        if (!marker) return route.fallback();
        const response = await route.fetch();
        await held;
        await route.fulfill({ response });
        delivered();
      });
      await page.getByRole("button", { name: "Create workspace" }).click();

      await page.getByRole("button", { name: "Skip for now" }).click();
      await expect(page).toHaveURL(new RegExp(`/${workspace.slug}/?$`));
      release();
      await answered;
      await page.unroute("**/api/users/me/profile/");

      await page.getByRole("link", { name: "Projects", exact: true }).click();
      await page.getByRole("button", { name: "Create project" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Project name").fill("Website Redesign");
      await expect(dialog.getByLabel("Identifier")).toHaveValue("WR");
      await dialog.getByRole("button", { name: "Create project" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText("Website Redesign").first()).toBeVisible();
    });

    test("the owner invites a teammate, who signs up with a unique code and joins", async ({ page, browser }) => {
      await page.goto("/");
      await new AuthPage(page).signInWithPassword(owner.email, owner.password);
      await expect(page).toHaveURL(new RegExp(`/${workspace.slug}/?$`));

      await page.goto(`/${workspace.slug}/settings/members/`);
      await page.getByRole("button", { name: "Invite people" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Email").first().fill(teammate.email);
      await dialog.getByRole("button", { name: "Send invitations" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(teammate.email)).toBeVisible();

      const invitation = await waitForMail(teammate.email);
      const link = /https?:\/\/\S+workspace-invitations\/\S+/.exec(invitation.text)?.[0];
      expect(link, "the invitation mail carries a link").toBeTruthy();

      // The teammate opens the link in their own browser: not signed in yet, the landing names
      // the workspace and leads to sign-up with the invited address.
      const context = await browser.newContext();
      const other = await context.newPage();
      await other.goto(new URL(link as string).pathname + new URL(link as string).search);
      await expect(
        other.getByRole("heading", { name: `Olivia Owner invited you to join ${workspace.name}` }),
      ).toBeVisible();
      await other.getByRole("link", { name: "Create account" }).click();
      await expect(other).toHaveURL(/\/sign-up\/\?.*next_path=/);
      await new AuthPage(other).signUpWithCode(teammate.email, "");
      await expect(other).toHaveURL(/workspace-invitations/);
      await other.getByRole("button", { name: "Accept" }).click();

      // Accepted: the teammate finishes onboarding (profile, then the workspace they joined).
      await other.waitForURL((url) => url.pathname.startsWith("/onboarding"));
      await other.getByLabel("First name").fill("Tom");
      await other.getByRole("button", { name: "Continue" }).click();
      await expect(other.getByText(workspace.name, { exact: true })).toBeVisible();
      await other.getByRole("button", { name: "Continue" }).click();
      await other.waitForURL((url) => url.pathname === `/${workspace.slug}/`);
      teammateSession = await context.storageState();
      await context.close();

      await page.reload();
      await expect(page.getByText("Tom").first()).toBeVisible();
    });

    test("members settings: a member reads the list; only an admin changes roles or removes people", async ({
      page,
      browser,
    }) => {
      // Tom joined as a member: the page lists everyone read-only and says why (the server
      // refuses members' role changes and removals, as the reference does).
      const context = await browser.newContext({ storageState: teammateSession });
      const other = await context.newPage();
      await other.goto(`/${workspace.slug}/settings/members/`);
      await expect(other.getByRole("link", { name: "Olivia Owner" })).toBeVisible();
      await expect(other.getByText("Only workspace admins can change members' roles or remove members.")).toBeVisible();
      await expect(other.getByRole("combobox", { name: "Role of Olivia Owner" })).toHaveCount(0);
      await expect(other.getByRole("button", { name: "Actions for Olivia Owner" })).toHaveCount(0);
      await context.close();

      // The owner, an admin, has the role picker and the remove action for Tom (none for herself).
      await page.goto("/");
      await new AuthPage(page).signInWithPassword(owner.email, owner.password);
      await expect(page).toHaveURL(new RegExp(`/${workspace.slug}/?$`));
      await page.goto(`/${workspace.slug}/settings/members/`);
      await expect(page.getByRole("combobox", { name: "Role of Tom" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Actions for Tom" })).toBeVisible();
      await expect(page.getByRole("combobox", { name: "Role of Olivia Owner" })).toHaveCount(0);
      await expect(page.getByText("Only workspace admins can change members' roles or remove members.")).toHaveCount(0);
    });

    test("a session that expires mid-way returns to the same page after signing in again", async ({
      page,
      context,
    }) => {
      await page.goto("/");
      await new AuthPage(page).signInWithPassword(owner.email, owner.password);
      await expect(page).toHaveURL(new RegExp(`/${workspace.slug}/?$`));
      const target = `/${workspace.slug}/settings/members/`;
      await page.goto(target);
      await expect(page.getByRole("button", { name: "Invite people" })).toBeVisible();

      // The session ends while the app is open (cookie gone): the next in-app call answers 401,
      // which sends the browser to sign-in carrying the page it was on. That call is usually the
      // Projects page's, but a background one (unread notifications, a live reconnect) may win
      // the race on the members page: either way the app must come back where it was.
      await context.clearCookies({ name: "session-id" });
      const projectsPath = `/${workspace.slug}/projects/`;
      await page
        .getByRole("link", { name: "Projects", exact: true })
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      await expect(page).toHaveURL(/\/\?next_path=/);
      const nextPath = decodeURIComponent(new URL(page.url()).searchParams.get("next_path") ?? "");
      expect([projectsPath, target]).toContain(nextPath);

      await new AuthPage(page).signInWithPassword(owner.email, owner.password);
      await expect(page).toHaveURL(new RegExp(`${nextPath}$`));
      if (nextPath === target) await expect(page.getByRole("button", { name: "Invite people" })).toBeVisible();
      else await expect(page.getByText("Website Redesign").first()).toBeVisible();
    });
  });
