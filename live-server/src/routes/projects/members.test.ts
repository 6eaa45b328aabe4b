import { NETWORK, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createUser, type TestApp } from "../../../test/harness.ts";
import { projectMembers, userFavorites, workspaceMembers } from "../../db/schema.ts";
import { addMember, createProject, createWorld, membershipOf, projectWithTeam, type World } from "./test-support.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const memberRows = (projectId: string) =>
  t.db.select().from(projectMembers).where(eq(projectMembers.projectId, projectId));

type MemberJson = {
  id: string;
  role: number;
  member: string;
  member_details: { id: string; email: string; display_name: string };
};

describe("GET /projects/:id/members/", () => {
  it("lists the members with their profile, to every project role", async () => {
    const p = await projectWithTeam(t, w);
    for (const user of [w.admin, w.member, w.guest]) {
      const res = await client(t.app, user).get(`${p.url}/members/`);
      expect(res.statusCode).toBe(200);
      const list = res.json() as MemberJson[];
      expect(list.map((m) => [m.member, m.role])).toEqual([
        [w.admin.id, ROLE.admin],
        [w.member.id, ROLE.member],
        [w.guest.id, ROLE.guest],
      ]);
      // The reference's membership shape: `member` is the user id (clients key people by it,
      // a nested object made every member collapse into one), the person beside it.
      expect(list[1]).toMatchObject({
        id: p.memberRowId,
        project: p.id,
        member: w.member.id,
        member_details: { id: w.member.id, email: w.member.email, display_name: w.member.displayName, is_bot: false },
        role: ROLE.member,
        original_role: ROLE.member,
        created_at: expect.any(String),
      });
      expect(new Set(list.map((m) => m.member)).size).toBe(3);
      expect(list[1]?.member_details).not.toHaveProperty("password_hash");
    }
  });

  it("leaves guests out with ?exclude_guests=true", async () => {
    const p = await projectWithTeam(t, w);
    const list = (await client(t.app, w.member).get(`${p.url}/members/?exclude_guests=true`)).json() as MemberJson[];
    expect(list.map((m) => m.member)).toEqual([w.admin.id, w.member.id]);
  });

  it("leaves out people who have left the workspace", async () => {
    const gone = await createUser(t.db);
    await t.db.insert(workspaceMembers).values({ workspaceId: w.workspaceId, memberId: gone.id, role: ROLE.member });
    const p = await projectWithTeam(t, w);
    await addMember(t, w.admin, w.slug, p.id, gone, ROLE.member);
    await t.db.update(workspaceMembers).set({ isActive: false }).where(eq(workspaceMembers.memberId, gone.id));
    const list = (await client(t.app, w.admin).get(`${p.url}/members/`)).json() as MemberJson[];
    expect(list.map((m) => m.member)).not.toContain(gone.id);
  });

  it("is 403 for a public project's non-member, 404 private/other workspace, 401 anonymous, 400 bad flag", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.outsider).get(`${p.url}/members/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).get(`${p.url}/members/`)).statusCode).toBe(404);
    expect((await client(t.app).get(`${p.url}/members/`)).statusCode).toBe(401);
    expect((await client(t.app, w.admin).get(`${p.url}/members/?exclude_guests=1`)).statusCode).toBe(400);
    const priv = await createProject(t, w.member, w.slug, { network: NETWORK.private });
    expect(
      (await client(t.app, w.admin).get(`/api/workspaces/${w.slug}/projects/${priv.id}/members/`)).statusCode,
    ).toBe(404);
  });
});

describe("POST /projects/:id/members/", () => {
  it("adds several members at once", async () => {
    const p = await createProject(t, w.admin, w.slug);
    const res = await client(t.app, w.admin).post(`/api/workspaces/${w.slug}/projects/${p.id}/members/`, {
      members: [
        { member_id: w.member.id, role: ROLE.member },
        { member_id: w.guest.id, role: ROLE.guest },
        { member_id: w.outsider.id, role: ROLE.guest },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as MemberJson[]).map((m) => [m.member, m.role])).toEqual([
      [w.member.id, ROLE.member],
      [w.guest.id, ROLE.guest],
      [w.outsider.id, ROLE.guest],
    ]);
    expect(await membershipOf(t, p.id, w.outsider.id)).toMatchObject({ role: ROLE.guest, isActive: true });
  });

  it("refuses, naming them, people who are not active workspace members; stores nothing", async () => {
    const p = await createProject(t, w.admin, w.slug);
    const url = `/api/workspaces/${w.slug}/projects/${p.id}/members/`;
    const res = await client(t.app, w.admin).post(url, {
      members: [
        { member_id: w.member.id, role: ROLE.member },
        { member_id: w.stranger.id, role: ROLE.member },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("NOT_WORKSPACE_MEMBER");
    expect(res.json().error).toContain(w.stranger.id);
    expect(res.json().fields).toHaveProperty(["members.1.member_id"]);
    expect(await memberRows(p.id)).toHaveLength(1);
  });

  it("refuses a project role above the person's workspace role; stores nothing", async () => {
    const p = await createProject(t, w.admin, w.slug);
    const url = `/api/workspaces/${w.slug}/projects/${p.id}/members/`;
    for (const item of [
      { member_id: w.member.id, role: ROLE.admin },
      { member_id: w.guest.id, role: ROLE.member },
    ]) {
      const res = await client(t.app, w.admin).post(url, { members: [item] });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe("ROLE_TOO_HIGH");
    }
    expect(await memberRows(p.id)).toHaveLength(1);
  });

  it("refuses current members, duplicates and malformed lists; stores nothing", async () => {
    const p = await projectWithTeam(t, w);
    const before = await memberRows(p.id);
    const cases: Record<string, unknown>[] = [
      { members: [{ member_id: w.member.id, role: ROLE.member }] },
      {
        members: [
          { member_id: w.outsider.id, role: ROLE.member },
          { member_id: w.outsider.id, role: ROLE.guest },
        ],
      },
      { members: [] },
      { members: [{ member_id: w.outsider.id, role: 10 }] },
      { members: [{ member_id: "nope", role: ROLE.member }] },
      { members: [{ member_id: w.outsider.id }] },
      { member_id: w.outsider.id, role: ROLE.member },
    ];
    for (const body of cases) {
      const res = await client(t.app, w.admin).post(`${p.url}/members/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await memberRows(p.id)).toEqual(before);
  });

  it("brings back someone who was removed, at the new role", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.admin).delete(`${p.url}/members/${p.memberRowId}/`)).statusCode).toBe(204);
    const again = await addMember(t, w.admin, w.slug, p.id, w.member, ROLE.guest);
    expect(again).toBe(p.memberRowId);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.guest, isActive: true });
  });

  it("is refused to members and guests (403), others (404), anonymous (401)", async () => {
    const p = await projectWithTeam(t, w);
    const body = { members: [{ member_id: w.outsider.id, role: ROLE.guest }] };
    expect((await client(t.app, w.member).post(`${p.url}/members/`, body)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).post(`${p.url}/members/`, body)).statusCode).toBe(403);
    expect((await client(t.app, w.outsider).post(`${p.url}/members/`, body)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).post(`${p.url}/members/`, body)).statusCode).toBe(404);
    expect((await client(t.app).post(`${p.url}/members/`, body)).statusCode).toBe(401);
    expect(await membershipOf(t, p.id, w.outsider.id)).toBeUndefined();
  });
});

