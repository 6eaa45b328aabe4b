/**
 * Rights that open live connections hold are revoked as soon as they are lost (issue 9 item 1),
 * within a second, one test per cause: sign-out, password change, password reset, deactivation,
 * removal from the workspace, removal from the project, demotion to guest. And awareness is
 * policed (item 4): readers share none, an oversized state is refused, names come from the server.
 */
import {
  LIVE_CLOSE,
  pageDocumentName,
  presenceUser,
  projectChannelName,
  ROLE,
  type Role,
  userChannelName,
} from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createUser, createWorkspace, postForm, setupInstance, type TestUser } from "../../test/harness.ts";
import { sha256 } from "../auth/crypto.ts";
import { createSession } from "../auth/sessions.ts";
import { sessions, workspaceMembers } from "../db/schema.ts";
import { issuePasswordToken } from "../routes/auth/service.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import { addMember, createProject } from "../routes/projects/test-support.ts";
import {
  appendParagraph,
  bodyText,
  eventually,
  insertPage,
  type LiveServer,
  loadedDocument,
  logRows,
  type OpenDocument,
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
/** How long each revocation took, from the REST call to the connection closed or downgraded. */
const measured: Record<string, number | string> = {};

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
  console.info(`revocation times (ms): ${JSON.stringify(measured)}`);
});

/** A new person in the fixture's workspace at `role`, and in its project at `projectRole`. */
async function newcomer(role: Role, projectRole: Role | null = role) {
  const user = await createUser(s.db);
  const [membership] = await s.db
    .insert(workspaceMembers)
    .values({ workspaceId: f.w.workspaceId, memberId: user.id, role })
    .returning();
  if (!membership) throw new Error("membership insert failed");
  const projectRowId = projectRole ? await addMember(s, f.w.admin, f.w.slug, f.project.id, user, projectRole) : null;
  return { user, membershipId: membership.id, projectRowId };
}

/** Another session of the same person (another browser). */
async function otherSession(user: TestUser): Promise<TestUser> {
  return { ...user, token: await createSession(s.db, user.id, {}) };
}

/**
 * Run `change` (a REST call: it answers once the change is committed and its events published),
 * then wait at most a second until `check` passes. Records the time from the answer, and from the
 * call (which includes the request itself: password hashing, transaction).
 */
async function withinASecond(name: string, change: () => Promise<unknown>, check: () => void): Promise<void> {
  const called = performance.now();
  await change();
  const answered = performance.now();
  await eventually(check, 1000);
  const done = performance.now();
  measured[name] = `${Math.round(done - answered)} (${Math.round(done - called)} with the call)`;
}

/** A tab of `user` with its project channel and user channel open and synced. */
async function channels(user: TestUser) {
  const t = tab(s.url, user);
  const project = t.open(projectChannelName(f.project.id));
  const own = t.open(userChannelName(user.id));
  await synced(project);
  await synced(own);
  return { tab: t, project, own };
}

const SIGNED_OUT = LIVE_CLOSE.unauthorized.code;

/** The event channel is still live: an event emitted now reaches it. */
async function stillReceives(channel: OpenDocument): Promise<void> {
  const item = await createIssue(s, f.w.admin, f.project.url, { name: `Ping ${Math.random()}` });
  await eventually(() => expect(channel.messages.some((m) => m.event.entity_id === item.id)).toBe(true));
}

