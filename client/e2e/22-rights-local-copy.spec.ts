/**
 * The local copy follows rights (issue 18): a member whose board is open is demoted to guest (the
 * project keeps guest_view_all_features off, so a guest sees only the items they created). Their
 * board drops everyone else's items at once, without a reload — from the screen and from the
 * IndexedDB copy — and says it is live only once it is up to date; a reload shows only what the
 * server allows. Promoted back, the items return without a reload, with the values the server
 * has now (a priority changed while they were a guest). A board whose catch-up fails says it is
 * not up to date instead of live. Removed from the project, the board says the project is not
 * available and the project's copy is gone.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { dropLiveSockets, expectNotReloaded, markPage, trackLiveSockets } from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const owner = { email: "rhea@rights.test", password: "Slate-harbour-wren-52", first: "Rhea", last: "Owner" };
const member = { email: "milo@rights.test", password: "Slate-harbour-wren-53", first: "Milo", last: "Member" };
const LIVE = { timeout: 15_000 };

/** What the page's local database holds for a project: the names of its stored items and its sync record. */
function storedCopy(page: Page, projectId: string): Promise<{ names: string[]; record: unknown }> {
  return page.evaluate(async (id) => {
    const name = (await indexedDB.databases()).find((db) => db.name?.startsWith("tideline:local:"))?.name;
    if (!name) return { names: [], record: undefined };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const opening = indexedDB.open(name);
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    try {
      const tx = db.transaction(["issues", "options"]);
      const rows = await request(tx.objectStore("issues").index("project_id").getAll(id));
      const record = await request(tx.objectStore("options").get(`sync:${id}`));
      return {
        names: (rows as { name: string }[]).map((r) => r.name).sort(),
        record: (record as { value?: unknown } | undefined)?.value,
      };
    } finally {
      db.close();
    }
  }, projectId);
}

