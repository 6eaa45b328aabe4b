/**
 * Project views API: create, read, list, change, delete; the view's work items (its filters
 * AND-ed with the query's); lock and unlock; access (a private view is its owner's only);
 * publish and unpublish; archive and restore; favorites. Each call: success, 401, 404 across
 * workspaces, 403 by role, 400 with nothing stored; view.* events.
 */
import { ROLE } from "@tideline/shared";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issues, issueViews, userFavorites } from "../../db/schema.ts";
import { createFixture, createIssue, eventsOf, type Fixture } from "../issues/test-support.ts";
import { addMember } from "../projects/test-support.ts";

let t: TestApp;
let f: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  // A second member who owns nothing: not the owner, not an admin.
  await addMember(t, f.w.admin, f.w.slug, f.project.id, f.w.outsider, ROLE.member);
});
afterAll(() => t.close());

type View = Record<string, unknown> & { id: string };

async function createView(body: Record<string, unknown> = {}, user = f.w.member): Promise<View> {
  const res = await client(t.app, user).post(`${f.project.url}/views/`, { name: "Urgent work", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function countViews(projectId = f.project.id): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(issueViews).where(eq(issueViews.projectId, projectId));
  return row?.n ?? 0;
}

async function viewRow(id: string) {
  const [row] = await t.db.select().from(issueViews).where(eq(issueViews.id, id));
  return row;
}

async function countFavorites(viewId: string): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(userFavorites)
    .where(and(eq(userFavorites.entityType, "view"), eq(userFavorites.entityIdentifier, viewId)));
  return row?.n ?? 0;
}

const ids = (list: { id: string }[]) => list.map((v) => v.id);

describe("create, read, list", () => {
  it("creates a view with filters, display filters and properties, and reads it back", async () => {
    const view = await createView({
      description: "What burns",
      filters: { priority: ["urgent", "high"], state_group: ["started"] },
      display_filters: { layout: "kanban", group_by: "priority", order_by: "-created_at" },
      display_properties: { assignee: false },
      logo_props: { in_use: "emoji", emoji: { value: "1f525" } },
    });
    expect(view).toMatchObject({
      project: f.project.id,
      workspace: f.w.workspaceId,
      name: "Urgent work",
      description: "What burns",
      filters: { priority: ["urgent", "high"], state_group: ["started"] },
      display_filters: { layout: "kanban", group_by: "priority", order_by: "-created_at" },
      display_properties: { assignee: false, priority: true },
      access: 1,
      is_locked: false,
      is_favorite: false,
      anchor: null,
      owned_by: f.w.member.id,
      archived_at: null,
    });
    expect(eventsOf(f, "view.created", view.id)).toHaveLength(1);
    expect(eventsOf(f, "view.created", view.id)[0]?.project_id).toBe(f.project.id);

    const detail = await client(t.app, f.w.guest).get(`${f.project.url}/views/${view.id}/`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ id: view.id, name: "Urgent work" });
    const list = await client(t.app, f.w.guest).get(`${f.project.url}/views/`);
    expect(list.statusCode).toBe(200);
    expect(ids(list.json())).toContain(view.id);
  });

  it("stores a view without a name as empty (clients show Untitled)", async () => {
    const view = await createView({ name: undefined });
    expect(view.name).toBe("");
    const nulled = await createView({ name: null });
    expect(nulled.name).toBe("");
    expect(view.display_filters).toMatchObject({ layout: "list", group_by: null });
  });

  it("refuses guests (403), strangers (404), anonymous callers (401) and bad input (400), storing nothing", async () => {
    const before = await countViews();
    const guest = await client(t.app, f.w.guest).post(`${f.project.url}/views/`, { name: "No" });
    expect(guest.statusCode).toBe(403);
    const stranger = await client(t.app, f.w.stranger).post(`${f.project.url}/views/`, { name: "No" });
    expect(stranger.statusCode).toBe(404);
    const foreign = await client(t.app, f.w.member).post(`${f.foreign.url}/views/`, { name: "No" });
    expect(foreign.statusCode).toBe(404);
    const anon = await client(t.app).post(`${f.project.url}/views/`, { name: "No" });
    expect(anon.statusCode).toBe(401);
    for (const body of [
      { name: "x".repeat(256) },
      { access: 2 },
      { filters: { priority: ["burning"] } },
      { filters: { colour: ["red"] } },
      { display_filters: { layout: "table" } },
      { display_properties: { assignee: "yes" } },
    ]) {
      const res = await client(t.app, f.w.member).post(`${f.project.url}/views/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await countViews()).toBe(before);
  });

  it("answers 404 for another workspace's view and for ids that are not views", async () => {
    const view = await createView();
    const stranger = await client(t.app, f.w.stranger).get(`${f.project.url}/views/${view.id}/`);
    expect(stranger.statusCode).toBe(404);
    const crossed = await client(t.app, f.w.stranger).get(`${f.foreign.url}/views/${view.id}/`);
    expect(crossed.statusCode).toBe(404);
    const bad = await client(t.app, f.w.member).get(`${f.project.url}/views/not-an-id/`);
    expect(bad.statusCode).toBe(404);
    const anon = await client(t.app).get(`${f.project.url}/views/${view.id}/`);
    expect(anon.statusCode).toBe(401);
    const anonList = await client(t.app).get(`${f.project.url}/views/`);
    expect(anonList.statusCode).toBe(401);
  });
});

describe("private views", () => {
  it("are visible to their owner only: other members, admins and guests get 404", async () => {
    const view = await createView({ access: 0, name: "Mine only" });
    expect(view.access).toBe(0);
    const own = await client(t.app, f.w.member).get(`${f.project.url}/views/${view.id}/`);
    expect(own.statusCode).toBe(200);
    expect(ids((await client(t.app, f.w.member).get(`${f.project.url}/views/`)).json())).toContain(view.id);
    for (const user of [f.w.admin, f.w.outsider, f.w.guest]) {
      const res = await client(t.app, user).get(`${f.project.url}/views/${view.id}/`);
      expect(res.statusCode).toBe(404);
      const list = await client(t.app, user).get(`${f.project.url}/views/`);
      expect(ids(list.json())).not.toContain(view.id);
      const items = await client(t.app, user).get(`${f.project.url}/views/${view.id}/issues/`);
      expect(items.statusCode).toBe(404);
      // A guest may change no view at all: 403 before any view is looked up, so nothing leaks.
      const patch = await client(t.app, user).patch(`${f.project.url}/views/${view.id}/`, { name: "Taken" });
      expect(patch.statusCode).toBe(user === f.w.guest ? 403 : 404);
    }
    // Its events say nothing of its name or filters.
    const [event] = eventsOf(f, "view.created", view.id);
    expect(event?.data).not.toHaveProperty("name");
    expect(event?.data).not.toHaveProperty("filters");
  });

  it("switch with access/: public → private hides it (others' favorites go), private → public shows it", async () => {
    const view = await createView();
    await client(t.app, f.w.outsider).post(`${f.project.url}/user-favorite-views/`, { view: view.id });
    await client(t.app, f.w.member).post(`${f.project.url}/user-favorite-views/`, { view: view.id });
    expect(await countFavorites(view.id)).toBe(2);
    const hide = await client(t.app, f.w.member).post(`${f.project.url}/views/${view.id}/access/`, { access: 0 });
    expect(hide.statusCode, hide.body).toBe(200);
    expect(hide.json().access).toBe(0);
    expect((await client(t.app, f.w.outsider).get(`${f.project.url}/views/${view.id}/`)).statusCode).toBe(404);
    // The owner keeps their own star.
    expect(await countFavorites(view.id)).toBe(1);
    expect(hide.json().is_favorite).toBe(true);
    const show = await client(t.app, f.w.member).post(`${f.project.url}/views/${view.id}/access/`, { access: 1 });
    expect(show.json().access).toBe(1);
    expect((await client(t.app, f.w.outsider).get(`${f.project.url}/views/${view.id}/`)).statusCode).toBe(200);
  });

  it("access/ refuses bad values (400), guests and other members (403), strangers (404), anonymous (401)", async () => {
    const view = await createView();
    const url = `${f.project.url}/views/${view.id}/access/`;
    expect((await client(t.app, f.w.member).post(url, { access: "private" })).statusCode).toBe(400);
    expect((await client(t.app, f.w.guest).post(url, { access: 0 })).statusCode).toBe(403);
    expect((await client(t.app, f.w.outsider).post(url, { access: 0 })).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(url, { access: 0 })).statusCode).toBe(404);
    expect((await client(t.app).post(url, { access: 0 })).statusCode).toBe(401);
    expect((await viewRow(view.id))?.access).toBe(1);
  });
});

describe("change and delete", () => {
  it("lets the owner and a project admin change a view (PATCH, PUT), with view.updated; filters replaced whole", async () => {
    const view = await createView({ filters: { priority: ["urgent"], state_group: ["started"] } });
    const own = await client(t.app, f.w.member).patch(`${f.project.url}/views/${view.id}/`, {
      name: "Renamed",
      filters: { priority: ["low"] },
      display_filters: { layout: "spreadsheet" },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ name: "Renamed", filters: { priority: ["low"] } });
    expect(own.json().filters).not.toHaveProperty("state_group");
    expect(own.json().display_filters.layout).toBe("spreadsheet");
    const admin = await client(t.app, f.w.admin).put(`${f.project.url}/views/${view.id}/`, {
      description: "By admin",
    });
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toMatchObject({ description: "By admin", name: "Renamed" });
    expect(eventsOf(f, "view.updated", view.id)).toHaveLength(2);
  });

  it("refuses other members and guests (403), strangers (404), anonymous (401), bad input (400) with nothing changed", async () => {
    const view = await createView({ filters: { priority: ["urgent"] } });
    const url = `${f.project.url}/views/${view.id}/`;
    expect((await client(t.app, f.w.outsider).patch(url, { name: "No" })).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).patch(url, { name: "No" })).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).patch(url, { name: "No" })).statusCode).toBe(404);
    expect((await client(t.app).patch(url, { name: "No" })).statusCode).toBe(401);
    const bad = await client(t.app, f.w.member).patch(url, { name: "No", filters: { state: ["not-an-id"] } });
    expect(bad.statusCode).toBe(400);
    const row = await viewRow(view.id);
    expect(row?.name).toBe("Urgent work");
    expect(row?.filters).toEqual({ priority: ["urgent"] });
  });

  it("deletes for the owner or an admin only, with its favorites and view.deleted", async () => {
    const view = await createView();
    await client(t.app, f.w.admin).post(`${f.project.url}/user-favorite-views/`, { view: view.id });
    const url = `${f.project.url}/views/${view.id}/`;
    expect((await client(t.app, f.w.outsider).delete(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).delete(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).delete(url)).statusCode).toBe(404);
    expect((await client(t.app).delete(url)).statusCode).toBe(401);
    expect(await viewRow(view.id)).toBeDefined();
    const res = await client(t.app, f.w.admin).delete(url);
    expect(res.statusCode).toBe(204);
    expect(await viewRow(view.id)).toBeUndefined();
    expect(await countFavorites(view.id)).toBe(0);
    expect(eventsOf(f, "view.deleted", view.id)).toHaveLength(1);
    expect((await client(t.app, f.w.admin).delete(url)).statusCode).toBe(404);
  });
});

describe("lock", () => {
  it("locks, refuses a second lock, refuses changes while locked, and unlocks", async () => {
    const view = await createView({ filters: { priority: ["urgent"] } });
    const lockUrl = `${f.project.url}/views/${view.id}/lock/`;
    const locked = await client(t.app, f.w.member).post(lockUrl);
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json().is_locked).toBe(true);

    const again = await client(t.app, f.w.member).post(lockUrl);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("VIEW_ALREADY_LOCKED");

    for (const body of [{ filters: { priority: ["low"] } }, { display_filters: { layout: "kanban" } }, { name: "X" }]) {
      const res = await client(t.app, f.w.admin).patch(`${f.project.url}/views/${view.id}/`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe("VIEW_LOCKED");
    }
    expect((await viewRow(view.id))?.filters).toEqual({ priority: ["urgent"] });

    // Only the owner or an admin unlocks; guests and strangers can't either.
    expect((await client(t.app, f.w.outsider).delete(lockUrl)).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).delete(lockUrl)).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).delete(lockUrl)).statusCode).toBe(404);
    expect((await client(t.app).delete(lockUrl)).statusCode).toBe(401);
    const unlocked = await client(t.app, f.w.admin).delete(lockUrl);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().is_locked).toBe(false);
    // Unlocking an unlocked view changes nothing.
    expect((await client(t.app, f.w.member).delete(lockUrl)).statusCode).toBe(200);
    const changed = await client(t.app, f.w.member).patch(`${f.project.url}/views/${view.id}/`, {
      filters: { priority: ["low"] },
    });
    expect(changed.statusCode).toBe(200);
  });

  it("refuses locking for other members and guests (403)", async () => {
    const view = await createView();
    const lockUrl = `${f.project.url}/views/${view.id}/lock/`;
    expect((await client(t.app, f.w.outsider).post(lockUrl)).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).post(lockUrl)).statusCode).toBe(403);
    expect((await viewRow(view.id))?.isLocked).toBe(false);
  });
});

describe("publish", () => {
  it("sets a url-safe anchor (admins only) and unpublish clears it", async () => {
    const view = await createView();
    const url = `${f.project.url}/views/${view.id}/publish/`;
    expect((await client(t.app, f.w.member).post(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).post(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(url)).statusCode).toBe(404);
    expect((await client(t.app).post(url)).statusCode).toBe(401);
    expect((await viewRow(view.id))?.anchor).toBeNull();

    const published = await client(t.app, f.w.admin).post(url);
    expect(published.statusCode, published.body).toBe(200);
    const anchor = published.json().anchor as string;
    expect(anchor).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    // Publishing again keeps the same link.
    expect((await client(t.app, f.w.admin).post(url)).json().anchor).toBe(anchor);

    expect((await client(t.app, f.w.member).delete(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.admin).delete(url)).statusCode).toBe(204);
    expect((await viewRow(view.id))?.anchor).toBeNull();
  });

  it("refuses a private view (400 VIEW_PRIVATE) and unpublishes a view made private", async () => {
    const hidden = await createView({ access: 0 }, f.w.admin);
    const refused = await client(t.app, f.w.admin).post(`${f.project.url}/views/${hidden.id}/publish/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("VIEW_PRIVATE");
    expect((await viewRow(hidden.id))?.anchor).toBeNull();

    const view = await createView({}, f.w.admin);
    await client(t.app, f.w.admin).post(`${f.project.url}/views/${view.id}/publish/`);
    const priv = await client(t.app, f.w.admin).patch(`${f.project.url}/views/${view.id}/`, { access: 0 });
    expect(priv.json()).toMatchObject({ access: 0, anchor: null });
  });
});

describe("archive", () => {
  it("archives (favorites go, out of the list, into archived-views/), refuses changes, and restores", async () => {
    const view = await createView();
    await client(t.app, f.w.member).post(`${f.project.url}/user-favorite-views/`, { view: view.id });
    const url = `${f.project.url}/views/${view.id}/archive/`;
    expect((await client(t.app, f.w.outsider).post(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).post(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(url)).statusCode).toBe(404);
    expect((await client(t.app).post(url)).statusCode).toBe(401);

    const archived = await client(t.app, f.w.member).post(url);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().archived_at).toEqual(expect.any(String));
    expect(await countFavorites(view.id)).toBe(0);
    expect(ids((await client(t.app, f.w.member).get(`${f.project.url}/views/`)).json())).not.toContain(view.id);
    const archivedList = await client(t.app, f.w.guest).get(`${f.project.url}/archived-views/`);
    expect(ids(archivedList.json())).toContain(view.id);

    const again = await client(t.app, f.w.member).post(url);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("VIEW_ARCHIVED");
    const patch = await client(t.app, f.w.member).patch(`${f.project.url}/views/${view.id}/`, { name: "No" });
    expect(patch.json().code).toBe("VIEW_ARCHIVED");
    const fav = await client(t.app, f.w.member).post(`${f.project.url}/user-favorite-views/`, { view: view.id });
    expect(fav.statusCode).toBe(404);

    expect((await client(t.app, f.w.member).delete(url)).statusCode).toBe(204);
    expect((await viewRow(view.id))?.archivedAt).toBeNull();
  });
});

describe("favorites", () => {
  it("favorites idempotently, shows is_favorite first in the list, and unfavorites", async () => {
    const view = await createView({ name: "zzz last by name" });
    const url = `${f.project.url}/user-favorite-views/`;
    // 204 with no body both times, as the reference answers (user-favorites/ gives the favorite).
    const first = await client(t.app, f.w.member).post(url, { view: view.id });
    expect(first.statusCode, first.body).toBe(204);
    const second = await client(t.app, f.w.member).post(url, { view: view.id });
    expect(second.statusCode).toBe(204);
    expect(await countFavorites(view.id)).toBe(1);
    const list = (await client(t.app, f.w.member).get(`${f.project.url}/views/`)).json() as View[];
    expect(list.find((v) => v.id === view.id)?.is_favorite).toBe(true);
    // Favorites first, whatever their names.
    const flags = list.map((v) => v.is_favorite);
    expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
    // Another member's list does not show the member's favorite.
    const other = (await client(t.app, f.w.outsider).get(`${f.project.url}/views/`)).json() as View[];
    expect(other.find((v) => v.id === view.id)?.is_favorite).toBe(false);

    expect((await client(t.app, f.w.member).delete(`${url}${view.id}/`)).statusCode).toBe(204);
    expect(await countFavorites(view.id)).toBe(0);
    expect((await client(t.app, f.w.member).delete(`${url}${view.id}/`)).statusCode).toBe(404);
  });

  it("refuses guests (403), strangers and private views of others (404), anonymous (401), bad bodies (400)", async () => {
    const view = await createView();
    const hidden = await createView({ access: 0 }, f.w.admin);
    const url = `${f.project.url}/user-favorite-views/`;
    expect((await client(t.app, f.w.guest).post(url, { view: view.id })).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(url, { view: view.id })).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).post(url, { view: hidden.id })).statusCode).toBe(404);
    expect(
      (await client(t.app, f.w.stranger).post(`${f.foreign.url}/user-favorite-views/`, { view: view.id })).statusCode,
    ).toBe(404);
    expect((await client(t.app).post(url, { view: view.id })).statusCode).toBe(401);
    expect((await client(t.app, f.w.member).post(url, { view: "nope" })).statusCode).toBe(400);
    expect(await countFavorites(view.id)).toBe(0);
    expect(await countFavorites(hidden.id)).toBe(0);
  });
});