describe("sessions", () => {
  it("sign-out closes the socket its session authenticated within a second, not the person's other sessions", async () => {
    const { user } = await newcomer(ROLE.member);
    const elsewhere = await otherSession(user);
    const here = await channels(user);
    const there = await channels(elsewhere);
    await withinASecond(
      "sign-out",
      async () => {
        const res = await postForm(s.app, "/auth/sign-out/", {}, { "session-id": user.token });
        expect(res.statusCode).toBe(302);
      },
      () => expect(here.tab.socketCloses).toContain(SIGNED_OUT),
    );
    expect(here.project.closes).toContain(LIVE_CLOSE.unauthorized.reason);
    // Reconnecting with the ended session is refused.
    await eventually(() => expect(here.project.refused).toBe(LIVE_CLOSE.unauthorized.reason));
    expect(there.tab.socketCloses).toEqual([]);
    await stillReceives(there.project);
  });

  it("a password change ends the person's other sessions and keeps this one", async () => {
    const { user } = await newcomer(ROLE.member);
    const elsewhere = await otherSession(user);
    const here = await channels(user);
    const there = await channels(elsewhere);
    await withinASecond(
      "password change",
      async () => {
        const res = await client(s.app, user).post("/auth/change-password/", {
          old_password: user.password,
          new_password: "a brand new passphrase 42",
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
      },
      () => expect(there.tab.socketCloses).toContain(SIGNED_OUT),
    );
    expect(here.tab.socketCloses).toEqual([]);
    await stillReceives(here.project);
  });

  it("a password reset ends every session", async () => {
    const { user } = await newcomer(ROLE.member);
    const elsewhere = await otherSession(user);
    const here = await channels(user);
    const there = await channels(elsewhere);
    const token = await issuePasswordToken(s.db, user.id);
    await withinASecond(
      "password reset",
      async () => {
        const res = await client(s.app).post(`/auth/reset-password/${user.id}/${token}/`, {
          password: "a brand new passphrase 43",
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
      },
      () => {
        expect(here.tab.socketCloses).toContain(SIGNED_OUT);
        expect(there.tab.socketCloses).toContain(SIGNED_OUT);
      },
    );
  });

  it("deactivating the account closes every socket of it", async () => {
    const { user } = await newcomer(ROLE.member);
    const here = await channels(user);
    const there = await channels(await otherSession(user));
    await withinASecond(
      "deactivation",
      async () => {
        const res = await client(s.app, user).delete("/api/users/me/");
        expect(res.statusCode, res.body).toBe(204);
      },
      () => {
        expect(here.tab.socketCloses).toContain(SIGNED_OUT);
        expect(there.tab.socketCloses).toContain(SIGNED_OUT);
      },
    );
  });
});

describe("session expiry", () => {
  it("closes a socket when the session that authenticated it expires", async () => {
    const { user } = await newcomer(ROLE.member);
    const expiresAt = new Date(Date.now() + 3000);
    await s.db
      .update(sessions)
      .set({ expiresAt })
      .where(eq(sessions.tokenHash, sha256(user.token)));
    const open = await channels(user);
    await eventually(() => expect(open.tab.socketCloses).toContain(SIGNED_OUT), 6000);
    measured["expiry (after the expiry time)"] = Date.now() - expiresAt.getTime();
    expect(Date.now() - expiresAt.getTime()).toBeLessThan(1000);
  });
});

describe("sign-in in a browser that had a session", () => {
  it("ends that earlier session (maybe another account's): its sockets close", async () => {
    const { user: earlier } = await newcomer(ROLE.member);
    const admin = await createUser(s.db);
    await setupInstance(s.db, admin);
    const before = await channels(earlier);
    await withinASecond(
      "god-mode sign-in replacing a session",
      async () => {
        const res = await postForm(
          s.app,
          "/api/instances/admins/sign-in/",
          { email: admin.email, password: admin.password },
          { "session-id": earlier.token },
        );
        expect(res.headers.location).toBe("/god-mode/general/");
      },
      () => expect(before.tab.socketCloses).toContain(SIGNED_OUT),
    );
  });
});

describe("memberships", () => {
  it("removal from the workspace closes the person's project channel, work items and pages there", async () => {
    const { user, membershipId } = await newcomer(ROLE.member);
    const item = await createIssue(s, f.w.admin, f.project.url, { name: "Shared", description_html: "<p>x</p>" });
    const page = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      ownerId: f.w.admin.id,
      projectIds: [f.project.id],
    });
    const { tab: t, project, own } = await channels(user);
    const issueDoc = t.open(`issue.${item.id}`);
    const pageDoc = t.open(pageDocumentName(page.id));
    await synced(issueDoc);
    await synced(pageDoc);
    await withinASecond(
      "removal from workspace",
      async () => {
        const res = await client(s.app, f.w.admin).delete(`/api/workspaces/${f.w.slug}/members/${membershipId}/`);
        expect(res.statusCode, res.body).toBe(204);
      },
      () => {
        for (const doc of [project, issueDoc, pageDoc]) expect(doc.closes).toContain(LIVE_CLOSE.forbidden.reason);
      },
    );
    // Their own channel stays: it is theirs whatever workspaces they are in.
    expect(own.closes).toEqual([]);
    expect(t.socketCloses).toEqual([]);
  });

  it("removal from the project: its channel closes and stops sending item names and comment bodies", async () => {
    const { user, projectRowId } = await newcomer(ROLE.member);
    const removed = await channels(user);
    const control = await channels(f.w.admin);
    await withinASecond(
      "removal from project",
      async () => {
        const res = await client(s.app, f.w.admin).delete(`${f.project.url}/members/${projectRowId}/`);
        expect(res.statusCode, res.body).toBe(204);
      },
      () => expect(removed.project.closes).toContain(LIVE_CLOSE.forbidden.reason),
    );
    const item = await createIssue(s, f.w.admin, f.project.url, { name: "Secret item name" });
    const comment = await client(s.app, f.w.admin).post(`${f.project.url}/issues/${item.id}/comments/`, {
      comment_html: "<p>Secret comment body</p>",
    });
    expect(comment.statusCode, comment.body).toBe(201);
    await eventually(() => {
      expect(control.project.messages.some((m) => m.event.type === "comment.created")).toBe(true);
      expect(control.project.messages.some((m) => m.event.entity_id === item.id)).toBe(true);
    });
    const leaked = JSON.stringify(removed.project.messages);
    expect(leaked).not.toContain("Secret item name");
    expect(leaked).not.toContain("Secret comment body");
  });

  it("demotion to guest: page edits are no longer saved, the project channel sends only a guest's events", async () => {
    const { user, membershipId } = await newcomer(ROLE.member);
    const page = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      ownerId: f.w.admin.id,
      projectIds: [f.project.id],
    });
    const name = pageDocumentName(page.id);
    const demoted = await channels(user);
    const control = await channels(f.w.admin);
    const doc = demoted.tab.open(name);
    await synced(doc);
    expect(doc.scope).toBe("read-write");
    appendParagraph(doc.doc, "while a member");
    await synced(doc);
    // The server side of the page connection, to see it switch read-only before it is closed.
    const connection = s.app.ctx.live.hocuspocus.documents.get(name)?.getConnections()[0];
    expect(connection?.readOnly).toBe(false);
    await withinASecond(
      "demotion to guest",
      async () => {
        const res = await client(s.app, f.w.admin).patch(`/api/workspaces/${f.w.slug}/members/${membershipId}/`, {
          role: ROLE.guest,
        });
        expect(res.statusCode, res.body).toBe(200);
      },
      () => {
        expect(connection?.readOnly).toBe(true);
        expect(doc.closes).toContain(LIVE_CLOSE.accessChanged.reason);
      },
    );
    // Still a reader of the page: authenticating again gives a read-only connection…
    doc.reauthenticate();
    await eventually(() => expect(doc.scope).toBe("readonly"));
    // …whose edits are refused, not saved.
    appendParagraph(doc.doc, "after the demotion");
    // Wait for what is checked: the server's answer to that update ("not applied"). The access
    // change closed the only connection, so the server unloaded the document and loaded it again
    // for the read-only one; the answer comes from that new document, which is then the one held.
    await eventually(() => expect(doc.refusedUpdates).toBeGreaterThan(0));
    expect(doc.provider.hasUnsyncedChanges).toBe(true);
    const server = await loadedDocument(s, name);
    expect(bodyText(server)).toContain("while a member");
    expect(bodyText(server)).not.toContain("after the demotion");
    // Nothing of it reached the write-ahead log either (Yjs keeps inserted text as UTF-8).
    const logged = (await logRows(s, name)).map((row) => Buffer.from(row.update).toString("utf8")).join("");
    expect(logged).not.toContain("after the demotion");
    // The project channel is closed `access-changed` (its guest restriction changed) and, opened
    // again, is restricted as for any guest (guest_view_all_features off).
    expect(demoted.project.closes).toEqual([LIVE_CLOSE.accessChanged.reason]);
    demoted.project.reauthenticate();
    await synced(demoted.project);
    const item = await createIssue(s, f.w.admin, f.project.url, { name: "Not for guests" });
    await client(s.app, f.w.admin).post(`${f.project.url}/issues/${item.id}/comments/`, {
      comment_html: "<p>Members only</p>",
    });
    await eventually(() => {
      expect(control.project.messages.some((m) => m.event.type === "comment.created")).toBe(true);
      expect(control.project.messages.some((m) => m.event.entity_id === item.id)).toBe(true);
    });
    const leaked = JSON.stringify(demoted.project.messages);
    expect(leaked).not.toContain("Not for guests");
    expect(leaked).not.toContain("Members only");
  });

  it("a project role lowered to guest turns an open work item read-only", async () => {
    const { user, projectRowId } = await newcomer(ROLE.member);
    const item = await createIssue(s, user, f.project.url, { name: "Mine", description_html: "<p>Mine</p>" });
    const doc = tab(s.url, user).open(`issue.${item.id}`);
    await synced(doc);
    expect(doc.scope).toBe("read-write");
    await withinASecond(
      "project role to guest",
      async () => {
        const res = await client(s.app, f.w.admin).patch(`${f.project.url}/members/${projectRowId}/`, {
          role: ROLE.guest,
        });
        expect(res.statusCode, res.body).toBe(200);
      },
      () => expect(doc.closes).toContain(LIVE_CLOSE.accessChanged.reason),
    );
    doc.reauthenticate();
    await eventually(() => expect(doc.scope).toBe("readonly"));
  });
});

