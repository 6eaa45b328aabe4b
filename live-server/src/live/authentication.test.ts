/**
 * Who may open which live document, and read-only connections never change a document.
 */
import { issueDocumentName, LIVE_CLOSE, pageDocumentName, projectChannelName, userChannelName } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../test/harness.ts";
import { issues, projects } from "../db/schema.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  insertPage,
  type LiveServer,
  loadedDocument,
  logRows,
  openTab,
  startLiveServer,
  synced,
  type Tab,
} from "./test-support.ts";

let s: LiveServer;
let f: Fixture;
let issueId: string;
const tabs: Tab[] = [];
const tab = (...args: Parameters<typeof openTab>) => {
  const opened = openTab(...args);
  tabs.push(opened);
  return opened;
};

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
  issueId = (await createIssue(s, f.w.member, f.project.url, { name: "Live", description_html: "<p>Hello</p>" })).id;
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

describe("refusals", () => {
  it("refuses a connection without a session", async () => {
    const doc = tab(s.url, null).open(issueDocumentName(issueId));
    await eventually(() => expect(doc.refused).toBe(LIVE_CLOSE.unauthorized.reason));
    expect(doc.scope).toBeNull();
  });

  it("refuses an expired or unknown session", async () => {
    const doc = tab(s.url, { token: "not-a-session" }).open(projectChannelName(f.project.id));
    await eventually(() => expect(doc.refused).toBe(LIVE_CLOSE.unauthorized.reason));
  });

  it("refuses a user of another workspace, on every kind of document", async () => {
    const t = tab(s.url, f.w.stranger);
    const docs = [
      t.open(issueDocumentName(issueId)),
      t.open(projectChannelName(f.project.id)),
      t.open(userChannelName(f.w.member.id)),
    ];
    await eventually(() => {
      for (const doc of docs) expect(doc.refused).toBe(LIVE_CLOSE.forbidden.reason);
    });
    // The same socket still serves what the stranger may open.
    const own = t.open(userChannelName(f.w.stranger.id));
    await eventually(() => expect(own.scope).toBe("readonly"));
  });

  it("refuses a foreign or missing Origin, and one that merely matches the Host addressed", async () => {
    const foreign = tab(s.url, f.w.member, { origin: "https://evil.example" }).open(issueDocumentName(issueId));
    const missing = tab(s.url, f.w.member, { origin: null }).open(issueDocumentName(issueId));
    // The upgrade's Host is 127.0.0.1:<port>; only APP_BASE_URL's origin (localhost:3000) counts.
    const hostOrigin = new URL(s.url.replace(/^ws/, "http")).origin;
    const byHost = tab(s.url, f.w.member, { origin: hostOrigin }).open(issueDocumentName(issueId));
    await eventually(() => {
      expect(foreign.refused).toBe(LIVE_CLOSE.forbidden.reason);
      expect(missing.refused).toBe(LIVE_CLOSE.forbidden.reason);
      expect(byHost.refused).toBe(LIVE_CLOSE.forbidden.reason);
    });
  });

  it("refuses unknown document names and other users' channels", async () => {
    const t = tab(s.url, f.w.member);
    const docs = [t.open("issue.not-a-uuid"), t.open(`board.${issueId}`), t.open(userChannelName(f.w.admin.id))];
    await eventually(() => {
      for (const doc of docs) expect(doc.refused).toBe(LIVE_CLOSE.forbidden.reason);
    });
  });

  it("refuses a workspace member who is not in the project", async () => {
    const doc = tab(s.url, f.w.outsider).open(issueDocumentName(issueId));
    await eventually(() => expect(doc.refused).toBe(LIVE_CLOSE.forbidden.reason));
  });

  it("refuses a restricted guest an item they did not create", async () => {
    const doc = tab(s.url, f.w.guest).open(issueDocumentName(issueId));
    await eventually(() => expect(doc.refused).toBe(LIVE_CLOSE.forbidden.reason));
  });
});

