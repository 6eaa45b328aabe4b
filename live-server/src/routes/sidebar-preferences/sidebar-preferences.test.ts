/**
 * Sidebar preferences API, on a live server so the personal events can be watched on real
 * WebSocket channels: defaults on the first read in the reference's shape, each person reaches
 * only their own entries, bad input stores nothing, and the events reach only the owner's user
 * channel.
 */
import { userChannelName, workspaceChannelName } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { workspaceUserPreferences } from "../../db/schema.ts";
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

const prefs = (slug = w.slug) => `/api/workspaces/${slug}/sidebar-preferences/`;
const as = (user: World["admin"] | null) => client(s.app, user);

const DEFAULTS = {
  views: { is_pinned: true, sort_order: 65535 },
  active_cycles: { is_pinned: false, sort_order: 75535 },
  analytics: { is_pinned: false, sort_order: 85535 },
  drafts: { is_pinned: true, sort_order: 95535 },
  your_work: { is_pinned: true, sort_order: 105535 },
  archives: { is_pinned: false, sort_order: 115535 },
  stickies: { is_pinned: true, sort_order: 125535 },
};

async function storedRows(userId: string, workspaceId = w.workspaceId) {
  return s.db
    .select()
    .from(workspaceUserPreferences)
    .where(and(eq(workspaceUserPreferences.userId, userId), eq(workspaceUserPreferences.workspaceId, workspaceId)));
}

