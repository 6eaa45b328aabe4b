/**
 * Workspace members: my membership, the member list, role changes, removal and leaving.
 *
 * Rights follow the reference product (apps/api/plane/app/views/workspace/member.py):
 * - only workspace admins change roles and remove members (403 for members and guests, with the
 *   reason); an admin may give any role, admin included, and may demote another admin;
 * - nobody changes their own role or removes themselves (400: leaving is POST members/leave/);
 * - the last active admin can neither be demoted nor leave: someone must be able to manage the
 *   workspace (delete it instead when you are the last one);
 * - nobody leaves, and no admin removes anyone, while that person is the only member of a
 *   project and its admin (400): the project would be left with nobody to manage it;
 * - a member made guest becomes guest in every project of the workspace;
 * - removing or leaving deactivates the workspace membership and the user's project memberships
 *   in that workspace; the person then gets 404 for the workspace, as any outsider does.
 * Each change emits workspace.member.updated / .removed (and project.member.* for the projects
 * it touches) after commit: the live layer re-checks the person's open connections with them.
 */
import { ROLE } from "@tideline/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { projectMembers, projects, users, workspaceMembers } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { ApiError, badRequest, forbidden, notFound, parse } from "../../http/errors.ts";
import { requireUuid } from "../../http/ids.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { presentWorkspaceMember } from "../../presenters/workspace.ts";
import { roleBody } from "./schema.ts";
import {
  capProjectRoles,
  deactivateMembership,
  isLastAdmin,
  lockWorkspace,
  workspaceMemberEventData,
} from "./service.ts";

type SlugParams = { slug: string };
type MemberParams = { slug: string; id: string };

/**
 * Why an actor with role `actor` may not move a member from `current` to `next`, or null when
 * the rule allows it (changing one's own role and the last admin are checked separately).
 */
export function roleChangeRefusal(actor: number, _current: number, _next: number): string | null {
  if (actor < ROLE.admin) return ONLY_ADMINS_CHANGE_ROLES;
  return null;
}

const ONLY_ADMINS_CHANGE_ROLES = "Only workspace admins can change members' roles.";
const ONLY_ADMINS_REMOVE = "Only workspace admins can remove members.";
const OWN_ROLE = "You cannot change your own role. Another admin can change it for you.";
const REMOVE_SELF = "You cannot remove yourself from the workspace. Leave the workspace instead.";
const LAST_ADMIN_DEMOTE = "This is the workspace's only admin. Make another member admin first, then change this role.";
const LAST_ADMIN_REMOVE = "This is the workspace's only admin and cannot be removed. Make another member admin first.";
const LAST_ADMIN_LEAVE =
  "You are the only admin of this workspace. Make another member admin before leaving, or delete the workspace.";
const SOLE_PROJECT_ADMIN_REMOVE = (names: string) =>
  `This person is the only member and admin of ${names}. Add another admin to the project or delete it first.`;
const SOLE_PROJECT_ADMIN_LEAVE = (names: string) =>
  `You are the only member and admin of ${names}. Add another admin to the project or delete it before leaving.`;

/**
 * The projects of the workspace whose only active member is `userId`, as their admin: taking
 * that person out would leave the project with nobody to manage it.
 */
async function projectsOnlyManagedBy(tx: DbOrTx, workspaceId: string, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ name: projects.name })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(
      and(
        eq(projectMembers.workspaceId, workspaceId),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
        eq(projectMembers.role, ROLE.admin),
        sql`not exists (select 1 from ${projectMembers} other where other.project_id = ${projectMembers.projectId}
              and other.is_active and other.member_id <> ${userId}::uuid)`,
      ),
    )
    .orderBy(asc(projects.name));
  return rows.map((r) => r.name);
}

