/**
 * A member's summary (product-domain §2 profile, summary tab):
 * - GET /user-stats/{userId}/: counts by state group and priority of the items assigned to the
 *   user, created / assigned / completed / pending / subscribed / overdue counts, the cycles
 *   they have work in now and later, and completed work per day (the summary's chart);
 * - GET /user-profile/{userId}/: the user and, per project of the caller, the user's
 *   created / assigned / completed / pending counts (empty for workspace guests, as the
 *   reference does).
 * Only items the caller may see count (common.ts `visibleWorkItems`): a private project the
 * caller is not in, or items a restricted guest may not see, never show in the numbers.
 */
import { calendarDate, PRIORITIES, parseIssueFilters, ROLE, STATE_GROUPS } from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { queryRows } from "../../db/client.ts";
import { badRequest } from "../../http/errors.ts";
import { filterConditions } from "../issues/filters.ts";
import { itemVisibleTo } from "../issues/visibility.ts";
import { type ProfileParams, profileAccess, visibleWorkItems, WS_PATH } from "./common.ts";

type Query = Record<string, unknown>;

/** Days of completed work in the summary's chart. */
export const COMPLETED_CHART_DAYS = 90;

/** The list's filters (project, priority, state_group …) narrow the summary, as the reference allows. */
function readFilters(query: Query, timezone: string): SQL[] {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) input[key] = Array.isArray(value) ? value.join(",") : value;
  const { filters, errors } = parseIssueFilters(input);
  if (Object.keys(errors).length) {
    const [first] = Object.entries(errors);
    throw badRequest(first ? `${first[0]}: ${first[1][0]}` : "Invalid filters", errors, "VALIDATION_ERROR");
  }
  return filterConditions(filters, calendarDate(new Date(), timezone));
}

type CountRow = { grp: string | null; priority: string; n: number };
type TotalsRow = { created: number; subscribed: number; overdue: number };
type CycleRow = { cycle__name: string; cycle__id: string; cycle__project_id: string; current: boolean };
type DayRow = { date: string; n: number };

