import { ROLE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../test/harness.ts";
import { apiTokens, projects, workspaceMembers } from "../db/schema.ts";
import { createProject, createWorld, projectWithTeam, type World } from "../routes/projects/test-support.ts";
import { eventsDuring, tokenFor, tokenThroughApi, v1 } from "./test-support.ts";

let t: TestApp;
let w: World;
let team: Awaited<ReturnType<typeof projectWithTeam>>;
let adminKey: string;
const base = () => `/api/v1/workspaces/${w.slug}`;

beforeAll(async () => {
  t = await createTestApp({ API_KEY_RATE_LIMIT: "1000/minute" });
  w = await createWorld(t);
  team = await projectWithTeam(t, w);
  adminKey = (await tokenThroughApi(t, w.admin, w.slug)).key;
});
afterAll(() => t.close());

describe("X-API-Key authentication", () => {
  it("answers with the key, in any header case, and records last_used", async () => {
    const { id, key } = await tokenThroughApi(t, w.admin, w.slug);
    const res = await t.app.inject({ method: "GET", url: `${base()}/projects/`, headers: { "X-Api-Key": key } });
    expect(res.statusCode, res.body).toBe(200);
    const upper = await t.app.inject({ method: "GET", url: `${base()}/projects/`, headers: { "X-API-KEY": key } });
    expect(upper.statusCode).toBe(200);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row?.lastUsed).toBeInstanceOf(Date);
    const listed = await client(t.app, w.admin).get(`/api/workspaces/${w.slug}/api-tokens/${id}/`);
    expect(listed.json().last_used).toBe(row?.lastUsed?.toISOString());
  });

  it("401 without a key, with an unknown, revoked or expired key; a cookie session does not count", async () => {
    const none = await v1(t.app, null).get(`${base()}/projects/`);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ detail: "Authentication credentials were not provided." });
    const cookieOnly = await client(t.app, w.admin).get(`${base()}/projects/`);
    expect(cookieOnly.statusCode).toBe(401);
    const unknown = await v1(t.app, "tideline_api_nope").get(`${base()}/projects/`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ detail: "Given API token is not valid" });

    const revoked = await tokenThroughApi(t, w.admin, w.slug);
    expect((await v1(t.app, revoked.key).get(`${base()}/projects/`)).statusCode).toBe(200);
    const del = await client(t.app, w.admin).delete(`/api/workspaces/${w.slug}/api-tokens/${revoked.id}/`);
    expect(del.statusCode).toBe(204);
    expect((await v1(t.app, revoked.key).get(`${base()}/projects/`)).statusCode).toBe(401);

    const expired = await tokenFor(t, w.admin, w.workspaceId, { expiredAt: new Date(Date.now() - 1000) });
    expect((await v1(t.app, expired.key).get(`${base()}/projects/`)).statusCode).toBe(401);
    const future = await tokenFor(t, w.admin, w.workspaceId, { expiredAt: new Date(Date.now() + 60_000) });
    expect((await v1(t.app, future.key).get(`${base()}/projects/`)).statusCode).toBe(200);
  });

  it("a token never reaches another workspace, even one its user belongs to", async () => {
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    const other = `/api/v1/workspaces/${w.otherSlug}`;
    expect((await v1(t.app, adminKey).get(`${other}/projects/`)).statusCode).toBe(404);
    expect((await v1(t.app, adminKey).get(`${other}/projects/${foreign.id}/`)).statusCode).toBe(404);
    // The foreign project by id under the token's own workspace is 404 too.
    expect((await v1(t.app, adminKey).get(`${base()}/projects/${foreign.id}/`)).statusCode).toBe(404);
    // Even when the user joins the other workspace, the token stays in its own.
    await t.db
      .insert(workspaceMembers)
      .values({ workspaceId: w.otherWorkspaceId, memberId: w.admin.id, role: ROLE.admin });
    const res = await v1(t.app, adminKey).post(`${other}/projects/`, { name: "Nope", identifier: "NOPE" });
    expect(res.statusCode).toBe(404);
    const rows = await t.db.select().from(projects).where(eq(projects.workspaceId, w.otherWorkspaceId));
    expect(rows.map((p) => p.identifier)).not.toContain("NOPE");
  });

  it("a member's token can do only what the member can", async () => {
    const memberKey = (await tokenFor(t, w.member, w.workspaceId)).key;
    const guestKey = (await tokenFor(t, w.guest, w.workspaceId)).key;
    // Project admin only: update and delete.
    const patch = await v1(t.app, memberKey).patch(`${base()}/projects/${team.id}/`, { name: "Renamed" });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().detail).toBeTruthy();
    expect((await v1(t.app, memberKey).delete(`${base()}/projects/${team.id}/`)).statusCode).toBe(403);
    // Workspace admin only: the workspace's members.
    expect((await v1(t.app, memberKey).get(`${base()}/members/`)).statusCode).toBe(403);
    expect((await v1(t.app, adminKey).get(`${base()}/members/`)).statusCode).toBe(200);
    // A guest cannot make states or projects.
    const state = await v1(t.app, guestKey).post(`${base()}/projects/${team.id}/states/`, {
      name: "G",
      color: "#112233",
      group: "started",
    });
    expect(state.statusCode).toBe(403);
    expect((await v1(t.app, guestKey).post(`${base()}/projects/`, { name: "G", identifier: "GG" })).statusCode).toBe(
      403,
    );
    // Demoted: the token follows the user's role now.
    const demoted = await tokenThroughApi(t, w.admin, w.slug);
    await t.db
      .update(workspaceMembers)
      .set({ role: ROLE.member })
      .where(and(eq(workspaceMembers.workspaceId, w.workspaceId), eq(workspaceMembers.memberId, w.admin.id)));
    expect((await v1(t.app, demoted.key).get(`${base()}/members/`)).statusCode).toBe(403);
    await t.db
      .update(workspaceMembers)
      .set({ role: ROLE.admin })
      .where(and(eq(workspaceMembers.workspaceId, w.workspaceId), eq(workspaceMembers.memberId, w.admin.id)));
  });

  it("projects: create, get, update, delete through the services, with their events", async () => {
    const seen = await eventsDuring(t, async () => {
      const created = await v1(t.app, adminKey).post(`${base()}/projects/`, { name: "Public API", identifier: "PUB" });
      expect(created.statusCode, created.body).toBe(201);
      const p = created.json();
      expect(p).toMatchObject({ name: "Public API", identifier: "PUB", workspace: w.workspaceId, is_member: true });
      expect(p.member_role).toBe(ROLE.admin);
      const got = await v1(t.app, adminKey).get(`${base()}/projects/${p.id}/?fields=id,name`);
      expect(got.json()).toEqual({ id: p.id, name: "Public API" });
      const patched = await v1(t.app, adminKey).patch(`${base()}/projects/${p.id}/`, { description: "via key" });
      expect(patched.statusCode).toBe(200);
      expect(patched.json().description).toBe("via key");
      expect((await v1(t.app, adminKey).delete(`${base()}/projects/${p.id}/`)).statusCode).toBe(204);
      expect((await v1(t.app, adminKey).get(`${base()}/projects/${p.id}/`)).statusCode).toBe(404);
    });
    const types = seen.map((e) => e.type);
    expect(types).toContain("project.member.added");
    expect(types).toContain("project.updated");
    expect(types).toContain("project.deleted");
    expect(seen.find((e) => e.type === "project.member.added")?.actor_id).toBe(w.admin.id);
  });

  it("bad input is a 400 with a message and stores nothing", async () => {
    const before = await t.db.select().from(projects).where(eq(projects.workspaceId, w.workspaceId));
    for (const body of [{}, { name: "" }, { name: 5, identifier: "X" }, { name: "ok", identifier: "ok", network: 7 }]) {
      const res = await v1(t.app, adminKey).post(`${base()}/projects/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe("string");
    }
    const after = await t.db.select().from(projects).where(eq(projects.workspaceId, w.workspaceId));
    expect(after.length).toBe(before.length);
    const badCursor = await v1(t.app, adminKey).get(`${base()}/projects/?cursor=abc`);
    expect(badCursor.statusCode).toBe(400);
    expect((await v1(t.app, adminKey).get(`${base()}/projects/?per_page=5000`)).statusCode).toBe(400);
  });

  it("states, labels and members in the reference's shapes", async () => {
    const states = await v1(t.app, adminKey).get(`${base()}/projects/${team.id}/states/`);
    expect(states.statusCode).toBe(200);
    expect(states.json().results.length).toBeGreaterThan(0);
    expect(states.json().results[0]).toHaveProperty("project", team.id);
    const made = await v1(t.app, adminKey).post(`${base()}/projects/${team.id}/states/`, {
      name: "Via key",
      color: "#123456",
      group: "started",
    });
    expect(made.statusCode, made.body).toBe(201);
    const sid = made.json().id;
    expect(
      (await v1(t.app, adminKey).patch(`${base()}/projects/${team.id}/states/${sid}/`, { name: "Renamed" })).json()
        .name,
    ).toBe("Renamed");
    expect((await v1(t.app, adminKey).delete(`${base()}/projects/${team.id}/states/${sid}/`)).statusCode).toBe(204);

    const label = await v1(t.app, adminKey).post(`${base()}/projects/${team.id}/labels/`, {
      name: "api",
      color: "#00ff00",
    });
    expect(label.statusCode, label.body).toBe(201);
    const labels = await v1(t.app, adminKey).get(`${base()}/projects/${team.id}/labels/`);
    expect(labels.json().results.map((l: { id: string }) => l.id)).toContain(label.json().id);

    const members = await v1(t.app, adminKey).get(`${base()}/projects/${team.id}/members/`);
    expect(members.statusCode).toBe(200);
    expect(members.json().map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining([w.admin.id, w.member.id]));
    const wsMembers = await v1(t.app, adminKey).get(`${base()}/members/`);
    expect(wsMembers.json().find((m: { id: string }) => m.id === w.member.id)).toMatchObject({ role: ROLE.member });
  });
});

describe("rate limit", () => {
  it("answers 429 past the limit, with X-RateLimit headers", async () => {
    const small = await createTestApp({ API_KEY_RATE_LIMIT: "3/minute" });
    try {
      const sw = await createWorld(small);
      const key = (await tokenFor(small, sw.admin, sw.workspaceId)).key;
      const url = `/api/v1/workspaces/${sw.slug}/projects/`;
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await v1(small.app, key).get(url);
        expect(res.statusCode).toBe(200);
        expect(res.headers["x-ratelimit-limit"]).toBe("3");
        remaining.push(String(res.headers["x-ratelimit-remaining"]));
      }
      expect(remaining).toEqual(["2", "1", "0"]);
      const refused = await v1(small.app, key).get(url);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/throttled/);
      expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
      expect(Number(refused.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
      expect(refused.headers["retry-after"]).toBeDefined();
      // Another token has its own allowance.
      const other = (await tokenFor(small, sw.admin, sw.workspaceId)).key;
      expect((await v1(small.app, other).get(url)).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});
