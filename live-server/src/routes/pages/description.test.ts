import { PAGE_ACCESS, PAGE_VERSIONS_KEPT, pageDocumentName } from "@tideline/shared";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { client, type TestApp } from "../../../test/harness.ts";
import { documentUpdates, pages, pageVersions } from "../../db/schema.ts";
import { maybeSnapshotWhileEditing, onPageContentChange, snapshotPageVersion } from "./document.ts";
import {
  appendParagraph,
  createPage,
  docOf,
  fetchState,
  pageRow,
  pageUrl,
  paragraphs,
  patchState,
  recordEvents,
  startPagesWorld,
  type Team,
  type World,
} from "./test-support.ts";

let t: TestApp;
let w: World;
let p: Team;
beforeAll(async () => {
  ({ t, w, p } = await startPagesWorld());
});
afterAll(() => t.close());

const logRows = (pageId: string) =>
  t.db
    .select()
    .from(documentUpdates)
    .where(eq(documentUpdates.documentName, pageDocumentName(pageId)));
/** A page's versions, newest first. */
const versionsOf = (pageId: string) =>
  t.db
    .select()
    .from(pageVersions)
    .where(eq(pageVersions.pageId, pageId))
    .orderBy(desc(pageVersions.lastSavedAt), desc(pageVersions.createdAt));

