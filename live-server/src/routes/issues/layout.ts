/**
 * The list's `layout` and `expand` parameters (calls-errors-sync §7 "Issue list query
 * parameters"), and the project list built from a request (`{type}/` and `{type}-detail/`).
 *
 * - `layout`: list, kanban, calendar, spreadsheet or gantt_chart (anything else is a 400).
 *   gantt_chart answers one flat list (group_by / sub_group_by are ignored: a timeline is not
 *   grouped); calendar groups by target_date (the calendar's days; the client narrows the range
 *   with the `target_date` filter, e.g. `2026-11-01;after,2026-12-05;before`); list and
 *   spreadsheet never sub-group (only kanban does, as display-filters.ts says); kanban as asked.
 * - `start_target_date=true` (the reference's parameter, sent for timelines): only items with
 *   both a start and a target date.
 * - `expand=issue_relation` (or `issue_related`): every item of the page carries
 *   `issue_relation` (the relations it owns) and `issue_related` (those pointing at it), each
 *   `{id, relation_type, issue_id, related_issue, created_at, created_by, issue_detail}` where
 *   `issue_detail` is the other item's `{id, name, sequence_id, project_id}`. Relations to items
 *   the caller cannot see (private projects they are not in, the guest rule) are left out.
 *   Other expansions are for one item (GET {type}/{id}/) and are ignored on lists.
 */
import { ISSUE_LAYOUTS, type IssueLayout } from "@tideline/shared";
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import { badRequest } from "../../http/errors.ts";
import type { ProjectAccess } from "../../policies/access.ts";
import { type ItemType, type ListOptions, readListQuery, singleQueryValue, visibleConditions } from "./common.ts";
import { type ListResponse, listIssuePage } from "./list.ts";
import type { PresentedIssue } from "./query.ts";
import { itemVisibleTo, uuidIn } from "./visibility.ts";

type Query = Record<string, unknown>;

export function readLayout(query: Query): IssueLayout | null {
  const raw = singleQueryValue(query.layout);
  if (raw === undefined || raw === "" || raw === "null") return null;
  if (!(ISSUE_LAYOUTS as readonly string[]).includes(raw)) {
    throw badRequest(`Unknown layout "${raw}"`, { layout: [`Use ${ISSUE_LAYOUTS.join(", ")}`] });
  }
  return raw as IssueLayout;
}

/** The list options after the layout's rules and `start_target_date` (see the module comment). */
export function applyLayout(options: ListOptions, query: Query): ListOptions {
  const layout = readLayout(query);
  const next: ListOptions = { ...options, conditions: [...options.conditions] };
  const both = singleQueryValue(query.start_target_date);
  if (both === "true") next.conditions.push(sql`i.start_date is not null and i.target_date is not null`);
  else if (both !== undefined && both !== "" && both !== "false") {
    throw badRequest("start_target_date must be true or false", { start_target_date: ["Expected true or false"] });
  }
  if (layout === "gantt_chart") {
    next.groupBy = null;
    next.subGroupBy = null;
  } else if (layout === "calendar") {
    next.groupBy = "target_date";
    next.subGroupBy = null;
  } else if (layout === "list" || layout === "spreadsheet") {
    next.subGroupBy = null;
  }
  return next;
}

/** True when `expand` asks for the items' relations. */
export function wantsRelations(query: Query): boolean {
  const raw = query.expand;
  const text = Array.isArray(raw) ? raw.join(",") : typeof raw === "string" ? raw : "";
  return text.split(",").some((part) => ["issue_relation", "issue_related"].includes(part.trim()));
}

export type ListedRelation = {
  id: string;
  relation_type: string;
  issue_id: string;
  related_issue: string;
  created_at: string;
  created_by: string | null;
  issue_detail: { id: string; name: string; sequence_id: number; project_id: string };
};
type WithRelations = PresentedIssue & { issue_relation?: ListedRelation[]; issue_related?: ListedRelation[] };