describe("project guest setting", () => {
  it("turning guest_view_all_features on and off changes what an open guest channel receives", async () => {
    const guest = await channels(f.w.guest);
    const control = await channels(f.w.admin);
    // Each change of the guest's scope closes its channel `access-changed`; the client opens it again.
    const setting = async (value: boolean) => {
      const before = guest.project.closes.length;
      const changes =
        (await client(s.app, f.w.admin).get(`${f.project.url}/`)).json().guest_view_all_features !== value;
      const res = await client(s.app, f.w.admin).patch(`${f.project.url}/`, { guest_view_all_features: value });
      expect(res.statusCode, res.body).toBe(200);
      if (!changes) return;
      await eventually(() => expect(guest.project.closes.length).toBeGreaterThan(before));
      expect(guest.project.closes.at(-1)).toBe(LIVE_CLOSE.accessChanged.reason);
      guest.project.reauthenticate();
      await synced(guest.project);
    };
    const created = async (name: string) => {
      const item = await createIssue(s, f.w.admin, f.project.url, { name });
      await eventually(() => expect(control.project.messages.some((m) => m.event.entity_id === item.id)).toBe(true));
      return item;
    };
    try {
      await setting(true);
      const visible = await created("For every guest now");
      await eventually(() => expect(guest.project.messages.some((m) => m.event.entity_id === visible.id)).toBe(true));
      await setting(false);
      const hidden = await created("Members only again");
      await stillReceives(control.project);
      expect(guest.project.messages.some((m) => m.event.entity_id === hidden.id)).toBe(false);
    } finally {
      await setting(false);
    }
  });
});

