/**
 * user-favorites/ (calls-errors-sync §7 "Favorites"), on a live server so the personal events
 * can be watched: every call (success, 401, 404 across workspaces and people, 400 storing
 * nothing), folders and moves, favorites of entities deleted, archived or out of sight
 * disappearing, and one table behind the entity calls and user-favorites alike.
 */
import {
  FAVORITE_FIRST_SEQUENCE,
  FAVORITE_SEQUENCE_STEP,
  userChannelName,
  workspaceChannelName,
} from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../../test/harness.ts";
import { userFavorites } from "../../db/schema.ts";
import { eventually, type LiveServer, openTab, startLiveServer, synced, type Tab } from "../../live/test-support.ts";
import { createProject, createWorld, projectWithTeam, type World } from "../projects/test-support.ts";

let s: LiveServer;
let w: World;
let p: Awaited<ReturnType<typeof projectWithTeam>>;
const tabs: Tab[] = [];

beforeAll(async () => {
  s = await startLiveServer();
  w = await createWorld(s);
  p = await projectWithTeam(s, w);
});
afterAll(async () => {
  for (const t of tabs) t.destroy();
  await s.close();
});

type Fav = {
  id: string;
  entity_type: string;
  entity_identifier: string | null;
  entity_data: Record<string, unknown> | null;
  name: string | null;
  is_folder: boolean;
  sequence: number;
  parent: string | null;
  project_id: string | null;
};

const url = (slug = w.slug) => `/api/workspaces/${slug}/user-favorites/`;
const as = (user: World["admin"] | null) => client(s.app, user);