/** Every item of a page, whatever its grouping. */
function pageItems(results: ListResponse["results"]): PresentedIssue[] {
  if (Array.isArray(results)) return results;
  const out: PresentedIssue[] = [];
  for (const cell of Object.values(results)) {
    const inner = cell.results as PresentedIssue[] | Record<string, { results: PresentedIssue[] }>;
    if (Array.isArray(inner)) out.push(...inner);
    else for (const sub of Object.values(inner)) out.push(...sub.results);
  }
  return out;
}

type RelationRow = {
  id: string;
  relation_type: string;
  issue_id: string;
  related_issue_id: string;
  created_at: string;
  created_by: string | null;
  owned: boolean;
  other_id: string;
  other_name: string;
  other_sequence_id: number;
  other_project_id: string;
};

/** Give each item of the page its relations (one query for the page), as `expand` asks. */
export async function attachRelations(db: DbOrTx, page: ListResponse, userId: string): Promise<ListResponse> {
  const items = pageItems(page.results) as WithRelations[];
  const ids = [...new Set(items.map((i) => i.id))];
  const rows = ids.length
    ? await queryRows<RelationRow>(
        db,
        sql`select r.id::text as id, r.relation_type, r.issue_id::text as issue_id,
                   r.related_issue_id::text as related_issue_id,
                   to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
                   r.created_by::text as created_by, x.owned,
                   o.id::text as other_id, o.name as other_name, o.sequence_id as other_sequence_id,
                   o.project_id::text as other_project_id
            from (select r.id, true as owned, r.related_issue_id as other from issue_relations r
                  where ${uuidIn(sql`r.issue_id`, ids)}
                  union all
                  select r.id, false, r.issue_id from issue_relations r
                  where ${uuidIn(sql`r.related_issue_id`, ids)}) x
            join issue_relations r on r.id = x.id
            join issues o on o.id = x.other
            where ${itemVisibleTo("o", userId)}
            order by r.created_at, r.id`,
      )
    : [];
  const owned = new Map<string, ListedRelation[]>();
  const pointing = new Map<string, ListedRelation[]>();
  for (const row of rows) {
    const relation: ListedRelation = {
      id: row.id,
      relation_type: row.relation_type,
      issue_id: row.issue_id,
      related_issue: row.related_issue_id,
      created_at: row.created_at,
      created_by: row.created_by,
      issue_detail: {
        id: row.other_id,
        name: row.other_name,
        sequence_id: Number(row.other_sequence_id),
        project_id: row.other_project_id,
      },
    };
    const [map, key] = row.owned ? [owned, row.issue_id] : [pointing, row.related_issue_id];
    map.set(key, [...(map.get(key) ?? []), relation]);
  }
  for (const item of items) {
    item.issue_relation = owned.get(item.id) ?? [];
    item.issue_related = pointing.get(item.id) ?? [];
  }
  return page;
}

/**
 * One project's list from a request: filters, grouping, ordering and paging (readListQuery),
 * the layout's rules, and relations when `expand` asks for them (or always, `{type}-detail/`).
 */
export async function projectListFromRequest(
  db: DbOrTx,
  request: FastifyRequest<{ Querystring: Query }>,
  access: ProjectAccess,
  type: ItemType,
  options: { relations?: boolean } = {},
): Promise<ListResponse> {
  const list = applyLayout(readListQuery(request.query, access), request.query);
  // Relations are added to the page's items: such a page is the caller's own, not shared.
  const relations = options.relations || wantsRelations(request.query);
  const page = await listIssuePage(db, {
    where: [
      ...visibleConditions(access),
      sql`i.archived_at is null`,
      sql`i.is_epic = ${type === "epics"}`,
      ...list.conditions,
    ],
    projectId: access.project.id,
    groupBy: list.groupBy,
    subGroupBy: list.subGroupBy,
    orderBy: list.orderBy,
    cursor: list.cursor,
    ...(relations ? {} : { shared: { cache: request.server.ctx.listCache, workspaceId: access.workspace.id } }),
  });
  return relations ? attachRelations(db, page, access.user.id) : page;
}
