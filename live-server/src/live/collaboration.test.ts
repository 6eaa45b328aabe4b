/**
 * The reference web client's page editor on GET /live/collaboration (collaboration.ts): a real
 * provider opened the way that client opens one (its own socket, the bare page id as the name,
 * documentType/projectId/workspaceSlug in the query, its user as a JSON token) edits the SAME
 * document as `page.{id}` on /live, under the same Origin, session and rights checks, and loses
 * it the same way (revocation).
 */
import { LIVE_CLOSE, PAGE_TITLE_FIELD, pageDocumentName, projectChannelName, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createUser, postForm } from "../../test/harness.ts";
import { pages, workspaceMembers } from "../db/schema.ts";
import { anotherProject, createFixture, type Fixture } from "../routes/issues/test-support.ts";
import { addMember } from "../routes/projects/test-support.ts";
import { setTitle, titleOf } from "./schema.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  insertPage,
  type LiveServer,
  logRows,
  openReferenceEditor,
  openTab,
  type ReferenceEditor,
  type ReferenceQuery,
  startLiveServer,
  synced,
  type Tab,
} from "./test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];
const editors: ReferenceEditor[] = [];
const tab = (...args: Parameters<typeof openTab>) => {
  const opened = openTab(...args);
  tabs.push(opened);
  return opened;
};
const reference = (...args: Parameters<typeof openReferenceEditor>) => {
  const opened = openReferenceEditor(...args);
  editors.push(opened);
  return opened;
};

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
});

afterAll(async () => {
  for (const e of editors) e.destroy();
  for (const t of tabs) t.destroy();
  await s.close();
});

/** The query the reference's page screen sends for a page of the fixture's project. */
const here = (): ReferenceQuery => ({ projectId: f.project.id, workspaceSlug: f.w.slug });

async function sharedPage(values: Partial<Parameters<typeof insertPage>[1]> = {}) {
  return insertPage(s, {
    workspaceId: f.w.workspaceId,
    ownerId: f.w.admin.id,
    projectIds: [f.project.id],
    name: "Shared notes",
    descriptionHtml: "<p>Start</p>",
    ...values,
  });
}

/** A new member of the fixture's workspace and project. */
async function newcomer(role = ROLE.member) {
  const user = await createUser(s.db);
  const [membership] = await s.db
    .insert(workspaceMembers)
    .values({ workspaceId: f.w.workspaceId, memberId: user.id, role })
    .returning();
  if (!membership) throw new Error("membership insert failed");
  const projectRowId = await addMember(s, f.w.admin, f.w.slug, f.project.id, user, role);
  return { user, membershipId: membership.id, projectRowId };
}

describe("one page, two clients", () => {
  it("a Tideline tab on /live and the reference's editor on /live/collaboration co-edit one document", async () => {
    const page = await sharedPage();
    const ours = tab(s.url, f.w.admin).open(pageDocumentName(page.id));
    const theirs = reference(s.url, f.w.member, page.id, here());
    await synced(ours);
    await synced(theirs);
    expect(theirs.scope).toBe("read-write");
    // The same content from the start: the body and the title the reference's editor shows.
    expect(bodyText(theirs.doc)).toBe("Start");
    await eventually(() => expect(titleOf(theirs.doc)).toBe("Shared notes"));
    expect(theirs.doc.getXmlFragment(PAGE_TITLE_FIELD).length).toBe(1);

    appendParagraph(ours.doc, "typed in Tideline");
    appendParagraph(theirs.doc, "typed in the reference");
    await eventually(() => {
      expect(bodyText(ours.doc)).toContain("typed in the reference");
      expect(bodyText(theirs.doc)).toContain("typed in Tideline");
      expect(ours.fragment().toString()).toBe(theirs.doc.getXmlFragment("default").toString());
    });
    // One document on the server, under our name; none under the bare id.
    const { documents } = s.app.ctx.live.hocuspocus;
    expect(documents.has(pageDocumentName(page.id))).toBe(true);
    expect(documents.has(page.id)).toBe(false);
    await synced(ours);
    await synced(theirs);
    // Both edits are stored into the page, credited to their last author.
    await eventually(async () => {
      const [row] = await s.db.select().from(pages).where(eq(pages.id, page.id));
      expect(row?.descriptionHtml).toContain("typed in Tideline");
      expect(row?.descriptionHtml).toContain("typed in the reference");
    });
  });

  it("a title typed in the reference's editor renames the page, and a REST rename reaches its title", async () => {
    const page = await sharedPage({ name: "Before" });
    const theirs = reference(s.url, f.w.member, page.id, here());
    await synced(theirs);
    await eventually(() => expect(titleOf(theirs.doc)).toBe("Before"));
    setTitle(theirs.doc, "Typed there");
    await synced(theirs);
    await eventually(async () => {
      const [row] = await s.db.select().from(pages).where(eq(pages.id, page.id));
      expect(row?.name).toBe("Typed there");
    });
    const res = await client(s.app, f.w.admin).patch(`${f.project.url}/pages/${page.id}/`, { name: "Renamed" });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => expect(titleOf(theirs.doc)).toBe("Renamed"));
  });
});

