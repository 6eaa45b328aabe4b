/**
 * Which work items a user may see when a list spans projects (a member's work, relations drawn
 * on a timeline): the item's project must be one the user is an active member of, and in a
 * project where the user is a restricted guest (guest role, guest_view_all_features off) only
 * the items they created count — the same rule as policies/access.ts `guestSeesOwnOnly`, in SQL.
 */
import { ROLE } from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";

/**
 * SQL true when `alias` (an `issues` row) is visible to `userId`: not deleted, not a draft, in a
 * project the user belongs to, and the guest rule. `activeProjectsOnly` also leaves archived
 * projects out (a member's work shows only live projects).
 */
export function itemVisibleTo(alias: string, userId: string, options: { activeProjectsOnly?: boolean } = {}): SQL {
  const a = sql.raw(alias);
  const archived = options.activeProjectsOnly ? sql`and vp.archived_at is null` : sql``;
  return sql`(${a}.deleted_at is null and ${a}.is_draft = false and ${a}.in_intake = false and exists (
    select 1 from project_members vm join projects vp on vp.id = vm.project_id
    where vm.project_id = ${a}.project_id and vm.member_id = ${userId}::uuid and vm.is_active ${archived}
      and (vm.role >= ${ROLE.member} or vp.guest_view_all_features or ${a}.created_by = ${userId}::uuid)))`;
}

/** `column in (ids…)` for uuids (callers pass only validated ids). */
export function uuidIn(column: SQL, ids: readonly string[]): SQL {
  if (!ids.length) return sql`false`;
  return sql`${column} in (${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}
