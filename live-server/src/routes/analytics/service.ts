/**
 * The analytics numbers, each one aggregate in SQL over the scope (scope.ts): totals of the
 * overview and work-items tabs, counts per project or per assignee by state group, the counts of
 * a workspace's things, and created vs resolved over time. Shapes: the reference's
 * advance-analytics views (apps/api/plane/app/views/analytic/advance.py, project_analytics.py).
 */
import { PAGE_ACCESS, ROLE } from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import { anyOf } from "../search/sight.ts";
import { VIEW_ACCESS } from "../views/schema.ts";
import { type AnalyticsScope, inPeriod, itemsCounted, projectIdsOf } from "./scope.ts";

type Count = { count: number };
const counted = (n: number | string | null | undefined): Count => ({ count: Number(n ?? 0) });

/** Per state group, over `i` joined to its state `s`. */
const BY_GROUP = sql`
  count(*) filter (where s."group" = 'cancelled')::int as cancelled_work_items,
  count(*) filter (where s."group" = 'completed')::int as completed_work_items,
  count(*) filter (where s."group" = 'backlog')::int as backlog_work_items,
  count(*) filter (where s."group" = 'unstarted')::int as un_started_work_items,
  count(*) filter (where s."group" = 'started')::int as started_work_items`;

/** The work-items tab: totals by state group, and overdue (a target date past, not completed or cancelled). */
export async function workItemTotals(db: DbOrTx, scope: AnalyticsScope) {
  type Row = {
    total: number;
    started_work_items: number;
    backlog_work_items: number;
    un_started_work_items: number;
    completed_work_items: number;
    cancelled_work_items: number;
    overdue: number;
  };
  const [row] = scope.projects.length
    ? await queryRows<Row>(
        db,
        sql`select count(*)::int as total, ${BY_GROUP},
            count(*) filter (where i.target_date < (now() at time zone 'UTC')::date
              and coalesce(s."group", '') not in ('completed', 'cancelled'))::int as overdue
          from issues i left join states s on s.id = i.state_id
          where ${itemsCounted(scope)} and ${inPeriod(scope, sql`i.created_at`)}`,
      )
    : [];
  return {
    total_work_items: counted(row?.total),
    started_work_items: counted(row?.started_work_items),
    backlog_work_items: counted(row?.backlog_work_items),
    un_started_work_items: counted(row?.un_started_work_items),
    completed_work_items: counted(row?.completed_work_items),
    // Beyond the reference's five: the scope-and-demand screen's cancelled and overdue totals.
    cancelled_work_items: counted(row?.cancelled_work_items),
    overdue_work_items: counted(row?.overdue),
  };
}

/** The overview tab: people by role, projects, work items, cycles, open intake requests. */
export async function overviewTotals(db: DbOrTx, scope: AnalyticsScope, projectsAsked: boolean) {
  const ids = projectIdsOf(scope);
  // People: the workspace's members, or — projects asked for — the members of those projects
  // (each person once, by their highest role there).
  const people = await queryRows<{ admins: number; members: number; guests: number }>(
    db,
    projectsAsked
      ? sql`select count(*) filter (where role >= ${ROLE.admin})::int as admins,
            count(*) filter (where role >= ${ROLE.member} and role < ${ROLE.admin})::int as members,
            count(*) filter (where role < ${ROLE.member})::int as guests
          from (select pm.member_id, max(pm.role) as role from project_members pm
            where ${anyOf(sql`pm.project_id`, ids)} and pm.is_active and ${inPeriod(scope, sql`pm.created_at`)}
            group by pm.member_id) m`
      : sql`select count(*) filter (where role >= ${ROLE.admin})::int as admins,
            count(*) filter (where role >= ${ROLE.member} and role < ${ROLE.admin})::int as members,
            count(*) filter (where role < ${ROLE.member})::int as guests
          from workspace_members wm
          where wm.workspace_id = ${scope.workspaceId}::uuid and wm.is_active and ${inPeriod(scope, sql`wm.created_at`)}`,
  );
  const [counts] = await queryRows<{ projects: number; work_items: number; cycles: number; intake: number }>(
    db,
    sql`select
        (select count(*) from projects p where ${anyOf(sql`p.id`, ids)} and ${inPeriod(scope, sql`p.created_at`)})::int as projects,
        (select count(*) from issues i where ${itemsCounted(scope)} and ${inPeriod(scope, sql`i.created_at`)})::int as work_items,
        (select count(*) from cycles c where ${anyOf(sql`c.project_id`, ids)} and c.archived_at is null
          and ${inPeriod(scope, sql`c.created_at`)})::int as cycles,
        (select count(*) from intake_issues ii join issues i on i.id = ii.issue_id
          where ${anyOf(sql`ii.project_id`, ids)} and ii.status in (-2, 0) and i.deleted_at is null
          and ${inPeriod(scope, sql`ii.created_at`)})::int as intake`,
  );
  const p = people[0];
  const admins = Number(p?.admins ?? 0);
  const members = Number(p?.members ?? 0);
  const guests = Number(p?.guests ?? 0);
  return {
    total_users: counted(admins + members + guests),
    total_admins: counted(admins),
    total_members: counted(members),
    total_guests: counted(guests),
    total_projects: counted(counts?.projects),
    total_work_items: counted(counts?.work_items),
    total_cycles: counted(counts?.cycles),
    total_intake: counted(counts?.intake),
  };
}