describe("refusals", () => {
  it("refuses without a session, from a foreign Origin, and a token naming someone else", async () => {
    const page = await sharedPage();
    const signedOut = reference(s.url, null, page.id, here());
    const foreign = reference(s.url, f.w.member, page.id, here(), { origin: "https://evil.example" });
    const missing = reference(s.url, f.w.member, page.id, here(), { origin: null });
    const impostor = reference(s.url, f.w.member, page.id, here(), { tokenUserId: f.w.admin.id });
    await eventually(() => {
      expect(signedOut.refused).toBe(LIVE_CLOSE.unauthorized.reason);
      expect(foreign.refused).toBe(LIVE_CLOSE.forbidden.reason);
      expect(missing.refused).toBe(LIVE_CLOSE.forbidden.reason);
      expect(impostor.refused).toBe(LIVE_CLOSE.unauthorized.reason);
    });
    for (const e of [signedOut, foreign, missing, impostor]) expect(e.scope).toBeNull();
  });

  it("refuses a page the query does not place: another project, another workspace, another document type", async () => {
    const page = await sharedPage();
    const other = await anotherProject(s, f);
    const inOtherProject = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      ownerId: f.w.admin.id,
      projectIds: [other.id],
    });
    const cases = [
      // The member may read this page, but not through another project's address.
      reference(s.url, f.w.member, inOtherProject.id, here()),
      reference(s.url, f.w.member, page.id, { projectId: other.id, workspaceSlug: f.w.slug }),
      reference(s.url, f.w.member, page.id, { projectId: f.project.id, workspaceSlug: f.w.otherSlug }),
      reference(s.url, f.w.member, page.id, { ...here(), documentType: "workspace_page" }),
      reference(s.url, f.w.member, page.id, { workspaceSlug: f.w.slug }),
      // A person of another workspace, whatever the query says.
      reference(s.url, f.w.stranger, page.id, here()),
      // Only pages: another kind of document is not reachable through this path.
      reference(s.url, f.w.member, projectChannelName(f.project.id), here()),
      reference(s.url, f.w.member, `page.${page.id}`, here()),
    ];
    await eventually(() => {
      for (const e of cases) expect(e.refused).toBe(LIVE_CLOSE.forbidden.reason);
    });
    // The same person through the right address is accepted.
    const fine = reference(s.url, f.w.member, inOtherProject.id, { projectId: other.id, workspaceSlug: f.w.slug });
    await eventually(() => expect(fine.scope).toBe("read-write"));
  });

  it("gives a reader (guest) a read-only connection whose edits are never applied", async () => {
    const page = await sharedPage();
    const writer = tab(s.url, f.w.member).open(pageDocumentName(page.id));
    const guest = reference(s.url, f.w.guest, page.id, here());
    await synced(writer);
    await eventually(() => expect(guest.scope).toBe("readonly"));
    await eventually(() => expect(guest.provider.isSynced).toBe(true));
    const rows = (await logRows(s, pageDocumentName(page.id))).length;
    appendParagraph(guest.doc, "guest was here");
    // Wait for the server's answer to that update: refused.
    await eventually(() => expect(guest.refusedUpdates).toBeGreaterThan(0));
    appendParagraph(writer.doc, "member was here");
    await eventually(() => expect(bodyText(guest.doc)).toContain("member was here"));
    const server = s.app.ctx.live.hocuspocus.documents.get(pageDocumentName(page.id));
    expect(server && bodyText(server)).toContain("member was here");
    expect(server && bodyText(server)).not.toContain("guest was here");
    expect(bodyText(writer.doc)).not.toContain("guest was here");
    await synced(writer);
    expect((await logRows(s, pageDocumentName(page.id))).length).toBe(rows + 1);
  });
});

