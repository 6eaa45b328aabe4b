/**
 * Work items through views, on the one work-item list (issues/list.ts, readListQuery, and the
 * layout / start_target_date / expand rules of issues/layout.ts):
 * - a project view's items: the project list's conditions, the view's stored filters AND-ed
 *   with the query's;
 * - the workspace list (GET /issues/): every project of the workspace the caller is an active
 *   member of (archived projects left out), the guest rule applied per project exactly as the
 *   project list does (issues/common.ts visibleConditions), ordered -created_at by default.
 */
import { calendarDate, parseIssueFilters, ROLE } from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import type { ProjectAccess, WorkspaceAccess } from "../../policies/access.ts";
import { readListQuery, readListQueryIn, visibleConditions } from "../issues/common.ts";
import { filterConditions } from "../issues/filters.ts";
import { applyLayout, attachRelations, wantsRelations } from "../issues/layout.ts";
import { type ListResponse, listIssuePage } from "../issues/list.ts";
import type { ViewRow } from "./presenter.ts";

type Query = Record<string, unknown>;

/** The view's stored filters as SQL (they were checked when saved; anything unreadable is skipped). */
export function viewFilterConditions(view: ViewRow, today: string): SQL[] {
  return filterConditions(parseIssueFilters(view.filters).filters, today);
}

export async function listProjectViewIssues(
  db: DbOrTx,
  access: ProjectAccess,
  view: ViewRow,
  query: Query,
): Promise<ListResponse> {
  // Every parameter of the project list: filters, grouping, order, paging, layout, expand.
  const options = applyLayout(readListQuery(query, access), query);
  const today = calendarDate(new Date(), access.project.timezone);
  const page = await listIssuePage(db, {
    where: [
      ...visibleConditions(access),
      sql`i.archived_at is null`,
      sql`i.is_epic = false`,
      ...viewFilterConditions(view, today),
      ...options.conditions,
    ],
    projectId: access.project.id,
    groupBy: options.groupBy,
    subGroupBy: options.subGroupBy,
    orderBy: options.orderBy,
    cursor: options.cursor,
  });
  return wantsRelations(query) ? attachRelations(db, page, access.user.id) : page;
}

const uuidArray = (ids: string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;

/**
 * Which of the workspace's items the caller may see: items of projects where they see
 * everything, and their own items in projects where a guest sees only those.
 */
export async function workspaceVisibility(db: DbOrTx, ws: WorkspaceAccess): Promise<SQL> {
  const rows = await queryRows<{ project_id: string; role: number; guest_view_all_features: boolean }>(
    db,
    sql`select pm.project_id::text as project_id, pm.role, p.guest_view_all_features
        from project_members pm join projects p on p.id = pm.project_id
        where pm.member_id = ${ws.user.id}::uuid and pm.is_active and p.workspace_id = ${ws.workspace.id}::uuid
          and p.archived_at is null`,
  );
  // The same rule as guestSeesOwnOnly (policies/access.ts), per project.
  const ownOnly = (r: (typeof rows)[number]) => Number(r.role) < ROLE.member && !r.guest_view_all_features;
  const full = rows.filter((r) => !ownOnly(r)).map((r) => r.project_id);
  const own = rows.filter(ownOnly).map((r) => r.project_id);
  const parts: SQL[] = [];
  if (full.length) parts.push(sql`i.project_id = any(${uuidArray(full)})`);
  if (own.length) parts.push(sql`(i.project_id = any(${uuidArray(own)}) and i.created_by = ${ws.user.id}::uuid)`);
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

export async function listWorkspaceIssues(db: DbOrTx, ws: WorkspaceAccess, query: Query): Promise<ListResponse> {
  // The workspace list's default order is newest first (product-domain §2), not the board's.
  const withOrder =
    query.order_by === undefined || query.order_by === "" ? { ...query, order_by: "-created_at" } : query;
  const options = applyLayout(
    readListQueryIn(withOrder, {
      // Relative date filters count from the workspace's today.
      timezone: ws.workspace.timezone,
      identifier: sql`(select p.identifier from projects p where p.id = i.project_id)`,
    }),
    query,
  );
  const page = await listIssuePage(db, {
    where: [
      sql`i.workspace_id = ${ws.workspace.id}::uuid`,
      await workspaceVisibility(db, ws),
      sql`i.deleted_at is null`,
      sql`i.is_draft = false`,
      sql`i.in_intake = false`,
      sql`i.archived_at is null`,
      sql`i.is_epic = false`,
      ...options.conditions,
    ],
    projectId: null,
    groupBy: options.groupBy,
    subGroupBy: options.subGroupBy,
    orderBy: options.orderBy,
    cursor: options.cursor,
  });
  return wantsRelations(query) ? attachRelations(db, page, ws.user.id) : page;
}
