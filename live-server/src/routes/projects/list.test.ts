import { NETWORK, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { issues } from "../../db/schema.ts";
import { createIssue, stateOf } from "../issues/test-support.ts";
import { addMember, createProject, createWorld, projectWithTeam, type World } from "./test-support.ts";

let t: TestApp;
let w: World;
let pub: Awaited<ReturnType<typeof projectWithTeam>>;
/** Private, made by the member: the workspace admin is not in it. */
let secret: { id: string };
/** Public, the member is not in it. */
let open: { id: string };
let archived: { id: string };
let foreign: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  pub = await projectWithTeam(t, w, { description: "Team project" });
  secret = await createProject(t, w.member, w.slug, { network: NETWORK.private });
  open = await createProject(t, w.outsider, w.slug, { network: NETWORK.public });
  archived = await createProject(t, w.admin, w.slug);
  const res = await client(t.app, w.admin).post(`/api/workspaces/${w.slug}/projects/${archived.id}/archive/`);
  expect(res.statusCode).toBe(200);
  foreign = await createProject(t, w.stranger, w.otherSlug);
});
afterAll(() => t.close());

const base = () => `/api/workspaces/${w.slug}`;
type Listed = Record<string, unknown> & { id: string };
const ids = (list: Listed[]) => list.map((p) => p.id);

