/**
 * Analytics API (product-domain §2 "Analytics tabs: scope_and_demand, custom", segments and
 * metrics issue_count / estimate; the reference web client's analytics.service.ts):
 * - GET /api/workspaces/:slug/advance-analytics/?tab=overview|work-items — totals, each {count};
 * - GET …/advance-analytics-stats/?type=work-items — each project's work items by state group;
 * - GET …/advance-analytics-charts/?type=projects|work-items|custom-work-items — the counts of
 *   things, created vs resolved per month, or the custom chart (`x_axis`, `group_by`, `y_axis`
 *   WORK_ITEM_COUNT | ESTIMATE_POINT_COUNT);
 * - the same three under /projects/:projectId/ (the project's analytics modal; `cycle_id` /
 *   `module_id` narrow to a cycle's or a module's work items, stats are per assignee, created vs
 *   resolved per day over the cycle's or module's dates).
 * Filters on all: `project_ids` (comma-separated), `date_filter` (yesterday, last_7_days,
 * last_30_days, last_3_months, custom with start_date/end_date) — by creation time.
 * Who: workspace admins and members (product-domain §6: no analytics for guests — 403); at
 * project level a project member or admin; counted are only the projects the caller is in.
 */
import { ROLE } from "@tideline/shared";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { queryRows } from "../../db/client.ts";
import { notFound, parse } from "../../http/errors.ts";
import { projectAccess, requireRole, workspaceAccess } from "../../policies/access.ts";
import { chartCells, presentChart } from "./charts.ts";
import { type AnalyticsFilters, advanceAnalyticsQuery, advanceChartsQuery, advanceStatsQuery } from "./schema.ts";
import { type AnalyticsScope, analyticsScope } from "./scope.ts";
import {
  createdVsResolved,
  overviewTotals,
  statsByAssignee,
  statsByProject,
  thingCounts,
  workItemTotals,
} from "./service.ts";

type SlugParams = { slug: string };
type ProjectParams = SlugParams & { projectId: string };
type Query = Record<string, unknown>;

const WS = "/api/workspaces/:slug";
const PROJECT = `${WS}/projects/:projectId`;

export async function analyticsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  /** Access, then the scope of the call: the whole workspace, or one project (and a cycle or module of it). */
  async function scopeOf(
    request: FastifyRequest<{ Params: SlugParams | ProjectParams }>,
    filters: AnalyticsFilters,
  ): Promise<AnalyticsScope> {
    const params = request.params as ProjectParams;
    if (!params.projectId) {
      const access = await workspaceAccess(db, request, params.slug, ROLE.member);
      return analyticsScope(db, access.workspace.id, access.user.id, filters);
    }
    const access = await projectAccess(db, request, params.slug, params.projectId, { minRole: ROLE.member });
    requireRole(access.membership.role, ROLE.member);
    await requireOwnCycleOrModule(access.project.id, filters);
    return analyticsScope(db, access.workspace.id, access.user.id, filters, access.project.id);
  }

  /** A cycle_id or module_id of another project (or none) is a 404, never an empty answer. */
  async function requireOwnCycleOrModule(projectId: string, filters: AnalyticsFilters): Promise<void> {
    if (filters.cycle_id) {
      const [row] = await queryRows(
        db,
        sql`select 1 from cycles where id = ${filters.cycle_id}::uuid and project_id = ${projectId}::uuid`,
      );
      if (!row) throw notFound("Cycle");
    }
    if (filters.module_id) {
      const [row] = await queryRows(
        db,
        sql`select 1 from modules where id = ${filters.module_id}::uuid and project_id = ${projectId}::uuid`,
      );
      if (!row) throw notFound("Module");
    }
  }

  /** The day-by-day span of a cycle or module (its dates), for created vs resolved; else months. */
  async function spanOf(scope: AnalyticsScope) {
    const table = scope.cycleId ? sql`cycles` : scope.moduleId ? sql`modules` : null;
    if (!table) return null;
    const end = scope.cycleId ? sql`end_date` : sql`target_date`;
    const [row] = await queryRows<{ from: string | null; to: string | null }>(
      db,
      sql`select to_char(start_date, 'YYYY-MM-DD') as "from", to_char(${end}, 'YYYY-MM-DD') as "to"
        from ${table} where id = ${scope.cycleId ?? scope.moduleId}::uuid`,
    );
    return row?.from && row.to ? { from: row.from, to: row.to, unit: "day" as const } : "undated";
  }

  for (const base of [WS, PROJECT]) {
    app.get<{ Params: ProjectParams; Querystring: Query }>(`${base}/advance-analytics/`, async (request) => {
      const query = parse(advanceAnalyticsQuery, request.query ?? {});
      const scope = await scopeOf(request, query);
      if (query.tab === "work-items" || request.params.projectId) return workItemTotals(db, scope);
      return overviewTotals(db, scope, query.project_ids !== null);
    });

    app.get<{ Params: ProjectParams; Querystring: Query }>(`${base}/advance-analytics-stats/`, async (request) => {
      const query = parse(advanceStatsQuery, request.query ?? {});
      const scope = await scopeOf(request, query);
      return request.params.projectId ? statsByAssignee(db, scope) : statsByProject(db, scope);
    });

    app.get<{ Params: ProjectParams; Querystring: Query }>(`${base}/advance-analytics-charts/`, async (request) => {
      const query = parse(advanceChartsQuery, request.query ?? {});
      const scope = await scopeOf(request, query);
      if (query.type === "custom-work-items") {
        const cells = await chartCells(db, scope, query.x_axis, query.group_by, query.y_axis);
        return presentChart(cells, query.x_axis, query.group_by);
      }
      if (query.type === "work-items") {
        const span = await spanOf(scope);
        // A cycle or module without dates has no days to chart (the reference answers the same).
        if (span === "undated") return { data: [], schema: {} };
        return createdVsResolved(db, scope, span);
      }
      return thingCounts(db, scope);
    });
  }
}
