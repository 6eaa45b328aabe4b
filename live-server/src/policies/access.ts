/**
 * Access rules, checked on every request that touches a workspace or a project:
 * - a workspace the caller is not an active member of does not exist for them (404);
 * - a project outside that workspace, or private and not joined, does not exist (404);
 * - a role below what the action needs is 403.
 * Routes call these first and use only the ids they return, so no object is reachable by id
 * from another workspace.
 */
import { ROLE, type Role } from "@tideline/shared";
import { and, eq, isNull } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { SessionUser } from "../auth/sessions.ts";
import type { DbOrTx } from "../db/client.ts";
import { issues, projectMembers, projects, workspaceMembers, workspaces } from "../db/schema.ts";
import { forbidden, notFound, unauthorized } from "../http/errors.ts";
import { isUuid } from "../http/ids.ts";

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceMembers.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type ProjectMemberRow = typeof projectMembers.$inferSelect;

export type WorkspaceAccess = { user: SessionUser; workspace: WorkspaceRow; membership: WorkspaceMemberRow };
export type ProjectAccess = WorkspaceAccess & { project: ProjectRow; projectMembership: ProjectMemberRow | null };

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

export function requireRole(role: number, min: Role, message?: string): void {
  if (role < min) throw forbidden(message);
}

/** The caller's active membership of workspace `slug`, or 404. */
export async function workspaceAccess(
  db: DbOrTx,
  request: FastifyRequest,
  slug: string,
  minRole: Role = ROLE.guest,
): Promise<WorkspaceAccess> {
  const user = requireUser(request);
  const [row] = await db
    .select({ workspace: workspaces, membership: workspaceMembers })
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.memberId, user.id)),
    )
    .where(and(eq(workspaces.slug, String(slug).toLowerCase()), eq(workspaceMembers.isActive, true)))
    .limit(1);
  if (!row) throw notFound("Workspace");
  requireRole(row.membership.role, minRole);
  return { user, ...row };
}

/**
 * A project of the caller's workspace. Without `allowNonMember`, the caller must be an active
 * project member with at least `minRole`. With it, a public project is visible to any
 * workspace member (for joining, previews); a private one stays 404 for non-members.
 */
export async function projectAccess(
  db: DbOrTx,
  request: FastifyRequest,
  slug: string,
  projectId: string,
  options: { minRole?: Role; allowNonMember?: boolean } = {},
): Promise<ProjectAccess> {
  if (!isUuid(projectId)) {
    await workspaceAccess(db, request, slug);
    throw notFound("Project");
  }
  const row = await accessRow(db, requireUser(request), slug, projectId);
  return checkProject(row, options);
}

type AccessRow = {
  user: SessionUser;
  workspace: WorkspaceRow;
  membership: WorkspaceMemberRow;
  project: ProjectRow | null;
  projectMembership: ProjectMemberRow | null;
  issue: IssueRow | null;
};

/**
 * The caller's workspace membership, the project and their project membership — and the work
 * item, when asked — in one statement: each is one more trip to the embedded database's thread
 * and one more plan, on every request that touches a project. Nulls say what is missing.
 */
async function accessRow(
  db: DbOrTx,
  user: SessionUser,
  slug: string,
  projectId: string,
  issueId?: string,
): Promise<AccessRow> {
  const base = db
    .select({
      workspace: workspaces,
      membership: workspaceMembers,
      project: projects,
      projectMembership: projectMembers,
      ...(issueId ? { issue: issues } : {}),
    })
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.memberId, user.id)),
    )
    .leftJoin(projects, and(eq(projects.id, projectId), eq(projects.workspaceId, workspaces.id)))
    .leftJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, projects.id),
        eq(projectMembers.memberId, user.id),
        eq(projectMembers.isActive, true),
      ),
    );
  const joined = issueId
    ? base.leftJoin(issues, and(eq(issues.id, issueId), eq(issues.projectId, projects.id), isNull(issues.deletedAt)))
    : base;
  const [row] = await joined
    .where(and(eq(workspaces.slug, String(slug).toLowerCase()), eq(workspaceMembers.isActive, true)))
    .limit(1);
  if (!row) throw notFound("Workspace");
  const { issue, ...rest } = row as typeof row & { issue?: IssueRow | null };
  return { user, ...rest, issue: issue ?? null };
}

/** The project rules of `projectAccess` on a row read by `accessRow`. */
function checkProject(row: AccessRow, options: { minRole?: Role; allowNonMember?: boolean }): ProjectAccess {
  const { user, workspace, membership, project, projectMembership } = row;
  if (!project) throw notFound("Project");
  if (!projectMembership) {
    if (!options.allowNonMember || project.network !== 2) throw notFound("Project");
    if (options.minRole) throw forbidden("Join the project first.");
  } else if (options.minRole) {
    requireRole(projectMembership.role, options.minRole);
  }
  return { user, workspace, membership, project, projectMembership };
}

export type IssueRow = typeof issues.$inferSelect;
export type IssueAccess = ProjectAccess & { issue: IssueRow };

/**
 * True when the caller may only see work items they created: a project guest in a project
 * whose guest_view_all_features is off (product-domain §5).
 */
export function guestSeesOwnOnly(access: ProjectAccess): boolean {
  return (access.projectMembership?.role ?? 0) < ROLE.member && !access.project.guestViewAllFeatures;
}

/**
 * A work item of a project the caller belongs to. Deleted items and, for restricted guests,
 * items they did not create are 404. `minRole` applies to the project role (writes need member).
 */
export async function issueAccess(
  db: DbOrTx,
  request: FastifyRequest,
  slug: string,
  projectId: string,
  issueId: string,
  options: { minRole?: Role; includeArchived?: boolean; includeDrafts?: boolean } = {},
): Promise<IssueAccess> {
  if (!isUuid(issueId)) {
    await projectAccess(db, request, slug, projectId, { minRole: options.minRole });
    throw notFound("Work item");
  }
  if (!isUuid(projectId)) {
    await workspaceAccess(db, request, slug);
    throw notFound("Project");
  }
  const row = await accessRow(db, requireUser(request), slug, projectId, issueId);
  const access = checkProject(row, { minRole: options.minRole });
  const issue = row.issue;
  if (!issue) throw notFound("Work item");
  if (issue.isDraft && options.includeDrafts === false) throw notFound("Work item");
  // An intake request is reached only through the intake paths until it is accepted.
  if (issue.inIntake) throw notFound("Work item");
  if (guestSeesOwnOnly(access) && issue.createdById !== access.user.id) throw notFound("Work item");
  return { ...access, issue };
}
