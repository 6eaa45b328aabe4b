/**
 * Which work items a reader's numbers may count (product-domain §5): a restricted guest (project
 * role guest, the project's guest_view_all_features off) sees only the work items they created,
 * so every counter, distribution and chart of a cycle or module they read is computed over
 * those items alone; everyone else counts every item. The same rule as policies/access.ts
 * `guestSeesOwnOnly`, for lists that span projects (the workspace's cycles and modules).
 */
import { ROLE } from "@tideline/shared";
import { sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import { guestSeesOwnOnly, type ProjectAccess } from "../../policies/access.ts";

/** The creator a reader's counts are limited to: the restricted guest's own id, else null (every item). */
export type OwnItemsOf = string | null;

/** For one project's read: the guest's id when they see only their own items, else null. */
export function ownItemsOf(access: ProjectAccess): OwnItemsOf {
  return guestSeesOwnOnly(access) ? access.user.id : null;
}

/** The projects among `projectIds` where `userId` is a restricted guest (one query). */
export async function restrictedProjects(
  db: DbOrTx,
  userId: string,
  projectIds: readonly string[],
): Promise<Set<string>> {
  const ids = [...new Set(projectIds)];
  if (!ids.length) return new Set();
  const rows = await queryRows<{ project_id: string }>(
    db,
    sql`select pm.project_id::text as project_id from project_members pm join projects p on p.id = pm.project_id
        where pm.member_id = ${userId}::uuid and pm.is_active and pm.role < ${ROLE.member}
          and not p.guest_view_all_features and pm.project_id = any(${`{${ids.join(",")}}`}::uuid[])`,
  );
  return new Set(rows.map((r) => r.project_id));
}
