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
  const ws = await workspaceAccess(db, request, slug);
  if (!isUuid(projectId)) throw notFound("Project");
  const [row] = await db
    .select({ project: projects, projectMembership: projectMembers })
    .from(projects)
    .leftJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, projects.id),
        eq(projectMembers.memberId, ws.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(and(eq(projects.id, projectId), eq(projects.workspaceId, ws.workspace.id)))
    .limit(1);
  if (!row) throw notFound("Project");
  const { project, projectMembership } = row;
  if (!projectMembership) {
    if (!options.allowNonMember || project.network !== 2) throw notFound("Project");
    if (options.minRole) throw forbidden("Join the project first.");
  } else if (options.minRole) {
    requireRole(projectMembership.role, options.minRole);
  }
  return { ...ws, project, projectMembership };
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
  const access = await projectAccess(db, request, slug, projectId, { minRole: options.minRole });
  if (!isUuid(issueId)) throw notFound("Work item");
  const [issue] = await db
    .select()
    .from(issues)
    .where(and(eq(issues.id, issueId), eq(issues.projectId, access.project.id), isNull(issues.deletedAt)))
    .limit(1);
  if (!issue) throw notFound("Work item");
  if (issue.isDraft && options.includeDrafts === false) throw notFound("Work item");
  // An intake request is reached only through the intake paths until it is accepted.
  if (issue.inIntake) throw notFound("Work item");
  if (guestSeesOwnOnly(access) && issue.createdById !== access.user.id) throw notFound("Work item");
  return { ...access, issue };
}
