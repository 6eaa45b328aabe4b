/**
 * Project membership: the member list, adding people, role changes, removal and leaving, and the
 * membership row every way of joining a project goes through (create, join, add). Split from
 * service.ts (project settings) so each concern reads on its own; the rules are product-domain
 * §6: roles never above the person's workspace role nor the caller's, and a project keeps at
 * least one admin (a per-project row lock serialises competing changes).
 *
 * "Active project member" means: the project_members row is active AND the person is still an
 * active member of the workspace.
 *
 * Every change emits `project.member.added` / `.updated` / `.removed` after commit (data:
 * membershipEventData, `member` = the user id), which the live layer uses to re-check that
 * person's open connections (a removed member's channels close, a demoted one turns read-only).
 */
import { projectRoleError, ROLE, removesLastAdmin, sortOrderAtTop } from "@tideline/shared";
import { and, asc, count, eq, gt, inArray, min } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { projectMembers, projects, userFavorites, users, workspaceMembers } from "../../db/schema.ts";
import { type EmitFn, type EventBus, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import type { ProjectAccess, ProjectRow } from "../../policies/access.ts";
import { dropFavorites } from "../../services/favorites.ts";
import { presentProjectMember } from "./presenter.ts";

/** Join condition: the project member is still an active workspace member. */
export const memberStillInWorkspace = and(
  eq(workspaceMembers.workspaceId, projectMembers.workspaceId),
  eq(workspaceMembers.memberId, projectMembers.memberId),
  eq(workspaceMembers.isActive, true),
);

/** Active workspace roles of `userIds` in the workspace (absent: not an active member). */
export async function workspaceRoles(db: DbOrTx, workspaceId: string, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: workspaceMembers.memberId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        inArray(workspaceMembers.memberId, userIds),
        eq(workspaceMembers.isActive, true),
      ),
    );
  return new Map(rows.map((r) => [r.userId, r.role]));
}

/** Sort order that puts a project first in `userId`'s list of this workspace. */
async function topSortOrder(db: DbOrTx, workspaceId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ smallest: min(projectMembers.sortOrder) })
    .from(projectMembers)
    .where(and(eq(projectMembers.workspaceId, workspaceId), eq(projectMembers.memberId, userId)));
  return sortOrderAtTop(row?.smallest ?? null);
}

type Ctx = { db: Db; events: EventBus };

type MembershipRow = typeof projectMembers.$inferSelect;

/** What a project.member.* event carries: the membership, `member` being the user id. */
export function membershipEventData(row: MembershipRow) {
  return { id: row.id, project: row.projectId, member: row.memberId, role: row.role, is_active: row.isActive };
}

/** Emit a project.member.* event for this row. */
export function emitMembership(
  emit: EmitFn,
  type: "project.member.added" | "project.member.updated" | "project.member.removed",
  row: MembershipRow,
): void {
  emit(type, { workspaceId: row.workspaceId, projectId: row.projectId, entityId: row.id }, membershipEventData(row));
}

/**
 * Make `userId` an active member with `role`: insert the row, or revive a former membership
 * (keeping its view settings). Returns the row; emits project.member.added.
 */
export async function upsertMembership(
  tx: DbOrTx,
  emit: EmitFn,
  project: { id: string; workspaceId: string },
  userId: string,
  role: number,
  actorId: string,
) {
  const sortOrder = await topSortOrder(tx, project.workspaceId, userId);
  const [row] = await tx
    .insert(projectMembers)
    .values({
      workspaceId: project.workspaceId,
      projectId: project.id,
      memberId: userId,
      role,
      sortOrder,
      createdById: actorId,
      updatedById: actorId,
    })
    .onConflictDoUpdate({
      target: [projectMembers.projectId, projectMembers.memberId],
      set: { role, isActive: true, sortOrder, updatedById: actorId, updatedAt: new Date() },
    })
    .returning();
  if (!row) throw new Error("project member upsert failed");
  emitMembership(emit, "project.member.added", row);
  return row;
}

