import { NETWORK } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { userFavorites } from "../../db/schema.ts";
import { createProject, createWorld, projectWithTeam, type World } from "./test-support.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const url = () => `/api/workspaces/${w.slug}/user-favorite-projects/`;
const favoritesOf = (userId: string) => t.db.select().from(userFavorites).where(eq(userFavorites.userId, userId));

describe("project favorites", () => {
  it("adds a favorite once; adding again returns the same row", async () => {
    const p = await projectWithTeam(t, w);
    const first = await client(t.app, w.guest).post(url(), { project: p.id });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      entity_type: "project",
      entity_identifier: p.id,
      project_id: p.id,
      is_folder: false,
      parent: null,
      entity_data: { id: p.id, name: p.name, identifier: p.identifier },
    });
    const again = await client(t.app, w.guest).post(url(), { project: p.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const rows = await t.db
      .select()
      .from(userFavorites)
      .where(and(eq(userFavorites.userId, w.guest.id), eq(userFavorites.entityIdentifier, p.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ workspaceId: w.workspaceId, entityType: "project", projectId: p.id });
  });

  it("lists my project favorites in order and flags them in the project list", async () => {
    const a = await projectWithTeam(t, w);
    const b = await projectWithTeam(t, w);
    await client(t.app, w.member).post(url(), { project: a.id });
    await client(t.app, w.member).post(url(), { project: b.id });
    const res = await client(t.app, w.member).get(url());
    expect(res.statusCode).toBe(200);
    const list = res.json() as { entity_identifier: string; sequence: number }[];
    const ids = list.map((f) => f.entity_identifier);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    // Someone else's favorites are not mine.
    expect((await client(t.app, w.admin).get(url())).json()).toEqual([]);
    const projects = (await client(t.app, w.member).get(`/api/workspaces/${w.slug}/projects/`)).json() as {
      id: string;
      is_favorite: boolean;
    }[];
    expect(projects.find((p) => p.id === a.id)?.is_favorite).toBe(true);
  });

  it("removes a favorite; a second removal is 404", async () => {
    const p = await projectWithTeam(t, w);
    await client(t.app, w.admin).post(url(), { project: p.id });
    expect((await client(t.app, w.admin).delete(`${url()}${p.id}/`)).statusCode).toBe(204);
    expect((await favoritesOf(w.admin.id)).filter((f) => f.entityIdentifier === p.id)).toEqual([]);
    expect((await client(t.app, w.admin).delete(`${url()}${p.id}/`)).statusCode).toBe(404);
  });

  it("refuses a public project the caller has not joined (403) and a private one (404)", async () => {
    const open = await createProject(t, w.admin, w.slug);
    const secret = await createProject(t, w.member, w.slug, { network: NETWORK.private });
    expect((await client(t.app, w.outsider).post(url(), { project: open.id })).statusCode).toBe(403);
    expect((await client(t.app, w.admin).post(url(), { project: secret.id })).statusCode).toBe(404);
    expect(await favoritesOf(w.outsider.id)).toEqual([]);
  });

  it("refuses an archived project (400)", async () => {
    const p = await projectWithTeam(t, w);
    await client(t.app, w.admin).post(`${p.url}/archive/`);
    const res = await client(t.app, w.member).post(url(), { project: p.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("PROJECT_ARCHIVED");
  });

  it("refuses bad input (400) storing nothing; anonymous (401); another workspace (404)", async () => {
    const before = await favoritesOf(w.member.id);
    for (const body of [{}, { project: "nope" }, { project_id: "x" }]) {
      expect((await client(t.app, w.member).post(url(), body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await favoritesOf(w.member.id)).toEqual(before);

    const p = await projectWithTeam(t, w);
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    expect((await client(t.app).get(url())).statusCode).toBe(401);
    expect((await client(t.app).post(url(), { project: p.id })).statusCode).toBe(401);
    expect((await client(t.app).delete(`${url()}${p.id}/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(url())).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).post(url(), { project: p.id })).statusCode).toBe(404);
    // Another workspace's project through my workspace: not found.
    expect((await client(t.app, w.member).post(url(), { project: foreign.id })).statusCode).toBe(404);
    // The stranger's own favorite is not reachable through my workspace.
    await client(t.app, w.stranger).post(`/api/workspaces/${w.otherSlug}/user-favorite-projects/`, {
      project: foreign.id,
    });
    expect((await client(t.app, w.stranger).delete(`${url()}${foreign.id}/`)).statusCode).toBe(404);
    expect(await favoritesOf(w.stranger.id)).toHaveLength(1);
    expect((await client(t.app, w.member).delete(`${url()}nope/`)).statusCode).toBe(404);
  });
});
