/**
 * REST detail reads fold the write-ahead log (live/storage.ts foldPendingLog): rows the live
 * layer appended but no store folded yet — after a crash, or before a debounced store — show in
 * description_html, and the fold is stored (rows gone, event sent) like a live store's. The
 * kill -9 case itself, with a real child process, is live/durability.test.ts.
 */
import { issueDocumentName, pageDocumentName } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { client, type TestApp } from "../../../test/harness.ts";
import { documentUpdates, issues } from "../../db/schema.ts";
import { stateFromHtml } from "../../live/schema.ts";
import { appendUpdate } from "../../live/storage.ts";
import { insertIssue } from "../assets/test-support.ts";
import {
  appendParagraph,
  createPage,
  docOf,
  fetchState,
  pageRow,
  pageUrl,
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

const logRows = (name: string) => t.db.select().from(documentUpdates).where(eq(documentUpdates.documentName, name));

describe("a page with edits only in the log", () => {
  it("answers them in description_html and folds them into the stored page", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>One</p>" });
    const url = pageUrl(p, page.id);
    const doc = docOf(await fetchState(t, w.member, url));
    // What the live layer does before acknowledging an edit: the update goes to the log only.
    await appendUpdate(t.db, pageDocumentName(page.id), appendParagraph(doc, "Two"), w.admin.id);
    await appendUpdate(t.db, pageDocumentName(page.id), appendParagraph(doc, "Three"), w.member.id);
    expect((await pageRow(t, page.id))?.descriptionHtml).toBe("<p>One</p>");

    const events = recordEvents(t);
    const res = await client(t.app, w.guest).get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().description_html).toBe("<p>One</p><p>Two</p><p>Three</p>");
    const stored = await pageRow(t, page.id);
    expect(stored?.descriptionHtml).toBe("<p>One</p><p>Two</p><p>Three</p>");
    expect(stored?.descriptionStripped).toContain("Three");
    // Credited to the last sender, as a live store credits the last editor.
    expect(stored?.updatedById).toBe(w.member.id);
    expect(await logRows(pageDocumentName(page.id))).toEqual([]);
    expect(events.filter((e) => e.type === "page.updated")).toEqual([
      expect.objectContaining({
        entity_id: page.id,
        actor_id: w.member.id,
        data: expect.objectContaining({ changed_fields: ["description_html"] }),
      }),
    ]);

    // Nothing left to fold: the next read changes nothing and sends nothing.
    const again = await client(t.app, w.member).get(url);
    expect(again.json().description_html).toBe("<p>One</p><p>Two</p><p>Three</p>");
    expect(again.json().updated_at).toBe(res.json().updated_at);
    expect(events.filter((e) => e.type === "page.updated")).toHaveLength(1);
  });

  it("still 404s for someone who can't read the page, folding nothing", async () => {
    const page = await createPage(t, w.member, p, { description_html: "<p>Mine</p>" });
    const doc = docOf(await fetchState(t, w.member, pageUrl(p, page.id)));
    await appendUpdate(t.db, pageDocumentName(page.id), appendParagraph(doc, "secret"));
    expect((await client(t.app, w.outsider).get(pageUrl(p, page.id))).statusCode).toBe(404);
    expect(await logRows(pageDocumentName(page.id))).toHaveLength(1);
    expect((await pageRow(t, page.id))?.descriptionHtml).toBe("<p>Mine</p>");
  });
});

describe("a work item with edits only in the log", () => {
  const itemUrl = (id: string) => `${p.url}/issues/${id}/`;

  it("answers them in description_html, and ignores rows of a description replaced over REST", async () => {
    const issue = await insertIssue(t, p.id, w.member, "Logged");
    const name = issueDocumentName(issue.id);
    // A live load builds the state from the HTML and stores it; then an edit is logged.
    const built = new Y.Doc();
    const state = stateFromHtml("<p>Start</p>");
    Y.applyUpdate(built, state);
    await t.db
      .update(issues)
      .set({ descriptionBinary: state, descriptionHtml: "<p>Start</p>" })
      .where(eq(issues.id, issue.id));
    await appendUpdate(t.db, name, appendParagraph(built, "Logged edit"));

    const res = await client(t.app, w.member).get(itemUrl(issue.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().description_html).toBe("<p>Start</p><p>Logged edit</p>");
    expect(await logRows(name)).toEqual([]);

    // A REST write replaces the description (and clears the state): a row logged against the
    // old state must not come back.
    const patched = await client(t.app, w.member).patch(itemUrl(issue.id), { description_html: "<p>Replaced</p>" });
    expect(patched.statusCode, patched.body).toBe(200);
    await appendUpdate(t.db, name, appendParagraph(built, "stale"));
    const after = await client(t.app, w.member).get(itemUrl(issue.id));
    expect(after.json().description_html).toBe("<p>Replaced</p>");
  });
});
