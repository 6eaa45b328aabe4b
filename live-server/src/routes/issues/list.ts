/**
 * The work-item list: filtered, grouped (and sub-grouped), ordered and paged in SQL.
 *
 * One statement computes the page: the filtered rows joined to their group keys (a label or
 * assignee grouping joins the many-to-many table, so an item appears in each of its groups),
 * numbered per (group, sub-group) with row_number() in the requested order, cut to the page
 * per group, plus the totals per group and sub-group and the known group values (so empty
 * columns exist). A second query presents the page's items in one batch (query.ts).
 *
 * Paging (calls-errors-sync §9): cursor "perPage:pageIndex:0"; each group (or sub-group cell)
 * shows items pageIndex*perPage+1 … (pageIndex+1)*perPage.
 */
import {
  type GroupByKey,
  ISSUE_PAGE_SIZE,
  ISSUE_PAGE_SIZE_MAX,
  MANY_TO_MANY_GROUP_BY,
  NONE_GROUP,
  type OrderByKey,
  PRIORITIES,
  STATE_GROUPS,
} from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import { asBulkRead } from "../../db/priority.ts";
import { badRequest } from "../../http/errors.ts";
import { type ListCache, listCacheKey } from "./list-cache.ts";
import { loadIssues, type PresentedIssue } from "./query.ts";

export type Cursor = { perPage: number; pageIndex: number };

/** "50:2:0" → 50 per page, page 2. `perPage` (the per_page parameter) overrides the cursor's size. */
export function parseCursor(raw: unknown, perPageParam: unknown): Cursor {
  let perPage = ISSUE_PAGE_SIZE;
  let pageIndex = 0;
  let cursorPerPage: number | null = null;
  if (raw !== undefined && raw !== null && raw !== "") {
    const m = /^(\d{1,4}):(\d{1,7}):(\d)$/.exec(String(raw));
    if (!m)
      throw badRequest("Invalid cursor: expected perPage:pageIndex:0", { cursor: ["Expected perPage:pageIndex:0"] });
    cursorPerPage = Number(m[1]);
    pageIndex = Number(m[2]);
  }
  if (perPageParam !== undefined && perPageParam !== null && perPageParam !== "") {
    const n = Number(perPageParam);
    if (!Number.isInteger(n) || n < 1)
      throw badRequest("per_page must be a positive whole number", { per_page: ["Invalid"] });
    perPage = n;
  } else if (cursorPerPage) perPage = cursorPerPage;
  perPage = Math.min(Math.max(perPage, 1), ISSUE_PAGE_SIZE_MAX);
  return { perPage, pageIndex };
}

/** The SQL group key of an item for a grouping, and the join it needs (alias `alias`). */
function groupKey(key: GroupByKey | null, alias: string): { expr: SQL; join: SQL } {
  const none = sql`${NONE_GROUP}`;
  const a = sql.raw(alias);
  switch (key) {
    case null:
      return { expr: sql`'all'`, join: sql`` };
    case "state_id":
      return { expr: sql`coalesce(i.state_id::text, ${none})`, join: sql`` };
    case "state__group":
      return { expr: sql`coalesce(s."group", ${none})`, join: sql`` };
    case "priority":
      return { expr: sql`i.priority`, join: sql`` };
    case "created_by":
      return { expr: sql`coalesce(i.created_by::text, ${none})`, join: sql`` };
    case "project_id":
      return { expr: sql`i.project_id::text`, join: sql`` };
    case "target_date":
    case "start_date": {
      const c = sql.raw(`i.${key}`);
      return { expr: sql`coalesce(to_char(${c}, 'YYYY-MM-DD'), ${none})`, join: sql`` };
    }
    case "estimate_point":
      return { expr: sql`coalesce(i.estimate_point_id::text, ${none})`, join: sql`` };
    case "labels__id":
      return {
        expr: sql`coalesce(${a}.label_id::text, ${none})`,
        join: sql`left join issue_labels ${a} on ${a}.issue_id = i.id`,
      };
    case "assignees__id":
      return {
        expr: sql`coalesce(${a}.assignee_id::text, ${none})`,
        join: sql`left join issue_assignees ${a} on ${a}.issue_id = i.id`,
      };
    case "cycle_id":
      return {
        expr: sql`coalesce(${a}.cycle_id::text, ${none})`,
        join: sql`left join cycle_issues ${a} on ${a}.issue_id = i.id`,
      };
    case "module_id":
      // An item in two modules is in both groups (as with labels); archived modules don't group.
      return {
        expr: sql`coalesce(${a}.module_id::text, ${none})`,
        join: sql`left join (select mi.issue_id, mi.module_id from module_issues mi
                             join modules m on m.id = mi.module_id and m.archived_at is null) ${a}
                  on ${a}.issue_id = i.id`,
      };
  }
}