describe("description/ (binary Yjs state)", () => {
  it("round-trips a Y.Doc built by a client: PATCH its update, GET the same content back", async () => {
    const page = await createPage(t, w.member, p, { description_html: "" });
    const url = pageUrl(p, page.id);
    // A client that starts from the server's state, as a provider would.
    const clientDoc = docOf(await fetchState(t, w.member, url));
    const fragment = clientDoc.getXmlFragment("default");
    // Attributes hold JSON values, as y-prosemirror writes them (the level is a number; Yjs'
    // default typing says string).
    const heading = new Y.XmlElement<{ level: number }>("heading");
    heading.setAttribute("level", 2);
    heading.insert(0, [new Y.XmlText("Plan")]);
    const before = Y.encodeStateVector(clientDoc);
    fragment.insert(fragment.length, [heading as unknown as Y.XmlElement]);
    appendParagraph(clientDoc, "Written without a WebSocket");
    const update = Y.encodeStateAsUpdate(clientDoc, before);

    const seen: Uint8Array[] = [];
    const stop = onPageContentChange(t.app.ctx.events, (pageId, u) => {
      if (pageId === page.id) seen.push(u);
    });
    const events = recordEvents(t);
    const res = await patchState(t, w.member, url, update);
    stop();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().description_html).toBe("<p></p><h2>Plan</h2><p>Written without a WebSocket</p>");
    expect((await pageRow(t, page.id))?.descriptionStripped).toBe("Plan Written without a WebSocket");
    expect(seen).toHaveLength(1);
    expect(events.filter((e) => e.type === "page.updated" && e.entity_id === page.id)).toHaveLength(1);
    // Folded into description_binary: nothing left in the log.
    expect(await logRows(page.id)).toEqual([]);

    const server = docOf(await fetchState(t, w.guest, url));
    expect(paragraphs(server)).toEqual(paragraphs(clientDoc));
    expect(server.getXmlFragment("default").toString()).toBe(fragment.toString());
    // Nothing the client lacks, nothing it has that the server lacks.
    expect(Y.encodeStateVector(server)).toEqual(Y.encodeStateVector(clientDoc));
  });

  it("accepts a whole document from a fresh Y.Doc and merges it with what is there", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Existing</p>" });
    const fresh = new Y.Doc();
    appendParagraph(fresh, "From elsewhere");
    const res = await patchState(t, w.admin, pageUrl(p, page.id), Y.encodeStateAsUpdate(fresh));
    expect(res.statusCode, res.body).toBe(200);
    const server = docOf(await fetchState(t, w.member, pageUrl(p, page.id)));
    expect(paragraphs(server).sort()).toEqual(["Existing", "From elsewhere"].sort());
  });

  it("includes updates still in the log (live edits not folded yet)", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Stored</p>" });
    const doc = docOf(await fetchState(t, w.member, pageUrl(p, page.id)));
    const update = appendParagraph(doc, "Live edit");
    await t.db.insert(documentUpdates).values({ documentName: pageDocumentName(page.id), update });
    const server = docOf(await fetchState(t, w.member, pageUrl(p, page.id)));
    expect(paragraphs(server)).toEqual(["Stored", "Live edit"]);
    // A version snapshot sees them too.
    await t.db.transaction((tx) => snapshotPageVersion(tx, page.id));
    const [version] = await versionsOf(page.id);
    expect(version?.descriptionHtml).toBe("<p>Stored</p><p>Live edit</p>");
  });

  it("builds and keeps a state for a page that has only HTML, so every client shares it", async () => {
    const page = await createPage(t, w.member, p);
    await t.db
      .update(pages)
      .set({ descriptionBinary: null, descriptionHtml: "<p>Imported</p>" })
      .where(eq(pages.id, page.id));
    const first = await fetchState(t, w.member, pageUrl(p, page.id));
    const second = await fetchState(t, w.guest, pageUrl(p, page.id));
    expect(second).toEqual(first);
    expect(paragraphs(docOf(first))).toEqual(["Imported"]);
    expect((await pageRow(t, page.id))?.descriptionBinary).toBeTruthy();
  });

  it("refuses a locked or archived page (400), guests (403), storing nothing", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Fixed</p>" });
    const url = pageUrl(p, page.id);
    const doc = docOf(await fetchState(t, w.member, url));
    const update = appendParagraph(doc, "Sneaky");
    expect((await patchState(t, w.guest, url, update)).statusCode).toBe(403);

    await client(t.app, w.member).post(`${url}lock/`);
    const locked = await patchState(t, w.member, url, update);
    expect(locked.statusCode).toBe(400);
    expect(locked.json().code).toBe("PAGE_LOCKED");
    const html = await client(t.app, w.member).patch(url, { description_html: "<p>Changed</p>" });
    expect(html.json().code).toBe("PAGE_LOCKED");
    await client(t.app, w.member).delete(`${url}lock/`);

    await client(t.app, w.member).post(`${url}archive/`);
    const archived = await patchState(t, w.member, url, update);
    expect(archived.json().code).toBe("PAGE_ARCHIVED");
    expect(await logRows(page.id)).toEqual([]);
    expect((await pageRow(t, page.id))?.descriptionHtml).toBe("<p>Fixed</p>");
    expect(paragraphs(docOf(await fetchState(t, w.member, url)))).toEqual(["Fixed"]);
  });

  it("refuses bad bodies (400) and stores nothing", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Safe</p>" });
    const url = pageUrl(p, page.id);
    const empty = await patchState(t, w.member, url, new Uint8Array());
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe("Missing required fields.");
    const json = await client(t.app, w.member).patch(`${url}description/`, { update: "x" });
    expect(json.statusCode).toBe(400);
    // JSON is the reference's save ({description_binary, description_html}): neither given is missing.
    expect(json.json().code).toBe("MISSING_REQUIRED_FIELDS");
    const garbage = await patchState(t, w.member, url, new Uint8Array([1, 2, 3, 4, 5]));
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().code).toBe("INVALID_DOCUMENT");

    // A node the editor doesn't know.
    const doc = docOf(await fetchState(t, w.member, url));
    const before = Y.encodeStateVector(doc);
    const fragment = doc.getXmlFragment("default");
    fragment.insert(fragment.length, [new Y.XmlElement("marquee")]);
    const alien = await patchState(t, w.member, url, Y.encodeStateAsUpdate(doc, before));
    expect(alien.statusCode).toBe(400);
    expect(alien.json().code).toBe("INVALID_DOCUMENT");

    // An update that builds on changes the server never received.
    const elsewhere = new Y.Doc();
    appendParagraph(elsewhere, "base");
    const basis = Y.encodeStateVector(elsewhere);
    appendParagraph(elsewhere, "on top");
    const orphan = await patchState(t, w.member, url, Y.encodeStateAsUpdate(elsewhere, basis));
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().code).toBe("INVALID_DOCUMENT");

    expect(await logRows(page.id)).toEqual([]);
    expect(paragraphs(docOf(await fetchState(t, w.member, url)))).toEqual(["Safe"]);
  });

  it("answers 401, and 404 for another workspace and someone's private page", async () => {
    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private });
    const url = pageUrl(p, secret.id);
    const update = Y.encodeStateAsUpdate(new Y.Doc());
    expect((await client(t.app).get(`${url}description/`)).statusCode).toBe(401);
    expect((await patchState(t, null, url, update)).statusCode).toBe(401);
    for (const user of [w.admin, w.stranger]) {
      expect((await client(t.app, user).get(`${url}description/`)).statusCode).toBe(404);
      expect((await patchState(t, user, url, update)).statusCode).toBe(404);
    }
  });
});