async function made(path: string, body: Record<string, unknown>, user = w.member) {
  const res = await as(user).post(`${p.url}/${path}`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}
const cycle = (name = "Sprint") => made("cycles/", { name });
const moduleOf = (name = "Billing") => made("modules/", { name });
const view = (name = "Open bugs") => made("views/", { name });
const page = (name = "Plan", body: Record<string, unknown> = {}, user = w.member) =>
  made("pages/", { name, ...body }, user);

async function add(body: Record<string, unknown>, user = w.member, status = 201): Promise<Fav> {
  const res = await as(user).post(url(), body);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
const folder = (name: string, user = w.member) => add({ entity_type: "folder", name, is_folder: true }, user);
const list = async (user = w.member, all = true): Promise<Fav[]> => {
  const res = await as(user).get(`${url()}${all ? "?all=true" : ""}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const stored = async (userId: string) =>
  s.db
    .select()
    .from(userFavorites)
    .where(and(eq(userFavorites.userId, userId), eq(userFavorites.workspaceId, w.workspaceId)));

describe("POST and GET /user-favorites/", () => {
  it("adds every entity type with its entity_data, each at the end; adding again returns the existing one", async () => {
    const c = await cycle();
    const m = await moduleOf();
    const v = await view();
    const pg = await page();
    const project = await add({ entity_type: "project", entity_identifier: p.id, project_id: p.id });
    expect(project).toMatchObject({
      entity_type: "project",
      entity_identifier: p.id,
      project_id: p.id,
      parent: null,
      is_folder: false,
      workspace_id: w.workspaceId,
      entity_data: { id: p.id, name: p.name, identifier: p.identifier, logo_props: {} },
    });
    const fc = await add({
      entity_type: "cycle",
      entity_identifier: c.id,
      project_id: p.id,
      entity_data: { name: "x" },
    });
    expect(fc.entity_data).toEqual({ id: c.id, name: "Sprint", logo_props: {}, project_id: p.id });
    expect(fc.sequence).toBe(project.sequence + FAVORITE_SEQUENCE_STEP);
    const fm = await add({ entity_type: "module", entity_identifier: m.id, project_id: p.id });
    expect(fm.entity_data).toMatchObject({ id: m.id, name: "Billing", project_id: p.id });
    const fv = await add({ entity_type: "view", entity_identifier: v.id, project_id: p.id });
    expect(fv.entity_data).toMatchObject({ id: v.id, name: "Open bugs", project_id: p.id });
    const fp = await add({ entity_type: "page", entity_identifier: pg.id, project_id: p.id });
    expect(fp.entity_data).toMatchObject({ id: pg.id, name: "Plan", project_id: p.id });

    const again = await add({ entity_type: "cycle", entity_identifier: c.id, project_id: p.id }, w.member, 200);
    expect(again.id).toBe(fc.id);
    const all = await list();
    expect(all.map((f) => f.id)).toEqual([project.id, fc.id, fm.id, fv.id, fp.id]);
    // Another person's favorites are theirs alone.
    expect(await list(w.admin)).toEqual([]);
    for (const f of all) await as(w.member).delete(`${url()}${f.id}/`);
  });

  it("guests favorite what they can see; nobody favorites what they cannot (404, nothing stored)", async () => {
    const c = await cycle("Guest sprint");
    const fc = await add({ entity_type: "cycle", entity_identifier: c.id, project_id: p.id }, w.guest);
    expect(fc.entity_data).toMatchObject({ name: "Guest sprint" });
    const secret = await page("Secret", { access: 1 }, w.member);
    // A private project the guest is not in (a public one they could see and join).
    const other = await createProject(s, w.admin, w.slug, { network: 0 });
    const outsideCycle = await as(w.admin).post(`/api/workspaces/${w.slug}/projects/${other.id}/cycles/`, {
      name: "X",
    });
    expect(outsideCycle.statusCode, outsideCycle.body).toBe(201);
    const before = (await stored(w.guest.id)).length;
    for (const body of [
      { entity_type: "page", entity_identifier: secret.id, project_id: p.id },
      { entity_type: "cycle", entity_identifier: outsideCycle.json().id, project_id: other.id },
      { entity_type: "project", entity_identifier: other.id },
      { entity_type: "module", entity_identifier: c.id, project_id: p.id },
    ]) {
      expect((await as(w.guest).post(url(), body)).statusCode).toBe(404);
    }
    // Another workspace's entity, and this workspace's favorites asked through another workspace.
    expect(
      (await as(w.stranger).post(url(w.otherSlug), { entity_type: "cycle", entity_identifier: c.id })).statusCode,
    ).toBe(404);
    expect((await as(w.stranger).get(url(w.slug))).statusCode).toBe(404);
    expect((await stored(w.guest.id)).length).toBe(before);
    await as(w.guest).delete(`${url()}${fc.id}/`);
  });

  it("answers 401 signed out and 400 on bad input, storing nothing", async () => {
    expect((await as(null).get(url())).statusCode).toBe(401);
    expect((await as(null).post(url(), { entity_type: "folder", name: "x" })).statusCode).toBe(401);
    const before = (await stored(w.member.id)).length;
    for (const [body, field] of [
      [{ entity_type: "issue", entity_identifier: p.id }, "entity_type"],
      [{ entity_type: "folder" }, "name"],
      [{ entity_type: "folder", name: "   " }, "name"],
      [{ entity_type: "folder", name: "x".repeat(256) }, "name"],
      [{ entity_type: "cycle" }, "entity_identifier"],
      [{ entity_type: "cycle", entity_identifier: "nope" }, "entity_identifier"],
      [{ entity_type: "folder", name: "F", is_folder: false }, "is_folder"],
      [{ entity_type: "project", entity_identifier: p.id, parent: p.id }, "parent"],
    ] as const) {
      const res = await as(w.member).post(url(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields ?? res.json(), JSON.stringify(body)).toHaveProperty(field);
    }
    expect((await stored(w.member.id)).length).toBe(before);
  });
});

describe("folders: rename, file in and out, reorder, group, remove", () => {
  it("files favorites into a folder and out again, reorders by sequence and lists a folder's contents", async () => {
    const c = await cycle("Filed sprint");
    const pg = await page("Filed page");
    const fc = await add({ entity_type: "cycle", entity_identifier: c.id, project_id: p.id });
    const fp = await add({ entity_type: "page", entity_identifier: pg.id, project_id: p.id });
    const dir = await folder("Work");
    expect(dir).toMatchObject({
      entity_type: "folder",
      is_folder: true,
      name: "Work",
      entity_data: null,
      entity_identifier: null,
    });

    const moved = await as(w.member).patch(`${url()}${fc.id}/`, { parent: dir.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ parent: dir.id, sequence: FAVORITE_FIRST_SEQUENCE });
    const second = (await as(w.member).patch(`${url()}${fp.id}/`, { parent: dir.id })).json();
    expect(second.sequence).toBe(FAVORITE_FIRST_SEQUENCE + FAVORITE_SEQUENCE_STEP);
    // Top level only without all=true (as the reference), the folder's contents under group/.
    expect((await list(w.member, false)).map((f) => f.id)).toEqual([dir.id]);
    const group = await as(w.member).get(`${url()}${dir.id}/group/`);
    expect(group.statusCode).toBe(200);
    expect(group.json().map((f: Fav) => f.id)).toEqual([fc.id, fp.id]);
    // Reorder: the page before the cycle (the midpoint the client computes).
    const reordered = await as(w.member).patch(`${url()}${fp.id}/`, { sequence: FAVORITE_FIRST_SEQUENCE - 5000 });
    expect(reordered.json().sequence).toBe(FAVORITE_FIRST_SEQUENCE - 5000);
    expect((await as(w.member).get(`${url()}${dir.id}/group/`)).json().map((f: Fav) => f.id)).toEqual([fp.id, fc.id]);
    // Rename the folder; out of the folder to the top level's end.
    expect((await as(w.member).patch(`${url()}${dir.id}/`, { name: "Renamed" })).json().name).toBe("Renamed");
    const out = (await as(w.member).patch(`${url()}${fc.id}/`, { parent: null })).json();
    expect(out.parent).toBeNull();
    expect((await list(w.member, false)).map((f) => f.id)).toEqual([dir.id, fc.id]);
    // Removing a folder removes what it holds, as the reference cascades.
    expect((await as(w.member).delete(`${url()}${dir.id}/`)).statusCode).toBe(204);
    expect((await list()).map((f) => f.id)).toEqual([fc.id]);
    expect((await as(w.member).delete(`${url()}${fc.id}/`)).statusCode).toBe(204);
    expect((await as(w.member).delete(`${url()}${fc.id}/`)).statusCode).toBe(404);
  });

  it("refuses what would break the tree (400, nothing changed) and others' favorites (404)", async () => {
    const c = await cycle("Lone sprint");
    const fc = await add({ entity_type: "cycle", entity_identifier: c.id, project_id: p.id });
    const dir = await folder("Box");
    const inner = await folder("Inner");
    const theirs = await folder("Theirs", w.admin);
    for (const [id, body, field] of [
      [inner.id, { parent: dir.id }, "parent"],
      [fc.id, { parent: theirs.id }, "parent"],
      [fc.id, { parent: fc.id }, "parent"],
      [fc.id, { name: "Not a folder" }, "name"],
      [dir.id, { name: "" }, "name"],
      [dir.id, { sequence: "first" }, "sequence"],
    ] as const) {
      const res = await as(w.member).patch(`${url()}${id}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields, JSON.stringify(body)).toHaveProperty(field);
    }
    const rows = await stored(w.member.id);
    expect(rows.find((r) => r.id === fc.id)).toMatchObject({ parentId: null, name: null });
    expect(rows.find((r) => r.id === dir.id)).toMatchObject({ name: "Box" });
    // Another person's favorite, and one asked through another workspace: 404.
    expect((await as(w.member).patch(`${url()}${theirs.id}/`, { name: "Mine" })).statusCode).toBe(404);
    expect((await as(w.member).delete(`${url()}${theirs.id}/`)).statusCode).toBe(404);
    expect((await as(w.member).get(`${url()}${theirs.id}/group/`)).statusCode).toBe(404);
    expect((await as(w.stranger).patch(`${url(w.otherSlug)}${dir.id}/`, { name: "x" })).statusCode).toBe(404);
    expect((await as(w.stranger).delete(`${url(w.otherSlug)}${dir.id}/`)).statusCode).toBe(404);
    expect((await as(w.member).get(`${url()}nope/group/`)).statusCode).toBe(404);
    expect((await as(null).patch(`${url()}${dir.id}/`, { name: "x" })).statusCode).toBe(401);
    expect((await as(null).delete(`${url()}${dir.id}/`)).statusCode).toBe(401);
    expect((await as(null).get(`${url()}${dir.id}/group/`)).statusCode).toBe(401);
    for (const f of [fc, dir, inner]) await as(w.member).delete(`${url()}${f.id}/`);
    await as(w.admin).delete(`${url()}${theirs.id}/`);
  });
});

