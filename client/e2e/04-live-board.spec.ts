/**
 * The live board, as two members of one project see it in two browsers (two contexts, two
 * sessions): what member A does on the Kanban board and in the List — move, create, rename,
 * delete — shows on member B's open board without a reload; a mention of B in a comment raises
 * B's unread badge and lands under Mentions (and All); and when B's connection drops while A keeps
 * working, B's board catches up on reconnecting with exactly the right items. The spec signs up
 * its own two users, workspace and project through the API, so it needs from 01-foundation only
 * the instance administrator. One pair of pages for the whole file: the steps build on each other.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { NotificationsPage } from "./pages/notifications-page.ts";
import { WorkItemPage } from "./pages/work-item-page.ts";
import { WorkItemsPage } from "./pages/work-items-page.ts";
import {
  channelSynced,
  dropLiveSockets,
  expectNotReloaded,
  liveSocketStates,
  markPage,
  openLiveSockets,
  trackLiveSockets,
} from "./support/live-socket.ts";
import { addMember, openSession, signUpWithProject } from "./support/setup.ts";
import { type Fixture, mentionHtml, type WorkItemJson, type WorkItemsApi } from "./support/work-items-api.ts";

const alice = { email: "alice@live-board.test", password: "Amber-lighthouse-58", first: "Alice", last: "Author" };
const bob = { email: "bob@live-board.test", password: "Silver-orchard-fox-19", first: "Bob", last: "Watcher" };
const MARK = "live-board: loaded once";
/** Long enough for a change to cross the live layer on a busy machine; nothing waits it out. */
const LIVE = { timeout: 10_000 };