describe("sidebar preferences", () => {
  it("creates the defaults on the first read: an object keyed by entry, in sort order", async () => {
    const res = await as(w.member).get(prefs());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(DEFAULTS);
    expect(Object.keys(res.json())).toEqual(Object.keys(DEFAULTS));
    // A second read creates nothing more; two first reads at once make one row per key.
    expect((await as(w.member).get(prefs())).json()).toEqual(DEFAULTS);
    expect(await storedRows(w.member.id)).toHaveLength(7);
    const [a, b] = await Promise.all([as(w.admin).get(prefs()), as(w.admin).get(prefs())]);
    expect(a.json()).toEqual(DEFAULTS);
    expect(b.json()).toEqual(DEFAULTS);
    expect(await storedRows(w.admin.id)).toHaveLength(7);
  });

  it("pins, unpins and moves the caller's entry only, guests too; the answer is the reference's", async () => {
    // A change before any read makes the defaults first.
    const res = await as(w.guest).patch(`${prefs()}views/`, { is_pinned: false, key: "archives", extra: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ key: "views", is_pinned: false, sort_order: 65535 });
    const moved = await as(w.guest).patch(`${prefs()}stickies`, { sort_order: 1.5 });
    expect(moved.json()).toEqual({ key: "stickies", is_pinned: true, sort_order: 1.5 });
    const mine = (await as(w.guest).get(prefs())).json();
    expect(Object.keys(mine)[0]).toBe("stickies");
    expect(mine.views).toEqual({ is_pinned: false, sort_order: 65535 });
    expect(mine.archives).toEqual(DEFAULTS.archives);
    // Nobody else's entries moved, in this workspace or another.
    expect((await as(w.admin).get(prefs())).json()).toEqual(DEFAULTS);
    expect((await as(w.stranger).get(prefs(w.otherSlug))).json()).toEqual(DEFAULTS);
  });

  it("changes several entries at once (the bulk form), skipping unknown keys", async () => {
    const res = await as(w.outsider).patch(prefs(), [
      { key: "archives", is_pinned: true, sort_order: 1000 },
      { key: "drafts", sort_order: 500 },
      { key: "nope", is_pinned: true },
      { is_pinned: true },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: "Successfully updated" });
    const mine = (await as(w.outsider).get(prefs())).json();
    expect(Object.keys(mine).slice(0, 2)).toEqual(["drafts", "archives"]);
    expect(mine.archives).toEqual({ is_pinned: true, sort_order: 1000 });
    expect(mine.drafts).toEqual({ is_pinned: true, sort_order: 500 });
    expect(mine).not.toHaveProperty("nope");
    expect((await storedRows(w.outsider.id)).map((r) => r.key)).not.toContain("nope");
  });

  it("answers 401 signed out, 404 outside the workspace and for an unknown entry", async () => {
    expect((await as(null).get(prefs())).statusCode).toBe(401);
    expect((await as(null).patch(`${prefs()}views/`, { is_pinned: false })).statusCode).toBe(401);
    expect((await as(null).patch(prefs(), [{ key: "views", is_pinned: false }])).statusCode).toBe(401);
    expect((await as(w.stranger).get(prefs())).statusCode).toBe(404);
    expect((await as(w.member).get(prefs(w.otherSlug))).statusCode).toBe(404);
    expect((await as(w.member).patch(`${prefs(w.otherSlug)}views/`, { is_pinned: false })).statusCode).toBe(404);
    expect((await as(w.member).patch(prefs(w.otherSlug), [{ key: "views", is_pinned: false }])).statusCode).toBe(404);
    expect((await as(w.stranger).get(prefs(w.otherSlug))).json().views).toEqual(DEFAULTS.views);
    for (const key of ["home", "projects", "notifications", "reports", "VIEWS", "%00"]) {
      expect((await as(w.member).patch(`${prefs()}${key}/`, { is_pinned: false })).statusCode, key).not.toBe(200);
    }
    const unknown = await as(w.member).patch(`${prefs()}projects/`, { is_pinned: false });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("Preference not found");
    const stored = await s.db
      .select()
      .from(workspaceUserPreferences)
      .where(and(eq(workspaceUserPreferences.userId, w.member.id), eq(workspaceUserPreferences.key, "projects")));
    expect(stored).toEqual([]);
  });

  it("refuses a wrong type with a 400 naming the field, and stores nothing", async () => {
    await as(w.member).get(prefs());
    for (const body of [{ is_pinned: "no" }, { is_pinned: 0 }, { sort_order: "1" }, { sort_order: null }]) {
      const res = await as(w.member).patch(`${prefs()}drafts/`, { ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(Object.keys(body));
    }
    // A list with one bad item changes none of the good ones.
    const bad = [
      { views: false },
      [
        { key: "views", is_pinned: false },
        { key: "drafts", is_pinned: "yes" },
      ],
      [{ key: 5, is_pinned: false }],
      Array.from({ length: 51 }, () => ({ key: "views", is_pinned: false })),
    ];
    for (const body of bad) {
      const res = await as(w.member).patch(prefs(), body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await as(w.member).get(prefs())).json()).toEqual(DEFAULTS);
  });
});

describe("live", () => {
  it("sends sidebar entry events to the owner's user channel only", async () => {
    const ownTab = openTab(s.url, w.admin);
    const otherTab = openTab(s.url, w.member);
    tabs.push(ownTab, otherTab);
    const own = ownTab.open(userChannelName(w.admin.id));
    const others = otherTab.open(userChannelName(w.member.id));
    const workspace = otherTab.open(workspaceChannelName(w.workspaceId));
    await synced(own);
    await synced(others);
    await synced(workspace);
    await as(w.admin).patch(`${prefs()}analytics/`, { is_pinned: true });
    await as(w.admin).patch(prefs(), [
      { key: "views", sort_order: 2 },
      { key: "archives", sort_order: 1 },
    ]);
    await eventually(() =>
      expect(own.messages.map((m) => [m.event.type, m.event.data.key])).toEqual([
        ["sidebar_preference.updated", "analytics"],
        ["sidebar_preference.updated", "views"],
        ["sidebar_preference.updated", "archives"],
      ]),
    );
    expect(own.messages[0]?.event.data).toMatchObject({ key: "analytics", is_pinned: true, user: w.admin.id });
    expect(own.messages[2]?.event.data).toMatchObject({ key: "archives", is_pinned: false, sort_order: 1 });
    // A workspace event sent after them arrives; none of the personal ones did, anywhere else.
    const view = await as(w.member).post(`/api/workspaces/${w.slug}/views/`, { name: "Marker view" });
    expect(view.statusCode, view.body).toBe(201);
    await eventually(() => expect(workspace.messages.map((m) => m.event.type)).toContain("view.created"));
    const personal = (t: string) => t.startsWith("sidebar_preference.");
    expect(workspace.messages.filter((m) => personal(m.event.type))).toEqual([]);
    expect(others.messages.filter((m) => personal(m.event.type))).toEqual([]);
  });
});
