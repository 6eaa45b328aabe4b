/**
 * Live documents load from and fold into the database: built from HTML once, logged before
 * acknowledgement, compacted with derived HTML, convergent under concurrent edits, unloaded
 * when idle, and refused when a client's copy belongs to a replaced document.
 */
import { issueDocumentName, LIVE_CLOSE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { client } from "../../test/harness.ts";
import { issues } from "../db/schema.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import { contentOfState, generationOf } from "./schema.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  type LiveServer,
  loadedDocument,
  logRows,
  openTab,
  startLiveServer,
  synced,
  type Tab,
} from "./test-support.ts";
import { GROUP_COMMIT_WINDOW_MS } from "./update-log.ts";

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

const row = async (id: string) => {
  const [found] = await s.db.select().from(issues).where(eq(issues.id, id));
  if (!found) throw new Error("issue missing");
  return found;
};

describe("load and store", () => {
  it("builds the document from the stored HTML once, and stores that state at once", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, {
      description_html: "<h2>Plan</h2><ul><li><p>one</p></li></ul><p>Hi <strong>there</strong></p>",
    });
    expect((await row(item.id)).descriptionBinary).toBeNull();
    const doc = tab(s.url, f.w.member).open(issueDocumentName(item.id));
    await synced(doc);
    expect(doc.fragment().toString()).toContain("<heading");
    expect(doc.fragment().toString()).toContain("Hi <bold>there</bold>");
    const stored = (await row(item.id)).descriptionBinary;
    expect(stored).not.toBeNull();
    // A second client gets the same items, not a second build.
    const again = tab(s.url, f.w.admin).open(issueDocumentName(item.id));
    await synced(again);
    expect(again.fragment().toString()).toBe(doc.fragment().toString());
    expect(generationOf(again.doc)).toBe(generationOf(doc.doc));
  });

  it("logs every acknowledged update, then folds the log into the state with derived HTML", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { description_html: "<p>Start</p>" });
    const name = issueDocumentName(item.id);
    const t = tab(s.url, f.w.member);
    const doc = t.open(name);
    await synced(doc);
    // Stop stores for a moment to see the log itself.
    const { configuration } = s.app.ctx.live.hocuspocus;
    configuration.debounce = 60_000;
    configuration.maxDebounce = 60_000;
    try {
      appendParagraph(doc.doc, "<script>alert(1)</script> & more");
      await synced(doc);
      expect((await logRows(s, name)).length).toBeGreaterThan(0);
      expect((await row(item.id)).descriptionHtml).toBe("<p>Start</p>");
    } finally {
      configuration.debounce = 100;
      configuration.maxDebounce = 500;
    }
    // The last client leaving stores at once.
    t.destroy();
    await eventually(async () => {
      const stored = await row(item.id);
      expect(stored.descriptionHtml).toBe("<p>Start</p><p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>");
      expect(stored.descriptionStripped).toBe("Start <script>alert(1)</script> & more");
    });
    await eventually(async () => expect(await logRows(s, name)).toEqual([]));
  });

  it("unloads a document when its last client leaves, after storing it", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { description_html: "<p>Idle</p>" });
    const name = issueDocumentName(item.id);
    const { documents } = s.app.ctx.live.hocuspocus;
    const t = tab(s.url, f.w.member);
    const doc = t.open(name);
    await synced(doc);
    expect(documents.has(name)).toBe(true);
    appendParagraph(doc.doc, "last words");
    await synced(doc);
    t.destroy();
    await eventually(() => expect(documents.has(name)).toBe(false));
    expect((await row(item.id)).descriptionHtml).toBe("<p>Idle</p><p>last words</p>");
    expect(await logRows(s, name)).toEqual([]);
  });

  it("folds a row logged after the last store as the document unloads", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { description_html: "<p>Idle</p>" });
    const name = issueDocumentName(item.id);
    const { documents } = s.app.ctx.live.hocuspocus;
    const { updateLog } = s.app.ctx.live.persistence;
    const t = tab(s.url, f.w.member);
    const doc = t.open(name);
    await synced(doc);
    // The store debounce (100 ms here) ends before the update's log row commits: the store runs
    // without the row, and no store is pending when the last client leaves.
    updateLog.windowMs = 600;
    try {
      appendParagraph(doc.doc, "logged late");
      await eventually(async () => expect((await row(item.id)).descriptionHtml).toContain("logged late"));
      expect(await logRows(s, name)).toEqual([]);
      await synced(doc);
      expect(await logRows(s, name)).toHaveLength(1);
    } finally {
      updateLog.windowMs = GROUP_COMMIT_WINDOW_MS;
    }
    t.destroy();
    await eventually(() => expect(documents.has(name)).toBe(false));
    expect(await logRows(s, name)).toEqual([]);
    expect((await row(item.id)).descriptionHtml).toBe("<p>Idle</p><p>logged late</p>");
  });
});

