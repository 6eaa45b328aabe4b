/**
 * A page's live document keeps its title (PAGE_TITLE_FIELD) in step with the page's name, both
 * ways: a rename over REST shows in open editors' title, and a title edited in the document
 * renames the page (page.updated). Real server, real providers.
 */
import { type DomainEvent, pageDocumentName } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../test/harness.ts";
import { pages } from "../db/schema.ts";
import { createFixture, type Fixture } from "../routes/issues/test-support.ts";
import { setTitle, titleOf } from "./schema.ts";
import {
  appendParagraph,
  eventually,
  insertPage,
  type LiveServer,
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
const events: DomainEvent[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
  s.app.ctx.events.subscribe((e) => {
    events.push(e);
  });
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const nameOf = async (pageId: string) => (await s.db.select().from(pages).where(eq(pages.id, pageId)))[0]?.name;

describe("page title in the live document", () => {
  it("opens with the page's name as its title, and a REST rename shows in every open editor", async () => {
    const page = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      projectIds: [f.project.id],
      ownerId: f.w.admin.id,
      name: "Meeting notes",
      descriptionHtml: "<p>Body</p>",
    });
    const a = tab(s.url, f.w.member).open(pageDocumentName(page.id));
    const b = tab(s.url, f.w.admin).open(pageDocumentName(page.id));
    await synced(a);
    await synced(b);
    await eventually(() => expect(titleOf(a.doc)).toBe("Meeting notes"));
    expect(titleOf(b.doc)).toBe("Meeting notes");

    const res = await client(s.app, f.w.admin).patch(`${f.project.url}/pages/${page.id}/`, { name: "Weekly sync" });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => {
      expect(titleOf(a.doc)).toBe("Weekly sync");
      expect(titleOf(b.doc)).toBe("Weekly sync");
    });
    // The body stayed as it was, and the name is not renamed back by the next store: wait for a
    // store after the rename (an edit makes one), then read the name.
    expect(a.doc.getXmlFragment("default").length).toBe(1);
    appendParagraph(a.doc, "after the rename");
    await synced(a);
    await eventually(async () => {
      const [row] = await s.db.select().from(pages).where(eq(pages.id, page.id));
      expect(row?.descriptionHtml).toContain("after the rename");
    });
    expect(await nameOf(page.id)).toBe("Weekly sync");
  });

  it("renames the page when an editor changes the title in the document, and emits page.updated", async () => {
    const page = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      projectIds: [f.project.id],
      ownerId: f.w.admin.id,
      name: "Untitled idea",
      descriptionHtml: "<p>Body</p>",
    });
    const a = tab(s.url, f.w.member).open(pageDocumentName(page.id));
    const b = tab(s.url, f.w.admin).open(pageDocumentName(page.id));
    await synced(a);
    await synced(b);
    await eventually(() => expect(titleOf(a.doc)).toBe("Untitled idea"));

    setTitle(a.doc, "Pricing experiment");
    await synced(a);
    await eventually(() => expect(titleOf(b.doc)).toBe("Pricing experiment"));
    await eventually(async () => expect(await nameOf(page.id)).toBe("Pricing experiment"));
    const updated = await eventually(() => {
      const found = events.find(
        (e) =>
          e.type === "page.updated" &&
          e.entity_id === page.id &&
          (e.data as { name?: string }).name === "Pricing experiment",
      );
      if (!found) throw new Error("no page.updated with the new name yet");
      return found;
    });
    expect(updated.data).toMatchObject({ changed_fields: ["name"] });
    expect(updated.actor_id).toBe(f.w.member.id);
    // The REST read agrees.
    const read = await client(s.app, f.w.admin).get(`${f.project.url}/pages/${page.id}/`);
    expect(read.json().name).toBe("Pricing experiment");
  });
});