/** Serialise member changes of one project, so two admins demoting each other can't both win. */
async function lockProject(tx: DbOrTx, projectId: string): Promise<void> {
  await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for("update");
}

async function activeAdminCount(tx: DbOrTx, projectId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(projectMembers)
    .innerJoin(workspaceMembers, memberStillInWorkspace)
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        eq(projectMembers.isActive, true),
        eq(projectMembers.role, ROLE.admin),
      ),
    );
  return row?.n ?? 0;
}

const LAST_ADMIN = "LAST_ADMIN";

export async function listMembers(db: DbOrTx, project: ProjectRow, options: { excludeGuests: boolean }) {
  const rows = await db
    .select({ membership: projectMembers, user: users })
    .from(projectMembers)
    .innerJoin(workspaceMembers, memberStillInWorkspace)
    .innerJoin(users, eq(users.id, projectMembers.memberId))
    .where(
      and(
        eq(projectMembers.projectId, project.id),
        eq(projectMembers.workspaceId, project.workspaceId),
        eq(projectMembers.isActive, true),
        options.excludeGuests ? gt(projectMembers.role, ROLE.guest) : undefined,
      ),
    )
    .orderBy(asc(projectMembers.createdAt), asc(projectMembers.id));
  return rows.map((r) => presentProjectMember(r.membership, r.user));
}

/** An active member row of this project, by its id, with the person and their workspace role. */
async function findMember(db: DbOrTx, project: ProjectRow, memberRowId: string) {
  const [row] = await db
    .select({ membership: projectMembers, user: users, workspaceRole: workspaceMembers.role })
    .from(projectMembers)
    .innerJoin(workspaceMembers, memberStillInWorkspace)
    .innerJoin(users, eq(users.id, projectMembers.memberId))
    .where(
      and(
        eq(projectMembers.id, memberRowId),
        eq(projectMembers.projectId, project.id),
        eq(projectMembers.workspaceId, project.workspaceId),
        eq(projectMembers.isActive, true),
      ),
    )
    .limit(1);
  if (!row) throw notFound("Member");
  return row;
}

export async function getMember(db: DbOrTx, project: ProjectRow, memberRowId: string) {
  const row = await findMember(db, project, memberRowId);
  return presentProjectMember(row.membership, row.user);
}

/** The caller's role in the project; routes only reach here as a project member. */
function callerRole(access: ProjectAccess): number {
  return access.projectMembership?.role ?? 0;
}

const nameOf = (user: { displayName: string; email: string; id: string }) => user.displayName || user.email || user.id;

/**
 * Bulk add: every person must be an active workspace member not yet in the project, and get a
 * role no higher than their workspace role nor the caller's. All or nothing.
 */
export async function addMembers(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  items: { member_id: string; role: number }[],
) {
  const { db } = ctx;
  const { project, user } = access;
  const ids = items.map((i) => i.member_id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate)
    throw badRequest(`Member ${duplicate} is listed twice.`, { members: [`${duplicate} is listed twice`] });

  const roles = await workspaceRoles(db, project.workspaceId, ids);
  const people = new Map((await db.select().from(users).where(inArray(users.id, ids))).map((u) => [u.id, u] as const));
  const current = await db
    .select({ memberId: projectMembers.memberId })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, project.id),
        inArray(projectMembers.memberId, ids),
        eq(projectMembers.isActive, true),
      ),
    );
  const alreadyIn = new Set(current.map((c) => c.memberId));

  items.forEach((item, index) => {
    const field = `members.${index}.member_id`;
    const workspaceRole = roles.get(item.member_id);
    const person = people.get(item.member_id);
    if (workspaceRole === undefined || !person) {
      const message = `User ${item.member_id} is not an active member of this workspace.`;
      throw badRequest(message, { [field]: [message] }, "NOT_WORKSPACE_MEMBER");
    }
    if (alreadyIn.has(item.member_id)) {
      const message = `${nameOf(person)} is already a member of this project.`;
      throw badRequest(message, { [field]: [message] }, "ALREADY_MEMBER");
    }
    const roleError = projectRoleError({
      requested: item.role,
      targetWorkspaceRole: workspaceRole,
      callerRole: callerRole(access),
    });
    if (roleError) {
      const message = `${nameOf(person)}: ${roleError}`;
      throw badRequest(message, { [`members.${index}.role`]: [roleError] }, "ROLE_TOO_HIGH");
    }
  });

  const rows = await transactionWithEvents(db, ctx.events, origin, async (tx, emit) => {
    const added = [];
    for (const item of items) {
      added.push(await upsertMembership(tx, emit, project, item.member_id, item.role, user.id));
    }
    return added;
  });
  return rows.map((row) => {
    const person = people.get(row.memberId);
    if (!person) throw new Error("member vanished");
    return presentProjectMember(row, person);
  });
}

