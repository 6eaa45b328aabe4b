import { NETWORK, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createUser, type TestApp } from "../../../test/harness.ts";
import { projectMembers, workspaceMembers } from "../../db/schema.ts";
import { addMember, createProject, createWorld, membershipOf, type World } from "./test-support.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const joinUrl = () => `/api/workspaces/${w.slug}/projects/join/`;
const invitationsUrl = () => `/api/users/me/workspaces/${w.slug}/projects/invitations/`;

describe("joining public projects", () => {
  it("gives each joiner their workspace role", async () => {
    const p = await createProject(t, w.admin, w.slug);
    const q = await createProject(t, w.admin, w.slug);
    const secondAdmin = await createUser(t.db);
    await t.db
      .insert(workspaceMembers)
      .values({ workspaceId: w.workspaceId, memberId: secondAdmin.id, role: ROLE.admin });
    for (const [user, role] of [
      [secondAdmin, ROLE.admin],
      [w.member, ROLE.member],
      [w.guest, ROLE.guest],
    ] as const) {
      const res = await client(t.app, user).post(joinUrl(), { project_ids: [p.id, q.id] });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual([
        expect.objectContaining({ project: p.id, member: user.id, role }),
        expect.objectContaining({ project: q.id, member: user.id, role }),
      ]);
      expect(await membershipOf(t, p.id, user.id)).toMatchObject({ role, isActive: true });
    }
    const view = (await client(t.app, w.guest).get(`/api/workspaces/${w.slug}/projects/${p.id}/`)).json();
    expect(view).toMatchObject({ is_member: true, member_role: ROLE.guest });
  });

  it("works the same through /api/users/me/workspaces/:slug/projects/invitations/", async () => {
    const p = await createProject(t, w.admin, w.slug);
    const res = await client(t.app, w.outsider).post(invitationsUrl(), { project_ids: [p.id] });
    expect(res.statusCode).toBe(201);
    expect(await membershipOf(t, p.id, w.outsider.id)).toMatchObject({ role: ROLE.member, isActive: true });
  });

  it("leaves a current membership as it is", async () => {
    const p = await createProject(t, w.admin, w.slug);
    await addMember(t, w.admin, w.slug, p.id, w.member, ROLE.guest);
    const res = await client(t.app, w.member).post(joinUrl(), { project_ids: [p.id, p.id] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual([expect.objectContaining({ project: p.id, role: ROLE.guest })]);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.guest });
  });

  it("lets someone who left join again", async () => {
    const p = await createProject(t, w.admin, w.slug);
    await client(t.app, w.member).post(joinUrl(), { project_ids: [p.id] });
    expect(
      (await client(t.app, w.member).post(`/api/workspaces/${w.slug}/projects/${p.id}/members/leave/`)).statusCode,
    ).toBe(204);
    expect((await client(t.app, w.member).post(joinUrl(), { project_ids: [p.id] })).statusCode).toBe(201);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.member, isActive: true });
  });

  it("never undoes a demotion: a member made guest who leaves and re-joins comes back as guest", async () => {
    const p = await createProject(t, w.admin, w.slug);
    const rowId = await addMember(t, w.admin, w.slug, p.id, w.member, ROLE.member);
    const demote = await client(t.app, w.admin).patch(`/api/workspaces/${w.slug}/projects/${p.id}/members/${rowId}/`, {
      role: ROLE.guest,
    });
    expect(demote.statusCode, demote.body).toBe(200);
    const leave = await client(t.app, w.member).post(`/api/workspaces/${w.slug}/projects/${p.id}/members/leave/`);
    expect(leave.statusCode).toBe(204);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.guest, isActive: false });

    const res = await client(t.app, w.member).post(joinUrl(), { project_ids: [p.id] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual([expect.objectContaining({ project: p.id, member: w.member.id, role: ROLE.guest })]);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.guest, isActive: true });
    const view = (await client(t.app, w.member).get(`/api/workspaces/${w.slug}/projects/${p.id}/`)).json();
    expect(view).toMatchObject({ is_member: true, member_role: ROLE.guest });

    // The same after being removed by an admin; an admin may raise the role again.
    const removed = await client(t.app, w.admin).delete(`/api/workspaces/${w.slug}/projects/${p.id}/members/${rowId}/`);
    expect(removed.statusCode).toBe(204);
    await client(t.app, w.member).post(joinUrl(), { project_ids: [p.id] });
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.guest, isActive: true });
    const raise = await client(t.app, w.admin).patch(`/api/workspaces/${w.slug}/projects/${p.id}/members/${rowId}/`, {
      role: ROLE.member,
    });
    expect(raise.statusCode, raise.body).toBe(200);
    expect(await membershipOf(t, p.id, w.member.id)).toMatchObject({ role: ROLE.member, isActive: true });
  });

  it("is 404 for a private project or another workspace's project, joining none of the list", async () => {
    const open = await createProject(t, w.admin, w.slug);
    const secret = await createProject(t, w.member, w.slug, { network: NETWORK.private });
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    for (const bad of [secret.id, foreign.id, "00000000-0000-4000-8000-000000000000"]) {
      const res = await client(t.app, w.outsider).post(joinUrl(), { project_ids: [open.id, bad] });
      expect(res.statusCode).toBe(404);
    }
    expect(await membershipOf(t, open.id, w.outsider.id)).toBeUndefined();
    expect(await membershipOf(t, secret.id, w.outsider.id)).toBeUndefined();
    expect(await membershipOf(t, foreign.id, w.outsider.id)).toBeUndefined();
    // A workspace admin can't join a private project either.
    expect((await client(t.app, w.admin).post(joinUrl(), { project_ids: [secret.id] })).statusCode).toBe(404);
    expect(await membershipOf(t, secret.id, w.admin.id)).toBeUndefined();
  });

  it("refuses bad input (400), anonymous (401), other workspaces' users (404), storing nothing", async () => {
    const p = await createProject(t, w.admin, w.slug);
    for (const body of [{}, { project_ids: [] }, { project_ids: ["nope"] }, { project_ids: p.id }, { ids: [p.id] }]) {
      expect((await client(t.app, w.outsider).post(joinUrl(), body)).statusCode, JSON.stringify(body)).toBe(400);
      expect((await client(t.app, w.outsider).post(invitationsUrl(), body)).statusCode).toBe(400);
    }
    for (const url of [joinUrl(), invitationsUrl()]) {
      expect((await client(t.app).post(url, { project_ids: [p.id] })).statusCode).toBe(401);
      expect((await client(t.app, w.stranger).post(url, { project_ids: [p.id] })).statusCode).toBe(404);
    }
    const rows = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, p.id));
    expect(rows.map((r) => r.memberId)).toEqual([w.admin.id]);
  });
});
