/**
 * Workspace, membership and invitation logic shared by the workspace routes and the
 * current-user routes (`/api/users/me/workspaces/...`). Functions that change memberships take
 * a transaction and lock the workspace row first, so two concurrent role changes cannot both
 * pass the "keep at least one admin" check.
 */
import { RESERVED_WORKSPACE_SLUGS, ROLE, WORKSPACE_SLUG_PATTERN } from "@tideline/shared";
import { and, asc, count, eq, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { randomToken, safeEqual, sha256 } from "../../auth/crypto.ts";
import type { DbOrTx } from "../../db/client.ts";
import {
  projectMembers,
  userProfiles,
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from "../../db/schema.ts";
import type { EmitFn } from "../../events/bus.ts";
import { badRequest, conflict } from "../../http/errors.ts";
import { emitMembership } from "../projects/members.ts";

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type MemberRow = typeof workspaceMembers.$inferSelect;
export type InvitationRow = typeof workspaceInvitations.$inferSelect;
export type UserRow = typeof users.$inferSelect;

// ───────────────────────────── slugs ─────────────────────────────

/** Slugs are compared lower-cased and trimmed, the way the URL bar shows them. */
export function normalizeSlug(slug: string): string {
  return slug.trim().toLowerCase();
}

/** Why a (normalized) slug cannot be used, before asking the database: invalid, reserved or fine. */
export function slugProblem(slug: string): "invalid" | "reserved" | null {
  if (!WORKSPACE_SLUG_PATTERN.test(slug)) return "invalid";
  if (RESERVED_WORKSPACE_SLUGS.has(slug)) return "reserved";
  return null;
}

export async function isSlugTaken(db: DbOrTx, slug: string): Promise<boolean> {
  const [row] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, slug)).limit(1);
  return Boolean(row);
}

export const slugTaken = (slug: string) =>
  conflict(
    `The workspace URL "${slug}" is already taken. Choose another one.`,
    { slug: ["This workspace URL is already taken."] },
    "SLUG_TAKEN",
  );

export const slugReserved = (slug: string) =>
  badRequest(
    `"${slug}" is reserved for the app's own pages and cannot be a workspace URL. Choose another one, for example "${slug}-team".`,
    { slug: ["This word is reserved. Choose another workspace URL."] },
    "SLUG_RESERVED",
  );

// ───────────────────────────── workspaces ─────────────────────────────

/** Create a workspace with its creator as admin; remember it as their last workspace if none is set. */
export async function createWorkspace(
  tx: DbOrTx,
  userId: string,
  input: { name: string; slug: string; organizationSize: string },
): Promise<{ workspace: WorkspaceRow; membership: MemberRow }> {
  const [workspace] = await tx
    .insert(workspaces)
    .values({
      name: input.name,
      slug: input.slug,
      organizationSize: input.organizationSize,
      ownerId: userId,
      createdById: userId,
      updatedById: userId,
    })
    .returning();
  if (!workspace) throw new Error("workspace insert failed");
  const [membership] = await tx
    .insert(workspaceMembers)
    .values({ workspaceId: workspace.id, memberId: userId, role: ROLE.admin, createdById: userId })
    .returning();
  if (!membership) throw new Error("membership insert failed");
  await rememberWorkspaceIfUnset(tx, userId, workspace.id);
  return { workspace, membership };
}

/** Make sure the user has a profile row (older accounts, accounts made by other paths). */
export async function ensureProfile(db: DbOrTx, userId: string) {
  const [found] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  if (found) return found;
  await db.insert(userProfiles).values({ userId }).onConflictDoNothing();
  const [created] = await db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1);
  if (!created) throw new Error("profile insert failed");
  return created;
}

/** Set profile.last_workspace_id when it is empty, so the app knows where to land. */
export async function rememberWorkspaceIfUnset(tx: DbOrTx, userId: string, workspaceId: string): Promise<void> {
  await ensureProfile(tx, userId);
  await tx
    .update(userProfiles)
    .set({ lastWorkspaceId: workspaceId })
    .where(and(eq(userProfiles.userId, userId), isNull(userProfiles.lastWorkspaceId)));
}

/** Serialise membership changes of one workspace (see the file comment). */
export async function lockWorkspace(tx: DbOrTx, workspaceId: string): Promise<void> {
  await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update");
}

const activeHumanMember = (workspaceId: string) =>
  and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.isActive, true), eq(users.isBot, false));

/** Active admins of a workspace (bots never count: they cannot manage anything). */
export async function countAdmins(db: DbOrTx, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.memberId))
    .where(and(activeHumanMember(workspaceId), eq(workspaceMembers.role, ROLE.admin)));
  return row?.n ?? 0;
}