export async function updateMemberRole(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  memberRowId: string,
  role: number,
) {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await lockProject(tx, project.id);
    const target = await findMember(tx, project, memberRowId);
    const roleError = projectRoleError({
      requested: role,
      targetWorkspaceRole: target.workspaceRole,
      callerRole: callerRole(access),
    });
    if (roleError) throw badRequest(roleError, { role: [roleError] }, "ROLE_TOO_HIGH");
    if (removesLastAdmin(await activeAdminCount(tx, project.id), target.membership.role, role)) {
      throw badRequest(
        "A project needs at least one admin. Make someone else an admin before changing this role.",
        { role: ["The last admin can't be demoted."] },
        LAST_ADMIN,
      );
    }
    const [row] = await tx
      .update(projectMembers)
      .set({ role, updatedById: user.id })
      .where(eq(projectMembers.id, target.membership.id))
      .returning();
    if (!row) throw notFound("Member");
    if (row.role !== target.membership.role) emitMembership(emit, "project.member.updated", row);
    return presentProjectMember(row, target.user);
  });
}

/** End a membership: the row is kept inactive (view settings survive a re-join); favorites go. */
async function endMembership(
  tx: DbOrTx,
  emit: EmitFn,
  project: ProjectRow,
  membership: { id: string; memberId: string },
  actorId: string,
) {
  const [ended] = await tx
    .update(projectMembers)
    .set({ isActive: false, updatedById: actorId })
    .where(eq(projectMembers.id, membership.id))
    .returning();
  if (ended) emitMembership(emit, "project.member.removed", ended);
  await dropFavorites(
    tx,
    emit,
    and(
      eq(userFavorites.workspaceId, project.workspaceId),
      eq(userFavorites.userId, membership.memberId),
      eq(userFavorites.projectId, project.id),
    ),
  );
}

export async function removeMember(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  memberRowId: string,
): Promise<void> {
  const { project, user } = access;
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await lockProject(tx, project.id);
    const target = await findMember(tx, project, memberRowId);
    if (removesLastAdmin(await activeAdminCount(tx, project.id), target.membership.role, null)) {
      throw badRequest(
        "A project needs at least one admin. Make someone else an admin before removing this one.",
        undefined,
        LAST_ADMIN,
      );
    }
    await endMembership(tx, emit, project, target.membership, user.id);
  });
}

export async function leaveProject(ctx: Ctx, origin: EventOrigin, access: ProjectAccess): Promise<void> {
  const { project, user, projectMembership } = access;
  if (!projectMembership) throw badRequest("You are not a member of this project.");
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await lockProject(tx, project.id);
    const target = await findMember(tx, project, projectMembership.id);
    if (removesLastAdmin(await activeAdminCount(tx, project.id), target.membership.role, null)) {
      throw badRequest(
        "You are the last admin of this project. Make someone else an admin before leaving.",
        undefined,
        LAST_ADMIN,
      );
    }
    await endMembership(tx, emit, project, target.membership, user.id);
  });
}
