/**
 * The workspace channel (`workspace.{id}`): events of the workspace outside any project (today
 * the workspace views' view.*) reach its members' open screens through real Hocuspocus
 * providers. Who connects (active members, guests too; nobody from another workspace), what a
 * private view sends (its owner only), what stays off it (project events), and that losing the
 * membership closes it at once.
 */
import { LIVE_CLOSE, ROLE, workspaceChannelName } from "@tideline/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createUser, type TestUser } from "../../test/harness.ts";
import { workspaceMembers } from "../db/schema.ts";
import { createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import {
  eventually,
  type LiveServer,
  type OpenDocument,
  openTab,
  startLiveServer,
  synced,
  type Tab,
} from "./test-support.ts";

let s: LiveServer;
let f: Fixture;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  f = await createFixture(s);
});

afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const viewsUrl = () => `/api/workspaces/${f.w.slug}/views/`;

/** A tab of `user` with the fixture workspace's channel open (synced unless refused). */
function channelOf(user: TestUser, workspaceId = f.w.workspaceId): OpenDocument {
  const t = openTab(s.url, user);
  tabs.push(t);
  return t.open(workspaceChannelName(workspaceId));
}

async function syncedChannel(user: TestUser): Promise<OpenDocument> {
  const channel = channelOf(user);
  await synced(channel);
  return channel;
}

const eventsOf = (channel: OpenDocument, type: string, id: string) =>
  channel.messages.filter((m) => m.event.type === type && m.event.entity_id === id);

