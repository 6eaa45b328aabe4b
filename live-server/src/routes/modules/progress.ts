/**
 * Module progress (the reference's IModule counters and module detail): work items counted by
 * state group and their estimate points, `distribution` / `estimate_distribution` (assignees,
 * labels, completion_chart). Counted items are the module's visible work items: not deleted,
 * not archived, not drafts (the reference's issue_objects). Estimate points are summed only
 * when the point's estimate is of type "points" and its value is a number.
 *
 * The completion chart is computed from the work-item history, not from a snapshot: for each
 * day from start to target date, the items in the module at the end of that day (from the
 * "modules" history rows this module's add/remove write) that were not in a completed or
 * cancelled state group at the end of that day (from the "state" rows). Days after today are
 * null. The day-by-day reconstruction is the cycles' burndown (shared/src/logic/cycles.ts);
 * this file only reads the module's history into it. Each distribution also carries `progress`,
 * the chart's points per day (scope, pending, ideal …, the cycles' TCycleProgress), so the chart
 * draws scope changes as scope.
 *
 * A restricted guest (cycles/guest-scope.ts) reads every number over the items they created.
 */
import {
  type BurndownItem,
  type BurndownPoint,
  calendarDate,
  completionChart,
  computeBurndown,
  EMPTY_PROGRESS_COUNTERS,
  type ProgressCounters,
  type StateGroup,
} from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import type { OwnItemsOf } from "../cycles/guest-scope.ts";
import type { ModuleRow } from "./presenter.ts";

export type ModuleCounters = ProgressCounters;
export const ZERO_COUNTERS: ProgressCounters = EMPTY_PROGRESS_COUNTERS;

const GROUPS = ["backlog", "unstarted", "started", "completed", "cancelled"] as const;

/** The item's estimate as a number (points estimates only), else null. Aliases: `i`. */
const pointValue = sql`(select case when e.type = 'points' and ep.value ~ '^-?[0-9]+(\\.[0-9]+)?$'
                                    then ep.value::float8 end
                        from estimate_points ep join estimates e on e.id = ep.estimate_id
                        where ep.id = i.estimate_point_id)`;

/** Joins of a module's counted items: `mi` module_issues, `i` issues, `s` states. */
const countedItems = sql`module_issues mi
  join issues i on i.id = mi.issue_id and i.deleted_at is null and i.archived_at is null and i.is_draft = false and i.in_intake = false
  left join states s on s.id = i.state_id`;

/** Only the reader's own items (alias i) when they are a restricted guest. */
const ownOnly = (owner: OwnItemsOf) => (owner ? sql`and i.created_by = ${owner}::uuid` : sql``);

const uuidList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Counters of each module in `moduleIds` (one query); modules without items get zeros.
 * `restricted`: modules whose counters count only the items that user created.
 */
export async function loadCounters(
  db: DbOrTx,
  moduleIds: readonly string[],
  restricted?: { userId: string; moduleIds: readonly string[] },
): Promise<Map<string, ModuleCounters>> {
  const out = new Map<string, ModuleCounters>(moduleIds.map((id) => [id, { ...ZERO_COUNTERS }]));
  if (!moduleIds.length) return out;
  const own = restricted?.moduleIds.length
    ? sql`and (mi.module_id not in (${uuidList(restricted.moduleIds)}) or i.created_by = ${restricted.userId}::uuid)`
    : sql``;
  const groupColumns = GROUPS.map(
    (g) => sql`, count(*) filter (where s."group" = ${g})::int as ${sql.raw(`${g}_issues`)},
                coalesce(sum(p.v) filter (where s."group" = ${g}), 0)::float8 as ${sql.raw(`${g}_estimate_points`)}`,
  );
  const rows = await queryRows<Record<string, string | number>>(
    db,
    sql`select mi.module_id::text as module_id, count(*)::int as total_issues,
               coalesce(sum(p.v), 0)::float8 as total_estimate_points ${sql.join(groupColumns, sql``)}
        from ${countedItems} cross join lateral (select ${pointValue} as v) p
        where mi.module_id in (${uuidList(moduleIds)}) ${own}
        group by mi.module_id`,
  );
  for (const row of rows) {
    const counters = { ...ZERO_COUNTERS };
    for (const key of Object.keys(counters) as (keyof ModuleCounters)[]) {
      counters[key] = key.endsWith("_points") ? round2(Number(row[key] ?? 0)) : Number(row[key] ?? 0);
    }
    out.set(String(row.module_id), counters);
  }
  return out;
}

type DistributionRow = {
  key: string | null;
  total_issues: number;
  completed_issues: number;
  pending_issues: number;
  total_estimates: number | null;
  completed_estimates: number | null;
  pending_estimates: number | null;
  a: string | null;
  b: string | null;
  c: string | null;
  d: string | null;
};