const priorityRank = sql`array_position(array[${sql.join(
  PRIORITIES.map((p) => sql`${p}`),
  sql`, `,
)}]::text[], i.priority)`;
const groupRank = sql`array_position(array[${sql.join(
  STATE_GROUPS.map((g) => sql`${g}`),
  sql`, `,
)}]::text[], s."group")`;

/**
 * ORDER BY terms for an ordering, and the join that supplies an aggregated sort key (label or
 * assignee names, counts) — joined once per item rather than a subquery per row. Items without
 * the value go last in both directions; ties fall back to sequence_id, then id, so pages never
 * overlap. `projectId` narrows the aggregates to the project when the list is one project's.
 */
export function orderTerms(orderBy: OrderByKey, projectId?: string): { order: SQL; join: SQL } {
  const desc = orderBy.startsWith("-");
  const key = (desc ? orderBy.slice(1) : orderBy) as string;
  const dir = sql.raw(desc ? "desc" : "asc");
  const tail = sql`i.sequence_id ${dir}, i.id`;
  const by = (expr: SQL, join: SQL = sql``) => ({ order: sql`${expr} ${dir} nulls last, ${tail}`, join });
  const inProject = (alias: string) => (projectId ? sql`${sql.raw(alias)}.project_id = ${projectId}::uuid` : sql`true`);
  /** A per-item aggregate joined as `ok.k`; items without rows get null (or 0 for counts). */
  const aggregate = (select: SQL, isCount = false) =>
    by(isCount ? sql`coalesce(ok.k, 0)` : sql`ok.k`, sql`left join (${select}) ok on ok.issue_id = i.id`);
  const agg = sql.raw(desc ? "max" : "min");
  switch (key) {
    case "sort_order":
    case "created_at":
    case "updated_at":
    case "start_date":
    case "target_date":
      return by(sql.raw(`i.${key}`));
    case "sequence_id":
      return { order: sql`i.sequence_id ${dir}, i.id`, join: sql`` };
    case "name":
      return by(sql`lower(i.name)`);
    case "priority":
      return by(priorityRank);
    case "state__name":
      return by(sql`lower(s.name)`);
    case "state__group":
      return by(groupRank);
    case "labels__name":
      return aggregate(
        sql`select il.issue_id, ${agg}(lower(l.name)) as k from issue_labels il join labels l on l.id = il.label_id
            where ${inProject("il")} group by il.issue_id`,
      );
    case "assignees__first_name":
      return aggregate(
        sql`select ia.issue_id, ${agg}(lower(u.first_name)) as k from issue_assignees ia join users u on u.id = ia.assignee_id
            where ${inProject("ia")} group by ia.issue_id`,
      );
    case "estimate_point__key":
      return by(sql`ep.key`, sql`left join estimate_points ep on ep.id = i.estimate_point_id`);
    case "link_count":
      return aggregate(
        sql`select k.issue_id, count(*) as k from issue_links k where ${inProject("k")} group by k.issue_id`,
        true,
      );
    case "attachment_count":
      return aggregate(
        sql`select f.entity_identifier as issue_id, count(*) as k from file_assets f
            where f.entity_type = 'ISSUE_ATTACHMENT' and f.is_uploaded and f.deleted_at is null and ${inProject("f")}
            group by f.entity_identifier`,
        true,
      );
    case "sub_issues_count":
      return aggregate(
        sql`select c.parent_id as issue_id, count(*) as k from issues c
            where c.parent_id is not null and c.deleted_at is null and c.is_draft = false and c.in_intake = false and ${inProject("c")}
            group by c.parent_id`,
        true,
      );
    case "issue_cycle__cycle__name":
      // The item's cycle (one at most); an archived cycle's name is not on the board's list of
      // cycles, so its items order as without a cycle here too (the client pipeline matches).
      return by(
        sql`oc.k`,
        sql`left join (select ci.issue_id, lower(c.name) as k from cycle_issues ci
                       join cycles c on c.id = ci.cycle_id and c.archived_at is null
                       where ${inProject("ci")}) oc on oc.issue_id = i.id`,
      );
    case "issue_module__module__name":
      // The first of the item's modules by name (the last when descending, as for labels);
      // archived modules are not among an item's module_ids.
      return aggregate(
        sql`select mi.issue_id, ${agg}(lower(m.name)) as k from module_issues mi
            join modules m on m.id = mi.module_id and m.archived_at is null
            where ${inProject("mi")} group by mi.issue_id`,
      );
    default:
      return { order: sql`i.sort_order, ${tail}`, join: sql`` };
  }
}

