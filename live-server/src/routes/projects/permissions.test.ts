/**
 * Who may call what: every projects endpoint × every kind of caller, with the expected status.
 * Callers: admin (workspace admin, project admin), member (workspace and project member), guest
 * (workspace and project guest), non-member (workspace member outside this public project),
 * other workspace (admin of another workspace), anonymous. Endpoints that change things get a
 * fresh project per case so the cases don't depend on each other.
 */
import { NETWORK, ROLE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { projectMembers, projects, userFavorites } from "../../db/schema.ts";
import {
  addMember,
  createProject,
  createWorld,
  projectWithTeam,
  uniqueIdentifier,
  uniqueName,
  type World,
} from "./test-support.ts";

let t: TestApp;
let w: World;
let shared: TeamProject;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
  shared = await projectWithTeam(t, w);
});
afterAll(() => t.close());

type TeamProject = { id: string; url: string; memberRowId: string; guestRowId: string };
type Ctx = { w: World; p: TeamProject };
type Method = "get" | "post" | "patch" | "delete";
const WHO = ["admin", "member", "guest", "non-member", "other workspace", "anonymous"] as const;
type Who = (typeof WHO)[number];
type Expected = [admin: number, member: number, guest: number, nonMember: number, other: number, anon: number];

type Row = {
  endpoint: string;
  method: Method;
  path: (c: Ctx) => string;
  body?: (c: Ctx) => unknown;
  /** Changes data: run against a fresh project. */
  fresh?: boolean;
  /** Direct database preparation (works whoever the caller is). */
  setup?: (c: Ctx) => Promise<void>;
  /** Addresses one project: a private one is 404 to a non-member, even a workspace admin. */
  projectScoped?: boolean;
  expect: Expected;
};

const ws = (c: Ctx) => `/api/workspaces/${c.w.slug}`;

async function archiveDirectly(c: Ctx) {
  await t.db.update(projects).set({ archivedAt: new Date() }).where(eq(projects.id, c.p.id));
}

async function favoriteDirectly(c: Ctx) {
  for (const user of [c.w.admin, c.w.member, c.w.guest]) {
    await t.db.insert(userFavorites).values({
      workspaceId: c.w.workspaceId,
      userId: user.id,
      entityType: "project",
      entityIdentifier: c.p.id,
      projectId: c.p.id,
    });
  }
}

const ROWS: Row[] = [
  {
    endpoint: "POST /projects/",
    method: "post",
    path: (c) => `${ws(c)}/projects/`,
    body: () => ({ name: uniqueName(), identifier: uniqueIdentifier() }),
    expect: [201, 201, 403, 201, 404, 401],
  },
  {
    endpoint: "GET /project-identifiers/",
    method: "get",
    path: (c) => `${ws(c)}/project-identifiers/?name=ABC`,
    expect: [200, 200, 403, 200, 404, 401],
  },
  {
    endpoint: "GET /projects/",
    method: "get",
    path: (c) => `${ws(c)}/projects/`,
    expect: [200, 200, 200, 200, 404, 401],
  },
  {
    endpoint: "GET /projects/details/",
    method: "get",
    path: (c) => `${ws(c)}/projects/details/`,
    expect: [200, 200, 200, 200, 404, 401],
  },
  {
    endpoint: "GET /project-stats/",
    method: "get",
    path: (c) => `${ws(c)}/project-stats/?project_ids=${c.p.id}`,
    expect: [200, 200, 200, 200, 404, 401],
  },
  {
    endpoint: "GET /projects/:id/",
    method: "get",
    path: (c) => `${c.p.url}/`,
    projectScoped: true,
    expect: [200, 200, 200, 200, 404, 401],
  },
  {
    endpoint: "PATCH /projects/:id/ (general)",
    method: "patch",
    path: (c) => `${c.p.url}/`,
    body: () => ({ description: "changed" }),
    fresh: true,
    projectScoped: true,
    expect: [200, 403, 403, 403, 404, 401],
  },
  {
    endpoint: "PATCH /projects/:id/ (features)",
    method: "patch",
    path: (c) => `${c.p.url}/`,
    body: () => ({ cycle_view: false, guest_view_all_features: true }),
    fresh: true,
    projectScoped: true,
    expect: [200, 403, 403, 403, 404, 401],
  },
  {
    endpoint: "DELETE /projects/:id/",
    method: "delete",
    path: (c) => `${c.p.url}/`,
    fresh: true,
    projectScoped: true,
    expect: [204, 403, 403, 403, 404, 401],
  },
  {
    endpoint: "POST /projects/:id/archive/",
    method: "post",
    path: (c) => `${c.p.url}/archive/`,
    fresh: true,
    projectScoped: true,
    expect: [200, 403, 403, 403, 404, 401],
  },
  {
    endpoint: "DELETE /projects/:id/archive/",
    method: "delete",
    path: (c) => `${c.p.url}/archive/`,
    fresh: true,
    setup: archiveDirectly,
    projectScoped: true,
    expect: [204, 403, 403, 403, 404, 401],
  },
  {
    endpoint: "GET /projects/:id/members/",
    method: "get",
    path: (c) => `${c.p.url}/members/`,
    projectScoped: true,
    expect: [200, 200, 200, 403, 404, 401],
  },
  {
    endpoint: "POST /projects/:id/members/",
    method: "post",
    path: (c) => `${c.p.url}/members/`,
    body: (c) => ({ members: [{ member_id: c.w.outsider.id, role: ROLE.guest }] }),
    fresh: true,
    projectScoped: true,
    expect: [201, 403, 403, 403, 404, 401],
  },
  {
    endpoint: "GET /projects/:id/project-members/me/",
    method: "get",
    path: (c) => `${c.p.url}/project-members/me/`,
    projectScoped: true,
    expect: [200, 200, 200, 403, 404, 401],
  },
  {
    endpoint: "GET /projects/:id/members/:memberId/",
    method: "get",
    path: (c) => `${c.p.url}/members/${c.p.memberRowId}/`,
    projectScoped: true,
    expect: [200, 200, 200, 403, 404, 401],
  },
  {
    endpoint: "PATCH /projects/:id/members/:memberId/",
    method: "patch",
    path: (c) => `${c.p.url}/members/${c.p.guestRowId}/`,
    body: () => ({ role: ROLE.guest }),
    fresh: true,
    projectScoped: true,
    expect: [200, 403, 403, 403, 404, 401],
  },
  {
    endpoint: "DELETE /projects/:id/members/:memberId/",
    method: "delete",
    path: (c) => `${c.p.url}/members/${c.p.guestRowId}/`,
    fresh: true,
    projectScoped: true,
    expect: [204, 403, 403, 403, 404, 401],
  },
  {
    // The admin here is the project's only admin, so leaving is refused (400).
    endpoint: "POST /projects/:id/members/leave/",
    method: "post",
    path: (c) => `${c.p.url}/members/leave/`,
    fresh: true,
    projectScoped: true,
    expect: [400, 204, 204, 403, 404, 401],
  },
  {
    endpoint: "POST /projects/join/",
    method: "post",
    path: (c) => `${ws(c)}/projects/join/`,
    body: (c) => ({ project_ids: [c.p.id] }),
    fresh: true,
    expect: [201, 201, 201, 201, 404, 401],
  },
  {
    endpoint: "POST /api/users/me/workspaces/:slug/projects/invitations/",
    method: "post",
    path: (c) => `/api/users/me/workspaces/${c.w.slug}/projects/invitations/`,
    body: (c) => ({ project_ids: [c.p.id] }),
    fresh: true,
    expect: [201, 201, 201, 201, 404, 401],
  },
  {
    endpoint: "GET /user-favorite-projects/",
    method: "get",
    path: (c) => `${ws(c)}/user-favorite-projects/`,
    expect: [200, 200, 200, 200, 404, 401],
  },
  {
    endpoint: "POST /user-favorite-projects/",
    method: "post",
    path: (c) => `${ws(c)}/user-favorite-projects/`,
    body: (c) => ({ project: c.p.id }),
    fresh: true,
    expect: [201, 201, 201, 403, 404, 401],
  },
  {
    // Only admin, member and guest have a favorite to remove; the others have none (404).
    endpoint: "DELETE /user-favorite-projects/:projectId/",
    method: "delete",
    path: (c) => `${ws(c)}/user-favorite-projects/${c.p.id}/`,
    fresh: true,
    setup: favoriteDirectly,
    expect: [204, 204, 204, 404, 404, 401],
  },
];

