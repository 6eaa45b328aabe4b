/**
 * Modules API: CRUD with lead, members and dates; archive, restore and the archived list;
 * favorites; the workspace list; per-user properties; who may do what (401, 404 across
 * workspaces, 403 for guests) and bad input (400 with nothing stored).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { createFixture, eventsOf, type Fixture } from "../issues/test-support.ts";
import { countModules, createModule, moduleName, moduleRow } from "./test-support.ts";

let t: TestApp;
let f: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});
afterAll(() => t.close());

describe("create, read, change, delete", () => {
  it("creates a module with lead, members, dates and logo, and reads it back", async () => {
    const created = await createModule(t, f.w.member, f.project.url, {
      description: "Checkout rework",
      status: "in-progress",
      start_date: "2026-03-01",
      target_date: "2026-03-20T00:00:00Z",
      lead_id: f.w.member.id,
      member_ids: [f.w.member.id, f.w.admin.id],
      logo_props: { in_use: "emoji", emoji: { value: "1f680" } },
      sort_order: 1000,
    });
    expect(created).toMatchObject({
      project_id: f.project.id,
      workspace_id: f.w.workspaceId,
      status: "in-progress",
      start_date: "2026-03-01",
      target_date: "2026-03-20",
      lead_id: f.w.member.id,
      logo_props: { in_use: "emoji" },
      sort_order: 1000,
      total_issues: 0,
      completed_issues: 0,
      is_favorite: false,
      archived_at: null,
    });
    expect([...(created.member_ids as string[])].sort()).toEqual([f.w.member.id, f.w.admin.id].sort());
    expect(eventsOf(f, "module.created", created.id)).toHaveLength(1);

    const detail = await client(t.app, f.w.guest).get(`${f.project.url}/modules/${created.id}/`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      id: created.id,
      link_module: [],
      sub_issues: 0,
      distribution: { assignees: [], labels: [] },
      estimate_distribution: {},
    });
    const list = await client(t.app, f.w.guest).get(`${f.project.url}/modules/`);
    expect(list.json().map((m: { id: string }) => m.id)).toContain(created.id);
  });

  it("defaults the status to planned", async () => {
    const created = await createModule(t, f.w.admin, f.project.url);
    expect(created.status).toBe("planned");
  });

  it("changes a module by PATCH and by PUT, with module.updated", async () => {
    const m = await createModule(t, f.w.admin, f.project.url);
    const patched = await client(t.app, f.w.member).patch(`${f.project.url}/modules/${m.id}/`, {
      status: "paused",
      lead: f.w.admin.id,
      member_ids: [f.w.guest.id],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ status: "paused", lead_id: f.w.admin.id, member_ids: [f.w.guest.id] });
    const put = await client(t.app, f.w.member).put(`${f.project.url}/modules/${m.id}/`, { name: "Renamed by PUT" });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: "Renamed by PUT", status: "paused" });
    expect(eventsOf(f, "module.updated", m.id)).toHaveLength(2);
  });

  it("refuses a target date before the start date, storing nothing", async () => {
    const before = await countModules(t, f.project.id);
    const res = await client(t.app, f.w.member).post(`${f.project.url}/modules/`, {
      name: moduleName(),
      start_date: "2026-03-10",
      target_date: "2026-03-01",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.target_date).toBeDefined();
    // Said as the form says it (End date), not by the field's key.
    expect(res.json().error).toBe("The end date must be on or after the start date.");
    expect(await countModules(t, f.project.id)).toBe(before);

    const m = await createModule(t, f.w.member, f.project.url, { start_date: "2026-03-01", target_date: "2026-03-05" });
    const bad = await client(t.app, f.w.member).patch(`${f.project.url}/modules/${m.id}/`, {
      start_date: "2026-04-01",
    });
    expect(bad.statusCode).toBe(400);
    expect((await moduleRow(t, m.id))?.startDate).toBe("2026-03-01");
  });

  it("refuses a lead or member who is not in the project, storing nothing", async () => {
    const before = await countModules(t, f.project.id);
    const lead = await client(t.app, f.w.member).post(`${f.project.url}/modules/`, {
      name: moduleName(),
      lead_id: f.w.outsider.id,
    });
    expect(lead.statusCode).toBe(400);
    expect(lead.json().fields.lead_id).toBeDefined();
    const member = await client(t.app, f.w.member).post(`${f.project.url}/modules/`, {
      name: moduleName(),
      member_ids: [f.w.stranger.id],
    });
    expect(member.statusCode).toBe(400);
    expect(member.json().fields.member_ids).toBeDefined();
    expect(await countModules(t, f.project.id)).toBe(before);
  });

  it("refuses a bad status, a missing name and a duplicate name", async () => {
    const before = await countModules(t, f.project.id);
    expect(
      (await client(t.app, f.w.member).post(`${f.project.url}/modules/`, { name: "x", status: "done" })).statusCode,
    ).toBe(400);
    expect((await client(t.app, f.w.member).post(`${f.project.url}/modules/`, { name: " " })).statusCode).toBe(400);
    const m = await createModule(t, f.w.member, f.project.url);
    const dup = await client(t.app, f.w.member).post(`${f.project.url}/modules/`, { name: m.name });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe("MODULE_NAME_TAKEN");
    expect(await countModules(t, f.project.id)).toBe(before + 1);
  });

  it("deletes: the creator or a project admin; another member gets 403", async () => {
    const m = await createModule(t, f.w.admin, f.project.url);
    const byMember = await client(t.app, f.w.member).delete(`${f.project.url}/modules/${m.id}/`);
    expect(byMember.statusCode).toBe(403);
    const byAdmin = await client(t.app, f.w.admin).delete(`${f.project.url}/modules/${m.id}/`);
    expect(byAdmin.statusCode).toBe(204);
    expect(await moduleRow(t, m.id)).toBeUndefined();
    expect(eventsOf(f, "module.deleted", m.id)).toHaveLength(1);
    const own = await createModule(t, f.w.member, f.project.url);
    expect((await client(t.app, f.w.member).delete(`${f.project.url}/modules/${own.id}/`)).statusCode).toBe(204);
  });
});

describe("access", () => {
  it("answers 401 without a session", async () => {
    const m = await createModule(t, f.w.admin, f.project.url);
    const anon = client(t.app, null);
    expect((await anon.get(`${f.project.url}/modules/`)).statusCode).toBe(401);
    expect((await anon.post(`${f.project.url}/modules/`, { name: "x" })).statusCode).toBe(401);
    expect((await anon.get(`${f.project.url}/modules/${m.id}/`)).statusCode).toBe(401);
    expect((await anon.patch(`${f.project.url}/modules/${m.id}/`, { name: "x" })).statusCode).toBe(401);
    expect((await anon.get(`/api/workspaces/${f.w.slug}/modules/`)).statusCode).toBe(401);
  });

  it("hides another workspace's module (404), by its own path and through ours", async () => {
    const theirs = await createModule(t, f.w.stranger, f.foreign.url);
    const me = client(t.app, f.w.admin);
    expect((await me.get(`${f.foreign.url}/modules/${theirs.id}/`)).statusCode).toBe(404);
    expect((await me.get(`${f.project.url}/modules/${theirs.id}/`)).statusCode).toBe(404);
    expect((await me.patch(`${f.project.url}/modules/${theirs.id}/`, { name: "x" })).statusCode).toBe(404);
    expect((await me.delete(`${f.project.url}/modules/${theirs.id}/`)).statusCode).toBe(404);
    expect((await me.post(`${f.project.url}/modules/${theirs.id}/archive/`)).statusCode).toBe(404);
    expect((await me.get(`${f.project.url}/modules/${theirs.id}/issues/`)).statusCode).toBe(404);
    expect((await me.get(`${f.project.url}/modules/${theirs.id}/user-properties/`)).statusCode).toBe(404);
    expect((await me.post(`${f.project.url}/user-favorite-modules/`, { module: theirs.id })).statusCode).toBe(404);
    expect((await me.get(`${f.project.url}/modules/not-an-id/`)).statusCode).toBe(404);
    const stranger = client(t.app, f.w.stranger);
    expect((await stranger.get(`${f.project.url}/modules/`)).statusCode).toBe(404);
    expect((await moduleRow(t, theirs.id))?.name).toBe(theirs.name);
  });

  it("lets guests read but not change (403)", async () => {
    const m = await createModule(t, f.w.admin, f.project.url, { status: "completed" });
    const guest = client(t.app, f.w.guest);
    expect((await guest.get(`${f.project.url}/modules/${m.id}/`)).statusCode).toBe(200);
    expect((await guest.post(`${f.project.url}/modules/`, { name: moduleName() })).statusCode).toBe(403);
    expect((await guest.patch(`${f.project.url}/modules/${m.id}/`, { name: "x" })).statusCode).toBe(403);
    expect((await guest.put(`${f.project.url}/modules/${m.id}/`, { name: "x" })).statusCode).toBe(403);
    expect((await guest.delete(`${f.project.url}/modules/${m.id}/`)).statusCode).toBe(403);
    expect((await guest.post(`${f.project.url}/modules/${m.id}/archive/`)).statusCode).toBe(403);
    expect(
      (await guest.post(`${f.project.url}/modules/${m.id}/module-links/`, { url: "https://a.example" })).statusCode,
    ).toBe(403);
    expect((await moduleRow(t, m.id))?.archivedAt).toBeNull();
  });
});

describe("archive and restore", () => {
  it("archives only completed or cancelled modules; favorites go; restore brings it back", async () => {
    const open = await createModule(t, f.w.member, f.project.url, { status: "in-progress" });
    const refused = await client(t.app, f.w.member).post(`${f.project.url}/modules/${open.id}/archive/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("NOT_ARCHIVABLE");
    expect((await moduleRow(t, open.id))?.archivedAt).toBeNull();

    const done = await createModule(t, f.w.member, f.project.url, { status: "completed" });
    const fav = await client(t.app, f.w.member).post(`${f.project.url}/user-favorite-modules/`, { module: done.id });
    expect(fav.statusCode, fav.body).toBe(204);
    const archived = await client(t.app, f.w.member).post(`${f.project.url}/modules/${done.id}/archive/`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(typeof archived.json().archived_at).toBe("string");
    expect(eventsOf(f, "module.archived", done.id)).toHaveLength(1);

    const live = await client(t.app, f.w.member).get(`${f.project.url}/modules/`);
    expect(live.json().map((m: { id: string }) => m.id)).not.toContain(done.id);
    expect((await client(t.app, f.w.member).get(`${f.project.url}/modules/${done.id}/`)).statusCode).toBe(404);
    const list = await client(t.app, f.w.guest).get(`${f.project.url}/archived-modules/`);
    expect(list.json().map((m: { id: string }) => m.id)).toContain(done.id);
    const one = await client(t.app, f.w.guest).get(`${f.project.url}/archived-modules/${done.id}/`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: done.id, is_favorite: false, distribution: {} });
    const change = await client(t.app, f.w.member).patch(`${f.project.url}/modules/${done.id}/`, { name: "x" });
    expect(change.statusCode).toBe(400);
    expect(change.json().code).toBe("MODULE_ARCHIVED");

    const restored = await client(t.app, f.w.member).delete(`${f.project.url}/modules/${done.id}/archive/`);
    expect(restored.statusCode).toBe(204);
    expect(eventsOf(f, "module.restored", done.id)).toHaveLength(1);
    expect((await moduleRow(t, done.id))?.archivedAt).toBeNull();
    const again = await client(t.app, f.w.member).delete(`${f.project.url}/modules/${done.id}/archive/`);
    expect(again.statusCode).toBe(400);
  });
});

describe("favorites, workspace list, user properties", () => {
  it("stars and unstars a module; is_favorite is the caller's own and sorts first", async () => {
    const a = await createModule(t, f.w.member, f.project.url);
    await createModule(t, f.w.member, f.project.url);
    // 204 with no body both times, as the reference answers (user-favorites/ gives the favorite).
    const res = await client(t.app, f.w.guest).post(`${f.project.url}/user-favorite-modules/`, { module: a.id });
    expect(res.statusCode).toBe(204);
    expect(
      (await client(t.app, f.w.guest).post(`${f.project.url}/user-favorite-modules/`, { module: a.id })).statusCode,
    ).toBe(204);
    const mine = (await client(t.app, f.w.guest).get(`${f.project.url}/modules/`)).json();
    expect(mine[0]).toMatchObject({ id: a.id, is_favorite: true });
    const theirs = (await client(t.app, f.w.member).get(`${f.project.url}/modules/${a.id}/`)).json();
    expect(theirs.is_favorite).toBe(false);
    const del = await client(t.app, f.w.guest).delete(`${f.project.url}/user-favorite-modules/${a.id}/`);
    expect(del.statusCode).toBe(204);
    expect((await client(t.app, f.w.guest).delete(`${f.project.url}/user-favorite-modules/${a.id}/`)).statusCode).toBe(
      404,
    );
  });

  it("lists the workspace's modules of the caller's projects only", async () => {
    const m = await createModule(t, f.w.member, f.project.url);
    const res = await client(t.app, f.w.member).get(`/api/workspaces/${f.w.slug}/modules/`);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((x: { id: string }) => x.id)).toContain(m.id);
    const outsider = await client(t.app, f.w.outsider).get(`/api/workspaces/${f.w.slug}/modules/`);
    expect(outsider.json().map((x: { id: string }) => x.id)).not.toContain(m.id);
    expect((await client(t.app, f.w.stranger).get(`/api/workspaces/${f.w.slug}/modules/`)).statusCode).toBe(404);
  });

  it("keeps each user's filters and display settings per module", async () => {
    const m = await createModule(t, f.w.member, f.project.url);
    const url = `${f.project.url}/modules/${m.id}/user-properties/`;
    const first = await client(t.app, f.w.guest).get(url);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ module: m.id, filters: {}, display_filters: { layout: "list" } });
    const patched = await client(t.app, f.w.guest).patch(url, {
      filters: { priority: ["high"] },
      display_filters: { layout: "kanban", group_by: "priority" },
      display_properties: { labels: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      filters: { priority: ["high"] },
      display_filters: { layout: "kanban", group_by: "priority" },
      display_properties: { labels: false, assignee: true },
    });
    expect((await client(t.app, f.w.member).get(url)).json().filters).toEqual({});
    const bad = await client(t.app, f.w.guest).patch(url, { filters: { nope: ["x"] } });
    expect(bad.statusCode).toBe(400);
    expect((await client(t.app, f.w.guest).get(url)).json().filters).toEqual({ priority: ["high"] });
  });
});
