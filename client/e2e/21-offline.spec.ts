/**
 * Local first (issue 12): a second visit paints member A's board from the local copy and the kept
 * start-up answers while every API call is still unanswered, then catches up with what member B
 * changed meanwhile. Offline: member A opens the board, loses the network, reloads — the app shell comes
 * from the service worker and the board from the local copy — moves a card and renames an item
 * while offline (each marked "waiting to sync", a chip counts them, the server has neither), and
 * comes back online: both changes reach the server once, in order, and show in member B's browser;
 * B's change made while A was offline shows on A's board after the reconnection.
 */
import { type Browser, type BrowserContext, expect, type Page, type Route, test } from "@playwright/test";
import { WorkItemPage } from "./pages/work-item-page.ts";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import { dropLiveSockets, trackLiveSockets } from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import { shoot } from "./support/shots.ts";
import type { Fixture, WorkItemsApi } from "./support/work-items-api.ts";

const alice = { email: "alice@offline.test", password: "Quiet-harbour-ferry-31", first: "Alice", last: "Away" };
const bob = { email: "bob@offline.test", password: "Copper-meadow-kite-64", first: "Bob", last: "Online" };
const LIVE = { timeout: 15_000 };

/** A value of the page's local database's options store (lib/local-db), or undefined. */
function localOption(page: Page, key: string): Promise<unknown> {
  return page.evaluate(async (optionKey) => {
    const name = (await indexedDB.databases()).find((db) => db.name?.startsWith("tideline:local:"))?.name;
    if (!name) return undefined;
    return new Promise<unknown>((resolve) => {
      const opening = indexedDB.open(name);
      opening.onerror = () => resolve(undefined);
      opening.onsuccess = () => {
        const db = opening.result;
        const read = db.transaction("options").objectStore("options").get(optionKey);
        read.onsuccess = () => {
          resolve((read.result as { value?: unknown } | undefined)?.value);
          db.close();
        };
        read.onerror = () => {
          resolve(undefined);
          db.close();
        };
      };
    });
  }, key);
}

/** Whether the page's local database holds a complete copy of the project. */
async function localCopyComplete(page: Page, projectId: string): Promise<boolean> {
  return Boolean(((await localOption(page, `sync:${projectId}`)) as { complete?: boolean } | undefined)?.complete);
}

/** Whether the page's local database holds `list` of `projectId` (stored by a load or the workspace sync). */
async function storedList(page: Page, list: string, projectId: string): Promise<boolean> {
  return Boolean(await localOption(page, `meta:${list}:${projectId}`));
}