function caller(who: Who): TestUser | null {
  switch (who) {
    case "admin":
      return w.admin;
    case "member":
      return w.member;
    case "guest":
      return w.guest;
    case "non-member":
      return w.outsider;
    case "other workspace":
      return w.stranger;
    case "anonymous":
      return null;
  }
}

async function call(row: Row, ctx: Ctx, user: TestUser | null) {
  const c = client(t.app, user);
  const path = row.path(ctx);
  const body = row.body?.(ctx);
  if (row.method === "get") return c.get(path);
  return c[row.method](path, body as Record<string, unknown> | undefined);
}

describe("permissions: endpoint × caller", () => {
  for (const row of ROWS) {
    WHO.forEach((who, index) => {
      const status = row.expect[index];
      it(`${row.endpoint} as ${who} → ${status}`, async () => {
        const ctx: Ctx = { w, p: row.fresh ? await projectWithTeam(t, w) : shared };
        await row.setup?.(ctx);
        const res = await call(row, ctx, caller(who));
        expect(res.statusCode, res.body).toBe(status);
      });
    });
  }
});

/** A private project the member created, with the guest in it; the workspace admin is not. */
async function privateProject(): Promise<TeamProject> {
  const p = await createProject(t, w.member, w.slug, { network: NETWORK.private });
  const guestRowId = await addMember(t, w.member, w.slug, p.id, w.guest, ROLE.guest);
  const [own] = await t.db
    .select()
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, p.id), eq(projectMembers.memberId, w.member.id)));
  if (!own) throw new Error("creator membership missing");
  return { id: p.id, url: `/api/workspaces/${w.slug}/projects/${p.id}`, memberRowId: own.id, guestRowId };
}

describe("permissions: a private project does not exist for a non-member workspace admin", () => {
  for (const row of ROWS.filter((r) => r.projectScoped)) {
    it(`${row.endpoint} → 404`, async () => {
      const ctx: Ctx = { w, p: await privateProject() };
      await row.setup?.(ctx);
      const res = await call(row, ctx, w.admin);
      expect(res.statusCode, res.body).toBe(404);
    });
  }

  it("POST /projects/join/ and POST /user-favorite-projects/ → 404", async () => {
    const p = await privateProject();
    const join = await client(t.app, w.admin).post(`/api/workspaces/${w.slug}/projects/join/`, { project_ids: [p.id] });
    expect(join.statusCode).toBe(404);
    const fav = await client(t.app, w.admin).post(`/api/workspaces/${w.slug}/user-favorite-projects/`, {
      project: p.id,
    });
    expect(fav.statusCode).toBe(404);
  });
});
