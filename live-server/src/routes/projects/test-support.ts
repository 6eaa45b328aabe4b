/**
 * Fixtures shared by the projects API tests: a workspace with one user per role, a stranger
 * from another workspace, and helpers that create projects and members through the API itself.
 */
import { NETWORK, ROLE, type Role } from "@tideline/shared";
import { and, count, eq } from "drizzle-orm";
import { expect } from "vitest";
import { client, createUser, createWorkspace, type TestApp, type TestUser } from "../../../test/harness.ts";
import { projectMembers, projects, states } from "../../db/schema.ts";

let counter = 0;
export const uniqueName = (prefix = "Project") => `${prefix} ${Date.now().toString(36)}${(counter++).toString(36)}`;
/** A fresh identifier within this test file (letters only, well under 12). */
export const uniqueIdentifier = () => {
  let x = counter++ + 1;
  let s = "";
  while (x > 0) {
    s = String.fromCharCode(65 + (x % 26)) + s;
    x = Math.floor(x / 26);
  }
  return `PX${s}`;
};

export type World = {
  /** Workspace admin (owner); creator and admin of the projects made with `project()`. */
  admin: TestUser;
  member: TestUser;
  guest: TestUser;
  /** An active workspace member who is in no project. */
  outsider: TestUser;
  /** Admin of another workspace. */
  stranger: TestUser;
  slug: string;
  workspaceId: string;
  otherSlug: string;
  otherWorkspaceId: string;
};

export async function createWorld(t: TestApp): Promise<World> {
  const [admin, member, guest, outsider, stranger] = await Promise.all([
    createUser(t.db),
    createUser(t.db),
    createUser(t.db),
    createUser(t.db),
    createUser(t.db),
  ]);
  const ws = await createWorkspace(t.db, admin, [
    { user: member, role: ROLE.member },
    { user: guest, role: ROLE.guest },
    { user: outsider, role: ROLE.member },
  ]);
  const other = await createWorkspace(t.db, stranger);
  return {
    admin,
    member,
    guest,
    outsider,
    stranger,
    slug: ws.slug,
    workspaceId: ws.id,
    otherSlug: other.slug,
    otherWorkspaceId: other.id,
  };
}

export type CreatedProject = { id: string; identifier: string; name: string };

/** Create a project through the API as `owner`. */
export async function createProject(
  t: TestApp,
  owner: TestUser,
  slug: string,
  body: Record<string, unknown> = {},
): Promise<CreatedProject> {
  const res = await client(t.app, owner).post(`/api/workspaces/${slug}/projects/`, {
    name: uniqueName(),
    identifier: uniqueIdentifier(),
    network: NETWORK.public,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Add `user` to the project at `role` through the API (as the project admin `by`). */
export async function addMember(
  t: TestApp,
  by: TestUser,
  slug: string,
  projectId: string,
  user: TestUser,
  role: Role,
): Promise<string> {
  const res = await client(t.app, by).post(`/api/workspaces/${slug}/projects/${projectId}/members/`, {
    members: [{ member_id: user.id, role }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json()[0].id;
}

/** A project of the world's workspace with admin (project admin), member and guest in it. */
export async function projectWithTeam(t: TestApp, w: World, body: Record<string, unknown> = {}) {
  const project = await createProject(t, w.admin, w.slug, body);
  const memberRowId = await addMember(t, w.admin, w.slug, project.id, w.member, ROLE.member);
  const guestRowId = await addMember(t, w.admin, w.slug, project.id, w.guest, ROLE.guest);
  return { ...project, memberRowId, guestRowId, url: `/api/workspaces/${w.slug}/projects/${project.id}` };
}

export async function projectRow(t: TestApp, id: string) {
  const [row] = await t.db.select().from(projects).where(eq(projects.id, id));
  return row;
}

export async function countProjects(t: TestApp, workspaceId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(projects).where(eq(projects.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export async function countStates(t: TestApp, workspaceId: string): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(states).where(eq(states.workspaceId, workspaceId));
  return row?.n ?? 0;
}

export async function membershipOf(t: TestApp, projectId: string, userId: string) {
  const [row] = await t.db
    .select()
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.memberId, userId)));
  return row;
}