/** Per assignee (or label) of the module's items: counts and estimate sums (completed = completed_at set). */
async function distributionRows(db: DbOrTx, moduleId: string, by: "assignees" | "labels", owner: OwnItemsOf) {
  const join =
    by === "assignees"
      ? sql`left join issue_assignees x on x.issue_id = i.id left join users u on u.id = x.assignee_id`
      : sql`left join issue_labels x on x.issue_id = i.id left join labels l on l.id = x.label_id`;
  const key = by === "assignees" ? sql`x.assignee_id` : sql`x.label_id`;
  const cols =
    by === "assignees"
      ? sql`u.display_name as a, u.first_name as b, u.last_name as c, u.avatar_url as d`
      : sql`l.name as a, l.color as b, null as c, null as d`;
  const order = by === "assignees" ? sql`lower(u.first_name), lower(u.last_name)` : sql`lower(l.name)`;
  return queryRows<DistributionRow>(
    db,
    sql`select ${key}::text as key, ${cols},
               count(*)::int as total_issues,
               count(*) filter (where i.completed_at is not null)::int as completed_issues,
               count(*) filter (where i.completed_at is null)::int as pending_issues,
               sum(p.v)::float8 as total_estimates,
               sum(p.v) filter (where i.completed_at is not null)::float8 as completed_estimates,
               sum(p.v) filter (where i.completed_at is null)::float8 as pending_estimates
        from ${countedItems} ${join} cross join lateral (select ${pointValue} as v) p
        where mi.module_id = ${moduleId}::uuid ${ownOnly(owner)}
        group by ${key}, a, b, c, d
        order by ${order} nulls last`,
  );
}

/** Whether the project's active estimate counts points (estimate_distribution is filled only then). */
async function projectUsesPoints(db: DbOrTx, projectId: string): Promise<boolean> {
  const rows = await queryRows<{ ok: boolean }>(
    db,
    sql`select exists(select 1 from projects p join estimates e on e.id = p.estimate_id
                      where p.id = ${projectId}::uuid and e.type = 'points') as ok`,
  );
  return Boolean(rows[0]?.ok);
}

// ───────────────────────────── completion chart ─────────────────────────────

/** One history change of an item, on the project's calendar day it happened. */
export type ModuleHistoryEvent =
  | { day: string; kind: "state"; from: StateGroup | null; to: StateGroup | null }
  | { day: string; kind: "member"; from: boolean; to: boolean };

export type ChartItem = {
  /** Its state group now, and whether it is in the module now. */
  group: StateGroup | null;
  inModule: boolean;
  points: number;
  /** Oldest first. */
  history: ModuleHistoryEvent[];
};

/**
 * The module's burndown per day from `start` to `end` (scope, pending, ideal …): pending = in
 * the module at the end of the day and not completed or cancelled then; days after `today` are
 * null. The cycles' burndown does the reconstruction (shared/src/logic/cycles.ts
 * `computeBurndown`, baseline and scope included): a module's membership is read as the cycle
 * membership there.
 */
export function moduleBurndown(
  items: readonly ChartItem[],
  start: string,
  end: string,
  today: string,
  unit: "issues" | "points",
): BurndownPoint[] {
  const asCycleItems: BurndownItem[] = items.map((item, i) => ({
    id: String(i),
    group: item.group,
    inCycle: item.inModule,
    points: item.points,
    history: item.history.map((e) => (e.kind === "member" ? { ...e, kind: "cycle" as const } : e)),
  }));
  return computeBurndown({ start_date: start, end_date: end, today, items: asCycleItems, unit });
}

/** Pending work per day (the reference's completion_chart) of moduleBurndown. */
export function moduleCompletionChart(
  items: readonly ChartItem[],
  start: string,
  end: string,
  today: string,
  unit: "issues" | "points",
): Record<string, number | null> {
  return completionChart(moduleBurndown(items, start, end, today, unit));
}