export async function profileStatsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: ProfileParams; Querystring: Query }>(`${WS_PATH}/user-stats/:userId/`, async (request) => {
    const access = await profileAccess(db, request, request.params);
    const target = access.target.id;
    const where = sql.join(
      [...visibleWorkItems(access), ...readFilters(request.query, access.workspace.timezone)],
      sql` and `,
    );
    const assigned = sql`exists (select 1 from issue_assignees ua where ua.issue_id = i.id and ua.assignee_id = ${target}::uuid)`;
    const from = sql`from issues i left join states s on s.id = i.state_id join projects p on p.id = i.project_id`;

    const byGroup = await queryRows<CountRow>(
      db,
      sql`select s."group" as grp, i.priority, count(*)::int as n ${from}
          where ${where} and ${assigned} group by s."group", i.priority`,
    );
    const [totals] = await queryRows<TotalsRow>(
      db,
      sql`select count(*) filter (where i.created_by = ${target}::uuid)::int as created,
                 count(*) filter (where exists (select 1 from issue_subscribers us
                                   where us.issue_id = i.id and us.subscriber_id = ${target}::uuid))::int as subscribed,
                 count(*) filter (where ${assigned} and i.target_date is not null
                                   and coalesce(s."group", '') not in ('completed', 'cancelled')
                                   and i.target_date <= (now() at time zone p.timezone)::date)::int as overdue
          ${from} where ${where}`,
    );
    const cycles = await queryRows<CycleRow>(
      db,
      sql`select distinct c.name as cycle__name, c.id::text as cycle__id, c.project_id::text as cycle__project_id,
                 (c.start_date <= (now() at time zone p.timezone)::date) as current
          ${from} join cycle_issues ci on ci.issue_id = i.id join cycles c on c.id = ci.cycle_id
          where ${where} and ${assigned} and c.archived_at is null and c.start_date is not null and c.end_date is not null
            and c.end_date >= (now() at time zone p.timezone)::date
          order by c.name`,
    );
    const days = await queryRows<DayRow>(
      db,
      sql`select to_char((i.completed_at at time zone ${access.workspace.timezone})::date, 'YYYY-MM-DD') as date,
                 count(*)::int as n
          ${from} where ${where} and ${assigned} and s."group" = 'completed' and i.completed_at is not null
            and i.completed_at >= now() - make_interval(days => ${COMPLETED_CHART_DAYS})
          group by 1 order by 1`,
    );

    const groupCounts = new Map<string, number>();
    const priorityCounts = new Map<string, number>();
    let assignedCount = 0;
    for (const row of byGroup) {
      const n = Number(row.n);
      assignedCount += n;
      if (row.grp) groupCounts.set(row.grp, (groupCounts.get(row.grp) ?? 0) + n);
      priorityCounts.set(row.priority, (priorityCounts.get(row.priority) ?? 0) + n);
    }
    const completed = groupCounts.get("completed") ?? 0;
    const closed = completed + (groupCounts.get("cancelled") ?? 0);
    const pick = (current: boolean) =>
      cycles
        .filter((c) => c.current === current)
        .map(({ cycle__name, cycle__id, cycle__project_id }) => ({ cycle__name, cycle__id, cycle__project_id }));
    return {
      state_distribution: STATE_GROUPS.filter((g) => groupCounts.has(g)).map((g) => ({
        state_group: g,
        state_count: groupCounts.get(g) ?? 0,
      })),
      priority_distribution: PRIORITIES.filter((p) => priorityCounts.has(p)).map((p) => ({
        priority: p,
        priority_count: priorityCounts.get(p) ?? 0,
      })),
      created_issues: Number(totals?.created ?? 0),
      assigned_issues: assignedCount,
      completed_issues: completed,
      pending_issues: assignedCount - closed,
      subscribed_issues: Number(totals?.subscribed ?? 0),
      overdue_issues: Number(totals?.overdue ?? 0),
      present_cycles: pick(true),
      upcoming_cycles: pick(false),
      completed_by_date: days.map((d) => ({ date: d.date, completed_count: Number(d.n) })),
    };
  });

  app.get<{ Params: ProfileParams }>(`${WS_PATH}/user-profile/:userId/`, async (request) => {
    const access = await profileAccess(db, request, request.params);
    const target = access.target.id;
    const caller = access.user.id;
    type ProjectRow = {
      id: string;
      name: string;
      identifier: string;
      logo_props: Record<string, unknown>;
      created_issues: number;
      assigned_issues: number;
      completed_issues: number;
      pending_issues: number;
    };
    const projects =
      access.membership.role >= ROLE.member
        ? await queryRows<ProjectRow>(
            db,
            sql`select p.id::text as id, p.name, p.identifier, p.logo_props,
                   count(i.id) filter (where i.created_by = ${target}::uuid)::int as created_issues,
                   count(i.id) filter (where a.assignee_id is not null)::int as assigned_issues,
                   count(i.id) filter (where a.assignee_id is not null and s."group" = 'completed')::int as completed_issues,
                   count(i.id) filter (where a.assignee_id is not null
                                       and s."group" in ('backlog', 'unstarted', 'started'))::int as pending_issues
                from projects p
                join project_members pm on pm.project_id = p.id and pm.member_id = ${caller}::uuid and pm.is_active
                left join issues i on i.project_id = p.id and i.archived_at is null and i.is_epic = false
                                   and ${itemVisibleTo("i", caller, { activeProjectsOnly: true })}
                left join states s on s.id = i.state_id
                left join issue_assignees a on a.issue_id = i.id and a.assignee_id = ${target}::uuid
                where p.workspace_id = ${access.workspace.id}::uuid and p.archived_at is null
                group by p.id order by lower(p.name), p.id`,
          )
        : [];
    const u = access.target;
    return {
      project_data: projects.map((p) => ({
        id: p.id,
        name: p.name,
        identifier: p.identifier,
        logo_props: p.logo_props,
        created_issues: Number(p.created_issues),
        assigned_issues: Number(p.assigned_issues),
        completed_issues: Number(p.completed_issues),
        pending_issues: Number(p.pending_issues),
      })),
      user_data: {
        id: u.id,
        email: u.email,
        first_name: u.firstName,
        last_name: u.lastName,
        display_name: u.displayName,
        avatar_url: u.avatarUrl,
        cover_image_url: u.coverImageUrl,
        date_joined: u.createdAt.toISOString(),
      },
    };
  });
}
