/**
 * Pages, as two members of one project use them: create a page from the list, watch its title
 * save itself, write in its body and find it after a reload, search and favorite it, lock it
 * (read-only for everyone), archive and restore it, co-edit it live — each member sees the
 * other's words and the other's named caret — and nest a sub-page under it. The spec signs up its own two users, workspace and
 * project through the API, so it needs from 01-foundation only the instance administrator.
 * The steps build on each other: one page per member for the whole file.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { PagesListPage, PageView } from "./pages/project-pages-page.ts";
import { signUpWithProject } from "./support/setup.ts";
import { type Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const owner = { email: "paula@pages.test", password: "Copper-harbour-kite-41", first: "Paula", last: "Pages" };
const teammate = { email: "theo@pages.test", password: "Copper-harbour-kite-42", first: "Theo", last: "Teammate" };

type Me = { id: string; display_name: string; first_name: string; last_name: string };
type PageJson = { id: string; name: string; is_locked: boolean; archived_at: string | null; description_html: string };

/** The name the editor puts on a person's caret. */
const caretName = (me: Me) => me.display_name || `${me.first_name} ${me.last_name}`.trim();

test.describe
  .serial("pages", () => {
    let ownerContext: BrowserContext;
    let teammateContext: BrowserContext;
    let page: Page;
    let other: Page;
    let api: WorkItemsApi;
    let f: Fixture;
    let ownerMe: Me;
    let teammateMe: Me;
    let pageId = "";

    const pageUrl = (id: string) => api.projectUrl(f, `pages/${id}/`);

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ownerContext = await browser.newContext({ baseURL: origin });
      page = await ownerContext.newPage();
      api = new WorkItemsApi(page, origin);
      f = await signUpWithProject(api, owner, { slug: "pages-e2e", name: "Handbook", identifier: "HB" });
      ownerMe = await api.get<Me>("/api/users/me/");
      await api.post(`/api/workspaces/${f.slug}/invitations/`, { emails: [{ email: teammate.email, role: 15 }] });

      // The teammate: their own browser context, signed up, invitation accepted, added to the project.
      teammateContext = await browser.newContext({ baseURL: origin });
      other = await teammateContext.newPage();
      const otherApi = new WorkItemsApi(other, origin);
      await otherApi.signUp(teammate.email, teammate.password, teammate.first, teammate.last);
      const invitations = await otherApi.get<{ id: string }[]>("/api/users/me/workspaces/invitations/");
      await otherApi.post("/api/users/me/workspaces/invitations/", { invitations: invitations.map((i) => i.id) });
      teammateMe = await otherApi.get<Me>("/api/users/me/");
      await api.post(api.projectUrl(f, "members/"), { members: [{ member_id: teammateMe.id, role: 15 }] });
    });

    test.afterAll(async () => {
      await teammateContext?.close();
      await ownerContext?.close();
    });

    test("creates a page from the list, and its title saves itself", async () => {
      const list = new PagesListPage(page);
      await list.open(f.slug, f.projectId);
      await expect(page.getByText("No public pages yet")).toBeVisible();

      const view = await list.create("Onboarding guide");
      pageId = view.id();
      await view.rename("Onboarding guide for new hires");
      await expect
        .poll(async () => (await api.get<PageJson>(pageUrl(pageId))).name)
        .toBe("Onboarding guide for new hires");
      await expect(page.locator(".page-header")).toContainText("Onboarding guide for new hires");
    });

    test("types in the body, and a reload shows it", async () => {
      const view = new PageView(page);
      await view.open(f.slug, f.projectId, pageId);
      await view.typeInBody("Welcome aboard! Start with the setup checklist.");
      await expect
        .poll(async () => (await api.get<PageJson>(pageUrl(pageId))).description_html, { timeout: 15_000 })
        .toContain("Welcome aboard! Start with the setup checklist.");

      await page.reload();
      await expect(view.title).toHaveValue("Onboarding guide for new hires");
      await expect(view.body).toContainText("Welcome aboard! Start with the setup checklist.");
    });

    test("finds pages by name, and keeps favorites at hand", async () => {
      await api.post(api.projectUrl(f, "pages/"), { name: "Holiday calendar" });
      const list = new PagesListPage(page);
      await list.open(f.slug, f.projectId);
      await expect(list.row("Holiday calendar")).toBeVisible();

      await list.search("onboarding");
      await expect(list.row("Onboarding guide for new hires")).toBeVisible();
      await expect(list.row("Holiday calendar")).toBeHidden();
      await list.search("");

      await list.row("Holiday calendar").getByRole("button", { name: "Add Holiday calendar to favorites" }).click();
      // The list's filter (the sidebar's Favorites section, now showing the page, has a toggle of that name too).
      const favoritesFilter = page.getByRole("main").getByRole("button", { name: "Favorites", exact: true });
      await favoritesFilter.click();
      await expect(list.row("Holiday calendar")).toBeVisible();
      await expect(list.row("Onboarding guide for new hires")).toBeHidden();
      await favoritesFilter.click();
      await expect(list.row("Onboarding guide for new hires")).toBeVisible();
    });

    test("locking makes the page read-only for its owner and the teammate", async () => {
      const mine = new PageView(page);
      const theirs = new PageView(other);
      await mine.open(f.slug, f.projectId, pageId);
      await theirs.open(f.slug, f.projectId, pageId);
      await expect(theirs.body).toHaveAttribute("contenteditable", "true");

      await mine.headerButton("Lock page").click();
      await expect(mine.banner).toContainText("This page is locked");
      await expect(mine.body).toHaveAttribute("contenteditable", "false");
      await expect(mine.title).toHaveAttribute("readonly", "");
      // The teammate's open page follows the lock live.
      await expect(theirs.banner).toContainText("This page is locked");
      await expect(theirs.body).toHaveAttribute("contenteditable", "false");
      await expect.poll(async () => (await api.get<PageJson>(pageUrl(pageId))).is_locked).toBe(true);

      await mine.headerButton("Unlock page").click();
      await expect(mine.banner).toBeHidden();
      await expect(mine.body).toHaveAttribute("contenteditable", "true");
      await expect(theirs.body).toHaveAttribute("contenteditable", "true");
    });

    test("archives the page and restores it from the Archived tab", async () => {
      const view = new PageView(page);
      await view.open(f.slug, f.projectId, pageId);
      await view.headerButton("Archive").click();
      await expect(view.banner).toContainText("This page is archived");
      await expect(view.body).toHaveAttribute("contenteditable", "false");

      const list = new PagesListPage(page);
      await list.open(f.slug, f.projectId, "archived");
      await expect(list.row("Onboarding guide for new hires")).toBeVisible();
      await list.rowAction("Onboarding guide for new hires", "Restore");
      await expect(list.row("Onboarding guide for new hires")).toBeHidden();
      await list.tab("Public").click();
      await expect(list.row("Onboarding guide for new hires")).toBeVisible();
      await expect.poll(async () => (await api.get<PageJson>(pageUrl(pageId))).archived_at).toBeNull();

      await view.open(f.slug, f.projectId, pageId);
      await expect(view.banner).toBeHidden();
      await expect(view.body).toHaveAttribute("contenteditable", "true");
    });

    test("two members co-edit the page, each seeing the other's text and caret", async () => {
      const mine = new PageView(page);
      const theirs = new PageView(other);
      await mine.open(f.slug, f.projectId, pageId);
      await theirs.open(f.slug, f.projectId, pageId);

      await mine.typeInBody(" Paula wrote this.");
      await expect(theirs.body).toContainText("Paula wrote this.");

      await theirs.typeInBody(" Theo added that.");
      await expect(mine.body).toContainText("Theo added that.");
      await expect(theirs.body).toContainText("Paula wrote this.");

      await expect(mine.caretLabel(caretName(teammateMe))).toBeVisible();
      await expect(theirs.caretLabel(caretName(ownerMe))).toBeVisible();

      await expect
        .poll(async () => (await api.get<PageJson>(pageUrl(pageId))).description_html, { timeout: 15_000 })
        .toContain("Theo added that.");
    });

    test("nests a sub-page under its parent, in the list and in the breadcrumbs", async () => {
      const parent = "Onboarding guide for new hires";
      const list = new PagesListPage(page);
      await list.open(f.slug, f.projectId);
      const child = await list.createSubPage(parent, "First-week checklist");
      const crumb = page.locator(".page-header").getByRole("link", { name: parent, exact: true });
      await expect(crumb).toBeVisible();
      await crumb.click();
      await expect(child.title).toHaveValue(parent);

      // Creating it opened the parent in the list; the chevron folds it away again.
      await list.open(f.slug, f.projectId);
      await expect(list.row("First-week checklist")).toBeVisible();
      await expect(list.subPagesToggle(parent)).toHaveAttribute("aria-expanded", "true");
      await list.subPagesToggle(parent).click();
      await expect(list.row("First-week checklist")).toBeHidden();
      // A search lists matches flat, whatever is folded.
      await list.search("checklist");
      await expect(list.row("First-week checklist")).toBeVisible();
      await list.search("");

      // The teammate's list (live) has the parent folded, with its sub-page behind the chevron.
      const theirs = new PagesListPage(other);
      await theirs.open(f.slug, f.projectId);
      await expect(theirs.subPagesToggle(parent)).toHaveAttribute("aria-expanded", "false");
      await expect(theirs.row("First-week checklist")).toBeHidden();
      await theirs.subPagesToggle(parent).click();
      await expect(theirs.row("First-week checklist")).toBeVisible();
    });
  });