test.describe
  .serial("live board", () => {
    // Two browsers' worth of steps per test: twice the default budget, for a busy machine.
    test.describe.configure({ timeout: 120_000 });

    let contextA: BrowserContext;
    let contextB: BrowserContext;
    let pageA: Page;
    let pageB: Page;
    let apiA: WorkItemsApi;
    let f: Fixture;
    let bobId: string;
    let boardA: WorkItemsPage;
    let boardB: WorkItemsPage;

    const state = (group: string) => {
      const found = f.states.find((s) => s.group === group);
      if (!found) throw new Error(`the project has a ${group} state`);
      return found;
    };
    const stateName = (id: string) => f.states.find((s) => s.id === id)?.name ?? id;

    /**
     * Counts B's answered requests that refresh the cache from the server (the sync list and
     * deleted ids): a change that shows while this stays 0 came over the live channel.
     */
    function countRefreshes(page: Page): () => number {
      let count = 0;
      page.on("response", (r) => {
        if (r.ok() && /\/(v2\/issues|deleted-issues)\//.test(r.url())) count += 1;
      });
      return () => count;
    }

    /** B's board matches the server exactly: the same names in each column, every card once. */
    async function expectBoardMatchesServer(items: readonly WorkItemJson[]): Promise<void> {
      for (const s of f.states) {
        const names = items
          .filter((i) => i.state_id === s.id)
          .map((i) => i.name)
          .sort();
        await expect.poll(() => boardB.cardNames(s.name), { ...LIVE, message: `column ${s.name}` }).toEqual(names);
      }
      await expect(boardB.cards).toHaveCount(items.length);
    }

    test.beforeAll(async ({ browser, baseURL }: { browser: Browser; baseURL: string | undefined }) => {
      const origin = baseURL ?? "http://localhost:3100";
      ({ context: contextA, page: pageA, api: apiA } = await openSession(browser, origin));
      const b = await openSession(browser, origin, {}, trackLiveSockets);
      ({ context: contextB, page: pageB } = b);
      f = await signUpWithProject(apiA, alice, { slug: "live-e2e", name: "Live Board", identifier: "LB" });
      bobId = await addMember(apiA, b.api, f, bob);
      boardA = new WorkItemsPage(pageA);
      boardB = new WorkItemsPage(pageB);
    });

    test.afterAll(async () => {
      await contextA?.close();
      await contextB?.close();
    });

    test("Kanban: A's move, new item, rename and delete show on B's board without a reload", async () => {
      for (const name of ["Ship the beta", "Draft the memo", "Retire the wiki"]) await apiA.createWorkItem(f, { name });
      const backlog = state("backlog").name;
      const started = state("started").name;

      // B's board listens once its project channel synced (and ran its first catch-up).
      const synced = channelSynced(pageB, `project.${f.projectId}`);
      await boardB.open(f.slug, f.projectId);
      await synced;
      await boardB.useLayout("Kanban");
      await boardB.expectLive();
      await markPage(pageB, MARK);
      await boardA.open(f.slug, f.projectId);
      await boardA.useLayout("Kanban");
      await expect(boardB.cards).toHaveCount(3);
      const refreshes = countRefreshes(pageB);

      // Move: A drags a card to another column.
      await boardA.dragCardTo("Ship the beta", started);
      await expect(boardA.cardIn(started, "Ship the beta")).toBeVisible();
      await expect(boardB.cardIn(started, "Ship the beta")).toHaveCount(1, LIVE);
      await expect(boardB.cardIn(backlog, "Ship the beta")).toHaveCount(0);

      // Create: A's new item lands in the default column.
      await boardA.createWithModal("Plan the launch");
      await expect(boardB.cardIn(backlog, "Plan the launch")).toHaveCount(1, LIVE);

      // Rename from A's peek.
      const renaming = new WorkItemPage(pageA, await boardA.openPeek(boardA.card("Draft the memo"), "Draft the memo"));
      await renaming.rename("Final memo");
      await renaming.close();
      await expect(boardB.cardIn(backlog, "Final memo")).toHaveCount(1, LIVE);
      await expect(boardB.card("Draft the memo")).toHaveCount(0);

      // Delete from A's peek.
      const deleting = new WorkItemPage(
        pageA,
        await boardA.openPeek(boardA.card("Retire the wiki"), "Retire the wiki"),
      );
      await deleting.delete();
      await expect(boardB.card("Retire the wiki")).toHaveCount(0, LIVE);

      await expectBoardMatchesServer(await apiA.workItems(f));
      await expect(boardB.cardIn(started, "Ship the beta")).toHaveCount(1);
      expect(refreshes(), "B fetched nothing: every change came live").toBe(0);
      await expectNotReloaded(pageB, MARK);
    });

    test("List: A's state change, quick add, rename and delete show in B's list without a reload", async () => {
      for (const name of ["Audit the logs", "Old list title", "Drop the cache"]) await apiA.createWorkItem(f, { name });
      // B switches layout in place (no reload); A's page opens afresh.
      await boardB.useLayout("List");
      await expect(boardB.row("Old list title")).toHaveCount(1, LIVE);
      await boardA.open(f.slug, f.projectId);
      await boardA.useLayout("List");
      const started = state("started").name;
      const refreshes = countRefreshes(pageB);

      // State change from the row's state picker.
      await boardA
        .row("Audit the logs")
        .getByRole("button", { name: /^State: / })
        .click();
      await boardA.pick("State", started);
      await expect(boardB.row("Audit the logs").getByRole("button", { name: `State: ${started}` })).toBeVisible(LIVE);

      // Quick add (first group).
      await boardA.quickAdd(["Write the changelog"]);
      await expect(boardB.row("Write the changelog")).toHaveCount(1, LIVE);

      // Rename from A's peek.
      const renaming = new WorkItemPage(pageA, await boardA.openPeek(boardA.row("Old list title"), "Old list title"));
      await renaming.rename("New list title");
      await renaming.close();
      await expect(boardB.row("New list title")).toHaveCount(1, LIVE);
      await expect(boardB.row("Old list title")).toHaveCount(0);

      // Delete from A's peek.
      const deleting = new WorkItemPage(pageA, await boardA.openPeek(boardA.row("Drop the cache"), "Drop the cache"));
      await deleting.delete();
      await expect(boardB.row("Drop the cache")).toHaveCount(0, LIVE);

      // Every item once, each with the server's state.
      const items = await apiA.workItems(f);
      await expect(boardB.listRows).toHaveCount(items.length, LIVE);
      for (const item of items) {
        await expect(
          boardB.row(item.name).getByRole("button", { name: `State: ${stateName(item.state_id)}` }),
        ).toBeVisible();
      }
      expect(refreshes(), "B fetched nothing: every change came live").toBe(0);
      await expectNotReloaded(pageB, MARK);
    });

    test("a mention of B in A's comment raises B's unread badge live and shows under Mentions", async () => {
      const notificationsB = new NotificationsPage(pageB);
      await notificationsB.expectUnread(0);
      const item = await apiA.byName(f, "Audit the logs");
      const key = `${f.identifier}-${item.sequence_id}`;

      // A mentions B through the comment box's "@" picker.
      const commenting = new WorkItemPage(pageA, await boardA.openPeek(boardA.row("Audit the logs"), "Audit the logs"));
      await commenting.commentMentioning("bob", /bob/i, " can you check the numbers?");
      await commenting.close();
      await notificationsB.expectUnread(1, LIVE.timeout);
      await expectNotReloaded(pageB, MARK);

      await notificationsB.openFromSidebar();
      await notificationsB.showTab("Mentions");
      const title = new RegExp(`mentioned you in a comment on ${key}`);
      await expect(notificationsB.row(title)).toHaveCount(1);
      await expect(notificationsB.row(title)).toContainText("Audit the logs");
      await expect(notificationsB.rows).toHaveCount(1);

      // A second mention while the list is open joins it live, and the badge follows.
      const other = await apiA.byName(f, "Final memo");
      await apiA.comment(f, other.id, `<p>Also ${mentionHtml(bobId, "Bob Watcher")}, see the memo.</p>`);
      await notificationsB.expectUnread(2, LIVE.timeout);
      await expect(notificationsB.rows).toHaveCount(2, LIVE);
      await expect(notificationsB.rows.first()).toContainText(`${f.identifier}-${other.sequence_id}`);
      // The entry quotes the comment's first words.
      await expect(notificationsB.row(title)).toContainText("can you check the numbers?");
      // All lists mentions too: it shows what the badge counts.
      await notificationsB.showTab("All");
      await expect(notificationsB.rows).toHaveCount(2);
      await notificationsB.expectUnread(2);
      await expectNotReloaded(pageB, MARK);
    });

    test("B's board catches up after its connection drops while A keeps changing items", async () => {
      await pageB.goBack();
      await expect(pageB).toHaveURL(/\/issues\/$/);
      await boardB.useLayout("Kanban");
      await boardB.expectLive();
      const before = await apiA.workItems(f);
      await expectBoardMatchesServer(before);

      // B goes offline. Chromium's offline mode leaves the open socket open and swallows what
      // arrives on it, so the drop a real outage ends in is completed by hand (support/live-socket.ts).
      await contextB.setOffline(true);
      expect(await dropLiveSockets(pageB), "B had one live socket open").toBe(1);
      await boardB.expectLive("offline");

      // Meanwhile A moves, creates, renames, deletes — and creates and deletes one B never saw.
      const byName = (name: string) => {
        const item = before.find((i) => i.name === name);
        if (!item) throw new Error(`${name} exists`);
        return item;
      };
      await apiA.updateWorkItem(f, byName("Plan the launch").id, { state_id: state("completed").id });
      await apiA.createWorkItem(f, { name: "Made while B was away" });
      await apiA.createWorkItem(f, { name: "Started while B was away", state_id: state("started").id });
      await apiA.updateWorkItem(f, byName("Final memo").id, { name: "Memo, renamed offline" });
      await apiA.updateWorkItem(f, byName("Final memo").id, { state_id: state("unstarted").id });
      await apiA.deleteWorkItem(f, byName("Write the changelog").id);
      const ghost = await apiA.createWorkItem(f, { name: "Here and gone" });
      await apiA.deleteWorkItem(f, ghost.id);
      const after = await apiA.workItems(f);
      expect(after).toHaveLength(before.length + 1);
      const refreshes = countRefreshes(pageB);

      // Still offline: B's reconnection attempts fail and nothing reached its board.
      expect(await openLiveSockets(pageB)).toBe(0);
      await boardB.expectLive("offline");
      await expect(boardB.cardIn(state("backlog").name, "Plan the launch")).toHaveCount(1);
      await expect(boardB.card("Made while B was away")).toHaveCount(0);

      await contextB.setOffline(false);
      await boardB.expectLive("connected", LIVE.timeout);
      expect(await openLiveSockets(pageB)).toBe(1);
      await expectBoardMatchesServer(after);
      expect(refreshes(), "the reconnection caught up from the server").toBeGreaterThan(0);
      await expect(boardB.card("Here and gone")).toHaveCount(0);
      await expect(boardB.card("Write the changelog")).toHaveCount(0);
      await expect(boardB.cardIn(state("completed").name, "Plan the launch")).toHaveCount(1);
      await expect(boardB.cardIn(state("unstarted").name, "Memo, renamed offline")).toHaveCount(1);

      // And live again: A's next change arrives over the new socket, with no fetch of B's own.
      const caughtUp = refreshes();
      await apiA.updateWorkItem(f, byName("Ship the beta").id, { name: "Shipped the beta" });
      await expect(boardB.cardIn(state("started").name, "Shipped the beta")).toHaveCount(1, LIVE);
      expect(refreshes(), "the rename came live").toBe(caughtUp);
      expect((await liveSocketStates(pageB)).filter((s) => s === 1)).toHaveLength(1);
      await expectNotReloaded(pageB, MARK);
    });
  });
