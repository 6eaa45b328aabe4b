import { DESCRIPTION_VERSIONS_KEPT, DOCUMENT_FIELD } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { issueDescriptionVersions } from "../../db/schema.ts";
import { contentOfState, stateFromHtml } from "../../live/schema.ts";
import { storeDocument } from "../../live/storage.ts";
import { recordDescriptionVersion } from "../../services/description-versions.ts";
import { as, createFixture, createItem, type Fixture, itemUrl } from "./test-support.ts";

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

type Version = { id: string; owned_by: string | null; last_saved_at: string; issue: string; project: string };
type Page = {
  results: Version[];
  cursor: string;
  next_cursor: string;
  prev_cursor: string;
  next_page_results: boolean;
  prev_page_results: boolean;
  page_count: number;
  total_pages: number;
  total_results: number;
};

const versionsOf = (issueId: string) =>
  t.db.select().from(issueDescriptionVersions).where(eq(issueDescriptionVersions.issueId, issueId));

/** Move every version of the item back in time (as if saved 11 minutes ago). */
const age = (issueId: string) =>
  t.db
    .update(issueDescriptionVersions)
    .set({ lastSavedAt: new Date(Date.now() - 11 * 60 * 1000) })
    .where(eq(issueDescriptionVersions.issueId, issueId));

