/**
 * Loading work items as the API presents them. One query per call: the row, its state group and
 * every id list and count come from correlated aggregate subqueries, so presenting a page of
 * 100 items costs one round trip, never one per item (no N+1).
 */
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";

/** A work item in API form (snake_case). `description_html` only when asked for. */
export type PresentedIssue = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  workspace_id: string;
  state_id: string | null;
  state__group: string | null;
  priority: string;
  parent_id: string | null;
  estimate_point: string | null;
  start_date: string | null;
  target_date: string | null;
  sort_order: number;
  completed_at: string | null;
  archived_at: string | null;
  is_draft: boolean;
  is_epic: boolean;
  type_id: null;
  /** The cycle the item is in (routes/cycles), or null. */
  cycle_id: string | null;
  /** The unarchived modules the item is in (routes/modules). */
  module_ids: string[];
  assignee_ids: string[];
  label_ids: string[];
  sub_issues_count: number;
  link_count: number;
  attachment_count: number;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
  description_html?: string;
  description_stripped?: string;
};

export type LoadIssuesOptions = {
  /** Load exactly these ids (the result keeps their order; unknown ids are skipped). */
  ids?: readonly string[];
  /** Or a condition on the `i` (issues) alias, e.g. sql`i.project_id = ${id}`. */
  where?: SQL;
  /** Order for a `where` load (default: sort_order, id). Refers to aliases `i` and `s`. */
  orderBy?: SQL;
  limit?: number;
  includeDescription?: boolean;
  /** Include soft-deleted items (default false: deleted ones are never presented). */
  includeDeleted?: boolean;
};

type Row = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  workspace_id: string;
  state_id: string | null;
  state__group: string | null;
  priority: string;
  parent_id: string | null;
  estimate_point: string | null;
  start_date: string | null;
  target_date: string | null;
  sort_order: number;
  completed_at: Date | string | null;
  archived_at: Date | string | null;
  is_draft: boolean;
  is_epic: boolean;
  cycle_id: string | null;
  module_ids: string[] | null;
  assignee_ids: string[] | null;
  label_ids: string[] | null;
  sub_issues_count: number | string;
  link_count: number | string;
  attachment_count: number | string;
  created_at: Date | string;
  updated_at: Date | string;
  created_by: string | null;
  updated_by: string | null;
  description_html?: string;
  description_stripped?: string;
};

/** Attachment entity type of file_assets rows counted in attachment_count. */
export const ISSUE_ATTACHMENT = "ISSUE_ATTACHMENT";

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** The select list shared by every work-item query (aliases: `i` issues, `s` states). */
export function issueColumns(includeDescription = false): SQL {
  return sql`
    i.id, i.name, i.sequence_id, i.project_id, i.workspace_id, i.state_id, s."group" as state__group,
    i.priority, i.parent_id, i.estimate_point_id as estimate_point,
    to_char(i.start_date, 'YYYY-MM-DD') as start_date, to_char(i.target_date, 'YYYY-MM-DD') as target_date,
    i.sort_order, i.completed_at, i.archived_at, i.is_draft, i.is_epic,
    i.created_at, i.updated_at, i.created_by, i.updated_by,
    (select ci.cycle_id::text from cycle_issues ci where ci.issue_id = i.id) as cycle_id,
    coalesce((select array_agg(mi.module_id order by mi.created_at, mi.module_id)::text[]
              from module_issues mi join modules m on m.id = mi.module_id
              where mi.issue_id = i.id and m.archived_at is null), '{}') as module_ids,
    coalesce((select array_agg(a.assignee_id order by a.created_at, a.assignee_id)::text[]
              from issue_assignees a where a.issue_id = i.id), '{}') as assignee_ids,
    coalesce((select array_agg(l.label_id order by l.created_at, l.label_id)::text[]
              from issue_labels l where l.issue_id = i.id), '{}') as label_ids,
    (select count(*)::int from issues c
      where c.parent_id = i.id and c.deleted_at is null and c.is_draft = false and c.in_intake = false) as sub_issues_count,
    (select count(*)::int from issue_links k where k.issue_id = i.id) as link_count,
    (select count(*)::int from file_assets f
      where f.entity_type = ${ISSUE_ATTACHMENT} and f.entity_identifier = i.id
        and f.is_uploaded = true and f.deleted_at is null) as attachment_count
    ${includeDescription ? sql`, i.description_html, i.description_stripped` : sql``}`;
}

export function presentIssueRow(row: Row): PresentedIssue {
  const out: PresentedIssue = {
    id: row.id,
    name: row.name,
    sequence_id: Number(row.sequence_id),
    project_id: row.project_id,
    workspace_id: row.workspace_id,
    state_id: row.state_id,
    state__group: row.state__group ?? null,
    priority: row.priority,
    parent_id: row.parent_id,
    estimate_point: row.estimate_point,
    start_date: row.start_date,
    target_date: row.target_date,
    sort_order: Number(row.sort_order),
    completed_at: iso(row.completed_at),
    archived_at: iso(row.archived_at),
    is_draft: row.is_draft,
    is_epic: row.is_epic,
    type_id: null,
    cycle_id: row.cycle_id ?? null,
    module_ids: row.module_ids ?? [],
    assignee_ids: row.assignee_ids ?? [],
    label_ids: row.label_ids ?? [],
    sub_issues_count: Number(row.sub_issues_count),
    link_count: Number(row.link_count),
    attachment_count: Number(row.attachment_count),
    created_at: iso(row.created_at) ?? "",
    updated_at: iso(row.updated_at) ?? "",
    created_by: row.created_by,
    updated_by: row.updated_by,
  };
  if (row.description_html !== undefined) {
    out.description_html = row.description_html;
    out.description_stripped = row.description_stripped ?? "";
  }
  return out;
}

/**
 * Present work items by id or by condition. Callers have already checked access; this only
 * loads. Soft-deleted items are left out unless `includeDeleted`.
 */
export async function loadIssues(db: DbOrTx, options: LoadIssuesOptions): Promise<PresentedIssue[]> {
  const conditions: SQL[] = [];
  if (options.ids) {
    if (options.ids.length === 0) return [];
    const list = sql.join(
      options.ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    conditions.push(sql`i.id in (${list})`);
  }
  if (options.where) conditions.push(options.where);
  if (!options.includeDeleted) conditions.push(sql`i.deleted_at is null`);
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const order = options.orderBy ?? sql`i.sort_order, i.id`;
  const limit = options.limit ? sql`limit ${options.limit}` : sql``;
  const rows = await queryRows<Row>(
    db,
    sql`select ${issueColumns(options.includeDescription)}
        from issues i left join states s on s.id = i.state_id
        ${where} order by ${order} ${limit}`,
  );
  const presented = rows.map(presentIssueRow);
  if (!options.ids) return presented;
  const byId = new Map(presented.map((p) => [p.id, p]));
  return options.ids.map((id) => byId.get(id)).filter((p): p is PresentedIssue => p !== undefined);
}

/** One work item, or null. */
export async function loadIssue(
  db: DbOrTx,
  id: string,
  options: { includeDescription?: boolean; includeDeleted?: boolean } = {},
): Promise<PresentedIssue | null> {
  const [issue] = await loadIssues(db, { ids: [id], ...options });
  return issue ?? null;
}