describe("favorites of what is gone or out of sight", () => {
  it("drops the favorite of a deleted cycle, an archived page, a left project, and hides what the owner cannot see", async () => {
    const c = await cycle("Doomed");
    const pg = await page("Archived soon");
    const dir = await folder("Holder");
    await add({ entity_type: "cycle", entity_identifier: c.id, project_id: p.id, parent: dir.id });
    await add({ entity_type: "page", entity_identifier: pg.id, project_id: p.id });
    expect((await as(w.member).delete(`${p.url}/cycles/${c.id}/`)).statusCode).toBe(204);
    expect((await as(w.member).post(`${p.url}/pages/${pg.id}/archive/`)).statusCode).toBe(200);
    expect((await list()).map((f) => f.id)).toEqual([dir.id]);
    expect((await as(w.member).get(`${url()}${dir.id}/group/`)).json()).toEqual([]);

    // A favorite whose entity the owner can no longer see is left out, even if a row remains.
    const other = await createProject(s, w.admin, w.slug, { network: 0 });
    const hidden = (
      await as(w.admin).post(`/api/workspaces/${w.slug}/projects/${other.id}/cycles/`, { name: "H" })
    ).json();
    await s.db.insert(userFavorites).values({
      workspaceId: w.workspaceId,
      userId: w.member.id,
      entityType: "cycle",
      entityIdentifier: hidden.id,
      projectId: other.id,
    });
    expect((await list()).map((f) => f.id)).toEqual([dir.id]);

    // Leaving a project: its favorites go (and the member's events say so).
    const left = await projectWithTeam(s, w);
    const m = (await as(w.member).post(`${left.url}/modules/`, { name: "Left behind" })).json();
    await add({ entity_type: "module", entity_identifier: m.id, project_id: left.id });
    expect((await list()).map((f) => f.entity_identifier)).toContain(m.id);
    expect((await as(w.admin).delete(`${left.url}/members/${left.memberRowId}/`)).statusCode).toBe(204);
    expect((await list()).map((f) => f.id)).toEqual([dir.id]);
    await as(w.member).delete(`${url()}${dir.id}/`);
  });
});

