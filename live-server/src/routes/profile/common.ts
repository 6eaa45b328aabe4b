/**
 * Shared by the profile calls (a member's own work): the profile's owner, checked against the
 * caller's workspace, and the SQL that limits items to what the caller may see.
 */
import { ROLE, type Role } from "@tideline/shared";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { users, workspaceMembers } from "../../db/schema.ts";
import { notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { type WorkspaceAccess, workspaceAccess } from "../../policies/access.ts";
import { WS_PATH } from "../issues/common.ts";
import { itemVisibleTo } from "../issues/visibility.ts";

export { WS_PATH };
export type ProfileParams = { slug: string; userId: string };
export type UserRow = typeof users.$inferSelect;
export type ProfileAccess = WorkspaceAccess & { target: UserRow };

/**
 * The caller's workspace (404 unless an active member; `minRole` else 403) and the profile's
 * owner, who must be or have been a member of it (anyone else is 404: a profile call never
 * tells whether a user of another workspace exists).
 */
export async function profileAccess(
  db: DbOrTx,
  request: FastifyRequest,
  params: ProfileParams,
  minRole: Role = ROLE.guest,
): Promise<ProfileAccess> {
  const ws = await workspaceAccess(db, request, params.slug, minRole);
  if (!isUuid(params.userId)) throw notFound("User");
  const [row] = await db
    .select({ user: users })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.memberId))
    .where(and(eq(workspaceMembers.workspaceId, ws.workspace.id), eq(workspaceMembers.memberId, params.userId)))
    .limit(1);
  if (!row) throw notFound("User");
  return { ...ws, target: row.user };
}

/**
 * Work items (alias `i`) of the workspace the caller may see, as the project lists show them:
 * not archived, not drafts or deleted, not epics, in live projects the caller belongs to, with
 * the guest rule per project.
 */
export function visibleWorkItems(access: WorkspaceAccess): SQL[] {
  return [
    sql`i.workspace_id = ${access.workspace.id}::uuid`,
    sql`i.archived_at is null`,
    sql`i.is_epic = false`,
    itemVisibleTo("i", access.user.id, { activeProjectsOnly: true }),
  ];
}

/** Activity fields a profile's activity leaves out (as the reference does): comments and reactions. */
export const PROFILE_UNLISTED_FIELDS = ["comment", "reaction", "comment_reaction", "vote", "draft"] as const;
