/**
 * What an analytics answer counts: the work items of the projects the caller works in
 * (search/sight.ts projectsInSight: active member, project not archived; where a guest sees only
 * their own work items, only those), narrowed to the projects asked for (`project_ids`, or the
 * one project of a project-level call), to a cycle's or a module's items, and to the period of
 * `date_filter` by creation time. A work item counts as the lists count it: not deleted, not a
 * draft, not an intake request still waiting, not archived, not an epic.
 */
import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { anyOf, type ProjectInSight, projectsInSight } from "../search/sight.ts";
import type { AnalyticsFilters } from "./schema.ts";

export type Period = { from: Date; to: Date };

export type AnalyticsScope = {
  workspaceId: string;
  userId: string;
  projects: ProjectInSight[];
  cycleId: string | null;
  moduleId: string | null;
  /** Created within, for the totals (`analytics`) and the charts (`chart`) alike. */
  period: Period | null;
};

const DAY = 86_400_000;
const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** The reference's durations (date_utils.py), in UTC days, today included. */
export function periodOf(filters: AnalyticsFilters, now = new Date()): Period | null {
  const today = startOfDay(now);
  const endOfToday = new Date(today.getTime() + DAY - 1);
  switch (filters.date_filter) {
    case "yesterday":
      return { from: new Date(today.getTime() - DAY), to: new Date(today.getTime() - 1) };
    case "last_7_days":
      return { from: new Date(today.getTime() - 7 * DAY), to: endOfToday };
    case "last_30_days":
      return { from: new Date(today.getTime() - 30 * DAY), to: endOfToday };
    case "last_3_months":
      return { from: new Date(today.getTime() - 90 * DAY), to: endOfToday };
    case "custom": {
      if (!filters.start_date || !filters.end_date) return null;
      const from = new Date(`${filters.start_date}T00:00:00Z`);
      const to = new Date(new Date(`${filters.end_date}T00:00:00Z`).getTime() + DAY - 1);
      return Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || from > to ? null : { from, to };
    }
    default:
      return null;
  }
}

/** The scope of one call; `projectId` for the project-level calls (already checked by the policy). */
export async function analyticsScope(
  db: DbOrTx,
  workspaceId: string,
  userId: string,
  filters: AnalyticsFilters,
  projectId: string | null = null,
): Promise<AnalyticsScope> {
  const sight = await projectsInSight(db, workspaceId, userId, null);
  const asked = projectId ? [projectId] : filters.project_ids;
  const projects = asked ? sight.all.filter((p) => asked.includes(p.id)) : sight.all;
  return {
    workspaceId,
    userId,
    projects,
    cycleId: projectId ? filters.cycle_id : null,
    moduleId: projectId ? filters.module_id : null,
    period: periodOf(filters),
  };
}

/**
 * The work items counted (alias `i`), without the period: the lists' rule, a restricted guest's
 * own items, the cycle or module asked for.
 */
export function itemsCounted(scope: AnalyticsScope): SQL {
  const all = scope.projects.filter((p) => !p.own_only).map((p) => p.id);
  const own = scope.projects.filter((p) => p.own_only).map((p) => p.id);
  const projects = own.length
    ? sql`(${anyOf(sql`i.project_id`, all)} or (${anyOf(sql`i.project_id`, own)} and i.created_by = ${scope.userId}::uuid))`
    : anyOf(sql`i.project_id`, all);
  const parts = [
    sql`i.workspace_id = ${scope.workspaceId}::uuid`,
    projects,
    sql`i.deleted_at is null and not i.is_draft and not i.in_intake and i.archived_at is null and not i.is_epic`,
  ];
  if (scope.cycleId)
    parts.push(
      sql`exists (select 1 from cycle_issues ci where ci.issue_id = i.id and ci.cycle_id = ${scope.cycleId}::uuid)`,
    );
  if (scope.moduleId)
    parts.push(
      sql`exists (select 1 from module_issues mi where mi.issue_id = i.id and mi.module_id = ${scope.moduleId}::uuid)`,
    );
  return sql.join(parts, sql` and `);
}

/** `column` within the scope's period, or true. */
export function inPeriod(scope: AnalyticsScope, column: SQL): SQL {
  if (!scope.period) return sql`true`;
  return sql`${column} between ${scope.period.from.toISOString()}::timestamptz and ${scope.period.to.toISOString()}::timestamptz`;
}

export const projectIdsOf = (scope: AnalyticsScope) => scope.projects.map((p) => p.id);
