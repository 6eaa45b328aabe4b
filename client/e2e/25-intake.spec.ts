/**
 * Intake (a project's queue of requests): the admin turns Intake on in the project's features and
 * the sidebar links it; a guest, in a browser of their own (a phone), submits a request; the
 * admin's open intake screen shows it without a reload and the sidebar's count moves; accepted,
 * it is a work item of the project. Another request is snoozed to a future day — it stays under
 * Open, marked snoozed (product-domain §4: Open shows pending and snoozed) — and unsnoozing makes
 * it pending again; declined and duplicate requests move to Closed. The admin's edit of a request
 * reaches its submitter's notifications marked Intake, and the entry opens the request. Pictures of the screen and
 * the create modal, wide and phone, light and dark. The spec signs up its own users, workspace
 * and project through the API.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { IntakePage } from "./pages/intake-page.ts";
import { localDay } from "./support/dates.ts";
import { expectNotReloaded, markPage, trackLiveSockets } from "./support/live-socket.ts";
import { openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const irene = { email: "irene@intake.test", password: "Cobalt-river-heron-64", first: "Irene", last: "Admin" };
const gus = { email: "gus@intake.test", password: "Maple-window-otter-27", first: "Gus", last: "Guest" };
const LIVE = { timeout: 10_000 };
const MARK = "intake: loaded once";

test.describe
  .serial("intake", () => {
    test.describe.configure({ timeout: 120_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let pageA: Page;
    let pageB: Page;
    let apiA: WorkItemsApi;
    let apiB: WorkItemsApi;
    let a: IntakePage;
    let b: IntakePage;
    let f: Fixture;

    const submitAsGuest = (name: string) =>
      apiB.post(apiB.projectUrl(f, "intake-issues/"), {
        source: "IN_APP",
        issue: { name, description_html: `<p>${name}: details</p>`, priority: "medium" },
      });

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({
        context: contextA,
        page: pageA,
        api: apiA,
      } = await openSession(browser, origin, { viewport: { width: 1280, height: 800 } }, trackLiveSockets));
      ({
        context: contextB,
        page: pageB,
        api: apiB,
      } = await openSession(browser, origin, { viewport: { width: 390, height: 844 }, hasTouch: true }));
      f = await signUpWithProject(apiA, irene, { slug: "intake-e2e", name: "Support", identifier: "SUP" });
      // Gus is a guest of the workspace and of the project.
      await apiB.signUp(gus.email, gus.password, gus.first, gus.last);
      await apiA.post(`/api/workspaces/${f.slug}/invitations/`, { emails: [{ email: gus.email, role: 5 }] });
      await apiB.acceptInvitations();
      const gusId = (await apiB.me()).id;
      await apiA.post(apiA.projectUrl(f, "members/"), { members: [{ member_id: gusId, role: 5 }] });
      a = new IntakePage(pageA);
      b = new IntakePage(pageB);
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("the admin turns Intake on: off by default, then linked in the sidebar with an empty Open tab", async () => {
      await pageA.goto(`/${f.slug}/projects/${f.projectId}/settings/features/`);
      const intakeSwitch = pageA.getByRole("switch", { name: "Intake" });
      await expect(intakeSwitch).not.toBeChecked();
      await expect(a.navLink).toHaveCount(0);
      await intakeSwitch.click();
      await expect(intakeSwitch).toBeChecked();
      await expect(a.navLink).toBeVisible();
      await a.navLink.click();
      await expect(pageA).toHaveURL(new RegExp(`/projects/${f.projectId}/intake/$`));
      await expect(a.tab("Open")).toHaveAttribute("aria-selected", "true");
      await expect(a.list.getByText("No open requests")).toBeVisible();
      await expect(a.list.getByRole("button", { name: "Create request" })).toBeVisible();
      await expect(a.navCount).toHaveCount(0);
      await markPage(pageA, MARK);
    });

    test("a guest submits a request from their phone; the admin's open screen shows it live, with the count", async () => {
      await b.goto(f.slug, f.projectId);
      await expect(b.list.getByText("You see the requests you submitted.")).toBeVisible();
      await expect(b.list.getByText("No open requests")).toBeVisible();
      await b.list.getByRole("button", { name: "Create request" }).click();
      await b.submit("Export to CSV is broken", "The download is empty since Monday.", "High");
      // The guest lands on their request (full-screen on a phone), then goes back to the list.
      await expect(b.detail).toBeVisible();
      await expect(b.status).toHaveText("Pending");
      await expect(b.detail.getByRole("toolbar", { name: "Triage" })).toHaveCount(0);
      await b.detail.getByRole("button", { name: "Back to requests" }).click();
      await expect(b.row("Export to CSV is broken")).toBeVisible();

      await expect(a.row("Export to CSV is broken")).toBeVisible(LIVE);
      await expect(a.row("Export to CSV is broken")).toContainText("High");
      await expect(a.navCount).toHaveText(/1/, LIVE);
      await expectNotReloaded(pageA, MARK);
    });

    test("the admin's edit of a request reaches its submitter's notifications marked Intake, and opens the request", async () => {
      const requests = await apiA.get<{ results: { id: string }[] }>(apiA.projectUrl(f, "intake-issues/"));
      const request = requests.results.find((r) => JSON.stringify(r).includes("Export to CSV is broken"));
      expect(request, "the guest's request is listed").toBeTruthy();
      await apiA.patch(apiA.projectUrl(f, `intake-issues/${request?.id}/`), { issue: { priority: "urgent" } });

      await pageB.goto(`/${f.slug}/notifications/`);
      const entry = pageB.locator(".notif-row").filter({ hasText: "Export to CSV is broken" });
      await expect(entry.getByText("Intake", { exact: true })).toBeVisible(LIVE);
      await entry.locator(".notif-main").click();
      await expect(pageB).toHaveURL(new RegExp(`/projects/${f.projectId}/intake/\\?request=${request?.id}$`));
      await expect(b.detail).toBeVisible();
      await expect(b.status).toHaveText("Pending");
      // Back to the list, where the next test watches the request leave.
      await b.goto(f.slug, f.projectId);
      await expect(b.row("Export to CSV is broken")).toBeVisible();
    });

    test("accepted, the request leaves Open and is a work item of the project", async () => {
      await a.open("Export to CSV is broken");
      await expect(a.detail.getByRole("textbox", { name: "Description" })).toContainText("The download is empty");
      await a.action("Accept").click();
      await expect(a.status).toHaveText("Accepted");
      await expect(a.detail.getByRole("link", { name: "Open work item" })).toBeVisible();
      await expect(a.row("Export to CSV is broken")).toHaveCount(0);
      await expect(a.navCount).toHaveCount(0, LIVE);
      // The guest's list follows too (their own request, on their own channel).
      await expect(b.row("Export to CSV is broken")).toHaveCount(0, LIVE);

      await a.tab("Closed").click();
      await expect(a.row("Export to CSV is broken")).toContainText("Accepted");
      await a.tab("Open").click();

      await pageA.goto(`/${f.slug}/projects/${f.projectId}/issues/`);
      await expect(pageA.getByText("Export to CSV is broken").first()).toBeVisible();
      expect((await apiA.workItems(f)).map((i) => i.name)).toContain("Export to CSV is broken");
    });

    test("snoozed to a future day it stays under Open, marked snoozed; unsnoozed it is pending again", async () => {
      await submitAsGuest("Dark mode for the portal");
      await a.goto(f.slug, f.projectId);
      await a.open("Dark mode for the portal");
      await a.snoozeUntil(localDay(3));
      await expect(a.status).toHaveText("Snoozed");
      await expect(a.detail.getByText(/Snoozed until/)).toBeVisible();
      await expect(a.row("Dark mode for the portal")).toContainText("Snoozed");
      await expect(a.navCount).toHaveCount(0, LIVE);
      await a.tab("Closed").click();
      await expect(a.row("Dark mode for the portal")).toHaveCount(0);
      await a.tab("Open").click();
      await expect(a.row("Dark mode for the portal")).toContainText("Snoozed");

      await a.open("Dark mode for the portal");
      await a.action("Unsnooze").click();
      await expect(a.status).toHaveText("Pending");
      await expect(a.row("Dark mode for the portal")).toContainText("Pending");
      await expect(a.navCount).toHaveText(/1/, LIVE);
    });

    test("declined and duplicate requests move to Closed", async () => {
      await a.action("Decline").click();
      await expect(a.status).toHaveText("Declined");
      await expect(a.row("Dark mode for the portal")).toHaveCount(0);

      await submitAsGuest("CSV export gives an empty file");
      await expect(a.row("CSV export gives an empty file")).toBeVisible(LIVE);
      await a.open("CSV export gives an empty file");
      await a.action("Mark as duplicate").click();
      const picker = pageA.getByRole("dialog", { name: "Mark as duplicate" });
      await picker.getByRole("textbox", { name: "Work item this request duplicates" }).fill("Export");
      await picker.getByRole("option", { name: /Export to CSV is broken/ }).click();
      await expect(picker).toBeHidden();
      await expect(a.status).toHaveText("Duplicate");
      await expect(a.detail.getByRole("link", { name: /Duplicate of SUP-1/ })).toBeVisible();
      await expect(a.row("CSV export gives an empty file")).toHaveCount(0);
      await expect(a.list.getByText("No open requests")).toBeVisible();

      await a.tab("Closed").click();
      await expect(a.row("Dark mode for the portal")).toContainText("Declined");
      await expect(a.row("CSV export gives an empty file")).toContainText("Duplicate");
      await expect(a.rows).toHaveCount(3);
    });

    test("pictures: the screen (list and request) and the create modal, wide and phone, light and dark", async () => {
      await submitAsGuest("Invoices show the wrong currency");
      const open = await submitAsGuest("Add a keyboard shortcut for search");
      for (const [width, height, size] of [
        [1280, 800, "desktop"],
        [390, 844, "phone"],
      ] as const) {
        await pageA.setViewportSize({ width, height });
        for (const scheme of ["light", "dark"] as const) {
          await pageA.emulateMedia({ colorScheme: scheme });
          await a.goto(f.slug, f.projectId);
          await expect(a.rows).toHaveCount(2);
          await shoot(pageA, `list-${size}-${scheme}`, "intake-");
          await pageA.goto(`/${f.slug}/projects/${f.projectId}/intake/?request=${(open as { id: string }).id}`);
          await expect(a.detail).toBeVisible();
          await expect(a.detail.getByRole("textbox", { name: "Description" })).toContainText("details");
          await shoot(pageA, `detail-${size}-${scheme}`, "intake-");
          if (size === "phone") await a.detail.getByRole("button", { name: "Back to requests" }).click();
          await pageA.getByRole("button", { name: "Create request" }).first().click();
          await expect(a.createModal).toBeVisible();
          await shoot(pageA, `create-${size}-${scheme}`, "intake-");
          await pageA.keyboard.press("Escape");
          await expect(a.createModal).toBeHidden();
        }
      }
      await pageA.emulateMedia({ colorScheme: "light" });
      await pageA.setViewportSize({ width: 1280, height: 800 });
    });
    test("the keyboard walks the list; a deleted request goes, and its link says it is gone", async () => {
      await a.goto(f.slug, f.projectId);
      await expect(a.rows).toHaveCount(2);
      await a.rows.first().getByRole("button").focus();
      await pageA.keyboard.press("ArrowDown");
      await pageA.keyboard.press("Enter");
      await expect(a.detail.getByRole("textbox", { name: "Title" })).toHaveValue("Invoices show the wrong currency");
      const url = pageA.url();
      await a.action("Delete").click();
      const confirm = pageA.getByRole("dialog", { name: "Delete this request?" });
      // The row goes at once; the server's answer comes after. Leaving the page before it would
      // cancel the DELETE (a loaded machine did, and the request was still there).
      const deleted = pageA.waitForResponse(
        (r) => r.request().method() === "DELETE" && r.url().includes("/intake-issues/"),
      );
      await confirm.getByRole("button", { name: "Delete" }).click();
      await expect(confirm).toBeHidden();
      await expect(a.row("Invoices show the wrong currency")).toHaveCount(0);
      await expect(a.rows).toHaveCount(1);
      expect((await deleted).status()).toBe(204);
      await pageA.goto(url);
      await expect(pageA.getByText("This request doesn’t exist or you can’t see it.")).toBeVisible();
    });
  });
