import { ROLE, type Role } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  client,
  createTestApp,
  createUser,
  createWorkspace,
  type TestApp,
  type TestUser,
  type TestWorkspace,
} from "../../../test/harness.ts";
import { projectMembers, workspaceMembers } from "../../db/schema.ts";
import { roleChangeRefusal } from "./member-routes.ts";
import { createProject, membershipOf } from "./test-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NAME: Record<Role, string> = { 20: "admin", 15: "member", 5: "guest" };

async function membershipId(ws: TestWorkspace, user: TestUser): Promise<string> {
  const row = await membershipOf(t.db, ws.id, user.id);
  if (!row) throw new Error("no membership");
  return row.id;
}

describe("GET /api/workspaces/:slug/workspace-members/me/", () => {
  it("returns my membership with my role, to guests too", async () => {
    const owner = await createUser(t.db);
    const guest = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: guest, role: ROLE.guest }]);
    const res = await client(t.app, guest).get(`/api/workspaces/${ws.slug}/workspace-members/me/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: ROLE.guest, member: { id: guest.id, email: guest.email } });
  });

  it("is 404 for a user of another workspace and 401 anonymous", async () => {
    const owner = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner);
    await createWorkspace(t.db, outsider);
    expect((await client(t.app, outsider).get(`/api/workspaces/${ws.slug}/workspace-members/me/`)).statusCode).toBe(
      404,
    );
    expect((await client(t.app).get(`/api/workspaces/${ws.slug}/workspace-members/me/`)).statusCode).toBe(401);
  });
});

describe("GET /api/workspaces/:slug/members/", () => {
  it("lists active human members, the caller first, readable by guests", async () => {
    const owner = await createUser(t.db);
    const guest = await createUser(t.db);
    const gone = await createUser(t.db);
    const bot = await createUser(t.db, { isBot: true });
    const ws = await createWorkspace(t.db, owner, [
      { user: gone, role: ROLE.member },
      { user: bot, role: ROLE.member },
      { user: guest, role: ROLE.guest },
    ]);
    await t.db.update(workspaceMembers).set({ isActive: false }).where(eq(workspaceMembers.memberId, gone.id));
    const res = await client(t.app, guest).get(`/api/workspaces/${ws.slug}/members/`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: string; role: number; member: { id: string }; created_at: string }[];
    expect(list.map((m) => m.member.id)).toEqual([guest.id, owner.id]);
    expect(list[1]).toMatchObject({ role: ROLE.admin, member: { id: owner.id, display_name: owner.displayName } });
    expect(list[1]?.created_at).toBeTruthy();
  });

  it("is 404 for a user of another workspace and 401 anonymous", async () => {
    const owner = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner);
    expect((await client(t.app, outsider).get(`/api/workspaces/${ws.slug}/members/`)).statusCode).toBe(404);
    expect((await client(t.app).get(`/api/workspaces/${ws.slug}/members/`)).statusCode).toBe(401);
  });
});

describe("role rules, table-driven", () => {
  // Two users per role; the actor is the first of its role, the target the second of its role.
  let ws: TestWorkspace;
  let people: Record<Role, [TestUser, TestUser]>;
  beforeAll(async () => {
    const a1 = await createUser(t.db);
    const a2 = await createUser(t.db);
    const m1 = await createUser(t.db);
    const m2 = await createUser(t.db);
    const g1 = await createUser(t.db);
    const g2 = await createUser(t.db);
    people = { 20: [a1, a2], 15: [m1, m2], 5: [g1, g2] };
    ws = await createWorkspace(t.db, a1, [
      { user: a2, role: ROLE.admin },
      { user: m1, role: ROLE.member },
      { user: m2, role: ROLE.member },
      { user: g1, role: ROLE.guest },
      { user: g2, role: ROLE.guest },
    ]);
  });

  async function reset() {
    for (const role of [ROLE.admin, ROLE.member, ROLE.guest]) {
      for (const user of people[role]) {
        await t.db.update(workspaceMembers).set({ role, isActive: true }).where(eq(workspaceMembers.memberId, user.id));
      }
    }
  }

  // The reference: only workspace admins change roles (an admin may demote another admin).
  const patchCases: [Role, Role, Role, number][] = [
    // actor, target's role, new role, expected status
    [ROLE.admin, ROLE.admin, ROLE.member, 200],
    [ROLE.admin, ROLE.admin, ROLE.guest, 200],
    [ROLE.admin, ROLE.member, ROLE.admin, 200],
    [ROLE.admin, ROLE.member, ROLE.guest, 200],
    [ROLE.admin, ROLE.guest, ROLE.member, 200],
    [ROLE.admin, ROLE.guest, ROLE.admin, 200],
    [ROLE.member, ROLE.member, ROLE.guest, 403],
    [ROLE.member, ROLE.guest, ROLE.member, 403],
    [ROLE.member, ROLE.guest, ROLE.guest, 403],
    [ROLE.member, ROLE.guest, ROLE.admin, 403],
    [ROLE.member, ROLE.member, ROLE.admin, 403],
    [ROLE.member, ROLE.admin, ROLE.member, 403],
    [ROLE.member, ROLE.admin, ROLE.guest, 403],
    [ROLE.guest, ROLE.guest, ROLE.member, 403],
    [ROLE.guest, ROLE.member, ROLE.guest, 403],
    [ROLE.guest, ROLE.guest, ROLE.guest, 403],
  ];
  it.each(patchCases)("PATCH: %s changing a %s to %s → %s", async (actorRole, targetRole, next, status) => {
    await reset();
    const actor = people[actorRole][0];
    const target = people[targetRole][1];
    const res = await client(t.app, actor).patch(
      `/api/workspaces/${ws.slug}/members/${await membershipId(ws, target)}/`,
      {
        role: next,
      },
    );
    expect(res.statusCode, `${NAME[actorRole]} → ${NAME[targetRole]} as ${NAME[next]}`).toBe(status);
    if (status === 403) expect(res.json().error).toBe("Only workspace admins can change members' roles.");
    const stored = await membershipOf(t.db, ws.id, target.id);
    expect(stored?.role).toBe(status === 200 ? next : targetRole);
    if (status === 200) expect(res.json()).toMatchObject({ role: next, member: { id: target.id } });
    expect(roleChangeRefusal(actorRole, targetRole, next) === null).toBe(status === 200);
  });

  const deleteCases: [Role, Role, number][] = [
    [ROLE.admin, ROLE.admin, 204],
    [ROLE.admin, ROLE.member, 204],
    [ROLE.admin, ROLE.guest, 204],
    [ROLE.member, ROLE.guest, 403],
    [ROLE.member, ROLE.member, 403],
    [ROLE.member, ROLE.admin, 403],
    [ROLE.guest, ROLE.guest, 403],
  ];
  it.each(deleteCases)("DELETE: %s removing a %s → %s", async (actorRole, targetRole, status) => {
    await reset();
    const actor = people[actorRole][0];
    const target = people[targetRole][1];
    const res = await client(t.app, actor).delete(
      `/api/workspaces/${ws.slug}/members/${await membershipId(ws, target)}/`,
    );
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(res.json().error).toBe("Only workspace admins can remove members.");
    expect((await membershipOf(t.db, ws.id, target.id))?.isActive).toBe(status !== 204);
  });

  it.each([ROLE.admin, ROLE.member, ROLE.guest])(
    "nobody changes their own role or removes themselves (%s: 400 for an admin, 403 below)",
    async (role) => {
      await reset();
      const me = people[role][0];
      const url = `/api/workspaces/${ws.slug}/members/${await membershipId(ws, me)}/`;
      const next = role === ROLE.guest ? ROLE.member : ROLE.guest;
      const patched = await client(t.app, me).patch(url, { role: next });
      const removed = await client(t.app, me).delete(url);
      if (role === ROLE.admin) {
        expect(patched.statusCode).toBe(400);
        expect(patched.json().error).toMatch(/cannot change your own role/);
        expect(removed.statusCode).toBe(400);
        expect(removed.json().error).toMatch(/cannot remove yourself.*Leave the workspace/);
      } else {
        expect(patched.statusCode).toBe(403);
        expect(removed.statusCode).toBe(403);
      }
      const stored = await membershipOf(t.db, ws.id, me.id);
      expect(stored).toMatchObject({ role, isActive: true });
    },
  );
});

describe("PATCH /api/workspaces/:slug/members/:id/", () => {
  it("keeps the last admin an admin (400) and lowers project roles with the workspace role", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: member, role: ROLE.member }]);
    const ownerMembership = await membershipId(ws, owner);
    const refused = await client(t.app, owner).patch(`/api/workspaces/${ws.slug}/members/${ownerMembership}/`, {
      role: ROLE.member,
    });
    expect(refused.statusCode).toBe(400);
    expect((await membershipOf(t.db, ws.id, owner.id))?.role).toBe(ROLE.admin);

    const project = await createProject(t.db, ws.id, [{ userId: member.id, role: ROLE.member }]);
    const res = await client(t.app, owner).patch(
      `/api/workspaces/${ws.slug}/members/${await membershipId(ws, member)}/`,
      {
        role: ROLE.guest,
      },
    );
    expect(res.statusCode).toBe(200);
    const [pm] = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, project.id));
    expect(pm?.role).toBe(ROLE.guest);
  });

  it("is 404 for a bot's membership, as for one not in the members list — role kept, membership kept", async () => {
    const owner = await createUser(t.db);
    const bot = await createUser(t.db, { isBot: true });
    const ws = await createWorkspace(t.db, owner, [{ user: bot, role: ROLE.member }]);
    const url = `/api/workspaces/${ws.slug}/members/${await membershipId(ws, bot)}/`;
    const patched = await client(t.app, owner).patch(url, { role: ROLE.admin });
    expect(patched.statusCode).toBe(404);
    const deleted = await client(t.app, owner).delete(url);
    expect(deleted.statusCode).toBe(404);
    const kept = await membershipOf(t.db, ws.id, bot.id);
    expect(kept).toMatchObject({ role: ROLE.member, isActive: true });
  });

  it("refuses bad input (400), unknown or foreign member ids (404), outsiders (404) and anonymous (401)", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: member, role: ROLE.member }]);
    const otherWs = await createWorkspace(t.db, outsider);
    const url = `/api/workspaces/${ws.slug}/members/${await membershipId(ws, member)}/`;
    for (const body of [{ role: 10 }, { role: "admin" }, {}, { role: null }]) {
      expect((await client(t.app, owner).patch(url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await membershipOf(t.db, ws.id, member.id))?.role).toBe(ROLE.member);
    expect((await client(t.app, owner).patch(`/api/workspaces/${ws.slug}/members/nope/`, { role: 5 })).statusCode).toBe(
      404,
    );
    const foreign = await membershipId(otherWs, outsider);
    expect(
      (await client(t.app, owner).patch(`/api/workspaces/${ws.slug}/members/${foreign}/`, { role: 5 })).statusCode,
    ).toBe(404);
    expect((await client(t.app, outsider).patch(url, { role: ROLE.guest })).statusCode).toBe(404);
    expect((await client(t.app).patch(url, { role: ROLE.guest })).statusCode).toBe(401);
    expect((await membershipOf(t.db, otherWs.id, outsider.id))?.role).toBe(ROLE.admin);
  });
});

describe("DELETE /api/workspaces/:slug/members/:id/", () => {
  it("deactivates the membership and its project memberships; the removed member then gets 404", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: member, role: ROLE.member }]);
    const project = await createProject(t.db, ws.id, [
      { userId: owner.id, role: ROLE.admin },
      { userId: member.id, role: ROLE.member },
    ]);
    const res = await client(t.app, owner).delete(
      `/api/workspaces/${ws.slug}/members/${await membershipId(ws, member)}/`,
    );
    expect(res.statusCode).toBe(204);
    expect((await membershipOf(t.db, ws.id, member.id))?.isActive).toBe(false);
    const pms = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, project.id));
    expect(pms.find((p) => p.memberId === member.id)?.isActive).toBe(false);
    expect(pms.find((p) => p.memberId === owner.id)?.isActive).toBe(true);
    expect((await client(t.app, member).get(`/api/workspaces/${ws.slug}/`)).statusCode).toBe(404);
    expect((await client(t.app, member).get(`/api/workspaces/${ws.slug}/members/`)).statusCode).toBe(404);
    const list = await client(t.app, owner).get(`/api/workspaces/${ws.slug}/members/`);
    expect(list.json().map((m: { member: { id: string } }) => m.member.id)).toEqual([owner.id]);
  });

  it("refuses to remove oneself (400, leave instead), outsiders (404) and anonymous callers (401)", async () => {
    const owner = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner);
    const url = `/api/workspaces/${ws.slug}/members/${await membershipId(ws, owner)}/`;
    const res = await client(t.app, owner).delete(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/Leave the workspace instead/);
    expect((await client(t.app, outsider).delete(url)).statusCode).toBe(404);
    expect((await client(t.app).delete(url)).statusCode).toBe(401);
    expect((await membershipOf(t.db, ws.id, owner.id))?.isActive).toBe(true);
  });
});

describe("the only member and admin of a project", () => {
  it("can neither be removed nor leave (400 naming the project) until someone else can manage it", async () => {
    const owner = await createUser(t.db);
    const admin = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: admin, role: ROLE.admin }]);
    const solo = await createProject(t.db, ws.id, [{ userId: admin.id, role: ROLE.admin }]);
    const url = `/api/workspaces/${ws.slug}/members/${await membershipId(ws, admin)}/`;

    const removed = await client(t.app, owner).delete(url);
    expect(removed.statusCode).toBe(400);
    expect(removed.json().error).toMatch(/only member and admin of the project ".+"/);
    const left = await client(t.app, admin).post(`/api/workspaces/${ws.slug}/members/leave/`);
    expect(left.statusCode).toBe(400);
    expect(left.json().error).toMatch(/You are the only member and admin of the project/);
    expect((await membershipOf(t.db, ws.id, admin.id))?.isActive).toBe(true);

    // The reference refuses only while the person is the project's single member.
    await t.db.insert(projectMembers).values({
      workspaceId: ws.id,
      projectId: solo.id,
      memberId: owner.id,
      role: ROLE.member,
    });
    expect((await client(t.app, owner).delete(url)).statusCode).toBe(204);
  });
});

describe("POST /api/workspaces/:slug/members/leave/", () => {
  it("lets a member leave, deactivating their project memberships; the workspace is then 404 to them", async () => {
    const owner = await createUser(t.db);
    const guest = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: guest, role: ROLE.guest }]);
    const project = await createProject(t.db, ws.id, [{ userId: guest.id, role: ROLE.guest }]);
    const res = await client(t.app, guest).post(`/api/workspaces/${ws.slug}/members/leave/`);
    expect(res.statusCode).toBe(204);
    expect((await membershipOf(t.db, ws.id, guest.id))?.isActive).toBe(false);
    const [pm] = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, project.id));
    expect(pm?.isActive).toBe(false);
    expect((await client(t.app, guest).get(`/api/workspaces/${ws.slug}/`)).statusCode).toBe(404);
    expect((await client(t.app, guest).post(`/api/workspaces/${ws.slug}/members/leave/`)).statusCode).toBe(404);
  });

  it("keeps the last admin in (400), but lets an admin leave when another admin remains", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: member, role: ROLE.member }]);
    const refused = await client(t.app, owner).post(`/api/workspaces/${ws.slug}/members/leave/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/only admin/);
    expect((await membershipOf(t.db, ws.id, owner.id))?.isActive).toBe(true);
    await t.db.update(workspaceMembers).set({ role: ROLE.admin }).where(eq(workspaceMembers.memberId, member.id));
    expect((await client(t.app, owner).post(`/api/workspaces/${ws.slug}/members/leave/`)).statusCode).toBe(204);
  });

  it("is 404 for an outsider and 401 anonymous", async () => {
    const owner = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner);
    expect((await client(t.app, outsider).post(`/api/workspaces/${ws.slug}/members/leave/`)).statusCode).toBe(404);
    expect((await client(t.app).post(`/api/workspaces/${ws.slug}/members/leave/`)).statusCode).toBe(401);
  });
});
