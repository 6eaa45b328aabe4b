import { ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  ORIGIN,
  type TestApp,
  type TestUser,
  type TestWorkspace,
} from "../../../test/harness.ts";
import { userProfiles, workspaceInvitations, workspaceMembers } from "../../db/schema.ts";
import { countMembers, createProject, membershipOf } from "../workspaces/test-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function inviteRow(ws: TestWorkspace, email: string, role: number, by: TestUser) {
  const [row] = await t.db
    .insert(workspaceInvitations)
    .values({ workspaceId: ws.id, email, role, tokenHash: `h-${Math.random()}`, createdById: by.id })
    .returning();
  if (!row) throw new Error("invitation insert failed");
  return row;
}

describe("anonymous callers", () => {
  it.each([
    ["GET", "/api/users/me/workspaces/"],
    ["GET", "/api/users/me/workspaces/some-ws/project-roles/"],
    ["GET", "/api/users/me/workspaces/invitations/"],
    ["POST", "/api/users/me/workspaces/invitations/"],
    ["GET", "/api/users/last-visited-workspace/"],
  ])("%s %s → 401", async (method, url) => {
    const res = await t.app.inject({
      method: method as "GET",
      url,
      payload: method === "POST" ? { invitations: [] } : undefined,
      headers: { origin: ORIGIN },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("GET /api/users/me/workspaces/", () => {
  it("lists the workspaces I am an active member of, with my role and the member count", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const mine = await createWorkspace(t.db, user, [{ user: other, role: ROLE.member }]);
    const joined = await createWorkspace(t.db, other, [{ user, role: ROLE.guest }]);
    const left = await createWorkspace(t.db, other, [{ user, role: ROLE.member }]);
    await createWorkspace(t.db, other);
    await t.db.update(workspaceMembers).set({ isActive: false }).where(eq(workspaceMembers.workspaceId, left.id));
    const res = await client(t.app, user).get("/api/users/me/workspaces/");
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: string; role: number; total_members: number; owner: { id: string } }[];
    expect(list.map((w) => w.id)).toEqual([mine.id, joined.id]);
    expect(list[0]).toMatchObject({
      slug: mine.slug,
      name: mine.name,
      role: ROLE.admin,
      total_members: 2,
      owner: { id: user.id },
      logo_url: null,
      organization_size: null,
    });
    expect(list[1]).toMatchObject({ role: ROLE.guest, owner: { id: other.id } });
    expect(list[0]).toHaveProperty("created_at");
    expect(list[0]).toHaveProperty("logo_props");
  });
});

describe("GET /api/users/me/workspaces/:slug/project-roles/", () => {
  it("maps each of my projects in the workspace to my role there", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const ws = await createWorkspace(t.db, other, [{ user, role: ROLE.member }]);
    const p1 = await createProject(t.db, ws.id, [{ userId: user.id, role: ROLE.admin }]);
    const p2 = await createProject(t.db, ws.id, [{ userId: user.id, role: ROLE.guest }]);
    await createProject(t.db, ws.id, [{ userId: other.id, role: ROLE.admin }]);
    const res = await client(t.app, user).get(`/api/users/me/workspaces/${ws.slug}/project-roles/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ [p1.id]: ROLE.admin, [p2.id]: ROLE.guest });
  });

  it("is 404 for a workspace I am not in", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const ws = await createWorkspace(t.db, other);
    expect((await client(t.app, user).get(`/api/users/me/workspaces/${ws.slug}/project-roles/`)).statusCode).toBe(404);
  });
});

describe("/api/users/me/workspaces/invitations/", () => {
  it("lists my pending invitations with their workspace, not other people's", async () => {
    const user = await createUser(t.db);
    const admin = await createUser(t.db, { firstName: "Ida" });
    const ws = await createWorkspace(t.db, admin);
    const inv = await inviteRow(ws, user.email, ROLE.member, admin);
    await inviteRow(ws, "someone-else@example.com", ROLE.member, admin);
    const res = await client(t.app, user).get("/api/users/me/workspaces/invitations/");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(1);
    expect(res.json()[0]).toMatchObject({
      id: inv.id,
      role: ROLE.member,
      workspace: { id: ws.id, name: ws.name, slug: ws.slug, logo_url: null },
      invited_by: { id: admin.id, first_name: "Ida" },
    });
  });

  it("accepts my invitations, ignores other people's and returns the joined workspaces", async () => {
    const user = await createUser(t.db);
    const stranger = await createUser(t.db);
    const admin = await createUser(t.db);
    const ws1 = await createWorkspace(t.db, admin);
    const ws2 = await createWorkspace(t.db, admin);
    const ws3 = await createWorkspace(t.db, admin);
    const a = await inviteRow(ws1, user.email, ROLE.guest, admin);
    const b = await inviteRow(ws2, user.email, ROLE.member, admin);
    const notMine = await inviteRow(ws3, stranger.email, ROLE.admin, admin);
    await t.db.update(userProfiles).set({ lastWorkspaceId: null }).where(eq(userProfiles.userId, user.id));

    const res = await client(t.app, user).post("/api/users/me/workspaces/invitations/", {
      invitations: [a.id, b.id, notMine.id],
    });
    expect(res.statusCode).toBe(200);
    const joined = res.json() as { id: string; role: number }[];
    expect(joined.map((w) => [w.id, w.role]).sort()).toEqual(
      [
        [ws1.id, ROLE.guest],
        [ws2.id, ROLE.member],
      ].sort(),
    );
    expect(await membershipOf(t.db, ws1.id, user.id)).toMatchObject({ role: ROLE.guest, isActive: true });
    expect(await membershipOf(t.db, ws2.id, user.id)).toMatchObject({ role: ROLE.member, isActive: true });
    expect(await membershipOf(t.db, ws3.id, user.id)).toBeUndefined();
    const [stillPending] = await t.db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.id, notMine.id));
    expect(stillPending?.accepted).toBe(false);
    expect((await client(t.app, user).get("/api/users/me/workspaces/invitations/")).json()).toEqual([]);
    const [profile] = await t.db.select().from(userProfiles).where(eq(userProfiles.userId, user.id));
    expect([ws1.id, ws2.id]).toContain(profile?.lastWorkspaceId);
    // Accepting again does nothing more.
    const again = await client(t.app, user).post("/api/users/me/workspaces/invitations/", { invitations: [a.id] });
    expect(again.json()).toEqual([]);
  });

  it("refuses bad input (400), joining nothing", async () => {
    const user = await createUser(t.db);
    const admin = await createUser(t.db);
    const ws = await createWorkspace(t.db, admin);
    const inv = await inviteRow(ws, user.email, ROLE.member, admin);
    for (const body of [
      { invitations: [] },
      { invitations: ["nope"] },
      { invitations: inv.id },
      {},
      { ids: [inv.id] },
    ]) {
      expect(
        (await client(t.app, user).post("/api/users/me/workspaces/invitations/", body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(await countMembers(t.db, ws.id)).toBe(1);
  });
});

describe("GET /api/users/last-visited-workspace/", () => {
  it("returns my last workspace and my projects there, or nothing once I have left it", async () => {
    const user = await createUser(t.db);
    const other = await createUser(t.db);
    const ws = await createWorkspace(t.db, other, [{ user, role: ROLE.member }]);
    const project = await createProject(t.db, ws.id, [{ userId: user.id, role: ROLE.member }]);
    await createProject(t.db, ws.id, [{ userId: other.id, role: ROLE.admin }]);
    const c = client(t.app, user);
    expect((await c.get("/api/users/last-visited-workspace/")).json()).toEqual({
      workspace_details: null,
      project_details: [],
    });
    await t.db.update(userProfiles).set({ lastWorkspaceId: ws.id }).where(eq(userProfiles.userId, user.id));
    const res = await c.get("/api/users/last-visited-workspace/");
    expect(res.statusCode).toBe(200);
    expect(res.json().workspace_details).toMatchObject({ id: ws.id, slug: ws.slug });
    expect(res.json().project_details).toEqual([
      expect.objectContaining({ id: project.id, identifier: project.identifier, role: ROLE.member }),
    ]);
    expect((await c.post(`/api/workspaces/${ws.slug}/members/leave/`)).statusCode).toBe(204);
    expect((await c.get("/api/users/last-visited-workspace/")).json().workspace_details).toBeNull();
  });
});