describe("the view's work items", () => {
  it("applies the view's filters AND-ed with the query's, with every list parameter", async () => {
    const p = await createIssue(t, f.w.member, f.project.url, { name: "Urgent one", priority: "urgent" });
    const q = await createIssue(t, f.w.member, f.project.url, { name: "Urgent two", priority: "urgent" });
    const r = await createIssue(t, f.w.member, f.project.url, { name: "High one", priority: "high" });
    await createIssue(t, f.w.member, f.project.url, { name: "Low one", priority: "low" });
    const view = await createView({ filters: { priority: ["urgent", "high"] } });
    const url = `${f.project.url}/views/${view.id}/issues/`;

    const all = await client(t.app, f.w.member).get(url);
    expect(all.statusCode, all.body).toBe(200);
    expect(ids(all.json().results).sort()).toEqual([p.id, q.id, r.id].sort());

    // The query narrows further; it can't widen past the view's filters.
    const narrowed = await client(t.app, f.w.member).get(`${url}?priority=urgent,low`);
    expect(ids(narrowed.json().results).sort()).toEqual([p.id, q.id].sort());

    const grouped = await client(t.app, f.w.member).get(`${url}?group_by=priority`);
    expect(grouped.json().results.urgent.total_results).toBe(2);
    expect(grouped.json().results.high.total_results).toBe(1);
    expect(grouped.json().results.low.total_results).toBe(0);

    const page = await client(t.app, f.w.member).get(`${url}?per_page=2&order_by=name`);
    expect(page.json()).toMatchObject({ total_count: 3, next_page_results: true });
    const searched = await client(t.app, f.w.member).get(`${url}?search=two`);
    expect(ids(searched.json().results)).toEqual([q.id]);
    const timeline = await client(t.app, f.w.member).get(
      `${url}?layout=gantt_chart&group_by=priority&expand=issue_relation`,
    );
    expect(timeline.json().grouped_by).toBeNull();
    expect(timeline.json().results[0].issue_relation).toEqual([]);
    expect((await client(t.app, f.w.member).get(`${url}?layout=table`)).statusCode).toBe(400);
  });

  it("keeps a restricted guest to their own items, and refuses 401, 404 and bad queries (400)", async () => {
    const view = await createView({ filters: { priority: ["medium"] } });
    // Guests can't create work items: one the guest "created" is set up straight in the table.
    const mine = await createIssue(t, f.w.member, f.project.url, { name: "Guest's", priority: "medium" });
    await t.db.update(issues).set({ createdById: f.w.guest.id }).where(eq(issues.id, mine.id));
    await createIssue(t, f.w.member, f.project.url, { name: "Member's", priority: "medium" });
    const url = `${f.project.url}/views/${view.id}/issues/`;
    const guest = await client(t.app, f.w.guest).get(url);
    expect(guest.statusCode, guest.body).toBe(200);
    expect(ids(guest.json().results)).toEqual([mine.id]);
    expect((await client(t.app).get(url)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(url)).statusCode).toBe(404);
    expect((await client(t.app, f.w.member).get(`${url}?group_by=colour`)).statusCode).toBe(400);
  });
});