describe("GET /projects/:id/project-members/me/", () => {
  it("gives the caller's own membership and role", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.guest).get(`${p.url}/project-members/me/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.guestRowId, project: p.id, member: w.guest.id, role: ROLE.guest });
  });

  it("is 403 for a non-member of a public project, 404 other workspaces, 401 anonymous", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.outsider).get(`${p.url}/project-members/me/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).get(`${p.url}/project-members/me/`)).statusCode).toBe(404);
    expect((await client(t.app).get(`${p.url}/project-members/me/`)).statusCode).toBe(401);
  });
});

describe("GET, PATCH, DELETE /projects/:id/members/:memberId/", () => {
  it("reads one member", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.guest).get(`${p.url}/members/${p.memberRowId}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: p.memberRowId,
      role: ROLE.member,
      member: w.member.id,
      member_details: { id: w.member.id },
    });
  });

  it("is 404 'Member not found' for another project's member, a bad id, an unknown id", async () => {
    const p = await projectWithTeam(t, w);
    const q = await projectWithTeam(t, w);
    for (const id of [q.memberRowId, "nope", "00000000-0000-4000-8000-000000000000"]) {
      const res = await client(t.app, w.admin).get(`${p.url}/members/${id}/`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("Member not found");
      expect((await client(t.app, w.admin).patch(`${p.url}/members/${id}/`, { role: ROLE.guest })).statusCode).toBe(
        404,
      );
      expect((await client(t.app, w.admin).delete(`${p.url}/members/${id}/`)).statusCode).toBe(404);
    }
    expect(await membershipOf(t, q.id, w.member.id)).toMatchObject({ role: ROLE.member, isActive: true });
  });

  it("changes a role within the limits", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.admin).patch(`${p.url}/members/${p.memberRowId}/`, { role: ROLE.guest });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.memberRowId, role: ROLE.guest });
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.guest });
  });

  it("refuses a role above the workspace role, bad roles and extra fields; changes nothing", async () => {
    const p = await projectWithTeam(t, w);
    for (const body of [{ role: ROLE.admin }, { role: 7 }, {}, { role: String(ROLE.member) }]) {
      const res = await client(t.app, w.admin).patch(`${p.url}/members/${p.memberRowId}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.member, isActive: true });
  });

  it("never demotes or removes the last admin", async () => {
    const p = await projectWithTeam(t, w);
    const [adminRow] = (await memberRows(p.id)).filter((m) => m.memberId === w.admin.id);
    const demote = await client(t.app, w.admin).patch(`${p.url}/members/${adminRow?.id}/`, { role: ROLE.member });
    expect(demote.statusCode).toBe(400);
    expect(demote.json()).toMatchObject({ code: "LAST_ADMIN" });
    expect(demote.json().error).toMatch(/at least one admin/);
    const remove = await client(t.app, w.admin).delete(`${p.url}/members/${adminRow?.id}/`);
    expect(remove.statusCode).toBe(400);
    expect(remove.json().code).toBe("LAST_ADMIN");
    expect(await membershipOf(t, p.id, w.admin.id)).toMatchObject({ role: ROLE.admin, isActive: true });
  });

  it("lets an admin step down once there is another admin", async () => {
    const second = await createUser(t.db);
    await t.db.insert(workspaceMembers).values({ workspaceId: w.workspaceId, memberId: second.id, role: ROLE.admin });
    const p = await projectWithTeam(t, w);
    await addMember(t, w.admin, w.slug, p.id, second, ROLE.admin);
    const [adminRow] = (await memberRows(p.id)).filter((m) => m.memberId === w.admin.id);
    const res = await client(t.app, w.admin).patch(`${p.url}/members/${adminRow?.id}/`, { role: ROLE.member });
    expect(res.statusCode).toBe(200);
    // Now the first admin is a member and may no longer manage members.
    expect((await client(t.app, w.admin).delete(`${p.url}/members/${p.guestRowId}/`)).statusCode).toBe(403);
  });

  it("removes a member: access ends and their favorites go", async () => {
    const p = await projectWithTeam(t, w, { network: NETWORK.private });
    await client(t.app, w.member).post(`/api/workspaces/${w.slug}/user-favorite-projects/`, { project: p.id });
    const res = await client(t.app, w.admin).delete(`${p.url}/members/${p.memberRowId}/`);
    expect(res.statusCode).toBe(204);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ isActive: false });
    expect((await client(t.app, w.member).get(`${p.url}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${p.url}/members/${p.memberRowId}/`)).statusCode).toBe(404);
    expect(await t.db.select().from(userFavorites).where(eq(userFavorites.userId, w.member.id))).toEqual([]);
    const list = (await client(t.app, w.admin).get(`${p.url}/members/`)).json() as MemberJson[];
    expect(list.map((m) => m.member)).not.toContain(w.member.id);
  });

  it("is refused to members and guests (403), others (404), anonymous (401)", async () => {
    const p = await projectWithTeam(t, w);
    const one = `${p.url}/members/${p.guestRowId}/`;
    expect((await client(t.app, w.member).patch(one, { role: ROLE.guest })).statusCode).toBe(403);
    expect((await client(t.app, w.guest).patch(one, { role: ROLE.guest })).statusCode).toBe(403);
    expect((await client(t.app, w.member).delete(one)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).delete(one)).statusCode).toBe(403);
    expect((await client(t.app, w.outsider).get(one)).statusCode).toBe(403);
    for (const c of [client(t.app, w.stranger)]) {
      expect((await c.get(one)).statusCode).toBe(404);
      expect((await c.patch(one, { role: ROLE.guest })).statusCode).toBe(404);
      expect((await c.delete(one)).statusCode).toBe(404);
    }
    expect((await client(t.app).get(one)).statusCode).toBe(401);
    expect((await client(t.app).patch(one, { role: ROLE.guest })).statusCode).toBe(401);
    expect((await client(t.app).delete(one)).statusCode).toBe(401);
    expect(await membershipOf(t, p.id, w.guest.id)).toMatchObject({ role: ROLE.guest, isActive: true });
  });
});

describe("POST /projects/:id/members/leave/", () => {
  it("lets a member leave", async () => {
    const p = await projectWithTeam(t, w, { network: NETWORK.private });
    const res = await client(t.app, w.member).post(`${p.url}/members/leave/`);
    expect(res.statusCode).toBe(204);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ isActive: false });
    expect((await client(t.app, w.member).get(`${p.url}/`)).statusCode).toBe(404);
  });

  it("refuses the last admin (400, nothing changed)", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.admin).post(`${p.url}/members/leave/`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "LAST_ADMIN" });
    expect(res.json().error).toMatch(/last admin/);
    expect(await membershipOf(t, p.id, w.admin.id)).toMatchObject({ isActive: true, role: ROLE.admin });
  });

  it("is 403 for a public project's non-member, 404 other workspaces, 401 anonymous", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.outsider).post(`${p.url}/members/leave/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).post(`${p.url}/members/leave/`)).statusCode).toBe(404);
    expect((await client(t.app).post(`${p.url}/members/leave/`)).statusCode).toBe(401);
  });
});