describe("GET /projects/", () => {
  it("lists my projects and the public ones, with my relation to each", async () => {
    const res = await client(t.app, w.member).get(`${base()}/projects/`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Listed[];
    expect(ids(list)).toEqual(expect.arrayContaining([pub.id, secret.id, open.id]));
    expect(ids(list)).not.toContain(archived.id);
    expect(ids(list)).not.toContain(foreign.id);

    const mine = list.find((p) => p.id === pub.id);
    expect(mine).toMatchObject({
      is_member: true,
      member_role: ROLE.member,
      is_favorite: false,
      network: NETWORK.public,
      archived_at: null,
      cycle_view: true, // cycles exist: reported as stored (on by default)
      page_view: true,
      inbox_view: false,
    });
    expect(typeof mine?.sort_order).toBe("number");
    expect(mine).not.toHaveProperty("description");
    for (const key of ["id", "name", "identifier", "logo_props", "cover_image", "created_at", "project_lead"]) {
      expect(mine).toHaveProperty(key);
    }
    const notMine = list.find((p) => p.id === open.id);
    expect(notMine).toMatchObject({ is_member: false, member_role: null, sort_order: null });
  });

  it("hides a private project from a workspace admin who is not in it", async () => {
    const list = (await client(t.app, w.admin).get(`${base()}/projects/`)).json() as Listed[];
    expect(ids(list)).not.toContain(secret.id);
    const details = (await client(t.app, w.admin).get(`${base()}/projects/details/`)).json() as Listed[];
    expect(ids(details)).not.toContain(secret.id);
    expect((await client(t.app, w.admin).get(`${base()}/projects/${secret.id}/`)).statusCode).toBe(404);
    const stats = await client(t.app, w.admin).get(`${base()}/project-stats/?project_ids=${secret.id}`);
    expect(stats.json()).toEqual([]);
  });

  it("lists only archived projects with ?archived=true", async () => {
    const list = (await client(t.app, w.admin).get(`${base()}/projects/?archived=true`)).json() as Listed[];
    expect(ids(list)).toEqual([archived.id]);
    expect(list[0]?.archived_at).toEqual(expect.any(String));
  });

  it("refuses a bad archived flag (400), anonymous callers (401) and other workspaces (404)", async () => {
    expect((await client(t.app, w.admin).get(`${base()}/projects/?archived=maybe`)).statusCode).toBe(400);
    expect((await client(t.app).get(`${base()}/projects/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(`${base()}/projects/`)).statusCode).toBe(404);
  });

  it("lets guests list their projects and the public ones", async () => {
    const list = (await client(t.app, w.guest).get(`${base()}/projects/`)).json() as Listed[];
    expect(ids(list)).toEqual(expect.arrayContaining([pub.id, open.id]));
    expect(ids(list)).not.toContain(secret.id);
    expect(list.find((p) => p.id === pub.id)?.member_role).toBe(ROLE.guest);
  });
});

describe("GET /projects/details/", () => {
  it("adds description, members and settings", async () => {
    const res = await client(t.app, w.admin).get(`${base()}/projects/details/`);
    expect(res.statusCode).toBe(200);
    const detail = (res.json() as Listed[]).find((p) => p.id === pub.id);
    expect(detail).toMatchObject({
      description: "Team project",
      total_members: 3,
      guest_view_all_features: false,
      default_assignee: null,
      timezone: "UTC",
      archive_in: 0,
      close_in: 0,
      is_member: true,
      member_role: ROLE.admin,
    });
    expect(new Set(detail?.members as string[])).toEqual(new Set([w.admin.id, w.member.id, w.guest.id]));
  });

  it("refuses anonymous callers (401) and other workspaces (404)", async () => {
    expect((await client(t.app).get(`${base()}/projects/details/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(`${base()}/projects/details/`)).statusCode).toBe(404);
  });
});

describe("GET /project-stats/", () => {
  it("counts members and states per visible project", async () => {
    const res = await client(t.app, w.member).get(
      `${base()}/project-stats/?project_ids=${pub.id},${secret.id}&fields=total_members,total_states`,
    );
    expect(res.statusCode).toBe(200);
    const byId = new Map((res.json() as Listed[]).map((s) => [s.id, s]));
    expect(byId.get(pub.id)).toEqual({ id: pub.id, total_members: 3, total_states: 5 });
    expect(byId.get(secret.id)).toEqual({ id: secret.id, total_members: 1, total_states: 5 });
  });

  it("returns only the fields asked for, and every visible project without ids", async () => {
    const one = await client(t.app, w.member).get(`${base()}/project-stats/?project_ids=${pub.id}&fields=total_states`);
    expect(one.json()).toEqual([{ id: pub.id, total_states: 5 }]);
    const all = (await client(t.app, w.member).get(`${base()}/project-stats/`)).json() as Listed[];
    expect(ids(all)).toEqual(expect.arrayContaining([pub.id, secret.id, open.id, archived.id]));
    expect(ids(all)).not.toContain(foreign.id);
  });

  it("answers the reference's five fields when none (or none it knows) is asked for", async () => {
    const five = { total_issues: 0, completed_issues: 0, total_members: 3, total_cycles: 0, total_modules: 0 };
    for (const query of ["", "&fields=", "&fields=total_bananas", "&fields=total_bananas,,"]) {
      const res = await client(t.app, w.member).get(`${base()}/project-stats/?project_ids=${pub.id}${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.json(), query).toEqual([{ id: pub.id, ...five }]);
    }
  });

  it("leaves out projects of another workspace", async () => {
    const res = await client(t.app, w.member).get(`${base()}/project-stats/?project_ids=${foreign.id}`);
    expect(res.json()).toEqual([]);
  });

  it("counts a new member", async () => {
    const extra = await createProject(t, w.admin, w.slug);
    await addMember(t, w.admin, w.slug, extra.id, w.outsider, ROLE.member);
    const res = await client(t.app, w.admin).get(
      `${base()}/project-stats/?project_ids=${extra.id}&fields=total_members`,
    );
    expect(res.json()).toEqual([{ id: extra.id, total_members: 2 }]);
  });

  it("refuses bad ids (400), anonymous (401), other workspaces (404)", async () => {
    expect((await client(t.app, w.member).get(`${base()}/project-stats/?project_ids=nope`)).statusCode).toBe(400);
    expect((await client(t.app).get(`${base()}/project-stats/`)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(`${base()}/project-stats/`)).statusCode).toBe(404);
  });
});

describe("GET /project-stats/ counts work items, cycles and modules", () => {
  type Stats = { id: string; total_issues?: number; completed_issues?: number; total_cycles?: number };
  let p: Awaited<ReturnType<typeof projectWithTeam>>;
  beforeAll(async () => {
    p = await projectWithTeam(t, w);
    const completed = await stateOf(t, p.id, "completed");
    const cancelled = await stateOf(t, p.id, "cancelled");
    await createIssue(t, w.admin, p.url, { name: "open" });
    await createIssue(t, w.admin, p.url, { name: "done", state_id: completed });
    await createIssue(t, w.admin, p.url, { name: "dropped", state_id: cancelled });
    const guestsOwn = await createIssue(t, w.admin, p.url, { name: "the guest's" });
    await t.db.update(issues).set({ createdById: w.guest.id }).where(eq(issues.id, guestsOwn.id));
    // Not counted: deleted, archived, draft.
    const gone = await createIssue(t, w.admin, p.url, { name: "deleted" });
    expect((await client(t.app, w.admin).delete(`${p.url}/issues/${gone.id}/`)).statusCode).toBe(204);
    const shelved = await createIssue(t, w.admin, p.url, { name: "archived", state_id: completed });
    await t.db.update(issues).set({ archivedAt: new Date() }).where(eq(issues.id, shelved.id));
    const draft = await createIssue(t, w.admin, p.url, { name: "draft" });
    await t.db.update(issues).set({ isDraft: true }).where(eq(issues.id, draft.id));
    for (const name of ["Sprint 1", "Sprint 2"]) {
      expect((await client(t.app, w.admin).post(`${p.url}/cycles/`, { name })).statusCode).toBe(201);
    }
    expect((await client(t.app, w.admin).post(`${p.url}/modules/`, { name: "Payments" })).statusCode).toBe(201);
  });

  const statsOf = async (user: TestUser, query = "") => {
    const res = await client(t.app, user).get(`${base()}/project-stats/?project_ids=${p.id}${query}`);
    expect(res.statusCode).toBe(200);
    return (res.json() as Stats[])[0];
  };

  it("counts live work items, the completed and cancelled ones, cycles, modules and members", async () => {
    const expected = {
      id: p.id,
      total_issues: 4,
      completed_issues: 2,
      total_cycles: 2,
      total_modules: 1,
      total_members: 3,
    };
    expect(await statsOf(w.admin)).toEqual(expected);
    expect(await statsOf(w.member)).toEqual(expected);
  });

  it("counts for a restricted guest only the work items that guest may see", async () => {
    expect(await statsOf(w.guest)).toEqual({
      id: p.id,
      total_issues: 1,
      completed_issues: 0,
      total_cycles: 2,
      total_modules: 1,
      total_members: 3,
    });
    await client(t.app, w.admin).patch(`${p.url}/`, { guest_view_all_features: true });
    try {
      expect(await statsOf(w.guest, "&fields=total_issues")).toEqual({ id: p.id, total_issues: 4 });
    } finally {
      await client(t.app, w.admin).patch(`${p.url}/`, { guest_view_all_features: false });
    }
  });

  it("counts nothing of a public project the caller has not joined", async () => {
    expect(await statsOf(w.outsider)).toEqual({
      id: p.id,
      total_issues: 0,
      completed_issues: 0,
      total_cycles: 0,
      total_modules: 0,
      total_members: 3,
    });
  });

  it("reads the reference web client's total_work_items and total_completed_work_items", async () => {
    expect(await statsOf(w.member, "&fields=total_work_items,total_completed_work_items")).toEqual({
      id: p.id,
      total_issues: 4,
      completed_issues: 2,
    });
    expect(await statsOf(w.member, "&fields=total_cycles,total_bananas")).toEqual({ id: p.id, total_cycles: 2 });
  });
});
