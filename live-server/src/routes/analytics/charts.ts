/**
 * The custom chart (advance-analytics-charts/?type=custom-work-items): the counted work items
 * grouped by one dimension (`x_axis`), optionally split by a second (`group_by`), measured as a
 * number of work items or a sum of estimate points — one GROUP BY in SQL, whatever the size.
 *
 * A work item with two labels counts under both (LABELS, ASSIGNEES and MODULES are many per
 * item; the reference counts the same way); within one bar it counts once.
 */
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import type { ChartDimension, ChartMetric } from "./schema.ts";
import { type AnalyticsScope, inPeriod, itemsCounted } from "./scope.ts";

/**
 * How a dimension is read, in two steps: `inner` is the grouping value on the work item (a column
 * of `i`, or of a link table `joins` adds — ids, never names), and `key` / `name` turn that value
 * into the answer's after grouping, through `outer` (a join to the named table). Grouping by ids
 * first and naming the few groups after costs about a third less than grouping joined names.
 */
type DimensionSql = {
  joins: SQL;
  inner: SQL;
  outer: SQL;
  key: SQL;
  name: SQL;
};

/** `a` is the alias prefix (x or g) so both axes can join the same table; `col` the grouped value. */
function dimension(d: ChartDimension, a: string): DimensionSql {
  const t = sql.raw(a);
  const link = sql.raw(`${a}_link`);
  const col = sql.raw(`agg.${a}k`);
  const none = sql``;
  const named = (table: string, name: SQL, joins: SQL, inner: SQL): DimensionSql => ({
    joins,
    inner,
    outer: sql`left join ${sql.raw(table)} ${t} on ${t}.id = ${col}`,
    key: sql`${col}::text`,
    name,
  });
  const plain = (inner: SQL): DimensionSql => ({ joins: none, inner, outer: none, key: col, name: col });
  switch (d) {
    case "STATES":
      return named("states", sql`${t}.name`, none, sql`i.state_id`);
    case "STATE_GROUPS":
      return {
        joins: none,
        inner: sql`i.state_id`,
        outer: sql`left join states ${t} on ${t}.id = ${col}`,
        key: sql`${t}."group"`,
        name: sql`${t}."group"`,
      };
    case "LABELS":
      return named(
        "labels",
        sql`${t}.name`,
        sql`left join issue_labels ${link} on ${link}.issue_id = i.id`,
        sql`${link}.label_id`,
      );
    case "ASSIGNEES":
      return named(
        "users",
        sql`${t}.display_name`,
        sql`left join issue_assignees ${link} on ${link}.issue_id = i.id`,
        sql`${link}.assignee_id`,
      );
    case "ESTIMATE_POINTS":
      // The point's value, not its key: keys of two projects' estimates mean different things.
      return {
        joins: none,
        inner: sql`i.estimate_point_id`,
        outer: sql`left join estimate_points ${t} on ${t}.id = ${col}`,
        key: sql`${t}.value`,
        name: sql`${t}.value`,
      };
    case "CYCLES":
      return named(
        "cycles",
        sql`${t}.name`,
        sql`left join cycle_issues ${link} on ${link}.issue_id = i.id`,
        sql`${link}.cycle_id`,
      );
    case "MODULES":
      return named(
        "modules",
        sql`${t}.name`,
        sql`left join module_issues ${link} on ${link}.issue_id = i.id`,
        sql`${link}.module_id`,
      );
    case "PRIORITY":
      return plain(sql`i.priority`);
    case "START_DATE":
      return plain(sql`i.start_date::text`);
    case "TARGET_DATE":
      return plain(sql`i.target_date::text`);
    case "CREATED_AT":
      return plain(sql`(i.created_at at time zone 'UTC')::date::text`);
    case "COMPLETED_AT":
      return plain(sql`(i.completed_at at time zone 'UTC')::date::text`);
    case "CREATED_BY":
      return named("users", sql`${t}.display_name`, none, sql`i.created_by`);
  }
}

/** A numeric estimate point's value (points estimates); a category or a time label counts 0. */
export const estimateValue = (column: SQL) =>
  sql`case when ${column} ~ '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$' then trim(${column})::float8 else 0 end`;

export type ChartCell = {
  key: string | null;
  name: string | null;
  groupKey: string | null;
  groupName: string | null;
  value: number;
};