describe("one table behind the entity calls and user-favorites", () => {
  it("a star set by an entity call lists in user-favorites, and one added there shows as is_favorite", async () => {
    const c = await cycle("Starred");
    const m = await moduleOf("Starred module");
    const v = await view("Starred view");
    const pg = await page("Starred page");
    // The entity calls answer 204 for cycles, modules and views, as the reference does.
    expect((await as(w.member).post(`${p.url}/user-favorite-cycles/`, { cycle: c.id })).statusCode).toBe(204);
    expect((await as(w.member).post(`${p.url}/user-favorite-modules/`, { module: m.id })).statusCode).toBe(204);
    expect((await as(w.member).post(`${p.url}/user-favorite-views/`, { view: v.id })).statusCode).toBe(204);
    expect((await as(w.member).post(`${p.url}/favorite-pages/${pg.id}/`)).statusCode).toBe(201);
    const all = await list();
    expect(all.map((f) => [f.entity_type, f.entity_identifier])).toEqual([
      ["cycle", c.id],
      ["module", m.id],
      ["view", v.id],
      ["page", pg.id],
    ]);
    // Adding through user-favorites what an entity call starred returns that one.
    const same = await add({ entity_type: "module", entity_identifier: m.id, project_id: p.id }, w.member, 200);
    expect(same.id).toBe(all[1]?.id);
    // Removing through user-favorites unstars in the entity's own answer.
    await as(w.member).delete(`${url()}${all[0]?.id}/`);
    expect((await as(w.member).get(`${p.url}/cycles/${c.id}/`)).json().is_favorite).toBe(false);
    expect((await as(w.member).delete(`${p.url}/user-favorite-cycles/${c.id}/`)).statusCode).toBe(404);
    // Removing through an entity call removes the user-favorites row.
    expect((await as(w.member).delete(`${p.url}/user-favorite-views/${v.id}/`)).statusCode).toBe(204);
    expect((await list()).map((f) => f.entity_identifier)).toEqual([m.id, pg.id]);
    // Added through user-favorites, the module shows starred in its list.
    const c2 = await cycle("Starred here");
    await add({ entity_type: "cycle", entity_identifier: c2.id, project_id: p.id });
    expect((await as(w.member).get(`${p.url}/cycles/${c2.id}/`)).json().is_favorite).toBe(true);
    for (const f of await list()) await as(w.member).delete(`${url()}${f.id}/`);
  });
});

