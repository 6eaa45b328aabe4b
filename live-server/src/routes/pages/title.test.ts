/**
 * The reference client's JSON save of description/, and the page title kept in the document
 * (PAGE_TITLE_FIELD) in step with the page's name over REST. The live side is in
 * live/page-title.test.ts.
 */
import { PAGE_TITLE_FIELD, pageDocumentName } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { client, type TestApp } from "../../../test/harness.ts";
import { documentUpdates, pages } from "../../db/schema.ts";
import { setTitle, stateFromHtml, titleOf } from "../../live/schema.ts";
import {
  appendParagraph,
  createPage,
  docOf,
  fetchState,
  pageRow,
  pageUrl,
  paragraphs,
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

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

describe("description/ as JSON (the reference's save)", () => {
  it("takes description_binary (base64) by PATCH and POST, deriving the HTML from it", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Start</p>" });
    const url = pageUrl(p, page.id);
    const doc = docOf(await fetchState(t, w.member, url));
    const update = appendParagraph(doc, "Saved as JSON");
    const res = await client(t.app, w.member).patch(`${url}description/`, {
      description_binary: base64(update),
      // Not trusted: the HTML comes from the document.
      description_html: "<p>Something else</p>",
      description: { type: "doc" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().description_html).toBe("<p>Start</p><p>Saved as JSON</p>");
    expect((await pageRow(t, page.id))?.descriptionHtml).toBe("<p>Start</p><p>Saved as JSON</p>");

    // The whole state, as the reference's live server sends it, by POST.
    const whole = appendParagraph(doc, "And the whole state");
    expect(whole.byteLength).toBeGreaterThan(0);
    const posted = await client(t.app, w.member).post(`${url}description/`, {
      description_binary: base64(Y.encodeStateAsUpdate(doc)),
      description_html: "",
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(paragraphs(docOf(await fetchState(t, w.member, url)))).toEqual([
      "Start",
      "Saved as JSON",
      "And the whole state",
    ]);
  });

  it("replaces the body with description_html alone", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Old</p>" });
    const url = pageUrl(p, page.id);
    const res = await client(t.app, w.member).post(`${url}description/`, { description_html: "<p>New</p>" });
    expect(res.statusCode, res.body).toBe(200);
    expect((await pageRow(t, page.id))?.descriptionHtml).toBe("<p>New</p>");
  });

  it("refuses bad JSON bodies (400) and stores nothing", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Safe</p>" });
    const url = pageUrl(p, page.id);
    const before = await pageRow(t, page.id);
    for (const [body, code] of [
      [{ description_binary: "not base64!" }, "VALIDATION_ERROR"],
      [{ description_binary: base64(new Uint8Array([1, 2, 3, 4, 5])) }, "INVALID_DOCUMENT"],
      [{ description_binary: "" }, "MISSING_REQUIRED_FIELDS"],
      [{ description_html: 12 }, "VALIDATION_ERROR"],
      [{}, "MISSING_REQUIRED_FIELDS"],
    ] as const) {
      const res = await client(t.app, w.member).patch(`${url}description/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code, JSON.stringify(body)).toBe(code);
    }
    const after = await pageRow(t, page.id);
    expect(after?.descriptionHtml).toBe("<p>Safe</p>");
    expect(after?.updatedAt.toISOString()).toBe(before?.updatedAt.toISOString());
    // Guests and other workspaces can't save at all.
    const update = base64(appendParagraph(docOf(await fetchState(t, w.member, url)), "x"));
    expect((await client(t.app, w.guest).post(`${url}description/`, { description_binary: update })).statusCode).toBe(
      403,
    );
    expect(
      (await client(t.app, w.stranger).post(`${url}description/`, { description_binary: update })).statusCode,
    ).toBe(404);
  });
});

describe("the title in the document", () => {
  it("is there from a new page's first stored state, named or not (the reference's editor opens it titled)", async () => {
    const page = await createPage(t, w.member, p, { name: "Quarterly plan", description_html: "<p>Body</p>" });
    // The very state stored at creation, before anything reads or loads it.
    const stored = await pageRow(t, page.id);
    expect(stored?.descriptionBinary).toBeTruthy();
    const first = docOf(stored?.descriptionBinary ?? new Uint8Array());
    expect(titleOf(first)).toBe("Quarterly plan");
    expect(paragraphs(first)).toEqual(["Body"]);
    expect(stored?.descriptionHtml).toBe("<p>Body</p>");
    // What a client without a WebSocket gets (the reference's fallback) says it too.
    expect(titleOf(docOf(await fetchState(t, w.member, pageUrl(p, page.id))))).toBe("Quarterly plan");
    // A page created without a name has an (empty) title heading all the same.
    const unnamed = await createPage(t, w.member, p, { name: undefined });
    expect(unnamed.name).toBe("");
    const unnamedDoc = docOf((await pageRow(t, unnamed.id))?.descriptionBinary ?? new Uint8Array());
    expect(unnamedDoc.getXmlFragment(PAGE_TITLE_FIELD).length).toBe(1);
    expect(titleOf(unnamedDoc)).toBe("");
  });

  it("is given to a state stored before titles were kept when it is first read, once", async () => {
    const page = await createPage(t, w.member, p, { name: "Old page", description_html: "<p>Old body</p>" });
    // As stored by an earlier version: the body only.
    await t.db
      .update(pages)
      .set({ descriptionBinary: stateFromHtml("<p>Old body</p>") })
      .where(eq(pages.id, page.id));
    const before = await pageRow(t, page.id);
    const url = pageUrl(p, page.id);
    const doc = docOf(await fetchState(t, w.member, url));
    expect(titleOf(doc)).toBe("Old page");
    expect(paragraphs(doc)).toEqual(["Old body"]);
    // Read again: the same single title, not a second heading.
    const again = docOf(await fetchState(t, w.admin, url));
    expect(again.getXmlFragment(PAGE_TITLE_FIELD).length).toBe(1);
    expect(titleOf(again)).toBe("Old page");
    expect(
      await t.db
        .select()
        .from(documentUpdates)
        .where(eq(documentUpdates.documentName, pageDocumentName(page.id))),
    ).toHaveLength(1);
    // The name and updated_at stay as they were: giving the title changes nothing a user sees.
    const row = await pageRow(t, page.id);
    expect(row?.name).toBe("Old page");
    expect(row?.updatedAt.toISOString()).toBe(before?.updatedAt.toISOString());
  });

  it("says the page's name after a rename, and the rename reaches open editors as an update", async () => {
    const page = await createPage(t, w.member, p, { name: "Plan", description_html: "<p>Body</p>" });
    const url = pageUrl(p, page.id);
    const res = await client(t.app, w.member).patch(url, { name: "Roadmap 2027" });
    expect(res.statusCode, res.body).toBe(200);
    const doc = docOf(await fetchState(t, w.member, url));
    expect(titleOf(doc)).toBe("Roadmap 2027");
    // As the reference's editor writes it: one level-1 heading.
    const heading = doc.getXmlFragment(PAGE_TITLE_FIELD).get(0) as Y.XmlElement;
    expect(heading.nodeName).toBe("heading");
    expect(heading.getAttribute("level")).toBe(1);
    // The body is untouched.
    expect(paragraphs(doc)).toEqual(["Body"]);
    expect(res.json()).toMatchObject({ name: "Roadmap 2027", description_html: "<p>Body</p>" });
    // Renaming to the same name writes nothing more.
    const rows = await t.db
      .select()
      .from(documentUpdates)
      .where(eq(documentUpdates.documentName, pageDocumentName(page.id)));
    await client(t.app, w.member).patch(url, { name: "Roadmap 2027" });
    expect(titleOf(docOf(await fetchState(t, w.member, url)))).toBe("Roadmap 2027");
    expect(
      await t.db
        .select()
        .from(documentUpdates)
        .where(eq(documentUpdates.documentName, pageDocumentName(page.id))),
    ).toHaveLength(rows.length);
  });

  it("gives a duplicate's document its own name as title", async () => {
    const page = await createPage(t, w.member, p, { name: "Template", description_html: "<p>Body</p>" });
    const url = pageUrl(p, page.id);
    await client(t.app, w.member).patch(url, { name: "Template v2" });
    const res = await client(t.app, w.member).post(`${url}duplicate/`);
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json() as { id: string; name: string };
    expect(titleOf(docOf(await fetchState(t, w.member, pageUrl(p, copy.id))))).toBe(copy.name);
    expect(copy.name).not.toBe("Template v2");
    expect(paragraphs(docOf(await fetchState(t, w.member, pageUrl(p, copy.id))))).toEqual(["Body"]);
  });

  it("renames the page when a saved document's title changes (page.updated with name)", async () => {
    const page = await createPage(t, w.member, p, { name: "Draft", description_html: "<p>Body</p>" });
    const url = pageUrl(p, page.id);
    const doc = docOf(await fetchState(t, w.member, url));
    const before = Y.encodeStateVector(doc);
    setTitle(doc, "  Launch   checklist ");
    const events = recordEvents(t);
    const res = await client(t.app, w.member).patch(`${url}description/`, {
      description_binary: base64(Y.encodeStateAsUpdate(doc, before)),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe("Launch checklist");
    expect((await pageRow(t, page.id))?.name).toBe("Launch checklist");
    const updated = events.find((e) => e.type === "page.updated" && e.entity_id === page.id);
    expect(updated?.data).toMatchObject({ name: "Launch checklist", changed_fields: ["description_html", "name"] });
  });
});