/** True when `membership` is the one active admin left: it must stay admin and stay in. */
export async function isLastAdmin(db: DbOrTx, membership: MemberRow): Promise<boolean> {
  if (!membership.isActive || membership.role !== ROLE.admin) return false;
  return (await countAdmins(db, membership.workspaceId)) <= 1;
}

/** What a workspace.member.* event carries (`member_id`: the user, whose live connections are re-checked). */
export function workspaceMemberEventData(row: MemberRow) {
  return { id: row.id, workspace: row.workspaceId, member_id: row.memberId, role: row.role, is_active: row.isActive };
}

/**
 * Take a user out of a workspace: the membership and their project memberships there become
 * inactive (rows are kept so history stays attributed and a later re-join can reactivate them).
 * Emits workspace.member.removed and project.member.removed for each project left.
 */
export async function deactivateMembership(
  tx: DbOrTx,
  emit: EmitFn,
  workspaceId: string,
  userId: string,
): Promise<void> {
  const ended = await tx
    .update(workspaceMembers)
    .set({ isActive: false })
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .returning();
  const left = await tx
    .update(projectMembers)
    .set({ isActive: false })
    .where(
      and(
        eq(projectMembers.workspaceId, workspaceId),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .returning();
  for (const row of left) emitMembership(emit, "project.member.removed", row);
  for (const row of ended) {
    emit("workspace.member.removed", { workspaceId, projectId: null, entityId: row.id }, workspaceMemberEventData(row));
  }
}

/**
 * A project role may not exceed the workspace role, so lowering the workspace role lowers the
 * project roles above it (an admin demoted to guest stops being admin of every project too).
 */
export async function capProjectRoles(
  tx: DbOrTx,
  emit: EmitFn,
  workspaceId: string,
  userId: string,
  role: number,
): Promise<void> {
  const capped = await tx
    .update(projectMembers)
    .set({ role })
    .where(
      and(
        eq(projectMembers.workspaceId, workspaceId),
        eq(projectMembers.memberId, userId),
        sql`${projectMembers.role} > ${role}`,
      ),
    )
    .returning();
  for (const row of capped) if (row.isActive) emitMembership(emit, "project.member.updated", row);
}

const owners = alias(users, "owners");

/** The workspaces the user is an active member of, oldest membership first, with role and size. */
export async function listMyWorkspaces(db: DbOrTx, userId: string) {
  const totals = db
    .select({ workspaceId: workspaceMembers.workspaceId, n: count().as("n") })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.memberId))
    .where(and(eq(workspaceMembers.isActive, true), eq(users.isBot, false)))
    .groupBy(workspaceMembers.workspaceId)
    .as("totals");
  return db
    .select({ workspace: workspaces, membership: workspaceMembers, owner: owners, total: totals.n })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .leftJoin(owners, eq(owners.id, workspaces.ownerId))
    .leftJoin(totals, eq(totals.workspaceId, workspaces.id))
    .where(and(eq(workspaceMembers.memberId, userId), eq(workspaceMembers.isActive, true)))
    .orderBy(asc(workspaceMembers.createdAt), asc(workspaces.name));
}

/** The workspace the user joined first (onboarding's landing place, the settings fallback). */
export async function firstWorkspaceOf(db: DbOrTx, userId: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db
    .select({ workspace: workspaces })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.memberId, userId), eq(workspaceMembers.isActive, true)))
    .orderBy(asc(workspaceMembers.createdAt), asc(workspaces.name))
    .limit(1);
  return row?.workspace;
}

/** The workspace with this id if the user is an active member of it. */
export async function memberWorkspaceById(
  db: DbOrTx,
  userId: string,
  workspaceId: string,
): Promise<WorkspaceRow | undefined> {
  const [row] = await db
    .select({ workspace: workspaces })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .limit(1);
  return row?.workspace;
}

/** Workspaces where this user is the only admin while someone else is still an active member. */
export async function workspacesBlockingDeactivation(db: DbOrTx, userId: string): Promise<WorkspaceRow[]> {
  const mine = await db
    .select({ workspace: workspaces, membership: workspaceMembers })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.isActive, true),
        eq(workspaceMembers.role, ROLE.admin),
      ),
    );
  const blocking: WorkspaceRow[] = [];
  for (const { workspace, membership } of mine) {
    if (!(await isLastAdmin(db, membership))) continue;
    const [others] = await db
      .select({ n: count() })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.memberId))
      .where(and(activeHumanMember(workspace.id), ne(workspaceMembers.memberId, userId)));
    if ((others?.n ?? 0) > 0) blocking.push(workspace);
  }
  return blocking;
}