describe("revocation", () => {
  it("signing out closes the socket (4401)", async () => {
    const { user } = await newcomer();
    const page = await sharedPage();
    const theirs = reference(s.url, user, page.id, here());
    await synced(theirs);
    const res = await postForm(s.app, "/auth/sign-out/", {}, { "session-id": user.token });
    expect(res.statusCode).toBe(302);
    await eventually(
      () => expect(theirs.socketCloses.map((c) => c.code)).toContain(LIVE_CLOSE.unauthorized.code),
      2000,
    );
    // Reconnecting with the ended session is refused.
    await eventually(() => expect(theirs.refused).toBe(LIVE_CLOSE.unauthorized.reason));
  });

  it("removal from the project closes the socket `forbidden`, and it is refused when it comes back", async () => {
    const { user, projectRowId } = await newcomer();
    const page = await sharedPage();
    const theirs = reference(s.url, user, page.id, here());
    await synced(theirs);
    const res = await client(s.app, f.w.admin).delete(`${f.project.url}/members/${projectRowId}/`);
    expect(res.statusCode, res.body).toBe(204);
    await eventually(() => expect(theirs.socketCloses.map((c) => c.code)).toContain(LIVE_CLOSE.forbidden.code), 2000);
    await eventually(() => expect(theirs.refused).toBe(LIVE_CLOSE.forbidden.reason));
  });

  it("a lock tells the editor `locked`, and its connection comes back read-only", async () => {
    const page = await sharedPage({ ownerId: f.w.member.id });
    const ours = tab(s.url, f.w.admin).open(pageDocumentName(page.id));
    const theirs = reference(s.url, f.w.member, page.id, here());
    await synced(ours);
    await synced(theirs);
    expect(theirs.scope).toBe("read-write");
    const res = await client(s.app, f.w.member).post(`${f.project.url}/pages/${page.id}/lock/`);
    expect(res.statusCode, res.body).toBeLessThan(300);
    await eventually(() => expect(theirs.notices).toContain("locked"));
    // The socket is closed `access-changed`: the provider reconnects and learns its new scope.
    await eventually(() => expect(theirs.socketCloses.map((c) => c.code)).toContain(LIVE_CLOSE.accessChanged.code));
    await eventually(() => expect(theirs.scope).toBe("readonly"));
    await eventually(() => expect(theirs.provider.isSynced).toBe(true));
    appendParagraph(theirs.doc, "after the lock");
    await eventually(() => expect(theirs.refusedUpdates).toBeGreaterThan(0));
    const server = s.app.ctx.live.hocuspocus.documents.get(pageDocumentName(page.id));
    expect(server && bodyText(server)).not.toContain("after the lock");
    expect(bodyText(ours.doc)).not.toContain("after the lock");
    const unlocked = await client(s.app, f.w.member).delete(`${f.project.url}/pages/${page.id}/lock/`);
    expect(unlocked.statusCode, unlocked.body).toBeLessThan(300);
    await eventually(() => expect(theirs.notices).toContain("unlocked"));
  });

  it("demotion to guest closes the socket `access-changed`; the editor comes back read-only", async () => {
    const { user, membershipId } = await newcomer();
    const page = await sharedPage();
    const theirs = reference(s.url, user, page.id, here());
    await synced(theirs);
    expect(theirs.scope).toBe("read-write");
    const res = await client(s.app, f.w.admin).patch(`/api/workspaces/${f.w.slug}/members/${membershipId}/`, {
      role: ROLE.guest,
    });
    expect(res.statusCode, res.body).toBe(200);
    await eventually(() => expect(theirs.socketCloses.map((c) => c.code)).toContain(LIVE_CLOSE.accessChanged.code));
    await eventually(() => expect(theirs.scope).toBe("readonly"));
  });
});
