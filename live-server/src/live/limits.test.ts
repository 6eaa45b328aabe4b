/**
 * The live layer's limits: document size, clients per document, messages per second, each
 * with the close event of the protocol.
 */
import { issueDocumentName, LIVE_CLOSE, LIVE_LIMITS, projectChannelName } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { ORIGIN } from "../../test/harness.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { issues } from "../db/schema.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  type LiveServer,
  logRows,
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

afterEach(() => {
  Object.assign(s.app.ctx.live.limits, LIVE_LIMITS);
  for (const t of tabs.splice(0)) t.destroy();
});

afterAll(async () => {
  await s.close();
});

describe("limits", () => {
  it("refuses an update that makes the document too large and closes that document", async () => {
    const item = await createIssue(s, f.w.member, f.project.url, { description_html: "<p>Small</p>" });
    const name = issueDocumentName(item.id);
    const doc = tab(s.url, f.w.member).open(name);
    await synced(doc);
    const rows = (await logRows(s, name)).length;
    s.app.ctx.live.limits.maxDocumentBytes = 20_000;

    appendParagraph(doc.doc, "x".repeat(30_000));
    await eventually(() => expect(doc.closes).toContain(LIVE_CLOSE.documentTooLarge.reason));
    // Closing its only connection may have unloaded the document already: what is stored is
    // checked whatever the timing, and the document itself while it is still held.
    const server = s.app.ctx.live.hocuspocus.documents.get(name);
    if (server) expect(bodyText(server)).toBe("Small");
    const [stored] = await s.db.select().from(issues).where(eq(issues.id, item.id));
    expect(stored?.descriptionHtml).toBe("<p>Small</p>");
    expect((await logRows(s, name)).length).toBe(rows);
  });

  it("refuses a client beyond the maximum per document", async () => {
    const item = await createIssue(s, f.w.member, f.project.url);
    const name = issueDocumentName(item.id);
    s.app.ctx.live.limits.maxClientsPerDocument = 2;
    const first = tab(s.url, f.w.member).open(name);
    const second = tab(s.url, f.w.admin).open(name);
    await synced(first);
    await synced(second);
    const third = tab(s.url, f.w.member).open(name);
    await eventually(() => expect(third.refused).toBe(LIVE_CLOSE.tooManyClients.reason));
  });

  it("counts event channels against their own, higher limit", async () => {
    const name = projectChannelName(f.project.id);
    s.app.ctx.live.limits.maxClientsPerDocument = 1;
    s.app.ctx.live.limits.maxClientsPerChannel = 2;
    const first = tab(s.url, f.w.member).open(name);
    const second = tab(s.url, f.w.admin).open(name);
    await synced(first);
    await synced(second);
    expect(first.refused ?? second.refused).toBeFalsy();
    const third = tab(s.url, f.w.member).open(name);
    await eventually(() => expect(third.refused).toBe(LIVE_CLOSE.tooManyClients.reason));
  });

  it("closes a WebSocket that sends more messages than allowed", async () => {
    s.app.ctx.live.limits.messagesPerSecond = 5;
    s.app.ctx.live.limits.messageBurst = 10;
    const socket = new WebSocket(s.url, {
      headers: { origin: ORIGIN, cookie: `${SESSION_COOKIE}=${f.w.member.token}` },
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    await new Promise((resolve) => socket.on("open", resolve));
    // Well-formed frames (a query of awareness for document "x", queued until it authenticates).
    for (let i = 0; i < 50; i++) socket.send(new Uint8Array([1, "x".charCodeAt(0), 3]));
    expect(await closed).toEqual({ code: LIVE_CLOSE.rateLimited.code, reason: LIVE_CLOSE.rateLimited.reason });
  });
});