/**
 * Values a grouping always shows, in display order, even when empty: the project's states,
 * labels, members and estimate points, the priorities and state groups. Dates and creators
 * only show groups that have items.
 */
function knownValues(key: GroupByKey | null, projectId: string | null): { sql: SQL | null; fixed: string[] } {
  // Across projects (the workspace list) only the fixed values apply: states, labels, members …
  // belong to one project, so their groups show only when they hold items.
  if (projectId === null) return { sql: null, fixed: projectFreeValues(key) };
  switch (key) {
    case "state_id":
      return {
        sql: sql`select id::text as key, row_number() over (order by sequence, name, id) as n
                  from states where project_id = ${projectId}::uuid`,
        fixed: [],
      };
    case "labels__id":
      return {
        sql: sql`select id::text as key, row_number() over (order by sort_order, name, id) as n
                  from labels where project_id = ${projectId}::uuid`,
        fixed: [NONE_GROUP],
      };
    case "assignees__id":
      return {
        sql: sql`select pm.member_id::text as key, row_number() over (order by lower(u.display_name), u.id) as n
                  from project_members pm join users u on u.id = pm.member_id
                  where pm.project_id = ${projectId}::uuid and pm.is_active`,
        fixed: [NONE_GROUP],
      };
    case "estimate_point":
      return {
        sql: sql`select ep.id::text as key, row_number() over (order by ep.key, ep.id) as n
                  from estimate_points ep join projects p on p.estimate_id = ep.estimate_id
                  where p.id = ${projectId}::uuid and ep.project_id = ${projectId}::uuid`,
        fixed: [NONE_GROUP],
      };
    case "priority":
      return { sql: null, fixed: [...PRIORITIES] };
    case "state__group":
      return { sql: null, fixed: [...STATE_GROUPS] };
    case "cycle_id":
      // The project's cycles that are not archived, in name order (then None).
      return {
        sql: sql`select id::text as key, row_number() over (order by lower(name), id) as n
                  from cycles where project_id = ${projectId}::uuid and archived_at is null`,
        fixed: [NONE_GROUP],
      };
    case "module_id":
      // The project's modules that are not archived, in name order (then None).
      return {
        sql: sql`select id::text as key, row_number() over (order by lower(name), id) as n
                  from modules where project_id = ${projectId}::uuid and archived_at is null`,
        fixed: [NONE_GROUP],
      };
    case "target_date":
    case "start_date":
      return { sql: null, fixed: [NONE_GROUP] };
    default:
      return { sql: null, fixed: [] };
  }
}

/** The fixed group values of a grouping that names no project's rows. */
function projectFreeValues(key: GroupByKey | null): string[] {
  switch (key) {
    case "priority":
      return [...PRIORITIES];
    case "state__group":
      return [...STATE_GROUPS];
    case "labels__id":
    case "assignees__id":
    case "estimate_point":
    case "cycle_id":
    case "module_id":
    case "target_date":
    case "start_date":
      return [NONE_GROUP];
    default:
      return [];
  }
}

