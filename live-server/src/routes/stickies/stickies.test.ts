/**
 * Stickies API (calls-errors-sync §7 "Stickies"), on a live server so the personal events can be
 * watched on real WebSocket channels: each person reaches only their own stickies, pages and
 * search work as the reference's client calls them, bad input stores nothing.
 */
import { STICKY_SORT_STEP, userChannelName, workspaceChannelName } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { stickies } from "../../db/schema.ts";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "../../live/test-support.ts";
import { createWorld, type World } from "../projects/test-support.ts";

let s: LiveServer;
let w: World;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  w = await createWorld(s);
});
afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

const url = (slug = w.slug) => `/api/workspaces/${slug}/stickies/`;
const as = (user: World["admin"] | null) => client(s.app, user);

async function create(user: World["admin"], body: Record<string, unknown> = {}) {
  const res = await as(user).post(url(), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function storedCount(ownerId: string) {
  return (await s.db.select().from(stickies).where(eq(stickies.ownerId, ownerId))).length;
}

describe("POST and GET /stickies/", () => {
  it("creates a sticky in the reference's shape, sanitised, the newest first", async () => {
    const first = await create(w.member, {
      name: "Groceries",
      description_html: "<p>Milk <script>alert(1)</script><strong>eggs</strong></p>",
      background_color: "peach",
      description: { type: "doc" },
    });
    expect(first).toMatchObject({
      name: "Groceries",
      background_color: "peach",
      color: null,
      owner: w.member.id,
      workspace: w.workspaceId,
      sort_order: 65535,
      description_stripped: "Milk eggs",
      logo_props: {},
      deleted_at: null,
    });
    expect(first.description_html).not.toContain("script");
    expect(first.description_html).toContain("<strong>eggs</strong>");
    const second = await create(w.member);
    expect(second.sort_order).toBe(65535 + STICKY_SORT_STEP);
    expect(second.description_html).toBe("<p></p>");
    expect(second.description_stripped).toBeNull();

    const list = (await as(w.member).get(url())).json();
    expect(list.results.map((r: { id: string }) => r.id).slice(0, 2)).toEqual([second.id, first.id]);
    expect(list).toMatchObject({ total_results: 2, next_page_results: false, prev_page_results: false });
    // The recent sticky: the reference's client asks for one with cursor 1:0:0.
    const recent = (await as(w.member).get(`${url()}?cursor=1:0:0&per_page=1`)).json();
    expect(recent.results.map((r: { id: string }) => r.id)).toEqual([second.id]);
    expect(recent).toMatchObject({ next_page_results: true, next_cursor: "1:1:0", total_pages: 2 });
    const again = (await as(w.member).get(`${url()}?cursor=${recent.next_cursor}`)).json();
    expect(again.results.map((r: { id: string }) => r.id)).toEqual([first.id]);
    expect(again.prev_page_results).toBe(true);

    const one = await as(w.member).get(`${url()}${first.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().id).toBe(first.id);
  });

  it("searches the text and the name, case-insensitively and literally", async () => {
    const a = await create(w.admin, { description_html: "<p>Call the PLUMBER at 5</p>" });
    const b = await create(w.admin, { name: "Plumbing quotes" });
    await create(w.admin, { description_html: "<p>100% sure</p>" });
    const found = (await as(w.admin).get(`${url()}?query=plumb`)).json();
    expect(found.results.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id].sort());
    const percent = (await as(w.admin).get(`${url()}?query=${encodeURIComponent("0%")}`)).json();
    expect(percent.results).toHaveLength(1);
    const none = (await as(w.admin).get(`${url()}?query=${encodeURIComponent("%")}`)).json();
    expect(none.results).toHaveLength(1);
  });

  it("lets guests keep stickies too", async () => {
    const mine = await create(w.guest, { description_html: "<p>guest note</p>" });
    expect(mine.owner).toBe(w.guest.id);
  });
});

describe("who reaches a sticky", () => {
  it("keeps each person's stickies their own: another's is a 404, and lists never mix", async () => {
    const secret = await create(w.member, { description_html: "<p>only mine</p>" });
    for (const other of [w.admin, w.guest, w.outsider]) {
      expect((await as(other).get(`${url()}${secret.id}/`)).statusCode).toBe(404);
      expect((await as(other).patch(`${url()}${secret.id}/`, { name: "taken" })).statusCode).toBe(404);
      expect((await as(other).delete(`${url()}${secret.id}/`)).statusCode).toBe(404);
      const list = (await as(other).get(`${url()}?query=only mine`)).json();
      expect(list.results).toEqual([]);
    }
    const stored = (await s.db.select().from(stickies).where(eq(stickies.id, secret.id)))[0];
    expect(stored?.name).toBeNull();
  });

  it("answers 401 signed out and 404 for a workspace the caller is not in", async () => {
    expect((await as(null).get(url())).statusCode).toBe(401);
    expect((await as(null).post(url(), {})).statusCode).toBe(401);
    expect((await as(w.stranger).get(url())).statusCode).toBe(404);
    expect((await as(w.member).get(url(w.otherSlug))).statusCode).toBe(404);
    const before = await storedCount(w.member.id);
    expect((await as(w.member).post(url(w.otherSlug), {})).statusCode).toBe(404);
    expect(await storedCount(w.member.id)).toBe(before);
    // A sticky of the caller's, read through another workspace's path, is not found there.
    const mine = await as(w.stranger).post(url(w.otherSlug), {});
    expect(mine.statusCode).toBe(201);
    expect((await as(w.stranger).get(`${url(w.otherSlug)}${mine.json().id}/`)).statusCode).toBe(200);
    expect((await as(w.admin).get(`${url()}${mine.json().id}/`)).statusCode).toBe(404);
    expect((await as(w.member).get(`${url()}not-a-uuid/`)).statusCode).toBe(404);
  });
});

describe("PATCH and DELETE /stickies/:id/", () => {
  it("changes what it names and moves a sticky among the others", async () => {
    const note = await create(w.outsider, { name: "Draft", background_color: "gray" });
    const res = await as(w.outsider).patch(`${url()}${note.id}/`, {
      description_html: "<h2>Plan</h2><p>ship it</p>",
      background_color: "dark-blue",
      sort_order: 12.5,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Draft",
      background_color: "dark-blue",
      sort_order: 12.5,
      description_stripped: "Plan ship it",
    });
    const cleared = (await as(w.outsider).patch(`${url()}${note.id}/`, { background_color: null, name: null })).json();
    expect(cleared).toMatchObject({ background_color: null, name: null });
  });

  it("refuses bad input with a 400 naming the field, and stores nothing", async () => {
    const note = await create(w.outsider, { name: "Keep", background_color: "green" });
    const bad = [
      { background_color: "#ff0000" },
      { name: "x".repeat(256) },
      { sort_order: "first" },
      { description_html: 42 },
      { logo_props: { in_use: "sticker" } },
    ];
    for (const body of bad) {
      const res = await as(w.outsider).patch(`${url()}${note.id}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error ?? res.json().detail ?? res.body).toBeTruthy();
    }
    const before = await storedCount(w.outsider.id);
    expect((await as(w.outsider).post(url(), { background_color: "neon" })).statusCode).toBe(400);
    expect((await as(w.outsider).get(`${url()}?cursor=abc`)).statusCode).toBe(400);
    expect((await as(w.outsider).get(`${url()}?per_page=0`)).statusCode).toBe(400);
    expect(await storedCount(w.outsider.id)).toBe(before);
    const stored = (await as(w.outsider).get(`${url()}${note.id}/`)).json();
    expect(stored).toMatchObject({ name: "Keep", background_color: "green" });
  });

  it("deletes with a 204; the sticky is gone", async () => {
    const note = await create(w.outsider);
    expect((await as(w.outsider).delete(`${url()}${note.id}`)).statusCode).toBe(204);
    expect((await as(w.outsider).get(`${url()}${note.id}/`)).statusCode).toBe(404);
    expect((await as(w.outsider).delete(`${url()}${note.id}/`)).statusCode).toBe(404);
  });
});

describe("live", () => {
  it("sends sticky events to the owner's user channel only, never to the workspace's", async () => {
    const ownTab = openTab(s.url, w.admin);
    const otherTab = openTab(s.url, w.member);
    tabs.push(ownTab, otherTab);
    const own = ownTab.open(userChannelName(w.admin.id));
    const workspace = otherTab.open(workspaceChannelName(w.workspaceId));
    await synced(own);
    await synced(workspace);
    const note = await create(w.admin, { description_html: "<p>live</p>" });
    await as(w.admin).patch(`${url()}${note.id}/`, { background_color: "pink" });
    await as(w.admin).delete(`${url()}${note.id}/`);
    await eventually(() =>
      expect(own.messages.map((m) => m.event.type)).toEqual(["sticky.created", "sticky.updated", "sticky.deleted"]),
    );
    expect(own.messages[1]?.event.data).toMatchObject({ id: note.id, background_color: "pink" });
    // A workspace event sent after them arrives; the stickies never did.
    const view = await as(w.member).post(`/api/workspaces/${w.slug}/views/`, { name: "Marker view" });
    expect(view.statusCode, view.body).toBe(201);
    await eventually(() => expect(workspace.messages.map((m) => m.event.type)).toContain("view.created"));
    expect(workspace.messages.filter((m) => m.event.type.startsWith("sticky."))).toEqual([]);
  });
});
