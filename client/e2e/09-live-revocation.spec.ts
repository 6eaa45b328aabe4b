/**
 * Rights taken back from open tabs (issue 9): a member demoted to guest sees their open page turn
 * read-only without a reload, and a tab whose session ended in another tab stops reconnecting and
 * goes to sign-in. The spec signs up its own two users, workspace and project through the API, so
 * it needs from 01-foundation only the instance administrator.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { PageView } from "./pages/project-pages-page.ts";
import { channelSynced, expectNotReloaded, markPage, trackLiveSockets } from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const owner = { email: "olga@revocation.test", password: "Granite-meadow-owl-37", first: "Olga", last: "Owner" };
const member = { email: "max@revocation.test", password: "Granite-meadow-owl-38", first: "Max", last: "Member" };
const MARK = "revocation: loaded once";
const LIVE = { timeout: 10_000 };

test.describe
  .serial("live revocation", () => {
    test.describe.configure({ timeout: 120_000 });

    let ownerContext: BrowserContext;
    let memberContext: BrowserContext;
    let ownerApi: WorkItemsApi;
    let memberApi: WorkItemsApi;
    let memberPage: Page;
    let f: Fixture;
    let memberId: string;

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ context: ownerContext, api: ownerApi } = await openSession(browser, origin));
      ({
        context: memberContext,
        page: memberPage,
        api: memberApi,
      } = await openSession(browser, origin, {}, trackLiveSockets));
      f = await signUpWithProject(ownerApi, owner, { slug: "revocation-e2e", name: "Vault", identifier: "VLT" });
      memberId = await addMember(ownerApi, memberApi, f, member);
    });

    test.afterAll(async () => {
      await ownerContext?.close();
      await memberContext?.close();
    });

    test("a member demoted to guest sees the open page turn read-only, without a reload", async () => {
      const created = await ownerApi.post<{ id: string }>(ownerApi.projectUrl(f, "pages/"), { name: "Runbook" });
      const view = new PageView(memberPage);
      await view.open(f.slug, f.projectId, created.id);
      await expect(view.body).toHaveAttribute("contenteditable", "true", LIVE);
      await markPage(memberPage, MARK);

      const members = await ownerApi.get<{ id: string; member: { id: string } }[]>(
        `/api/workspaces/${f.slug}/members/`,
      );
      const membership = members.find((m) => m.member.id === memberId);
      if (!membership) throw new Error("the member is listed");
      await ownerApi.patch(`/api/workspaces/${f.slug}/members/${membership.id}/`, { role: 5 });

      await expect(view.body).toHaveAttribute("contenteditable", "false", LIVE);
      await expectNotReloaded(memberPage, MARK);
    });

    test("signing out in one tab sends the other tab to sign-in instead of reconnecting for ever", async () => {
      const other = await memberContext.newPage();
      const synced = channelSynced(other, `user.${memberId}`);
      await other.goto(`/${f.slug}/projects/${f.projectId}/pages/`);
      await synced;

      // Sign out from the first tab (the HTML form post the app's menu makes).
      const { csrf_token } = await memberApi.get<{ csrf_token: string }>("/auth/get-csrf-token/");
      const response = await memberPage.request.post("/auth/sign-out/", {
        form: { csrfmiddlewaretoken: csrf_token },
        headers: { Origin: memberApi.origin },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(302);

      await expect(other).toHaveURL(/\/\?next_path=/, LIVE);
      await expect(other.getByLabel("Email")).toBeVisible(LIVE);
    });
  });