// ───────────────────────────── invitations ─────────────────────────────

/** Pending invitations addressed to this e-mail, with their workspace and inviter. */
export async function pendingInvitationsFor(db: DbOrTx, email: string) {
  const inviters = alias(users, "inviters");
  return db
    .select({ invitation: workspaceInvitations, workspace: workspaces, inviter: inviters })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(inviters, eq(inviters.id, workspaceInvitations.createdById))
    .where(and(eq(workspaceInvitations.email, email.toLowerCase()), eq(workspaceInvitations.accepted, false)))
    .orderBy(asc(workspaceInvitations.createdAt));
}

export async function countPendingInvitations(db: DbOrTx, email: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.email, email.toLowerCase()), eq(workspaceInvitations.accepted, false)));
  return row?.n ?? 0;
}

/**
 * The secret of an invitation link: random, 256 bits, mailed only to the invited address (the
 * inviter never sees it; only its SHA-256 is stored). Sending the invitation again replaces it.
 */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomToken(32);
  return { token, tokenHash: sha256(token) };
}

/** Whether `token` (from the mailed link) is this invitation's: hashes compared in constant time. */
export function invitationTokenMatches(invitation: InvitationRow, token: unknown): boolean {
  return (
    typeof token === "string" &&
    token.length > 0 &&
    token.length <= 200 &&
    safeEqual(sha256(token), invitation.tokenHash)
  );
}

/** A pending (unanswered) invitation by id, with its workspace and inviter; undefined otherwise. */
export async function pendingInvitationById(db: DbOrTx, id: unknown) {
  if (typeof id !== "string" || !UUID.test(id)) return undefined;
  const inviters = alias(users, "inviters");
  const [row] = await db
    .select({ invitation: workspaceInvitations, workspace: workspaces, inviter: inviters })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(inviters, eq(inviters.id, workspaceInvitations.createdById))
    .where(eq(workspaceInvitations.id, id))
    .limit(1);
  if (!row || row.invitation.accepted || row.invitation.respondedAt) return undefined;
  return row;
}

/** A pending invitation by id whose link token is `token`, with its workspace and inviter. */
export async function pendingInvitationByToken(db: DbOrTx, id: unknown, token: unknown) {
  const row = await pendingInvitationById(db, id);
  return row && invitationTokenMatches(row.invitation, token) ? row : undefined;
}

/** The account (if any) of an e-mail address as invitations store it (normalized). */
export async function findUserByEmailLower(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  return row;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an invitation is addressed to this user (e-mails are stored normalized). */
export function isInvitationFor(invitation: InvitationRow, user: UserRow): boolean {
  return invitation.email.toLowerCase() === user.email.trim().toLowerCase();
}

/**
 * Accept an invitation for `user` (the caller checked it is theirs): the membership is created
 * with the invited role, or an earlier inactive one is reactivated with that role; an active
 * membership (joined meanwhile by another path) is left as it is. Returns the membership.
 */
export async function acceptInvitation(
  tx: DbOrTx,
  emit: EmitFn,
  invitation: InvitationRow,
  user: UserRow,
): Promise<MemberRow> {
  await lockWorkspace(tx, invitation.workspaceId);
  const [existing] = await tx
    .select()
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, invitation.workspaceId), eq(workspaceMembers.memberId, user.id)))
    .limit(1);
  let membership: MemberRow | undefined = existing;
  if (!existing) {
    [membership] = await tx
      .insert(workspaceMembers)
      .values({
        workspaceId: invitation.workspaceId,
        memberId: user.id,
        role: invitation.role,
        createdById: invitation.createdById ?? user.id,
      })
      .returning();
  } else if (!existing.isActive) {
    [membership] = await tx
      .update(workspaceMembers)
      .set({ isActive: true, role: invitation.role, updatedById: user.id })
      .where(eq(workspaceMembers.id, existing.id))
      .returning();
  }
  if (!membership) throw new Error("membership write failed");
  if (membership !== existing) {
    emit(
      "workspace.member.added",
      { workspaceId: invitation.workspaceId, projectId: null, entityId: membership.id },
      workspaceMemberEventData(membership),
    );
  }
  await tx
    .update(workspaceInvitations)
    .set({ accepted: true, respondedAt: new Date(), updatedById: user.id })
    .where(eq(workspaceInvitations.id, invitation.id));
  await rememberWorkspaceIfUnset(tx, user.id, invitation.workspaceId);
  return membership;
}