/** "Website", "Website and Mobile", "Website, Mobile and 3 more projects". */
function projectNames(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  if (quoted.length === 1) return `the project ${quoted[0]}`;
  if (quoted.length <= 3) return `the projects ${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
  return `the projects ${quoted.slice(0, 2).join(", ")} and ${quoted.length - 2} more`;
}

/** An active membership of this workspace by its id, or 404. */
async function memberInWorkspace(tx: DbOrTx, workspaceId: string, id: string, humansOnly = false) {
  const [row] = await tx
    .select({ membership: workspaceMembers, user: users })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.memberId))
    .where(
      and(
        eq(workspaceMembers.id, id),
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.isActive, true),
        // A bot's membership is not one of the members (the list leaves it out): as the reference, 404.
        humansOnly ? eq(users.isBot, false) : undefined,
      ),
    )
    .limit(1);
  if (!row) throw notFound("Member");
  return row;
}

/** The caller's own membership re-read under the lock (it may just have changed); gone → 404. */
async function actorUnderLock(tx: DbOrTx, workspaceId: string, membershipId: string) {
  await lockWorkspace(tx, workspaceId);
  return memberInWorkspace(tx, workspaceId, membershipId).catch((error: unknown) => {
    throw error instanceof ApiError ? notFound("Workspace") : error;
  });
}

export async function memberRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: SlugParams }>("/api/workspaces/:slug/workspace-members/me/", async (request) => {
    const { user, membership } = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    return presentWorkspaceMember(membership, user);
  });

  app.get<{ Params: SlugParams }>("/api/workspaces/:slug/members/", async (request) => {
    const { user, workspace } = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    const rows = await db
      .select({ membership: workspaceMembers, user: users })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.memberId))
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspace.id),
          eq(workspaceMembers.isActive, true),
          eq(users.isBot, false),
        ),
      )
      .orderBy(
        sql`case when ${workspaceMembers.memberId} = ${user.id} then 0 else 1 end`,
        asc(workspaceMembers.createdAt),
        asc(users.displayName),
      );
    return rows.map((r) => presentWorkspaceMember(r.membership, r.user));
  });

  app.patch<{ Params: MemberParams }>("/api/workspaces/:slug/members/:id/", async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    const id = requireUuid(request.params.id, "Member");
    const { role } = parse(roleBody, request.body);
    return transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      const actor = await actorUnderLock(tx, access.workspace.id, access.membership.id);
      if (actor.membership.role < ROLE.admin) throw forbidden(ONLY_ADMINS_CHANGE_ROLES);
      const target = await memberInWorkspace(tx, access.workspace.id, id, true);
      if (target.user.id === access.user.id) throw badRequest(OWN_ROLE, { role: [OWN_ROLE] }, "OWN_ROLE");
      const refusal = roleChangeRefusal(actor.membership.role, target.membership.role, role);
      if (refusal) throw forbidden(refusal);
      if (role < ROLE.admin && (await isLastAdmin(tx, target.membership))) throw badRequest(LAST_ADMIN_DEMOTE);
      const [updated] = await tx
        .update(workspaceMembers)
        .set({ role, updatedById: access.user.id })
        .where(eq(workspaceMembers.id, target.membership.id))
        .returning();
      if (!updated) throw notFound("Member");
      await capProjectRoles(tx, emit, access.workspace.id, target.user.id, role);
      if (updated.role !== target.membership.role) {
        emit(
          "workspace.member.updated",
          { workspaceId: access.workspace.id, projectId: null, entityId: updated.id },
          workspaceMemberEventData(updated),
        );
      }
      return presentWorkspaceMember(updated, target.user);
    });
  });

  app.delete<{ Params: MemberParams }>("/api/workspaces/:slug/members/:id/", async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    if (access.membership.role < ROLE.admin) throw forbidden(ONLY_ADMINS_REMOVE);
    const id = requireUuid(request.params.id, "Member");
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      const actor = await actorUnderLock(tx, access.workspace.id, access.membership.id);
      if (actor.membership.role < ROLE.admin) throw forbidden(ONLY_ADMINS_REMOVE);
      const target = await memberInWorkspace(tx, access.workspace.id, id, true);
      if (target.user.id === access.user.id) throw badRequest(REMOVE_SELF, undefined, "REMOVE_SELF");
      if (await isLastAdmin(tx, target.membership)) throw badRequest(LAST_ADMIN_REMOVE);
      const sole = await projectsOnlyManagedBy(tx, access.workspace.id, target.user.id);
      if (sole.length) throw badRequest(SOLE_PROJECT_ADMIN_REMOVE(projectNames(sole)), undefined, "SOLE_PROJECT_ADMIN");
      await deactivateMembership(tx, emit, access.workspace.id, target.user.id);
    });
    return reply.status(204).send();
  });

  app.post<{ Params: SlugParams }>("/api/workspaces/:slug/members/leave/", async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      const me = await actorUnderLock(tx, access.workspace.id, access.membership.id);
      if (await isLastAdmin(tx, me.membership)) throw badRequest(LAST_ADMIN_LEAVE);
      const sole = await projectsOnlyManagedBy(tx, access.workspace.id, access.user.id);
      if (sole.length) throw badRequest(SOLE_PROJECT_ADMIN_LEAVE(projectNames(sole)), undefined, "SOLE_PROJECT_ADMIN");
      await deactivateMembership(tx, emit, access.workspace.id, access.user.id);
    });
    return reply.status(204).send();
  });
}