describe("versions", () => {
  it("keeps one version per person and 10 minutes while edited, credited to whoever made its edits", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>v1</p>" });
    const first = await maybeSnapshotWhileEditing(t.db, page.id, w.member.id);
    expect(first).toMatchObject({ pageId: page.id, descriptionHtml: "<p>v1</p>", ownedById: w.member.id });
    // The same person again within 10 minutes: their version is brought up to date.
    await client(t.app, w.member).patch(pageUrl(p, page.id), { description_html: "<p>v2</p>" });
    const same = await maybeSnapshotWhileEditing(t.db, page.id, w.member.id);
    expect(same).toMatchObject({ id: first?.id, descriptionHtml: "<p>v2</p>", ownedById: w.member.id });
    // Someone else's edit starts a version of their own: the member's keeps only the member's.
    await client(t.app, w.admin).patch(pageUrl(p, page.id), { description_html: "<p>v3</p>" });
    const theirs = await maybeSnapshotWhileEditing(t.db, page.id, w.admin.id);
    expect(theirs).toMatchObject({ descriptionHtml: "<p>v3</p>", ownedById: w.admin.id });
    expect(theirs?.id).not.toBe(first?.id);
    // Unknown editor (a store that knows nobody): the page's last editor.
    await client(t.app, w.member).patch(pageUrl(p, page.id), { description_html: "<p>v4</p>" });
    const unknown = await maybeSnapshotWhileEditing(t.db, page.id);
    expect(unknown).toMatchObject({ descriptionHtml: "<p>v4</p>", ownedById: w.member.id });
    // Ten minutes after a version began (moved back in time), the same person gets a new one.
    await t.db
      .update(pageVersions)
      .set({ createdAt: new Date(Date.now() - 11 * 60 * 1000) })
      .where(eq(pageVersions.id, unknown?.id ?? ""));
    await client(t.app, w.member).patch(pageUrl(p, page.id), { description_html: "<p>v5</p>" });
    const later = await maybeSnapshotWhileEditing(t.db, page.id, w.member.id);
    expect(later).toMatchObject({ descriptionHtml: "<p>v5</p>", ownedById: w.member.id });
    expect(later?.id).not.toBe(unknown?.id);
    // Unchanged since the latest version: nothing.
    expect(await maybeSnapshotWhileEditing(t.db, page.id, w.admin.id)).toBeNull();
    expect(await maybeSnapshotWhileEditing(t.db, crypto.randomUUID())).toBeNull();
    const kept = await versionsOf(page.id);
    expect(kept.map((v) => [v.descriptionHtml, v.ownedById])).toEqual([
      ["<p>v5</p>", w.member.id],
      ["<p>v4</p>", w.member.id],
      ["<p>v3</p>", w.admin.id],
      ["<p>v2</p>", w.member.id],
    ]);
  });

  it("credits the version saved before an archive or a restore to the page's last editor, not the archiver", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Mine</p>" });
    const url = pageUrl(p, page.id);
    await client(t.app, w.member).patch(url, { description_html: "<p>Written by the member</p>" });
    const archived = await client(t.app, w.admin).post(`${url}archive/`);
    expect(archived.statusCode, archived.body).toBeLessThan(300);
    const [saved] = await versionsOf(page.id);
    expect(saved).toMatchObject({ descriptionHtml: "<p>Written by the member</p>", ownedById: w.member.id });
  });

  it(`keeps the newest ${PAGE_VERSIONS_KEPT}`, async () => {
    const page = await createPage(t, w.member, p);
    for (let i = 0; i < PAGE_VERSIONS_KEPT + 2; i++) {
      await t.db.transaction((tx) => snapshotPageVersion(tx, page.id));
    }
    expect(await versionsOf(page.id)).toHaveLength(PAGE_VERSIONS_KEPT);
  });

  it("lists versions newest first, reads one with its HTML, restores it as an edit", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Original</p>" });
    const url = pageUrl(p, page.id);
    await maybeSnapshotWhileEditing(t.db, page.id, w.member.id);
    await client(t.app, w.member).patch(url, { description_html: "<p>Rewritten</p><p>twice</p>" });

    const list = await client(t.app, w.guest).get(`${url}versions/`);
    expect(list.statusCode, list.body).toBe(200);
    const versions = list.json() as { id: string; last_saved_at: string; owned_by: string }[];
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ owned_by: w.member.id, last_saved_at: expect.any(String) });
    expect(versions[0]).not.toHaveProperty("description_html");
    const versionId = versions[0]?.id ?? "";
    const one = await client(t.app, w.guest).get(`${url}versions/${versionId}/`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: versionId, description_html: "<p>Original</p>" });

    // A client holding the current body, as a live editor would.
    const editor = docOf(await fetchState(t, w.admin, url));
    const events = recordEvents(t);
    const restored = await client(t.app, w.admin).post(`${url}versions/${versionId}/restore/`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().description_html).toBe("<p>Original</p>");
    expect(events.filter((e) => e.type === "page.updated" && e.entity_id === page.id)).toHaveLength(1);
    // The body before the restore was saved as a version first.
    const after = (await client(t.app, w.member).get(`${url}versions/`)).json() as { id: string }[];
    expect(after).toHaveLength(2);
    const saved = await client(t.app, w.member).get(`${url}versions/${after[0]?.id}/`);
    expect(saved.json().description_html).toBe("<p>Rewritten</p><p>twice</p>");
    // The restore is a diff: the editor's copy converges instead of duplicating text.
    Y.applyUpdate(editor, await fetchState(t, w.admin, url));
    expect(paragraphs(editor)).toEqual(["Original"]);
  });

  it("refuses restore to guests (403) and on a locked page (400); 401; 404 for others", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>One</p>" });
    const url = pageUrl(p, page.id);
    const version = await t.db.transaction((tx) => snapshotPageVersion(tx, page.id));
    await client(t.app, w.member).patch(url, { description_html: "<p>Two</p>" });
    const restore = `${url}versions/${version.id}/restore/`;
    expect((await client(t.app, w.guest).post(restore)).statusCode).toBe(403);
    expect((await client(t.app).post(restore)).statusCode).toBe(401);
    expect((await client(t.app).get(`${url}versions/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).post(restore)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).get(`${url}versions/`)).statusCode).toBe(404);
    await client(t.app, w.member).post(`${url}lock/`);
    expect((await client(t.app, w.member).post(restore)).statusCode).toBe(400);
    await client(t.app, w.member).delete(`${url}lock/`);
    expect((await pageRow(t, page.id))?.descriptionHtml).toBe("<p>Two</p>");
    expect(await versionsOf(page.id)).toHaveLength(1);

    // Another page's version through this page, unknown ids, a private page of someone else.
    const other = await createPage(t, w.member, p);
    const foreignVersion = await t.db.transaction((tx) => snapshotPageVersion(tx, other.id));
    expect((await client(t.app, w.member).get(`${url}versions/${foreignVersion.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.member).post(`${url}versions/${foreignVersion.id}/restore/`)).statusCode).toBe(404);
    expect((await client(t.app, w.member).get(`${url}versions/nope/`)).statusCode).toBe(404);
    const secret = await createPage(t, w.member, p, { access: PAGE_ACCESS.private });
    expect((await client(t.app, w.admin).get(`${pageUrl(p, secret.id)}versions/`)).statusCode).toBe(404);
  });
});