describe("deletions", () => {
  it("deleting a project or a whole workspace closes the channels and documents inside", async () => {
    const owner = await createUser(s.db);
    const member = await createUser(s.db);
    const ws = await createWorkspace(s.db, owner, [{ user: member, role: ROLE.member }]);
    const doomed = await createProject(s, owner, ws.slug);
    const kept = await createProject(s, owner, ws.slug);
    for (const p of [doomed, kept]) await addMember(s, owner, ws.slug, p.id, member, ROLE.member);
    const t = tab(s.url, member);
    const doomedChannel = t.open(projectChannelName(doomed.id));
    const keptChannel = t.open(projectChannelName(kept.id));
    const page = await insertPage(s, { workspaceId: ws.id, ownerId: owner.id, projectIds: [kept.id] });
    const pageDoc = t.open(pageDocumentName(page.id));
    for (const doc of [doomedChannel, keptChannel, pageDoc]) await synced(doc);

    await withinASecond(
      "project deletion",
      async () => {
        const res = await client(s.app, owner).delete(`/api/workspaces/${ws.slug}/projects/${doomed.id}/`);
        expect(res.statusCode, res.body).toBe(204);
      },
      () => expect(doomedChannel.closes).toContain(LIVE_CLOSE.forbidden.reason),
    );
    expect(keptChannel.closes).toEqual([]);

    await withinASecond(
      "workspace deletion",
      async () => {
        const res = await client(s.app, owner).delete(`/api/workspaces/${ws.slug}/`);
        expect(res.statusCode, res.body).toBe(204);
      },
      () => {
        expect(keptChannel.closes).toContain(LIVE_CLOSE.forbidden.reason);
        expect(pageDoc.closes).toContain(LIVE_CLOSE.forbidden.reason);
      },
    );
  });
});

