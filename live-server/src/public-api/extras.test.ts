import { ROLE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp } from "../../test/harness.ts";
import { cycleIssues, projectMembers, projects, workspaceMembers } from "../db/schema.ts";
import { createWorld, projectWithTeam, type World } from "../routes/projects/test-support.ts";
import { eventsDuring, tokenFor, v1 } from "./test-support.ts";

let t: TestApp;
let w: World;
let team: Awaited<ReturnType<typeof projectWithTeam>>;
let keys: { admin: string; member: string };
let base: string;

beforeAll(async () => {
  t = await createTestApp({ API_KEY_RATE_LIMIT: "1000/minute" });
  w = await createWorld(t);
  team = await projectWithTeam(t, w);
  await t.db.update(projects).set({ cycleView: true, moduleView: true }).where(eq(projects.id, team.id));
  keys = {
    admin: (await tokenFor(t, w.admin, w.workspaceId)).key,
    member: (await tokenFor(t, w.member, w.workspaceId)).key,
  };
  base = `/api/v1/workspaces/${w.slug}/projects/${team.id}`;
});
afterAll(() => t.close());

describe("public API project members", () => {
  it("an admin adds, reads, re-roles and removes a member; a member may not", async () => {
    const newcomer = await createUser(t.db);
    await t.db
      .insert(workspaceMembers)
      .values({ workspaceId: w.workspaceId, memberId: newcomer.id, role: ROLE.member });
    expect((await v1(t.app, keys.member).post(`${base}/members/`, { member: newcomer.id, role: 15 })).statusCode).toBe(
      403,
    );
    let rowId = "";
    const seen = await eventsDuring(t, async () => {
      const added = await v1(t.app, keys.admin).post(`${base}/project-members/`, { member: newcomer.id, role: 15 });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toMatchObject({ member: newcomer.id, role: 15 });
      rowId = added.json().id;
      const got = await v1(t.app, keys.admin).get(`${base}/members/${rowId}/`);
      expect(got.json()).toMatchObject({ id: newcomer.id, email: newcomer.email });
      const patched = await v1(t.app, keys.admin).patch(`${base}/members/${rowId}/`, { role: 5 });
      expect(patched.json()).toMatchObject({ id: rowId, role: 5 });
      expect((await v1(t.app, keys.admin).delete(`${base}/members/${rowId}/`)).statusCode).toBe(204);
    });
    expect(seen.map((e) => e.type)).toEqual(
      expect.arrayContaining(["project.member.added", "project.member.updated", "project.member.removed"]),
    );
    const [row] = await t.db.select().from(projectMembers).where(eq(projectMembers.id, rowId));
    expect(row?.isActive).toBe(false);
    // Bad input: a role that does not exist, someone outside the workspace.
    expect((await v1(t.app, keys.admin).post(`${base}/members/`, { member: newcomer.id, role: 7 })).statusCode).toBe(
      400,
    );
    expect((await v1(t.app, keys.admin).post(`${base}/members/`, { member: w.stranger.id })).statusCode).toBe(400);
    const list = await v1(t.app, keys.member).get(`${base}/project-members/`);
    expect(list.json().map((m: { id: string }) => m.id)).not.toContain(w.stranger.id);
  });
});

describe("public API archives and transfer", () => {
  it("archives and restores a project (project admin only)", async () => {
    expect((await v1(t.app, keys.member).post(`${base}/archive/`)).statusCode).toBe(403);
    expect((await v1(t.app, keys.admin).post(`${base}/archive/`)).statusCode).toBe(204);
    const [archived] = await t.db.select().from(projects).where(eq(projects.id, team.id));
    expect(archived?.archivedAt).toBeInstanceOf(Date);
    expect((await v1(t.app, keys.admin).delete(`${base}/archive/`)).statusCode).toBe(204);
    const [restored] = await t.db.select().from(projects).where(eq(projects.id, team.id));
    expect(restored?.archivedAt).toBeNull();
  });

  it("transfers a completed cycle's open items, archives and restores cycles and modules", async () => {
    const item = (await v1(t.app, keys.admin).post(`${base}/issues/`, { name: "Unfinished" })).json();
    const past = (
      await v1(t.app, keys.admin).post(`${base}/cycles/`, {
        name: "Past",
        start_date: "2020-01-01",
        end_date: "2020-01-14",
      })
    ).json();
    await t.db.insert(cycleIssues).values({
      workspaceId: w.workspaceId,
      projectId: team.id,
      cycleId: past.id,
      issueId: item.id,
    });
    const next = (await v1(t.app, keys.admin).post(`${base}/cycles/`, { name: "Next" })).json();
    const moved = await v1(t.app, keys.admin).post(`${base}/cycles/${past.id}/transfer-issues/`, {
      new_cycle_id: next.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ message: "Success" });
    const [now] = await t.db
      .select()
      .from(cycleIssues)
      .where(and(eq(cycleIssues.issueId, item.id)));
    expect(now?.cycleId).toBe(next.id);
    expect((await v1(t.app, keys.admin).post(`${base}/cycles/${past.id}/transfer-issues/`, {})).statusCode).toBe(400);

    expect((await v1(t.app, keys.admin).post(`${base}/cycles/${past.id}/archive/`)).statusCode).toBe(204);
    const archivedCycles = await v1(t.app, keys.admin).get(`${base}/archived-cycles/`);
    expect(archivedCycles.json().results.map((c: { id: string }) => c.id)).toContain(past.id);
    expect((await v1(t.app, keys.admin).delete(`${base}/archived-cycles/${past.id}/unarchive/`)).statusCode).toBe(204);
    // An upcoming cycle is not archived (400).
    expect((await v1(t.app, keys.admin).post(`${base}/cycles/${next.id}/archive/`)).statusCode).toBe(400);

    const mod = (await v1(t.app, keys.admin).post(`${base}/modules/`, { name: "Done", status: "completed" })).json();
    expect((await v1(t.app, keys.admin).post(`${base}/modules/${mod.id}/archive/`)).statusCode).toBe(204);
    const archivedModules = await v1(t.app, keys.admin).get(`${base}/archived-modules/`);
    expect(archivedModules.json().results.map((m: { id: string }) => m.id)).toContain(mod.id);
    expect((await v1(t.app, keys.admin).delete(`${base}/archived-modules/${mod.id}/unarchive/`)).statusCode).toBe(204);
  });
});

describe("public API users/me", () => {
  it("answers the token's user", async () => {
    const me = await v1(t.app, keys.member).get("/api/v1/users/me/");
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: w.member.id, email: w.member.email, display_name: w.member.displayName });
    expect((await v1(t.app, null).get("/api/v1/users/me/")).statusCode).toBe(401);
  });
});
