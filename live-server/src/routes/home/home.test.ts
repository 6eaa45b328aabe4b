/**
 * Home API (quick links, home widgets), on a live server so the personal events can be watched
 * on real WebSocket channels: each person reaches only their own links and widgets, bad input
 * stores nothing, and the events reach only the owner's user channel.
 */
import { userChannelName, workspaceChannelName } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { workspaceHomePreferences, workspaceUserLinks } from "../../db/schema.ts";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "../../live/test-support.ts";
import { createWorld, type World } from "../projects/test-support.ts";
import { normalizeQuickLinkUrl } from "./schema.ts";

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

const links = (slug = w.slug) => `/api/workspaces/${slug}/quick-links/`;
const prefs = (slug = w.slug) => `/api/workspaces/${slug}/home-preferences/`;
const as = (user: World["admin"] | null) => client(s.app, user);

async function addLink(user: World["admin"], body: Record<string, unknown>) {
  const res = await as(user).post(links(), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function storedLinks(ownerId: string) {
  return s.db.select().from(workspaceUserLinks).where(eq(workspaceUserLinks.ownerId, ownerId));
}

describe("quick links", () => {
  it("adds, lists (newest first), reads, renames and removes the caller's links", async () => {
    const first = await addLink(w.member, { url: "https://example.com/docs", title: "Docs", metadata: { x: 1 } });
    expect(first).toMatchObject({
      title: "Docs",
      url: "https://example.com/docs",
      metadata: {},
      owner: w.member.id,
      workspace: w.workspaceId,
      created_by: w.member.id,
      deleted_at: null,
    });
    // No scheme typed: http:// in front, as the reference does; no title is null.
    const second = await addLink(w.member, { url: "localhost:3000/board" });
    expect(second).toMatchObject({ url: "http://localhost:3000/board", title: null });

    const list = (await as(w.member).get(links())).json();
    expect(list.map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);
    expect((await as(w.member).get(`${links()}${first.id}/`)).json().id).toBe(first.id);

    const renamed = await as(w.member).patch(`${links()}${first.id}/`, { title: "Handbook" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ title: "Handbook", url: "https://example.com/docs" });
    const moved = (await as(w.member).patch(`${links()}${first.id}`, { url: "http://example.org", title: "" })).json();
    expect(moved).toMatchObject({ title: null, url: "http://example.org" });

    expect((await as(w.member).delete(`${links()}${second.id}/`)).statusCode).toBe(204);
    expect((await as(w.member).get(`${links()}${second.id}/`)).statusCode).toBe(404);
    expect((await as(w.member).delete(`${links()}${second.id}/`)).statusCode).toBe(404);
  });

  it("lets guests keep quick links too", async () => {
    const mine = await addLink(w.guest, { url: "https://guest.example" });
    expect(mine.owner).toBe(w.guest.id);
  });

  it("keeps each person's links their own: another's is a 404 and lists never mix", async () => {
    const secret = await addLink(w.admin, { url: "https://secret.example", title: "Mine" });
    for (const other of [w.member, w.guest, w.outsider]) {
      expect((await as(other).get(`${links()}${secret.id}/`)).statusCode).toBe(404);
      expect((await as(other).patch(`${links()}${secret.id}/`, { title: "taken" })).statusCode).toBe(404);
      expect((await as(other).delete(`${links()}${secret.id}/`)).statusCode).toBe(404);
      const list = (await as(other).get(links())).json();
      expect(list.map((l: { id: string }) => l.id)).not.toContain(secret.id);
    }
    const [stored] = await s.db.select().from(workspaceUserLinks).where(eq(workspaceUserLinks.id, secret.id));
    expect(stored?.title).toBe("Mine");
  });

  it("answers 401 signed out and 404 for another workspace, its links included", async () => {
    expect((await as(null).get(links())).statusCode).toBe(401);
    expect((await as(null).post(links(), { url: "https://a.example" })).statusCode).toBe(401);
    expect((await as(w.stranger).get(links())).statusCode).toBe(404);
    const before = (await storedLinks(w.member.id)).length;
    expect((await as(w.member).post(links(w.otherSlug), { url: "https://a.example" })).statusCode).toBe(404);
    expect((await storedLinks(w.member.id)).length).toBe(before);
    const theirs = await as(w.stranger).post(links(w.otherSlug), { url: "https://other.example" });
    expect(theirs.statusCode).toBe(201);
    // The stranger's own link, asked for through a workspace path where it does not live.
    expect((await as(w.stranger).get(`${links(w.otherSlug)}${theirs.json().id}/`)).statusCode).toBe(200);
    expect((await as(w.admin).get(`${links()}${theirs.json().id}/`)).statusCode).toBe(404);
    expect((await as(w.admin).patch(`${links()}${theirs.json().id}/`, { title: "x" })).statusCode).toBe(404);
    expect((await as(w.member).get(`${links()}not-a-uuid/`)).statusCode).toBe(404);
  });

  it("refuses anything but an http(s) address with a 400 naming url, and stores nothing", async () => {
    const keep = await addLink(w.outsider, { url: "https://keep.example", title: "Keep" });
    const before = (await storedLinks(w.outsider.id)).length;
    const bad = [
      {},
      { url: "" },
      { url: "javascript:alert(1)" },
      { url: "JavaScript:alert(1)" },
      { url: "data:text/html,<script>alert(1)</script>" },
      { url: "ftp://files.example" },
      { url: "mailto:a@example.com" },
      { url: "file:///etc/passwd" },
      { url: "http://" },
      { url: "https://exa mple.com" },
      { url: 42 },
      { url: null },
      { url: `https://example.com/${"a".repeat(5000)}` },
    ];
    for (const body of bad) {
      const res = await as(w.outsider).post(links(), { title: "x", ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain("url");
      const patched = await as(w.outsider).patch(`${links()}${keep.id}/`, body);
      if ("url" in body) {
        expect(patched.statusCode, JSON.stringify(body)).toBe(400);
        expect(Object.keys(patched.json().fields ?? {})).toContain("url");
      }
    }
    const longTitle = await as(w.outsider).post(links(), { url: "https://t.example", title: "t".repeat(256) });
    expect(longTitle.statusCode).toBe(400);
    expect(Object.keys(longTitle.json().fields)).toContain("title");
    expect((await as(w.outsider).patch(`${links()}${keep.id}/`, { title: 7 })).statusCode).toBe(400);
    // The same address twice is refused, as the reference refuses it.
    const twice = await as(w.outsider).post(links(), { url: "https://keep.example" });
    expect(twice.statusCode).toBe(400);
    expect(Object.keys(twice.json().fields)).toContain("url");
    const other = await addLink(w.outsider, { url: "https://other.example" });
    expect((await as(w.outsider).patch(`${links()}${other.id}/`, { url: "https://keep.example" })).statusCode).toBe(
      400,
    );
    expect((await storedLinks(w.outsider.id)).length).toBe(before + 1);
    const stored = (await as(w.outsider).get(`${links()}${keep.id}/`)).json();
    expect(stored).toMatchObject({ title: "Keep", url: "https://keep.example" });
  });

  it("normalises addresses as the reference does and only to http(s)", () => {
    expect(normalizeQuickLinkUrl("  example.com  ")).toBe("http://example.com");
    expect(normalizeQuickLinkUrl("HTTPS://Example.com/a?b=1#c")).toBe("HTTPS://Example.com/a?b=1#c");
    expect(normalizeQuickLinkUrl("vbscript:msgbox")).toBeNull();
    expect(normalizeQuickLinkUrl("https:example.com")).toBeNull();
    expect(normalizeQuickLinkUrl("//evil.example")).toBeNull();
  });
});

describe("home preferences", () => {
  it("creates the default widgets on the first read, in the reference's shape and order", async () => {
    const res = await as(w.member).get(prefs());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { key: "quick_links", is_enabled: true, config: {}, sort_order: 999 },
      { key: "recents", is_enabled: true, config: {}, sort_order: 998 },
      { key: "my_stickies", is_enabled: true, config: {}, sort_order: 997 },
      { key: "my_work_items", is_enabled: true, config: {}, sort_order: 996 },
    ]);
    // A second read creates nothing more.
    expect((await as(w.member).get(prefs())).json()).toHaveLength(4);
    const rows = await s.db
      .select()
      .from(workspaceHomePreferences)
      .where(eq(workspaceHomePreferences.userId, w.member.id));
    expect(rows).toHaveLength(4);
  });

  it("adds a widget new to a home made before it last, keeping the person's own order", async () => {
    // A home made when there were three widgets, rearranged since.
    await s.db.insert(workspaceHomePreferences).values(
      (["quick_links", "recents", "my_stickies"] as const).map((key, i) => ({
        workspaceId: w.otherWorkspaceId,
        userId: w.stranger.id,
        key,
        sortOrder: [500, 2000, 997][i] as number,
        isEnabled: key !== "recents",
      })),
    );
    const list = (await as(w.stranger).get(prefs(w.otherSlug))).json();
    expect(list.map((p: { key: string; sort_order: number }) => [p.key, p.sort_order])).toEqual([
      ["recents", 2000],
      ["my_stickies", 997],
      ["my_work_items", 996],
      ["quick_links", 500],
    ]);
    expect(list.find((p: { key: string }) => p.key === "recents").is_enabled).toBe(false);
  });

  it("hides and moves the caller's widget only, guests too", async () => {
    const res = await as(w.guest).patch(`${prefs()}recents/`, { is_enabled: false, sort_order: 1200, key: "x" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ key: "recents", is_enabled: false, sort_order: 1200 });
    const mine = (await as(w.guest).get(prefs())).json();
    expect(mine[0]).toEqual({ key: "recents", is_enabled: false, config: {}, sort_order: 1200 });
    const theirs = (await as(w.admin).get(prefs())).json();
    expect(theirs.find((p: { key: string }) => p.key === "recents")).toMatchObject({ is_enabled: true });
    // Each workspace keeps its own: the stranger's other workspace is untouched by this one.
    expect((await as(w.stranger).get(prefs(w.otherSlug))).json()[1]).toMatchObject({ is_enabled: true });
  });

  it("answers 401 signed out, 404 outside the workspace and for an unknown widget", async () => {
    expect((await as(null).get(prefs())).statusCode).toBe(401);
    expect((await as(null).patch(`${prefs()}recents/`, { is_enabled: false })).statusCode).toBe(401);
    expect((await as(w.stranger).get(prefs())).statusCode).toBe(404);
    expect((await as(w.member).get(prefs(w.otherSlug))).statusCode).toBe(404);
    expect((await as(w.member).patch(`${prefs(w.otherSlug)}recents/`, { is_enabled: false })).statusCode).toBe(404);
    for (const key of ["new_at_plane", "quick_tutorial", "widgets", "%00"]) {
      expect((await as(w.member).patch(`${prefs()}${key}/`, { is_enabled: false })).statusCode, key).not.toBe(200);
    }
    expect((await as(w.member).patch(`${prefs()}new_at_plane/`, { is_enabled: false })).statusCode).toBe(404);
    const stored = await s.db
      .select()
      .from(workspaceHomePreferences)
      .where(and(eq(workspaceHomePreferences.userId, w.member.id), eq(workspaceHomePreferences.key, "new_at_plane")));
    expect(stored).toEqual([]);
  });

  it("refuses a wrong type with a 400 naming the field, and stores nothing", async () => {
    await as(w.outsider).get(prefs());
    for (const body of [{ is_enabled: "no" }, { is_enabled: 0 }, { sort_order: "1" }, { sort_order: null }]) {
      const res = await as(w.outsider).patch(`${prefs()}my_stickies/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(Object.keys(body));
    }
    const mine = (await as(w.outsider).get(prefs())).json();
    expect(mine.find((p: { key: string }) => p.key === "my_stickies")).toEqual({
      key: "my_stickies",
      is_enabled: true,
      config: {},
      sort_order: 997,
    });
  });
});

describe("live", () => {
  it("sends quick link and widget events to the owner's user channel only", async () => {
    const ownTab = openTab(s.url, w.admin);
    const otherTab = openTab(s.url, w.member);
    tabs.push(ownTab, otherTab);
    const own = ownTab.open(userChannelName(w.admin.id));
    const others = otherTab.open(userChannelName(w.member.id));
    const workspace = otherTab.open(workspaceChannelName(w.workspaceId));
    await synced(own);
    await synced(others);
    await synced(workspace);
    const link = await addLink(w.admin, { url: "https://live.example" });
    await as(w.admin).patch(`${links()}${link.id}/`, { title: "Live" });
    await as(w.admin).delete(`${links()}${link.id}/`);
    await as(w.admin).patch(`${prefs()}quick_links/`, { is_enabled: false });
    await eventually(() =>
      expect(own.messages.map((m) => m.event.type)).toEqual([
        "quick_link.created",
        "quick_link.updated",
        "quick_link.deleted",
        "home_preference.updated",
      ]),
    );
    expect(own.messages[1]?.event.data).toMatchObject({ id: link.id, title: "Live", owner: w.admin.id });
    expect(own.messages[3]?.event.data).toMatchObject({ key: "quick_links", is_enabled: false, user: w.admin.id });
    // A workspace event sent after them arrives; none of the personal ones did, anywhere else.
    const view = await as(w.member).post(`/api/workspaces/${w.slug}/views/`, { name: "Marker view" });
    expect(view.statusCode, view.body).toBe(201);
    await eventually(() => expect(workspace.messages.map((m) => m.event.type)).toContain("view.created"));
    const personal = (t: string) => t.startsWith("quick_link.") || t.startsWith("home_preference.");
    expect(workspace.messages.filter((m) => personal(m.event.type))).toEqual([]);
    expect(others.messages.filter((m) => personal(m.event.type))).toEqual([]);
  });
});