describe("awareness", () => {
  const drops = (reason: string) => s.app.ctx.live.awarenessDrops?.[reason] ?? 0;
  const statesOf = (doc: OpenDocument) => doc.provider.awareness?.getStates() ?? new Map();
  const clientOf = (doc: OpenDocument) => doc.doc.clientID;

  async function sharedPage() {
    const page = await insertPage(s, {
      workspaceId: f.w.workspaceId,
      ownerId: f.w.admin.id,
      projectIds: [f.project.id],
    });
    return pageDocumentName(page.id);
  }

  it("drops a reader's awareness: a guest on a page and anyone on a project channel show no caret", async () => {
    const name = await sharedPage();
    const writer = tab(s.url, f.w.member).open(name);
    const reader = tab(s.url, f.w.guest).open(name);
    await synced(writer);
    await synced(reader);
    expect(reader.scope).toBe("readonly");
    const before = drops("read-only");
    reader.provider.setAwarenessField("user", { name: "Someone else", color: "#000000" });
    await eventually(() => expect(drops("read-only")).toBeGreaterThan(before));
    // A writer's state does go through (so the reader's would have arrived by now).
    writer.provider.setAwarenessField("cursor", { anchor: 1 });
    const observer = tab(s.url, f.w.admin).open(name);
    await synced(observer);
    await eventually(() => expect(statesOf(observer).has(clientOf(writer))).toBe(true));
    expect(statesOf(observer).has(clientOf(reader))).toBe(false);
    expect((await loadedDocument(s, name)).awareness.getStates().has(clientOf(reader))).toBe(false);

    const channelName = projectChannelName(f.project.id);
    const speaker = tab(s.url, f.w.member).open(channelName);
    const listener = tab(s.url, f.w.admin).open(channelName);
    await synced(speaker);
    await synced(listener);
    const onChannel = drops("read-only");
    speaker.provider.setAwarenessField("user", { name: "Injected", color: "#000000" });
    await eventually(() => expect(drops("read-only")).toBeGreaterThan(onChannel));
    expect(statesOf(listener).has(clientOf(speaker))).toBe(false);
  });

  it("refuses a 1 MiB awareness state: that document is closed and nobody receives it", async () => {
    const name = await sharedPage();
    const big = tab(s.url, f.w.member).open(name);
    const observer = tab(s.url, f.w.admin).open(name);
    await synced(big);
    await synced(observer);
    big.provider.setAwarenessField("junk", "x".repeat(1024 * 1024));
    await eventually(() => expect(big.closes).toContain(LIVE_CLOSE.awarenessTooLarge.reason));
    expect(statesOf(observer).get(clientOf(big))?.junk).toBeUndefined();
    const server = s.app.ctx.live.hocuspocus.documents.get(name);
    expect(JSON.stringify([...(server?.awareness.getStates().values() ?? [])]).length).toBeLessThan(10_000);
  });

  it("shows a caret under the real name and colour of whoever sent it", async () => {
    const name = await sharedPage();
    const liar = tab(s.url, f.w.member).open(name);
    const victim = tab(s.url, f.w.admin).open(name);
    await synced(liar);
    await synced(victim);
    const presence = (user: typeof f.w.member) =>
      presenceUser({
        id: user.id,
        first_name: user.firstName,
        last_name: user.lastName,
        display_name: user.displayName,
        email: user.email,
      });
    const claimed = presence(f.w.admin);
    const real = presence(f.w.member);
    expect(real.name).not.toBe(claimed.name);
    // Every field a peer may read a caret's name from: tiptap's `user`, the reference editor's
    // `user` (with its id), and the top-level `name` and `color` of other editors.
    liar.provider.setAwarenessField("user", { id: f.w.admin.id, name: claimed.name, color: claimed.color });
    liar.provider.setAwarenessField("name", claimed.name);
    liar.provider.setAwarenessField("color", claimed.color);
    await eventually(() => {
      const seen = statesOf(victim).get(clientOf(liar));
      expect(seen?.user).toEqual({ id: f.w.member.id, ...real });
      expect(seen?.name).toBe(real.name);
      expect(seen?.color).toBe(real.color);
    });
    // A state that names nobody carries the identity all the same.
    const quiet = tab(s.url, f.w.member).open(name);
    await synced(quiet);
    quiet.provider.setAwarenessField("cursor", { anchor: 1 });
    await eventually(() => {
      const seen = statesOf(victim).get(clientOf(quiet));
      expect(seen?.name).toBe(real.name);
      expect(seen?.user).toEqual({ id: f.w.member.id, ...real });
    });
  });

  it("limits the rate of awareness updates per connection, dropping the excess", async () => {
    const { limits } = s.app.ctx.live;
    const saved = { perSecond: limits.awarenessPerSecond, burst: limits.awarenessBurst };
    limits.awarenessPerSecond = 1;
    limits.awarenessBurst = 3;
    try {
      const name = await sharedPage();
      const chatty = tab(s.url, f.w.member).open(name);
      const observer = tab(s.url, f.w.admin).open(name);
      await synced(chatty);
      await synced(observer);
      const before = drops("rate");
      for (let n = 1; n <= 30; n++) chatty.provider.setAwarenessField("n", n);
      await eventually(() => expect(drops("rate")).toBeGreaterThan(before));
      await eventually(() => expect(statesOf(observer).get(clientOf(chatty))?.n).toBeGreaterThan(0));
      expect(statesOf(observer).get(clientOf(chatty))?.n).toBeLessThan(30);
    } finally {
      limits.awarenessPerSecond = saved.perSecond;
      limits.awarenessBurst = saved.burst;
    }
  });
});