describe("live", () => {
  it("a project an admin archives or deletes leaves its members' favorites at once: favorite.deleted for its star and its cycles'", async () => {
    const tab = openTab(s.url, w.member);
    tabs.push(tab);
    const own = tab.open(userChannelName(w.member.id));
    await synced(own);
    for (const end of ["archive", "delete"] as const) {
      const other = await projectWithTeam(s, w);
      const starred = await as(w.member).post(`/api/workspaces/${w.slug}/user-favorite-projects/`, {
        project: other.id,
      });
      expect(starred.statusCode, starred.body).toBe(201);
      const c = await as(w.member).post(`${other.url}/cycles/`, { name: `In ${end}d project` });
      expect(c.statusCode, c.body).toBe(201);
      await as(w.member).post(`${other.url}/user-favorite-cycles/`, { cycle: c.json().id });
      const mine = (await list()).filter((f) => f.project_id === other.id || f.entity_identifier === other.id);
      expect(mine).toHaveLength(2);
      const before = own.messages.length;
      const res =
        end === "archive"
          ? await as(w.admin).post(`${other.url}/archive/`, {})
          : await as(w.admin).delete(`${other.url}/`);
      expect(res.statusCode, res.body).toBe(end === "archive" ? 200 : 204);
      await eventually(() =>
        expect(
          own.messages
            .slice(before)
            .filter((m) => m.event.type === "favorite.deleted")
            .map((m) => m.event.entity_id)
            .sort(),
        ).toEqual(mine.map((f) => f.id).sort()),
      );
      expect((await list()).filter((f) => mine.some((m) => m.id === f.id))).toEqual([]);
    }
  });

  it("sends favorite events to the owner's user channel only, never to the workspace's or project's", async () => {
    const ownTab = openTab(s.url, w.member);
    const otherTab = openTab(s.url, w.admin);
    tabs.push(ownTab, otherTab);
    const own = ownTab.open(userChannelName(w.member.id));
    const workspace = otherTab.open(workspaceChannelName(w.workspaceId));
    await synced(own);
    await synced(workspace);
    const c = await cycle("Live sprint");
    const dir = await folder("Live folder");
    await as(w.member).post(`${p.url}/user-favorite-cycles/`, { cycle: c.id });
    const fav = (await list()).find((f) => f.entity_identifier === c.id);
    await as(w.member).patch(`${url()}${fav?.id}/`, { parent: dir.id });
    await as(w.member).delete(`${url()}${dir.id}/`);
    await eventually(() =>
      expect(own.messages.map((m) => m.event.type).filter((t) => t.startsWith("favorite."))).toEqual([
        "favorite.created",
        "favorite.created",
        "favorite.updated",
        "favorite.deleted",
        "favorite.deleted",
      ]),
    );
    const created = own.messages.find((m) => m.event.type === "favorite.created" && m.event.entity_id === fav?.id);
    expect(created?.event.data).toMatchObject({
      entity_type: "cycle",
      owner: w.member.id,
      entity_data: { name: "Live sprint" },
    });
    const view = await as(w.admin).post(`/api/workspaces/${w.slug}/views/`, { name: "Marker view" });
    expect(view.statusCode, view.body).toBe(201);
    await eventually(() => expect(workspace.messages.map((m) => m.event.type)).toContain("view.created"));
    expect(workspace.messages.filter((m) => m.event.type.startsWith("favorite."))).toEqual([]);
  });
});