export type ProjectStatsRow = {
  project_id: string;
  project__name: string;
  cancelled_work_items: number;
  completed_work_items: number;
  backlog_work_items: number;
  un_started_work_items: number;
  started_work_items: number;
};

/** advance-analytics-stats (workspace): each project's work items by state group. */
export async function statsByProject(db: DbOrTx, scope: AnalyticsScope): Promise<ProjectStatsRow[]> {
  if (!scope.projects.length) return [];
  return queryRows<ProjectStatsRow>(
    db,
    sql`select i.project_id, p.name as project__name, ${BY_GROUP}
      from issues i join projects p on p.id = i.project_id left join states s on s.id = i.state_id
      where ${itemsCounted(scope)} and ${inPeriod(scope, sql`i.created_at`)}
      group by i.project_id, p.name
      order by i.project_id`,
  );
}

export type AssigneeStatsRow = {
  display_name: string | null;
  assignee_id: string | null;
  avatar_url: string | null;
} & Omit<ProjectStatsRow, "project_id" | "project__name">;

/**
 * advance-analytics-stats (project): each assignee's work items by state group; no assignee is a
 * row of nulls. One row per (item, assignee) — the link's key — so count(*) counts items.
 */
export async function statsByAssignee(db: DbOrTx, scope: AnalyticsScope): Promise<AssigneeStatsRow[]> {
  if (!scope.projects.length) return [];
  return queryRows<AssigneeStatsRow>(
    db,
    sql`with agg as (select ia.assignee_id, ${BY_GROUP}
        from issues i left join states s on s.id = i.state_id
          left join issue_assignees ia on ia.issue_id = i.id
        where ${itemsCounted(scope)} and ${inPeriod(scope, sql`i.created_at`)}
        group by ia.assignee_id)
      select u.display_name, agg.assignee_id, nullif(u.avatar_url, '') as avatar_url,
        agg.cancelled_work_items, agg.completed_work_items, agg.backlog_work_items,
        agg.un_started_work_items, agg.started_work_items
      from agg left join users u on u.id = agg.assignee_id
      order by u.display_name nulls last`,
  );
}