export type ListQuery = {
  /** The base conditions (project, archived/draft/deleted, guest rule, filters, scope, search). */
  where: SQL[];
  /** Project whose states/labels/members name the empty groups; null across projects (no empty groups but the fixed ones). */
  projectId: string | null;
  groupBy: GroupByKey | null;
  subGroupBy: GroupByKey | null;
  orderBy: OrderByKey;
  cursor: Cursor;
  includeDescription?: boolean;
  /**
   * The answer may be shared with everyone asking the same way (list-cache.ts), in this
   * workspace: only for a caller whose access was checked and a page that holds nothing of
   * theirs. Lists with descriptions are never shared (a description also changes through its
   * live document).
   */
  shared?: { cache: ListCache<ListResponse>; workspaceId: string };
};

type Cell = { results: PresentedIssue[]; total_results: number };
type GroupCell = { results: Record<string, Cell>; total_results: number };

export type ListResponse = {
  results: PresentedIssue[] | Record<string, Cell> | Record<string, GroupCell>;
  total_count: number;
  next_cursor: string;
  prev_cursor: string;
  next_page_results: boolean;
  prev_page_results: boolean;
  total_pages: number;
  count: number;
  grouped_by: GroupByKey | null;
  sub_grouped_by: GroupByKey | null;
};

type PageRow = { kind: string; id: string | null; g: string | null; sg: string | null; n: number };

/** Order group keys: known values first in their order, then the others sorted, None last. */
function orderKeys(found: Iterable<string>, known: string[]): string[] {
  const all = new Set([...known, ...found]);
  const knownSet = new Set(known);
  const rest = [...all].filter((k) => !knownSet.has(k) && k !== NONE_GROUP).sort();
  const head = known.filter((k) => k !== NONE_GROUP);
  return [...head, ...rest, ...(all.has(NONE_GROUP) ? [NONE_GROUP] : [])];
}

/**
 * One page of the list. A bulk read (db/priority.ts): on the embedded database a PATCH's short
 * statements run before it rather than behind every queued list.
 */
export function listIssuePage(db: DbOrTx, query: ListQuery): Promise<ListResponse> {
  const compute = () => asBulkRead(() => computeListPage(db, query));
  if (!query.shared || query.includeDescription) return compute();
  const { where, projectId, groupBy, subGroupBy, orderBy, cursor } = query;
  const key = listCacheKey(sql.join(where, sql` and `), { projectId, groupBy, subGroupBy, orderBy, cursor });
  return query.shared.cache.get(query.shared.workspaceId, key, compute);
}