describe("read-write and read-only", () => {
  it("lets a member edit a description and makes channels read-only", async () => {
    const t = tab(s.url, f.w.member);
    const issue = t.open(issueDocumentName(issueId));
    const channel = t.open(projectChannelName(f.project.id));
    const own = t.open(userChannelName(f.w.member.id));
    await eventually(() => {
      expect(issue.scope).toBe("read-write");
      expect(channel.scope).toBe("readonly");
      expect(own.scope).toBe("readonly");
    });
    await synced(issue);
    expect(bodyText(issue.doc)).toBe("Hello");
  });

  it("never applies an update from a read-only (guest) connection", async () => {
    await s.db.update(projects).set({ guestViewAllFeatures: true }).where(eq(projects.id, f.project.id));
    const name = issueDocumentName(issueId);
    const member = tab(s.url, f.w.member).open(name);
    const guest = tab(s.url, f.w.guest).open(name);
    await eventually(() => expect(guest.scope).toBe("readonly"));
    await synced(member);
    await eventually(() => expect(guest.provider.isSynced).toBe(true));

    appendParagraph(guest.doc, "guest was here");
    appendParagraph(member.doc, "member was here");
    await synced(member);
    // Wait for the server's answer to the guest's update: not applied.
    await eventually(() => expect(guest.refusedUpdates).toBeGreaterThan(0));
    // The member's change reaches the guest; the guest's never reaches the server or the member.
    await eventually(() => expect(bodyText(guest.doc)).toContain("member was here"));
    const server = await loadedDocument(s, name);
    expect(bodyText(server)).toContain("member was here");
    expect(bodyText(server)).not.toContain("guest was here");
    expect(bodyText(member.doc)).not.toContain("guest was here");
    expect(guest.provider.hasUnsyncedChanges).toBe(true);
    // The member's update is kept (in the log, or already folded into the description by a
    // store: which one depends on timing), the guest's in neither (Yjs keeps text as UTF-8).
    const kept = async () => {
      const logged = (await logRows(s, name)).map((row) => Buffer.from(row.update).toString("utf8")).join("");
      const [stored] = await s.db.select().from(issues).where(eq(issues.id, issueId));
      return logged + (stored?.descriptionHtml ?? "");
    };
    await eventually(async () => expect(await kept()).toContain("member was here"));
    expect(await kept()).not.toContain("guest was here");
    await s.db.update(projects).set({ guestViewAllFeatures: false }).where(eq(projects.id, f.project.id));
  });
});

describe("pages", () => {
  it("follows the page rules: public read for members and guests, private for the owner, locked read-only", async () => {
    const base = { workspaceId: f.w.workspaceId, projectIds: [f.project.id] };
    const publicPage = await insertPage(s, { ...base, ownerId: f.w.admin.id, descriptionHtml: "<p>Public</p>" });
    const privatePage = await insertPage(s, { ...base, ownerId: f.w.member.id, access: 1 });
    const lockedPage = await insertPage(s, { ...base, ownerId: f.w.admin.id, isLocked: true });
    const archivedPage = await insertPage(s, { ...base, ownerId: f.w.member.id, archivedAt: new Date() });

    const member = tab(s.url, f.w.member);
    const guest = tab(s.url, f.w.guest);
    const admin = tab(s.url, f.w.admin);
    const cases = [
      [member.open(pageDocumentName(publicPage.id)), "read-write"],
      [guest.open(pageDocumentName(publicPage.id)), "readonly"],
      [member.open(pageDocumentName(privatePage.id)), "read-write"],
      [admin.open(pageDocumentName(privatePage.id)), null],
      [member.open(pageDocumentName(lockedPage.id)), "readonly"],
      [member.open(pageDocumentName(archivedPage.id)), "readonly"],
      [tab(s.url, f.w.outsider).open(pageDocumentName(publicPage.id)), null],
      [tab(s.url, f.w.stranger).open(pageDocumentName(publicPage.id)), null],
    ] as const;
    await eventually(() => {
      for (const [doc, scope] of cases) {
        if (scope) expect(doc.scope).toBe(scope);
        else expect(doc.refused).toBe(LIVE_CLOSE.forbidden.reason);
      }
    });
    const [first] = cases;
    await synced(first[0]);
    expect(bodyText(first[0].doc)).toBe("Public");
  });

  it("switches open connections to read-only when a page is locked over REST", async () => {
    const page = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      projectIds: [f.project.id],
      ownerId: f.w.member.id,
    });
    const doc = tab(s.url, f.w.member).open(pageDocumentName(page.id));
    await synced(doc);
    expect(doc.scope).toBe("read-write");
    appendParagraph(doc.doc, "before the lock");
    await synced(doc);
    const res = await client(s.app, f.w.member).post(
      `/api/workspaces/${f.w.slug}/projects/${f.project.id}/pages/${page.id}/lock/`,
    );
    expect(res.statusCode).toBeLessThan(300);
    // The document is closed so the client learns its new scope by authenticating again.
    await eventually(() => expect(doc.closes).toContain(LIVE_CLOSE.accessChanged.reason));
    doc.reauthenticate();
    await eventually(() => expect(doc.scope).toBe("readonly"));
    appendParagraph(doc.doc, "after the lock");
    // Wait for the server's answer to that update: not applied. The access change closed every
    // connection, so the server unloaded the document and loaded it again for the read-only one.
    await eventually(() => expect(doc.refusedUpdates).toBeGreaterThan(0));
    expect(doc.provider.hasUnsyncedChanges).toBe(true);
    const server = await loadedDocument(s, pageDocumentName(page.id));
    expect(bodyText(server)).toContain("before the lock");
    expect(bodyText(server)).not.toContain("after the lock");
  });
});

describe("roles", () => {
  it("gives guests of the project a read-only project channel", async () => {
    const doc = tab(s.url, f.w.guest).open(projectChannelName(f.project.id));
    await eventually(() => expect(doc.scope).toBe("readonly"));
  });
});