async function createView(user: TestUser, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await client(s.app, user).post(viewsUrl(), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe("who may open a workspace channel", () => {
  it("members and guests of the workspace, read-only", async () => {
    for (const user of [f.w.admin, f.w.member, f.w.guest]) {
      const channel = await syncedChannel(user);
      expect(channel.refused).toBeNull();
      expect(channel.scope).toBe("readonly");
    }
  });

  it("refuses another workspace's member, and a workspace that does not exist", async () => {
    const stranger = channelOf(f.w.stranger);
    await eventually(() => expect(stranger.refused).toBe(LIVE_CLOSE.forbidden.reason));
    const nowhere = channelOf(f.w.member, "00000000-0000-4000-8000-000000000000");
    await eventually(() => expect(nowhere.refused).toBe(LIVE_CLOSE.forbidden.reason));
    // Their own workspace's channel is theirs.
    const own = channelOf(f.w.stranger, f.w.otherWorkspaceId);
    await synced(own);
    expect(own.refused).toBeNull();
  });
});

describe("events on the workspace channel", () => {
  it("a public workspace view's created, updated and deleted reach every member, guests too", async () => {
    const member = await syncedChannel(f.w.member);
    const guest = await syncedChannel(f.w.guest);
    const foreign = channelOf(f.w.stranger, f.w.otherWorkspaceId);
    await synced(foreign);

    const view = await createView(f.w.admin, { name: "Urgent everywhere", filters: { priority: ["urgent"] } });
    for (const channel of [member, guest]) {
      await eventually(() => expect(eventsOf(channel, "view.created", view.id)).toHaveLength(1));
    }
    const [created] = eventsOf(member, "view.created", view.id);
    expect(created?.event).toMatchObject({
      workspace_id: f.w.workspaceId,
      project_id: null,
      actor_id: f.w.admin.id,
      data: { id: view.id, name: "Urgent everywhere", filters: { priority: ["urgent"] }, access: 1 },
    });

    const admin = client(s.app, f.w.admin);
    expect((await admin.patch(`${viewsUrl()}${view.id}/`, { name: "Renamed" })).statusCode).toBe(200);
    await eventually(() => expect(eventsOf(member, "view.updated", view.id)[0]?.event.data.name).toBe("Renamed"));
    expect((await admin.delete(`${viewsUrl()}${view.id}/`)).statusCode).toBe(204);
    await eventually(() => expect(eventsOf(guest, "view.deleted", view.id)).toHaveLength(1));
    expect(foreign.messages).toEqual([]);
  });

  it("a private view's events reach its owner only", async () => {
    const owner = await syncedChannel(f.w.member);
    const others = [await syncedChannel(f.w.admin), await syncedChannel(f.w.guest), await syncedChannel(f.w.outsider)];
    const mine = await createView(f.w.member, { name: "Just mine", access: 0 });
    const api = client(s.app, f.w.member);
    expect((await api.patch(`${viewsUrl()}${mine.id}/`, { name: "Still mine" })).statusCode).toBe(200);
    // A public view turned private: its later events are the owner's alone too.
    const shared = await createView(f.w.member, { name: "Shared first" });
    expect((await api.post(`${viewsUrl()}${shared.id}/access/`, { access: 0 })).statusCode).toBe(200);
    expect((await api.delete(`${viewsUrl()}${mine.id}/`)).statusCode).toBe(204);
    // The last event sent, public: once the others have it, they have everything meant for them.
    const marker = await createView(f.w.admin, { name: "Marker" });

    await eventually(() => {
      expect(eventsOf(owner, "view.created", mine.id)).toHaveLength(1);
      expect(eventsOf(owner, "view.updated", mine.id)).toHaveLength(1);
      expect(eventsOf(owner, "view.deleted", mine.id)).toHaveLength(1);
      expect(eventsOf(owner, "view.updated", shared.id)[0]?.event.data).toMatchObject({ access: 0 });
    });
    for (const channel of others) {
      await eventually(() => expect(eventsOf(channel, "view.created", marker.id)).toHaveLength(1));
      expect(channel.messages.filter((m) => m.event.entity_id === mine.id)).toEqual([]);
      // They saw it while it was public, and nothing after it turned private.
      expect(channel.messages.filter((m) => m.event.entity_id === shared.id).map((m) => m.event.type)).toEqual([
        "view.created",
      ]);
    }
  });

  it("carries nothing of a project: its work items stay on project.{id}", async () => {
    const channel = await syncedChannel(f.w.member);
    const item = await createIssue(s, f.w.admin, f.project.url, { name: "Project only" });
    const marker = await createView(f.w.admin, { name: "After the item" });
    await eventually(() => expect(eventsOf(channel, "view.created", marker.id)).toHaveLength(1));
    expect(channel.messages.some((m) => m.event.entity_id === item.id)).toBe(false);
    expect(channel.messages.every((m) => m.event.project_id === null)).toBe(true);
  });
});

describe("revocation", () => {
  /** A new member of the fixture workspace (membership row id for the removal). */
  async function newcomer(): Promise<{ user: TestUser; membershipId: string }> {
    const user = await createUser(s.db);
    const [membership] = await s.db
      .insert(workspaceMembers)
      .values({ workspaceId: f.w.workspaceId, memberId: user.id, role: ROLE.member })
      .returning();
    if (!membership) throw new Error("membership insert failed");
    return { user, membershipId: membership.id };
  }

  it("removal from the workspace closes the channel within a second, and it can't reopen", async () => {
    const { user, membershipId } = await newcomer();
    const channel = await syncedChannel(user);
    const res = await client(s.app, f.w.admin).delete(`/api/workspaces/${f.w.slug}/members/${membershipId}/`);
    expect(res.statusCode, res.body).toBe(204);
    await eventually(() => expect(channel.closes).toContain(LIVE_CLOSE.forbidden.reason), 1000);

    const witness = await syncedChannel(f.w.member);
    const view = await createView(f.w.admin, { name: "After the removal" });
    await eventually(() => expect(eventsOf(witness, "view.created", view.id)).toHaveLength(1));
    expect(eventsOf(channel, "view.created", view.id)).toEqual([]);
    const again = channelOf(user);
    await eventually(() => expect(again.refused).toBe(LIVE_CLOSE.forbidden.reason));
  });

  it("deactivating the account closes the socket that holds the channel", async () => {
    const { user } = await newcomer();
    const t = openTab(s.url, user);
    tabs.push(t);
    const channel = t.open(workspaceChannelName(f.w.workspaceId));
    await synced(channel);
    const res = await client(s.app, user).delete("/api/users/me/");
    expect(res.statusCode, res.body).toBe(204);
    await eventually(() => expect(t.socketCloses).toContain(LIVE_CLOSE.unauthorized.code), 1000);
    expect(channel.closes).toContain(LIVE_CLOSE.unauthorized.reason);
  });
});
