/**
 * Workspace members: my membership, the member list, role changes, removal and leaving.
 *
 * Role rules (product-domain §6 leaves the detail open; these are the server's):
 * - guests change nobody's role; a member or admin may change the role of someone whose role is
 *   at most their own, to a role at most their own (so nobody can raise anyone above themselves);
 * - only admins remove members;
 * - the last active admin can be neither demoted, removed, nor leave: someone must be able to
 *   manage the workspace (delete it instead when you are the last one);
 * - removing or leaving deactivates the workspace membership and the user's project memberships
 *   in that workspace; the person then gets 404 for the workspace, as any outsider does.
 * Each change emits workspace.member.updated / .removed (and project.member.* for the projects
 * it touches) after commit: the live layer re-checks the person's open connections with them.
 */
import { ROLE, ROLE_NAME, type Role } from "@tideline/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { users, workspaceMembers } from "../../db/schema.ts";
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
 * the rule allows it (the last-admin check is separate: it needs the database).
 */
export function roleChangeRefusal(actor: number, current: number, next: number): string | null {
  if (actor < ROLE.member) return "Guests cannot change members' roles.";
  if (current > actor) return "You cannot change the role of someone whose role is above your own.";
  if (next > actor) return `You can give a role up to ${ROLE_NAME[actor as Role] ?? "your own"}, not above your own.`;
  return null;
}

const LAST_ADMIN_DEMOTE = "This is the workspace's only admin. Make another member admin first, then change this role.";
const LAST_ADMIN_REMOVE = "This is the workspace's only admin and cannot be removed. Make another member admin first.";
const LAST_ADMIN_LEAVE =
  "You are the only admin of this workspace. Make another member admin before leaving, or delete the workspace.";

/** An active membership of this workspace by its id, or 404. */
async function memberInWorkspace(tx: DbOrTx, workspaceId: string, id: string) {
  const [row] = await tx
    .select({ membership: workspaceMembers, user: users })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.memberId))
    .where(
      and(
        eq(workspaceMembers.id, id),
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.isActive, true),
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
      const target = await memberInWorkspace(tx, access.workspace.id, id);
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
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.admin);
    const id = requireUuid(request.params.id, "Member");
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      const actor = await actorUnderLock(tx, access.workspace.id, access.membership.id);
      if (actor.membership.role < ROLE.admin) throw forbidden("Only admins can remove members.");
      const target = await memberInWorkspace(tx, access.workspace.id, id);
      if (await isLastAdmin(tx, target.membership)) throw badRequest(LAST_ADMIN_REMOVE);
      await deactivateMembership(tx, emit, access.workspace.id, target.user.id);
    });
    return reply.status(204).send();
  });

  app.post<{ Params: SlugParams }>("/api/workspaces/:slug/members/leave/", async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    await transactionWithEvents(db, app.ctx.events, eventOrigin(request), async (tx, emit) => {
      const me = await actorUnderLock(tx, access.workspace.id, access.membership.id);
      if (await isLastAdmin(tx, me.membership)) throw badRequest(LAST_ADMIN_LEAVE);
      await deactivateMembership(tx, emit, access.workspace.id, access.user.id);
    });
    return reply.status(204).send();
  });
}