test.describe
  .serial("the local copy follows rights", () => {
    test.describe.configure({ timeout: 150_000 });

    let ownerContext: BrowserContext;
    let memberContext: BrowserContext;
    let ownerApi: WorkItemsApi;
    let memberApi: WorkItemsApi;
    let page: Page;
    let board: WorkItemsPage;
    let f: Fixture;
    let memberId: string;
    const ids: Record<string, string> = {};

    const names = () => storedCopy(page, f.projectId).then((copy) => copy.names);
    /** Visible rows' names, sorted. */
    const shownNames = async () => (await board.listRows.locator(".wi-name").allTextContents()).sort();

    async function setWorkspaceRole(role: number) {
      const members = await ownerApi.get<{ id: string; member: { id: string } }[]>(
        `/api/workspaces/${f.slug}/members/`,
      );
      const row = members.find((m) => m.member.id === memberId);
      if (!row) throw new Error("the member is in the workspace");
      await ownerApi.patch(`/api/workspaces/${f.slug}/members/${row.id}/`, { role });
    }

    async function projectMembership(): Promise<string> {
      const rows = await ownerApi.get<{ id: string; member: string | { id: string } }[]>(
        ownerApi.projectUrl(f, "members/"),
      );
      const row = rows.find((m) => (typeof m.member === "string" ? m.member : m.member.id) === memberId);
      if (!row) throw new Error("the member is in the project");
      return row.id;
    }

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ context: ownerContext, api: ownerApi } = await openSession(browser, origin));
      ({ context: memberContext, page, api: memberApi } = await openSession(browser, origin, {}, trackLiveSockets));
      f = await signUpWithProject(ownerApi, owner, { slug: "rights-e2e", name: "Ledger", identifier: "LDG" });
      memberId = await addMember(ownerApi, memberApi, f, member);
      for (const name of ["Owner's plan", "Owner's budget"]) {
        ids[name] = (await ownerApi.createWorkItem(f, { name, priority: "low" })).id;
      }
      ids["Milo's note"] = (await memberApi.createWorkItem(f, { name: "Milo's note" })).id;
      board = new WorkItemsPage(page);
    });

    test.afterAll(async () => {
      await ownerContext?.close();
      await memberContext?.close();
    });

    test("demoted to guest: the open board drops what they may no longer see, and a reload shows only what the server allows", async () => {
      await board.open(f.slug, f.projectId);
      await expect(board.row("Owner's plan")).toBeVisible(LIVE);
      await board.expectLive("connected", LIVE.timeout);
      // The copy is complete and holds every item.
      await expect.poll(names, LIVE).toEqual(["Milo's note", "Owner's budget", "Owner's plan"]);
      await markPage(page, "rights: loaded once");

      await setWorkspaceRole(5);

      // At once, without a reload: only the guest's own item, on the screen and in the copy.
      await expect(board.row("Owner's plan")).toBeHidden(LIVE);
      await expect(board.row("Owner's budget")).toBeHidden();
      await expect(board.row("Milo's note")).toBeVisible();
      await expect.poll(names, LIVE).toEqual(["Milo's note"]);
      // Up to date with what they may see: live, honestly.
      await board.expectLive("connected", LIVE.timeout);
      await expectNotReloaded(page, "rights: loaded once");

      // Meanwhile the owner changes an item the guest can't see, then the guest's own (which they see).
      await ownerApi.updateWorkItem(f, ids["Owner's plan"] as string, { priority: "urgent" });
      await ownerApi.updateWorkItem(f, ids["Milo's note"] as string, { name: "Milo's note, edited" });
      await expect(board.row("Milo's note, edited")).toBeVisible(LIVE);

      await page.reload();
      await expect(board.row("Milo's note, edited")).toBeVisible(LIVE);
      await board.expectLive("connected", LIVE.timeout);
      expect(await shownNames()).toEqual(["Milo's note, edited"]);
      expect(await names()).toEqual(["Milo's note, edited"]);
      await shoot(page, "rights-guest-board", "rights-");
    });

    test("promoted back: the items return without a reload, with the server's values", async () => {
      await markPage(page, "rights: guest board");
      await setWorkspaceRole(15);
      await ownerApi.patch(ownerApi.projectUrl(f, `members/${await projectMembership()}/`), { role: 15 });

      await expect(board.row("Owner's plan")).toBeVisible(LIVE);
      await expect(board.row("Owner's budget")).toBeVisible();
      // The priority changed while they could not see the item: the server's value, not a stale one.
      await expect(board.row("Owner's plan").getByRole("button", { name: "Priority: Urgent" })).toBeVisible(LIVE);
      await board.expectLive("connected", LIVE.timeout);
      await expectNotReloaded(page, "rights: guest board");
      await expect.poll(names, LIVE).toEqual(["Milo's note, edited", "Owner's budget", "Owner's plan"]);

      await page.reload();
      await expect(board.row("Owner's plan").getByRole("button", { name: "Priority: Urgent" })).toBeVisible(LIVE);
      await board.expectLive("connected", LIVE.timeout);
    });

    test("a board whose catch-up fails says it is not up to date, and is live again once it catches up", async () => {
      await board.expectLive("connected", LIVE.timeout);
      await page.route(`**/projects/${f.projectId}/v2/issues/**`, (route) => route.abort("failed"));
      // The connection drops; a change made meanwhile never reaches the page as an event.
      await memberContext.setOffline(true);
      await dropLiveSockets(page);
      await ownerApi.updateWorkItem(f, ids["Owner's budget"] as string, { name: "Owner's budget, missed" });
      await memberContext.setOffline(false);
      // Connected again, but the catch-up fails: the board says so instead of claiming to be live.
      await expect(board.liveStatus).toHaveAccessibleName("Live updates: not up to date", LIVE);
      await expect(board.row("Owner's budget")).toBeVisible();
      for (const [width, height, name] of [
        [1440, 900, "wide"],
        [390, 844, "phone"],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await shoot(page, `rights-not-up-to-date-${name}-${scheme}`, "rights-");
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.unroute(`**/projects/${f.projectId}/v2/issues/**`);
      // Tried again on its own: the missed change arrives and the board is live.
      await expect(board.row("Owner's budget, missed")).toBeVisible({ timeout: 45_000 });
      await board.expectLive("connected", LIVE.timeout);
    });

    test("removed from the project: the board says it is not available and the project's copy is gone", async () => {
      await expect.poll(names, LIVE).toContain("Owner's plan");
      await markPage(page, "rights: before removal");
      await ownerApi.delete(ownerApi.projectUrl(f, `members/${await projectMembership()}/`));

      await expect(page.getByRole("heading", { name: /Project not found|not a member/i })).toBeVisible(LIVE);
      await expect(board.row("Owner's plan")).toBeHidden();
      await expect(board.liveStatus).toBeHidden();
      await expect.poll(() => storedCopy(page, f.projectId), LIVE).toEqual({ names: [], record: undefined });
      await expectNotReloaded(page, "rights: before removal");

      await page.reload();
      await expect(page.getByRole("heading", { name: /Project not found|not a member/i })).toBeVisible(LIVE);
      await expect(board.row("Owner's plan")).toBeHidden();
    });
  });