/** advance-analytics-charts?type=projects: how many of each thing the projects in scope hold. */
export async function thingCounts(db: DbOrTx, scope: AnalyticsScope) {
  const ids = projectIdsOf(scope);
  const period = (column: SQL) => inPeriod(scope, column);
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select
        (select count(*) from issues i where ${itemsCounted(scope)} and ${period(sql`i.created_at`)})::int as work_items,
        (select count(*) from cycles c where ${anyOf(sql`c.project_id`, ids)} and c.archived_at is null and ${period(sql`c.created_at`)})::int as cycles,
        (select count(*) from modules m where ${anyOf(sql`m.project_id`, ids)} and m.archived_at is null and ${period(sql`m.created_at`)})::int as modules,
        (select count(*) from intake_issues ii join issues i on i.id = ii.issue_id
          where ${anyOf(sql`ii.project_id`, ids)} and i.deleted_at is null and ${period(sql`ii.created_at`)})::int as intake,
        (select count(*) from workspace_members wm where wm.workspace_id = ${scope.workspaceId}::uuid and wm.is_active
          and ${period(sql`wm.created_at`)})::int as members,
        (select count(distinct pg.id) from pages pg join page_projects pp on pp.page_id = pg.id
          where ${anyOf(sql`pp.project_id`, ids)} and pg.archived_at is null
          and (pg.access = ${PAGE_ACCESS.public} or pg.owned_by_id = ${scope.userId}::uuid) and ${period(sql`pg.created_at`)})::int as pages,
        (select count(*) from issue_views v where ${anyOf(sql`v.project_id`, ids)} and v.archived_at is null
          and (v.access = ${VIEW_ACCESS.public} or v.owned_by_id = ${scope.userId}::uuid) and ${period(sql`v.created_at`)})::int as views`,
  );
  const keys = ["work_items", "cycles", "modules", "intake", "members", "pages", "views"] as const;
  return keys.map((key) => ({ key, name: titleCase(key), count: Number(row?.[key] ?? 0) }));
}

const titleCase = (key: string) =>
  key
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");

type TimelinePoint = { key: string; name: string; count: number; completed_issues: number; created_issues: number };

/**
 * advance-analytics-charts?type=work-items: per month (or per day for a cycle or module) the work
 * items created and those resolved (completed) then. From the first month with a work item (or
 * the period's start) to now, every month present, empty ones as zeros.
 */
export async function createdVsResolved(
  db: DbOrTx,
  scope: AnalyticsScope,
  span: { from: string; to: string; unit: "day" | "month" } | null,
): Promise<{ data: TimelinePoint[]; schema: Record<string, string> }> {
  const schema = { completed_issues: "completed_issues", created_issues: "created_issues" };
  if (!scope.projects.length) return { data: [], schema };
  const unit = span?.unit ?? "month";
  const u = sql.raw(`'${unit}'`);
  const bucket = (column: SQL) => sql`date_trunc(${u}, ${column} at time zone 'UTC')::date`;
  const rows = await queryRows<{ bucket: string; created: number; completed: number; first: string | null }>(
    db,
    sql`with counted as (select i.created_at, i.completed_at from issues i
          where ${itemsCounted(scope)} and ${inPeriod(scope, sql`i.created_at`)}),
        created as (select ${bucket(sql`created_at`)} as bucket, count(*)::int as n from counted group by 1),
        completed as (select ${bucket(sql`completed_at`)} as bucket, count(*)::int as n from counted
          where completed_at is not null group by 1)
      select to_char(coalesce(c.bucket, d.bucket), 'YYYY-MM-DD') as bucket,
        coalesce(c.n, 0) as created, coalesce(d.n, 0) as completed
      from created c full join completed d on d.bucket = c.bucket
      order by 1`,
  );
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  const today = new Date();
  const first = span?.from ?? rows[0]?.bucket ?? null;
  if (!first) return { data: [], schema };
  const last = span?.to ?? today.toISOString().slice(0, 10);
  const data: TimelinePoint[] = [];
  let cursor = unit === "month" ? `${first.slice(0, 7)}-01` : first;
  // At most ten years of months or a year and a half of days: a bounded answer whatever the dates.
  for (let guard = 0; cursor <= last && guard < 600; guard++) {
    const r = byBucket.get(cursor);
    const created = Number(r?.created ?? 0);
    const completed = Number(r?.completed ?? 0);
    data.push({ key: cursor, name: cursor, count: created, completed_issues: completed, created_issues: created });
    cursor = next(cursor, unit);
  }
  return { data, schema };
}

function next(isoDay: string, unit: "day" | "month"): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  if (unit === "day") d.setUTCDate(d.getUTCDate() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1, 1);
  return d.toISOString().slice(0, 10);
}