it("broadcasts an update before logging it, and acknowledges it only once it is logged", async () => {
  const item = await createIssue(s, f.w.member, f.project.url, { description_html: "<p>Shared</p>" });
  const name = issueDocumentName(item.id);
  const author = tab(s.url, f.w.member).open(name);
  const reader = tab(s.url, f.w.admin).open(name);
  await synced(author);
  await synced(reader);
  const { configuration } = s.app.ctx.live.hocuspocus;
  const { updateLog } = s.app.ctx.live.persistence;
  configuration.debounce = 60_000;
  configuration.maxDebounce = 60_000;
  // A wide group-commit window: the update waits 1.5 s for its INSERT.
  updateLog.windowMs = 1500;
  try {
    const before = (await logRows(s, name)).length;
    appendParagraph(author.doc, "seen before it is stored");
    expect(author.provider.hasUnsyncedChanges).toBe(true);
    // The other client has the edit while its INSERT is still waiting…
    await eventually(() => expect(bodyText(reader.doc)).toContain("seen before it is stored"));
    expect(await logRows(s, name)).toHaveLength(before);
    expect(author.provider.hasUnsyncedChanges).toBe(true);
    // …and the author's acknowledgement comes with the row.
    await eventually(() => expect(author.provider.hasUnsyncedChanges).toBe(false), 5_000);
    expect((await logRows(s, name)).length).toBeGreaterThan(before);
  } finally {
    updateLog.windowMs = GROUP_COMMIT_WINDOW_MS;
    configuration.debounce = 100;
    configuration.maxDebounce = 500;
  }
});

describe("concurrency", () => {
  it("converges when five clients edit one description at random at the same time", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { description_html: "<p>seed</p>" });
    const name = issueDocumentName(item.id);
    const users = [f.w.member, f.w.admin, f.w.member, f.w.admin, f.w.member];
    const docs = users.map((user) => tab(s.url, user).open(name));
    for (const doc of docs) await synced(doc);

    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      for (const [index, doc] of docs.entries()) {
        const fragment = doc.fragment();
        const choice = random(10);
        if (choice < 2 || fragment.length === 0) {
          appendParagraph(doc.doc, `p${index}.${round}`);
        } else {
          const paragraph = fragment.get(random(fragment.length));
          const text = paragraph instanceof Y.XmlElement ? paragraph.get(0) : null;
          if (!(text instanceof Y.XmlText)) continue;
          if (choice < 8 || text.length === 0) text.insert(random(text.length + 1), `${index}`);
          else text.delete(random(text.length), 1);
        }
      }
      // Let some rounds overlap on the wire, others settle.
      if (round % 8 === 7) await new Promise((resolve) => setImmediate(resolve));
    }
    const server = () => s.app.ctx.live.hocuspocus.documents.get(name);
    await eventually(() => {
      const expected = server()?.getXmlFragment("default").toString();
      expect(expected).toBeTruthy();
      for (const doc of docs) {
        expect(doc.provider.hasUnsyncedChanges).toBe(false);
        expect(doc.fragment().toString()).toBe(expected);
      }
    }, 20_000);
    // What is stored is what everyone sees.
    const html = contentOfState(Y.encodeStateAsUpdate(docs[0]?.doc ?? new Y.Doc())).html;
    for (const t of tabs.splice(0)) t.destroy();
    await eventually(async () => expect((await row(item.id)).descriptionHtml).toBe(html));
  });
});

describe("generations", () => {
  it("refuses the updates of a copy made before the description was replaced over REST", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { description_html: "<p>Version one</p>" });
    const name = issueDocumentName(item.id);
    const stale = new Y.Doc();
    const first = tab(s.url, f.w.member);
    const before = first.open(name, stale);
    await synced(before);
    first.destroy();
    await eventually(() => expect(s.app.ctx.live.hocuspocus.documents.has(name)).toBe(false));

    // Replaced while nobody had it open: the state is cleared and rebuilt from the new HTML.
    const res = await client(s.app, f.w.admin).patch(`${f.project.url}/issues/${item.id}/`, {
      description_html: "<p>Version two</p>",
    });
    expect(res.statusCode, res.body).toBe(200);
    appendParagraph(stale, "offline edit");

    const fresh = tab(s.url, f.w.admin).open(name);
    await synced(fresh);
    const reconnected = tab(s.url, f.w.member).open(name, stale);
    await eventually(() => expect(reconnected.closes).toContain(LIVE_CLOSE.documentReset.reason));
    const server = await loadedDocument(s, name);
    expect(bodyText(server)).toBe("Version two");
    expect(bodyText(fresh.doc)).toBe("Version two");
  });
});