describe("description-versions/", () => {
  it("records a version on create and every REST write of the description; lists newest first; reads one", async () => {
    const member = as(t, f.w.member);
    const created = await member.post(`${f.project.url}/issues/`, {
      name: "Versioned",
      description_html: "<p>one</p>",
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const url = `${f.project.url}/issues/${id}`;
    expect((await member.patch(`${url}/`, { description_html: "<p>two</p>" })).statusCode).toBe(200);
    // Other fields are not description history.
    expect((await member.patch(`${url}/`, { name: "Renamed" })).statusCode).toBe(200);
    expect((await member.patch(`${url}/`, { description_html: "<p>three</p>" })).statusCode).toBe(200);

    const list = await as(t, f.w.guest).get(`${url}/description-versions/`);
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json() as Page;
    expect(page).toMatchObject({ total_results: 3, page_count: 3, total_pages: 1, next_page_results: false });
    expect(page.results[0]).toMatchObject({
      issue: id,
      project: f.project.id,
      owned_by: f.w.member.id,
      last_saved_at: expect.any(String),
    });
    expect(page.results[0]).not.toHaveProperty("description_html");
    const htmls = [];
    for (const v of page.results) {
      const one = await as(t, f.w.guest).get(`${url}/description-versions/${v.id}/`);
      expect(one.statusCode, one.body).toBe(200);
      htmls.push(one.json().description_html);
    }
    expect(htmls).toEqual(["<p>three</p>", "<p>two</p>", "<p>one</p>"]);
    const detail = (await member.get(`${url}/description-versions/${page.results[0]?.id}/`)).json();
    expect(detail).toMatchObject({ description_stripped: "three", description_binary: null });

    // The reference's path names work items so.
    const viaWorkItems = await member.get(`${f.project.url}/work-items/${id}/description-versions/`);
    expect(viaWorkItems.statusCode).toBe(200);
    expect((viaWorkItems.json() as Page).results.map((v) => v.id)).toEqual(page.results.map((v) => v.id));
  });

  it("pages like the reference (cursor, per_page)", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    for (let i = 1; i <= 5; i++) {
      await recordDescriptionVersion(t.db, item, { html: `<p>v${i}</p>`, stripped: `v${i}`, state: null }, null);
    }
    const url = `${itemUrl(f.project, item)}/description-versions/`;
    const first = (await as(t, f.w.member).get(`${url}?per_page=2`)).json() as Page;
    expect(first).toMatchObject({
      total_results: 5,
      total_pages: 3,
      page_count: 2,
      next_page_results: true,
      prev_page_results: false,
      next_cursor: "2:1:0",
    });
    const last = (await as(t, f.w.member).get(`${url}?cursor=2:2:0`)).json() as Page;
    expect(last).toMatchObject({ page_count: 1, next_page_results: false, prev_page_results: true });
    for (const bad of ["cursor=x", "cursor=0:0:0", "per_page=0", "per_page=1000"]) {
      const res = await as(t, f.w.member).get(`${url}?${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it(`keeps the newest ${DESCRIPTION_VERSIONS_KEPT}`, async () => {
    const item = await createItem(t, f.project, f.w.admin);
    for (let i = 0; i < DESCRIPTION_VERSIONS_KEPT + 2; i++) {
      await recordDescriptionVersion(t.db, item, { html: `<p>${i}</p>`, stripped: `${i}`, state: null }, null);
    }
    expect(await versionsOf(item.id)).toHaveLength(DESCRIPTION_VERSIONS_KEPT);
  });

  it("while edited live, records the stored description at most every 10 minutes, only when it changed", async () => {
    const item = await createItem(t, f.project, f.w.admin, { descriptionHtml: "<p>start</p>" });
    const ref = { kind: "issue" as const, id: item.id };
    // One document edited over time, as the live layer holds it.
    const doc = new Y.Doc();
    Y.applyUpdate(doc, stateFromHtml("<p>start</p>"));
    const store = (text: string | null) => {
      if (text !== null) {
        const body = doc.getXmlFragment(DOCUMENT_FIELD);
        const paragraph = new Y.XmlElement("paragraph");
        paragraph.insert(0, [new Y.XmlText(text)]);
        doc.transact(() => {
          body.delete(0, body.length);
          body.insert(0, [paragraph]);
        });
      }
      return storeDocument(t.db, t.app.ctx.events, ref, {
        state: Y.encodeStateAsUpdate(doc),
        foldedIds: [],
        actorId: f.w.member.id,
        force: true,
        instanceId: "test",
      });
    };
    expect(await store("live one")).toBe("stored");
    const [first] = await versionsOf(item.id);
    expect(first).toMatchObject({ descriptionHtml: "<p>live one</p>", ownedById: f.w.member.id });
    // The version keeps the live state: it reads back as the same description.
    expect(first?.descriptionBinary && contentOfState(first.descriptionBinary).html).toContain("live one");
    expect(await store("live two")).toBe("stored");
    expect(await versionsOf(item.id)).toHaveLength(1);
    await age(item.id);
    expect(await store("live three")).toBe("stored");
    expect((await versionsOf(item.id)).map((v) => v.descriptionHtml).sort()).toEqual([
      "<p>live one</p>",
      "<p>live three</p>",
    ]);
    // Due, but unchanged since the newest version: nothing new.
    await age(item.id);
    expect(await store(null)).toBe("unchanged");
    expect(await versionsOf(item.id)).toHaveLength(2);
  });

  it("is 404 for other workspaces, hidden items, unknown ids and another item's version; 401 anonymous", async () => {
    const item = await createItem(t, f.project, f.w.admin);
    const other = await createItem(t, f.project, f.w.admin);
    const version = await recordDescriptionVersion(t.db, item, { html: "<p>x</p>", stripped: "x", state: null }, null);
    const url = `${itemUrl(f.project, item)}/description-versions/`;
    expect((await as(t).get(url)).statusCode).toBe(401);
    expect((await as(t, f.w.stranger).get(url)).statusCode).toBe(404);
    expect((await as(t, f.w.outsider).get(url)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${url}${crypto.randomUUID()}/`)).statusCode).toBe(404);
    expect((await as(t, f.w.member).get(`${url}nope/`)).statusCode).toBe(404);
    const wrongItem = `${itemUrl(f.project, other)}/description-versions/${version?.id}/`;
    expect((await as(t, f.w.member).get(wrongItem)).statusCode).toBe(404);
    const foreignItem = await createItem(t, f.foreign, f.w.stranger);
    expect(
      (await as(t, f.w.member).get(`${f.project.url}/issues/${foreignItem.id}/description-versions/`)).statusCode,
    ).toBe(404);
    const hiddenItem = await createItem(t, f.hidden, f.w.admin);
    expect((await as(t, f.w.member).get(`${itemUrl(f.hidden, hiddenItem)}/description-versions/`)).statusCode).toBe(
      404,
    );
    const strict = await createFixture(t, { guestViewAll: false });
    const theirs = await createItem(t, strict.project, strict.w.admin);
    expect(
      (await as(t, strict.w.guest).get(`${itemUrl(strict.project, theirs)}/description-versions/`)).statusCode,
    ).toBe(404);
  });
});