test.describe
  .serial("offline", () => {
    test.describe.configure({ timeout: 120_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let pageA: Page;
    let pageB: Page;
    let apiA: WorkItemsApi;
    let apiB: WorkItemsApi;
    let f: Fixture;
    let boardA: WorkItemsPage;
    let boardB: WorkItemsPage;

    const stateName = (group: string) => {
      const found = f.states.find((s) => s.group === group);
      if (!found) throw new Error(`the project has a ${group} state`);
      return found.name;
    };
    const stateId = (group: string) => f.states.find((s) => s.group === group)?.id;

    /** PATCHes and POSTs of work items that A's page sends (none may leave while offline). */
    const sent: string[] = [];

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      // The app's service worker is what lets it start offline: these contexts have it (the
      // other specs run without, playwright.config.ts).
      const a = await openSession(browser, origin, { serviceWorkers: "allow" }, trackLiveSockets);
      ({ context: contextA, page: pageA, api: apiA } = a);
      const b = await openSession(browser, origin, { serviceWorkers: "allow" });
      ({ context: contextB, page: pageB, api: apiB } = b);
      f = await signUpWithProject(apiA, alice, { slug: "offline-e2e", name: "Offline Board", identifier: "OB" });
      await addMember(apiA, apiB, f, bob);
      for (const name of ["Move me offline", "Rename me offline", "Bob changes me"]) {
        await apiA.createWorkItem(f, { name, state_id: stateId("backlog") });
      }
      boardA = new WorkItemsPage(pageA);
      boardB = new WorkItemsPage(pageB);
      pageA.on("request", (request) => {
        if (["PATCH", "POST"].includes(request.method()) && /\/issues\//.test(request.url())) {
          sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
        }
      });
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("a second visit paints the board before any API answer, then catches up", async () => {
      await boardA.open(f.slug, f.projectId);
      await boardA.useLayout("Kanban");
      await expect(boardA.card("Move me offline")).toBeVisible();
      // The local copy is complete once the first sync's last page is stored.
      await expect.poll(() => localCopyComplete(pageA, f.projectId), LIVE).toBe(true);

      // Every API call of the reload is held: the board must come from the kept start-up answers
      // and the local database alone.
      const held: Route[] = [];
      let holding = true;
      await pageA.route("**/api/**", (route) => (holding ? held.push(route) : route.continue()));
      await apiB.createWorkItem(f, { name: "Made while A was loading", state_id: stateId("backlog") });
      // The project is renamed meanwhile: A's kept answer still has the old name.
      await apiA.patch(apiA.projectUrl(f, ""), { name: "Offline Board Renamed" });
      await pageA.reload();
      await expect(boardA.card("Move me offline")).toBeVisible(LIVE);
      await expect(boardA.card("Rename me offline")).toBeVisible();
      // Painted while every call was unanswered: "who am I" is asked at once; the projects list
      // (which says A is a member) is checked once the board has painted, since the server
      // checks wait for the first paint. Both are still held.
      const heldPaths = () => held.map((route) => new URL(route.request().url()).pathname);
      expect(heldPaths()).toContain("/api/users/me/");
      await expect.poll(heldPaths, LIVE).toContain(`/api/workspaces/${f.slug}/projects/`);

      // The answers come: the board catches up with what changed meanwhile (through the delta
      // call or the live channel's catch-up, whichever answers first).
      holding = false;
      for (const route of held) await route.continue();
      await pageA.unroute("**/api/**");
      await expect(boardA.card("Made while A was loading")).toBeVisible(LIVE);
      // The stale start corrects itself: the server's project answer differed and was read again.
      await expect(pageA.getByText("Offline Board Renamed").first()).toBeVisible(LIVE);
    });

    test("the board opens without network after a reload", async () => {
      await boardA.open(f.slug, f.projectId);
      await boardA.useLayout("Kanban");
      await expect(boardA.cardIn(stateName("backlog"), "Move me offline")).toBeVisible();
      // The service worker has precached the app and controls the page.
      await expect.poll(() => pageA.evaluate(() => Boolean(navigator.serviceWorker.controller)), LIVE).toBe(true);

      await contextA.setOffline(true);
      await dropLiveSockets(pageA);
      await pageA.reload();
      await expect(boardA.cardIn(stateName("backlog"), "Move me offline")).toBeVisible(LIVE);
      await expect(boardA.cardIn(stateName("backlog"), "Rename me offline")).toBeVisible();
      await boardA.expectLive("offline");
    });

    test("changes made offline wait, marked, then reach the server once and in order on reconnection", async () => {
      const before = sent.length;
      await boardA.dragCardTo("Move me offline", stateName("started"));
      const moved = boardA.cardIn(stateName("started"), "Move me offline");
      await expect(moved).toBeVisible();
      await expect(moved.getByRole("img", { name: "Waiting to sync" })).toBeVisible();

      const peek = new WorkItemPage(
        pageA,
        await boardA.openPeek(boardA.card("Rename me offline"), "Rename me offline"),
      );
      await peek.title.fill("Renamed offline");
      await peek.title.press("Enter");
      await expect(peek.root.getByText("Waiting to sync")).toBeVisible();
      await pageA.setViewportSize({ width: 1440, height: 900 });
      await shoot(pageA, "offline-peek", "offline-");
      await pageA.emulateMedia({ colorScheme: "dark" });
      await shoot(pageA, "offline-peek-dark", "offline-");
      await pageA.emulateMedia({ colorScheme: "light" });
      await pageA.keyboard.press("Escape");
      await expect(boardA.card("Renamed offline").getByRole("img", { name: "Waiting to sync" })).toBeVisible();
      // The chip in the header: its icon and count, the words its name (components/offline).
      await expect(pageA.locator("[data-outbox-count]")).toHaveAccessibleName("2 changes waiting to sync");
      await shoot(pageA, "offline-board", "offline-");
      await pageA.emulateMedia({ colorScheme: "dark" });
      await shoot(pageA, "offline-board-dark", "offline-");
      await pageA.setViewportSize({ width: 390, height: 844 });
      await shoot(pageA, "offline-board-phone-dark", "offline-");
      await pageA.emulateMedia({ colorScheme: "light" });
      await shoot(pageA, "offline-board-phone", "offline-");
      await pageA.setViewportSize({ width: 1440, height: 900 });

      // Meanwhile B changes another item; the server has none of A's changes yet.
      await apiB.updateWorkItem(f, (await apiB.byName(f, "Bob changes me")).id, { name: "Bob changed me" });
      expect((await apiB.byName(f, "Move me offline")).state_id).toBe(stateId("backlog"));
      await apiB.byName(f, "Rename me offline");
      expect(sent.length, "nothing was sent while offline").toBe(before);

      await contextA.setOffline(false);
      await expect(pageA.locator("[data-outbox-count]")).toHaveCount(0, LIVE);
      await expect(boardA.card("Renamed offline").getByRole("img", { name: "Waiting to sync" })).toBeHidden();
      expect(sent.slice(before), "sent once each, in the order they were made").toEqual([
        expect.stringMatching(/^PATCH .*\/issues\/[^/]+\/$/),
        expect.stringMatching(/^PATCH .*\/issues\/[^/]+\/$/),
      ]);
      expect((await apiB.byName(f, "Move me offline")).state_id).toBe(stateId("started"));
      await apiB.byName(f, "Renamed offline");

      // B's browser shows both; A's board shows B's change made while A was away.
      await boardB.open(f.slug, f.projectId);
      await boardB.useLayout("Kanban");
      await expect(boardB.cardIn(stateName("started"), "Move me offline")).toBeVisible(LIVE);
      await expect(boardB.card("Renamed offline")).toBeVisible();
      await expect(boardA.card("Bob changed me")).toBeVisible(LIVE);
    });

    test("the workspace sync stores a project never opened here: its cycles paint before the server answers", async () => {
      const other = await apiA.post<{ id: string }>(`/api/workspaces/${f.slug}/projects/`, {
        name: "Never Opened",
        identifier: "NO",
      });
      await apiA.post(`/api/workspaces/${f.slug}/projects/${other.id}/cycles/`, { name: "Synced ahead" });
      // A new visit of the workspace: its sync runs once the page is idle, a few seconds in. The
      // 5-second lock of an earlier visit is cleared so that this one does not depend on timing.
      await pageA.evaluate(() => {
        for (const key of Object.keys(localStorage))
          if (key.startsWith("tideline:local-db:workspace-sync:")) localStorage.removeItem(key);
      });
      await boardA.open(f.slug, f.projectId);
      await expect.poll(() => storedList(pageA, "cycles", other.id), LIVE).toBe(true);
      expect(await storedList(pageA, "states", other.id)).toBe(true);

      // The cycles call of that project is held: the list can only come from the local copy.
      const held: Route[] = [];
      await pageA.route(`**/api/workspaces/${f.slug}/projects/${other.id}/cycles/**`, (route) => held.push(route));
      await pageA.goto(`/${f.slug}/projects/${other.id}/cycles/?tab=all`);
      await expect(pageA.getByTestId("cycle-row").filter({ hasText: "Synced ahead" })).toBeVisible(LIVE);
      expect(held.length).toBeGreaterThan(0);
      await pageA.unroute(`**/api/workspaces/${f.slug}/projects/${other.id}/cycles/**`);
      for (const route of held) await route.continue().catch(() => undefined);
    });
  });

/**
 * Offline before the app's code is all on the device (no service worker yet, as on a first
 * visit): the editor's chunk can't be fetched. The create modal says so in the editor's place
 * and still creates the item; back online, the editor loads in the open modal. (Before, the
 * failed import took the whole screen to the router's error page.)
 */
test.describe("offline without the editor's code", () => {
  const carol = { email: "carol@offline.test", password: "Amber-lantern-pier-73", first: "Carol", last: "Early" };

  test("the create modal works without its editor, which loads once back online", async ({ browser, baseURL }) => {
    const origin = baseURL ?? "http://localhost:3100";
    // The default here: no service worker (playwright.config.ts), so nothing holds the chunk.
    const { context, page, api } = await openSession(browser, origin);
    try {
      const f = await signUpWithProject(api, carol, {
        slug: "offline-early-e2e",
        name: "Early Board",
        identifier: "EB",
      });
      const board = new WorkItemsPage(page);
      await board.open(f.slug, f.projectId);
      await context.setOffline(true);

      await page.getByRole("button", { name: "Add work item" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Create work item" });
      const notice = dialog.getByRole("status").filter({ hasText: "The editor isn't on this device yet" });
      await expect(notice).toBeVisible();
      await expect(dialog.getByLabel("Title")).toBeEditable();
      await shoot(page, "editor-unavailable-offline", "offline-");

      // Back online: the editor arrives in the modal that is still open.
      await context.setOffline(false);
      await expect(notice).toHaveCount(0);
      const description = dialog.getByRole("textbox", { name: "Description" });
      await expect(description).toBeVisible();
      await dialog.getByLabel("Title").fill("Written before the editor came");
      await description.click();
      await page.keyboard.type("Typed once the editor loaded.");
      await dialog.getByRole("button", { name: "Create work item" }).click();
      await expect(dialog).toBeHidden();
      await expect(board.listRow("Written before the editor came")).toBeVisible();
      const created = await api.byName(f, "Written before the editor came");
      const stored = await api.get<{ description_html: string }>(
        `/api/workspaces/${f.slug}/projects/${f.projectId}/issues/${created.id}/`,
      );
      expect(stored.description_html).toContain("Typed once the editor loaded.");
    } finally {
      await context.close();
    }
  });

  test("a screen whose code isn't here says so offline, and opens once back online", async ({ browser, baseURL }) => {
    const origin = baseURL ?? "http://localhost:3100";
    const { context, page, api } = await openSession(browser, origin);
    try {
      const dan = { email: "dan@offline.test", password: "Amber-lantern-pier-74", first: "Dan", last: "Early" };
      const f = await signUpWithProject(api, dan, {
        slug: "offline-screen-e2e",
        name: "Early Board",
        identifier: "ES",
      });
      await page.goto(`/${f.slug}/projects/`);
      await expect(page.getByRole("heading", { name: "Projects", exact: true })).toBeVisible();
      await context.setOffline(true);
      // The project's work items: a screen this tab has not loaded yet.
      await page.getByRole("link", { name: "Early Board" }).first().click();
      await expect(page.getByRole("heading", { name: "This screen isn't on this device yet" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Reload" })).toHaveCount(0);
      await shoot(page, "screen-unavailable-offline", "offline-");
      // The notice takes the screen's place only: the sidebar stays and still leads to the
      // screens this device has, offline.
      const sidebar = page.getByRole("navigation", { name: "Workspace navigation" });
      await sidebar.getByRole("link", { name: "Projects", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Projects", exact: true })).toBeVisible();
      await page.getByRole("link", { name: "Early Board" }).first().click();
      await expect(page.getByRole("heading", { name: "This screen isn't on this device yet" })).toBeVisible();
      // On a phone the sidebar is a drawer opened from the screen's header, which is what failed:
      // the notice brings its own menu button.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.getByRole("button", { name: "Open navigation" })).toBeVisible();
      await shoot(page, "screen-unavailable-offline-phone", "offline-");
      await page.getByRole("button", { name: "Open navigation" }).click();
      await expect(page.getByRole("dialog").getByRole("link", { name: "Projects", exact: true })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await context.setOffline(false);
      await expect(page.getByRole("heading", { name: "Work items", exact: true })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/${f.slug}/projects/${f.projectId}/issues/`));
    } finally {
      await context.close();
    }
  });
});
