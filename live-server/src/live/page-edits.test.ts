/**
 * Live edits of a page body reach the page row the lists and the header read (updated_at,
 * updated_by) and its version history, credited to the person whose edits they are — never to
 * someone who only opened the page. Real server, real providers.
 */
import { pageDocumentName } from "@tideline/shared";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { client } from "../../test/harness.ts";
import { pages, pageVersions } from "../db/schema.ts";
import { createFixture, type Fixture } from "../routes/issues/test-support.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  insertPage,
  type LiveServer,
  loadedDocument,
  openTab,
  startLiveServer,
  synced,
  type Tab,
} from "./test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];
const tab = (...args: Parameters<typeof openTab>) => {
  const opened = openTab(...args);
  tabs.push(opened);
  return opened;
};

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const rowOf = async (pageId: string) => (await s.db.select().from(pages).where(eq(pages.id, pageId)))[0];
const versionsOf = (pageId: string) =>
  s.db
    .select()
    .from(pageVersions)
    .where(eq(pageVersions.pageId, pageId))
    .orderBy(desc(pageVersions.lastSavedAt), desc(pageVersions.createdAt));
const DAYS_AGO = new Date(Date.now() - 3 * 24 * 3600 * 1000);

/** A page created by the admin three days ago, with a body. */
async function oldPage(html = "<p>Start</p>") {
  return insertPage(s, {
    workspaceId: f.w.workspaceId,
    ownerId: f.w.admin.id,
    projectIds: [f.project.id],
    descriptionHtml: html,
    updatedById: f.w.admin.id,
    updatedAt: DAYS_AGO,
    createdAt: DAYS_AGO,
  });
}

describe("live edits of a page body", () => {
  it("move the page's updated_at and updated_by, as the list and the header show them", async () => {
    const page = await oldPage();
    const doc = tab(s.url, f.w.member).open(pageDocumentName(page.id));
    await synced(doc);
    appendParagraph(doc.doc, "an edit in the body");
    await synced(doc);
    await eventually(async () => expect((await rowOf(page.id))?.descriptionHtml).toContain("an edit in the body"));
    const row = await rowOf(page.id);
    expect(row?.updatedById).toBe(f.w.member.id);
    expect(row?.updatedAt.getTime()).toBeGreaterThan(DAYS_AGO.getTime() + 60_000);
    const list = await client(s.app, f.w.admin).get(`${f.project.url}/pages/`);
    const listed = (list.json() as { id: string; updated_at: string; updated_by: string }[]).find(
      (p) => p.id === page.id,
    );
    expect(listed).toMatchObject({ updated_by: f.w.member.id, updated_at: row?.updatedAt.toISOString() });
    const detail = await client(s.app, f.w.admin).get(`${f.project.url}/pages/${page.id}/`);
    expect(detail.json()).toMatchObject({ updated_by: f.w.member.id, updated_at: row?.updatedAt.toISOString() });
    // And its version names the member, whose edit it holds.
    const [version] = await versionsOf(page.id);
    expect(version).toMatchObject({ ownedById: f.w.member.id });
    expect(version?.descriptionHtml).toContain("an edit in the body");
  });

  it("are credited to their author, not to someone who opens the page with a copy of it meanwhile", async () => {
    const page = await oldPage();
    const name = pageDocumentName(page.id);
    const author = tab(s.url, f.w.member).open(name);
    await synced(author);
    // Text typed and partly deleted: the document has a delete set, which every copy carries.
    appendParagraph(author.doc, "draft text, then fixed");
    author.doc.transact(() => {
      const paragraph = author.fragment().get(author.fragment().length - 1) as Y.XmlElement;
      (paragraph.get(0) as Y.XmlText).delete(0, "draft ".length);
    });
    await synced(author);
    await eventually(async () => expect((await rowOf(page.id))?.descriptionHtml).toContain("text, then fixed"));
    // A copy of the page as it is now, kept by another person (the reference's editor keeps one
    // in IndexedDB; any tab that reconnects holds one).
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(author.doc));
    // Stores wait now: the author's next edit and the reader's opening fall in one store.
    const { configuration } = s.app.ctx.live.hocuspocus;
    configuration.debounce = 60_000;
    configuration.maxDebounce = 60_000;
    try {
      appendParagraph(author.doc, "the author's last edit");
      await synced(author);
      // The admin opens the page with that copy: its sync sends the copy's delete set, a
      // non-empty update that changes nothing.
      const opener = tab(s.url, f.w.admin).open(name, copy);
      await synced(opener);
      await eventually(() => expect(bodyText(copy)).toContain("the author's last edit"));
      // A REST read folds the log (storage.ts foldPendingLog): the author is the last editor.
      const read = await client(s.app, f.w.admin).get(`${f.project.url}/pages/${page.id}/`);
      expect(read.json().description_html).toContain("the author's last edit");
      expect(read.json().updated_by).toBe(f.w.member.id);
      // So does the live store itself.
      const stored = await s.app.ctx.live.persistence.storeNow(await loadedDocument(s, name));
      expect(stored).not.toBeNull();
    } finally {
      configuration.debounce = 100;
      configuration.maxDebounce = 500;
    }
    const row = await rowOf(page.id);
    expect(row?.updatedById).toBe(f.w.member.id);
    const versions = await versionsOf(page.id);
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) expect(version.ownedById).toBe(f.w.member.id);
  });

  it("by two people keep a version each, each naming the person whose edits it holds", async () => {
    const page = await oldPage("<p>Base</p>");
    const name = pageDocumentName(page.id);
    const member = tab(s.url, f.w.member).open(name);
    await synced(member);
    appendParagraph(member.doc, "written by the member");
    await synced(member);
    await eventually(async () => {
      const [latest] = await versionsOf(page.id);
      expect(latest?.descriptionHtml).toContain("written by the member");
    });
    const admin = tab(s.url, f.w.admin).open(name);
    await synced(admin);
    appendParagraph(admin.doc, "written by the admin");
    await synced(admin);
    await eventually(async () => {
      const [latest] = await versionsOf(page.id);
      expect(latest?.descriptionHtml).toContain("written by the admin");
    });
    const versions = await versionsOf(page.id);
    expect(versions.map((v) => v.ownedById)).toEqual([f.w.admin.id, f.w.member.id]);
    expect(versions[1]?.descriptionHtml).toContain("written by the member");
    expect(versions[1]?.descriptionHtml).not.toContain("written by the admin");
    expect((await rowOf(page.id))?.updatedById).toBe(f.w.admin.id);
  });
});