/** One row per (x, group) pair with its measure. */
export async function chartCells(
  db: DbOrTx,
  scope: AnalyticsScope,
  x: ChartDimension,
  group: ChartDimension | null,
  metric: ChartMetric,
): Promise<ChartCell[]> {
  if (scope.projects.length === 0) return [];
  const xs = dimension(x, "x");
  const gs = group ? dimension(group, "g") : null;
  const measure =
    metric === "ESTIMATE_POINT_COUNT"
      ? sql`coalesce(sum(${estimateValue(sql`ev.value`)}), 0)::float8`
      : // Each joined row is one (item, value) pair — the link tables' keys are (item, value) — so
        // count(*) counts items per bar without the sort a count(distinct) costs.
        sql`count(*)::float8`;
  const estimateJoin =
    metric === "ESTIMATE_POINT_COUNT" ? sql`left join estimate_points ev on ev.id = i.estimate_point_id` : sql``;
  return queryRows<ChartCell>(
    db,
    sql`with agg as (
        select ${xs.inner} as xk, ${gs ? gs.inner : sql`null::text`} as gk, ${measure} as v
        from issues i ${xs.joins} ${gs ? gs.joins : sql``} ${estimateJoin}
        where ${itemsCounted(scope)} and ${inPeriod(scope, sql`i.created_at`)}
        group by 1, 2)
      select ${xs.key} as "key", ${xs.name} as "name",
        ${gs ? gs.key : sql`null::text`} as "groupKey", ${gs ? gs.name : sql`null::text`} as "groupName",
        sum(agg.v)::float8 as "value"
      from agg ${xs.outer} ${gs ? gs.outer : sql``}
      group by 1, 2, 3, 4`,
  );
}

const PRIORITY_ORDER = ["urgent", "high", "medium", "low", "none"];
const GROUP_ORDER = ["backlog", "unstarted", "started", "completed", "cancelled"];
const DATE_DIMENSIONS: ChartDimension[] = ["START_DATE", "TARGET_DATE", "CREATED_AT", "COMPLETED_AT"];

/** The order of bars on an axis: the product's own for priorities and state groups, dates in time, else the biggest first. */
export function orderBars<T extends { key: string; name: string; count: number }>(rows: T[], x: ChartDimension): T[] {
  const rank = (order: string[]) => (key: string) => {
    const i = order.indexOf(key);
    return i === -1 ? order.length : i;
  };
  const noneLast = (a: T, b: T) =>
    Number(a.key === "None" || a.key === "none") - Number(b.key === "None" || b.key === "none");
  if (x === "PRIORITY" || x === "STATE_GROUPS") {
    const r = rank(x === "PRIORITY" ? PRIORITY_ORDER : GROUP_ORDER);
    return [...rows].sort((a, b) => r(a.key) - r(b.key));
  }
  if (DATE_DIMENSIONS.includes(x)) return [...rows].sort((a, b) => noneLast(a, b) || a.key.localeCompare(b.key));
  return [...rows].sort((a, b) => noneLast(a, b) || b.count - a.count || a.name.localeCompare(b.name));
}

type SimpleBar = { key: string; name: string; count: number };
type GroupedBar = SimpleBar & Record<string, number | string>;

/** The reference's IChartResponse: `data` (one object per bar, a count per group key) and `schema` (group key → name). */
export function presentChart(
  cells: ChartCell[],
  x: ChartDimension,
  group: ChartDimension | null,
): { data: (SimpleBar | GroupedBar)[]; schema: Record<string, string> } {
  if (!group) {
    const bars = cells.map((c) => ({ key: c.key ?? "None", name: c.name ?? "None", count: round(c.value) }));
    return { data: orderBars(bars, x), schema: {} };
  }
  const bars = new Map<string, GroupedBar>();
  const schema: Record<string, string> = {};
  for (const c of cells) {
    const key = c.key ?? "none";
    let bar = bars.get(key);
    if (!bar) {
      bar = { key, name: c.name ?? "None", count: 0 };
      bars.set(key, bar);
    }
    const groupKey = c.groupKey ?? "none";
    schema[groupKey] = c.groupName ?? "None";
    bar[groupKey] = round(Number(bar[groupKey] ?? 0) + c.value);
    bar.count = round(bar.count + c.value);
  }
  return { data: orderBars([...bars.values()], x), schema };
}

const round = (n: number) => Math.round(n * 100) / 100;