/** The chart's items from the database: every counted item that is or was in the module, with its history. */
async function loadChartItems(
  db: DbOrTx,
  module: ModuleRow,
  timezone: string,
  owner: OwnItemsOf,
): Promise<ChartItem[]> {
  const moduleId = module.id;
  const itemRows = await queryRows<{
    id: string;
    group: StateGroup | null;
    points: number | null;
    in_module: boolean;
    added_day: string | null;
  }>(
    db,
    sql`select i.id::text as id, s."group" as "group", ${pointValue} as points,
               (mi.issue_id is not null) as in_module,
               to_char(mi.created_at at time zone ${timezone}, 'YYYY-MM-DD') as added_day
        from issues i left join states s on s.id = i.state_id
        left join module_issues mi on mi.issue_id = i.id and mi.module_id = ${moduleId}::uuid
        where i.project_id = ${module.projectId}::uuid and i.deleted_at is null and i.archived_at is null
          and i.is_draft = false and i.in_intake = false ${ownOnly(owner)}
          and (mi.issue_id is not null or exists (
            select 1 from issue_activities a where a.issue_id = i.id and a.field = 'modules'
              and (a.old_identifier = ${moduleId}::uuid or a.new_identifier = ${moduleId}::uuid)))`,
  );
  if (!itemRows.length) return [];
  const ids: SQL[] = itemRows.map((r) => sql`${r.id}::uuid`);
  const history = await queryRows<{
    issue_id: string;
    field: string;
    old_identifier: string | null;
    new_identifier: string | null;
    old_group: StateGroup | null;
    new_group: StateGroup | null;
    day: string;
  }>(
    db,
    sql`select a.issue_id::text as issue_id, a.field, a.old_identifier::text as old_identifier,
               a.new_identifier::text as new_identifier, os."group" as old_group, ns."group" as new_group,
               to_char(a.created_at at time zone ${timezone}, 'YYYY-MM-DD') as day
        from issue_activities a
        left join states os on a.field = 'state' and os.id = a.old_identifier
        left join states ns on a.field = 'state' and ns.id = a.new_identifier
        where a.issue_id in (${sql.join(ids, sql`, `)})
          and (a.field = 'state' or (a.field = 'modules'
               and (a.old_identifier = ${moduleId}::uuid or a.new_identifier = ${moduleId}::uuid)))
        order by a.created_at, a.id`,
  );
  const byItem = new Map<string, ModuleHistoryEvent[]>();
  for (const h of history) {
    const list = byItem.get(h.issue_id) ?? [];
    if (h.field === "state") list.push({ day: h.day, kind: "state", from: h.old_group, to: h.new_group });
    else
      list.push({ day: h.day, kind: "member", from: h.old_identifier === moduleId, to: h.new_identifier === moduleId });
    byItem.set(h.issue_id, list);
  }
  return itemRows.map((r) => {
    const events = byItem.get(r.id) ?? [];
    // A membership without history (a draft's modules, stored before it was published) starts the day it was stored.
    if (r.in_module && r.added_day && !events.some((e) => e.kind === "member")) {
      events.unshift({ day: r.added_day, kind: "member", from: false, to: true });
    }
    return { group: r.group, inModule: r.in_module, points: Number(r.points ?? 0), history: events };
  });
}

const presentAssignee = (r: DistributionRow) => ({
  assignee_id: r.key,
  display_name: r.a,
  first_name: r.b,
  last_name: r.c,
  avatar: r.d,
  avatar_url: r.d,
});
const presentLabel = (r: DistributionRow) => ({ label_id: r.key, label_name: r.a, color: r.b });
const issueCounts = (r: DistributionRow) => ({
  total_issues: r.total_issues,
  completed_issues: r.completed_issues,
  pending_issues: r.pending_issues,
});
const estimateSums = (r: DistributionRow) => ({
  total_estimates: round2(Number(r.total_estimates ?? 0)),
  completed_estimates: round2(Number(r.completed_estimates ?? 0)),
  pending_estimates: round2(Number(r.pending_estimates ?? 0)),
});

/**
 * The module detail's `distribution` and `estimate_distribution` (the latter only for a points
 * estimate), each with its completion chart and per-day `progress`. `owner`: over that
 * restricted guest's own items only.
 */
export async function loadDistribution(db: DbOrTx, module: ModuleRow, timezone: string, owner: OwnItemsOf = null) {
  const assignees = await distributionRows(db, module.id, "assignees", owner);
  const labels = await distributionRows(db, module.id, "labels", owner);
  const usesPoints = await projectUsesPoints(db, module.projectId);
  const dated = module.startDate && module.targetDate && module.startDate <= module.targetDate;
  const today = calendarDate(new Date(), timezone);
  const items = dated ? await loadChartItems(db, module, timezone, owner) : [];
  const chart = (unit: "issues" | "points") => {
    const progress =
      dated && module.startDate && module.targetDate
        ? moduleBurndown(items, module.startDate, module.targetDate, today, unit)
        : [];
    return { completion_chart: dated ? completionChart(progress) : {}, progress };
  };
  const distribution = {
    assignees: assignees.map((r) => ({ ...presentAssignee(r), ...issueCounts(r) })),
    labels: labels.map((r) => ({ ...presentLabel(r), ...issueCounts(r) })),
    ...chart("issues"),
  };
  const estimateDistribution = usesPoints
    ? {
        assignees: assignees.map((r) => ({ ...presentAssignee(r), ...estimateSums(r) })),
        labels: labels.map((r) => ({ ...presentLabel(r), ...estimateSums(r) })),
        ...chart("points"),
      }
    : {};
  return { distribution, estimate_distribution: estimateDistribution };
}