async function computeListPage(db: DbOrTx, query: ListQuery): Promise<ListResponse> {
  const { perPage, pageIndex } = query.cursor;
  const offset = pageIndex * perPage;
  const g = groupKey(query.groupBy, "gj");
  const sg = groupKey(query.groupBy ? query.subGroupBy : null, "sj");
  const subGrouped = query.groupBy !== null && query.subGroupBy !== null;
  const order = orderTerms(query.orderBy, query.projectId ?? undefined);
  const where = query.where.length ? sql.join(query.where, sql` and `) : sql`true`;
  const knownG = knownValues(query.groupBy, query.projectId);
  const knownS = subGrouped ? knownValues(query.subGroupBy, query.projectId) : { sql: null, fixed: [] };

  // Only a label or assignee grouping repeats an item across rows; counting distinct ids costs a sort.
  const repeats = [query.groupBy, subGrouped ? query.subGroupBy : null].some(
    (key) => key !== null && MANY_TO_MANY_GROUP_BY.includes(key),
  );
  const countIds = repeats ? sql`count(distinct id)::int` : sql`count(*)::int`;
  const parts: SQL[] = [
    sql`select 'r' as kind, id::text as id, g, sg, rn::int as n from base where rn > ${offset} and rn <= ${offset + perPage}`,
    sql`select 'g', null, g, null, ${countIds} from base group by g`,
    sql`select 't', null, null, null, ${countIds} from base`,
  ];
  if (subGrouped) parts.push(sql`select 's', null, g, sg, count(*)::int from base group by g, sg`);
  if (knownG.sql) parts.push(sql`select 'vg', null, key, null, n::int from (${knownG.sql}) vg`);
  if (knownS.sql) parts.push(sql`select 'vs', null, key, null, n::int from (${knownS.sql}) vs`);

  const rows = await queryRows<PageRow>(
    db,
    sql`with base as (
          select i.id, ${g.expr} as g, ${sg.expr} as sg,
                 row_number() over (partition by ${g.expr}, ${sg.expr} order by ${order.order}) as rn
          from issues i left join states s on s.id = i.state_id ${g.join} ${sg.join} ${order.join}
          where ${where}
        )
        ${sql.join(
          parts.map((p) => sql`(${p})`),
          sql` union all `,
        )}`,
  );

  const pageRows: PageRow[] = [];
  const groupTotals = new Map<string, number>();
  const cellTotals = new Map<string, Map<string, number>>();
  const knownGroupValues: { key: string; n: number }[] = [];
  const knownSubValues: { key: string; n: number }[] = [];
  let totalCount = 0;
  for (const row of rows) {
    if (row.kind === "r") pageRows.push(row);
    else if (row.kind === "g") groupTotals.set(row.g ?? "", Number(row.n));
    else if (row.kind === "t") totalCount = Number(row.n);
    else if (row.kind === "s") {
      const cells = cellTotals.get(row.g ?? "") ?? new Map<string, number>();
      cells.set(row.sg ?? "", Number(row.n));
      cellTotals.set(row.g ?? "", cells);
    } else if (row.kind === "vg") knownGroupValues.push({ key: row.g ?? "", n: Number(row.n) });
    else if (row.kind === "vs") knownSubValues.push({ key: row.g ?? "", n: Number(row.n) });
  }
  // Row order inside a cell is the row number, whatever order the union returned.
  pageRows.sort((a, b) => a.n - b.n);
  const ids = [...new Set(pageRows.map((r) => r.id as string))];
  const presented = await loadIssues(db, { ids, includeDescription: query.includeDescription });
  const byId = new Map(presented.map((p) => [p.id, p]));

  const largestCell = subGrouped
    ? Math.max(0, ...[...cellTotals.values()].flatMap((m) => [...m.values()]))
    : Math.max(0, ...groupTotals.values());
  const pagination = {
    total_count: totalCount,
    next_cursor: `${perPage}:${pageIndex + 1}:0`,
    prev_cursor: `${perPage}:${Math.max(pageIndex - 1, 0)}:0`,
    next_page_results: largestCell > offset + perPage,
    prev_page_results: pageIndex > 0,
    total_pages: Math.ceil(largestCell / perPage),
    count: ids.length,
    grouped_by: query.groupBy,
    sub_grouped_by: subGrouped ? query.subGroupBy : null,
  };

  if (!query.groupBy) {
    return {
      ...pagination,
      results: pageRows.map((r) => byId.get(r.id as string)).filter((p): p is PresentedIssue => Boolean(p)),
    };
  }

  knownGroupValues.sort((a, b) => a.n - b.n);
  knownSubValues.sort((a, b) => a.n - b.n);
  const groupOrder = orderKeys(groupTotals.keys(), [...knownG.fixed, ...knownGroupValues.map((v) => v.key)]);
  const itemsOf = (gk: string, sk: string | null) =>
    pageRows
      .filter((r) => r.g === gk && (sk === null || r.sg === sk))
      .map((r) => byId.get(r.id as string))
      .filter((p): p is PresentedIssue => Boolean(p));

  if (!subGrouped) {
    const results: Record<string, Cell> = {};
    for (const key of groupOrder) {
      results[key] = { results: itemsOf(key, null), total_results: groupTotals.get(key) ?? 0 };
    }
    return { ...pagination, results };
  }

  const foundSub = new Set<string>();
  for (const cells of cellTotals.values()) for (const key of cells.keys()) foundSub.add(key);
  const subOrder = orderKeys(foundSub, [...knownS.fixed, ...knownSubValues.map((v) => v.key)]);
  const results: Record<string, GroupCell> = {};
  for (const key of groupOrder) {
    const cells = cellTotals.get(key);
    const inner: Record<string, Cell> = {};
    for (const sub of subOrder) inner[sub] = { results: itemsOf(key, sub), total_results: cells?.get(sub) ?? 0 };
    results[key] = { results: inner, total_results: groupTotals.get(key) ?? 0 };
  }
  return { ...pagination, results };
}
