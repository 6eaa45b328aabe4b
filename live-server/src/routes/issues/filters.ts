/**
 * Work-item filters as SQL, with the semantics of shared/src/logic/issue-filters.ts
 * (matchesFilters): alternatives within a filter, every filter applies, "None" for "has no
 * value", dates inclusive, relative dates from the project's today. Conditions use the
 * aliases `i` (issues) and `s` (the item's state, left-joined).
 */
import {
  type DisplayScope,
  type IssueFilters,
  NONE_VALUE,
  parseSequenceSearch,
  resolveDateTerm,
} from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";

const uuidList = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}::uuid`),
    sql`, `,
  );
const textList = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** A single-valued column matches one of the ids, or is empty when "None" is among them. */
function oneOf(column: SQL, values: readonly string[]): SQL {
  const ids = values.filter((v) => v !== NONE_VALUE);
  const parts: SQL[] = [];
  if (ids.length) parts.push(sql`${column} in (${uuidList(ids)})`);
  if (values.includes(NONE_VALUE)) parts.push(sql`${column} is null`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** A many-valued relation has one of the ids, or has none when "None" is among them. */
function anyOf(
  table: "issue_assignees" | "issue_labels" | "issue_subscribers" | "module_issues",
  column: string,
  values: readonly string[],
) {
  const ids = values.filter((v) => v !== NONE_VALUE);
  const t = sql.raw(table);
  const c = sql.raw(column);
  const parts: SQL[] = [];
  if (ids.length)
    parts.push(sql`exists (select 1 from ${t} x where x.issue_id = i.id and x.${c} in (${uuidList(ids)}))`);
  if (values.includes(NONE_VALUE)) parts.push(sql`not exists (select 1 from ${t} x where x.issue_id = i.id)`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** SQL conditions for `filters`; `today` (yyyy-MM-dd) anchors relative dates. */
export function filterConditions(filters: IssueFilters, today: string): SQL[] {
  const out: SQL[] = [];
  if (filters.priority?.length) out.push(sql`i.priority in (${textList(filters.priority)})`);
  if (filters.state?.length) out.push(oneOf(sql`i.state_id`, filters.state));
  if (filters.state_group?.length) out.push(sql`s."group" in (${textList(filters.state_group)})`);
  if (filters.assignees?.length) out.push(anyOf("issue_assignees", "assignee_id", filters.assignees));
  if (filters.created_by?.length) out.push(oneOf(sql`i.created_by`, filters.created_by));
  if (filters.labels?.length) out.push(anyOf("issue_labels", "label_id", filters.labels));
  if (filters.subscriber?.length) out.push(anyOf("issue_subscribers", "subscriber_id", filters.subscriber));
  if (filters.project?.length) out.push(oneOf(sql`i.project_id`, filters.project));
  if (filters.cycle?.length) {
    out.push(oneOf(sql`(select ci.cycle_id from cycle_issues ci where ci.issue_id = i.id)`, filters.cycle));
  }
  if (filters.module?.length) out.push(anyOf("module_issues", "module_id", filters.module));
  for (const key of ["start_date", "target_date"] as const) {
    const column = sql.raw(`i.${key}`);
    for (const term of filters[key] ?? []) {
      const { op, date } = resolveDateTerm(term, today);
      const cmp = op === "after" ? sql`>=` : op === "before" ? sql`<=` : sql`=`;
      out.push(sql`${column} ${cmp} ${date}::date`);
    }
  }
  return out;
}

/** type (active = unstarted + started, backlog) and sub_issue=false (top-level items only). */
export function scopeConditions(scope: DisplayScope): SQL[] {
  const out: SQL[] = [];
  if (scope.type === "active") out.push(sql`s."group" in ('unstarted', 'started')`);
  if (scope.type === "backlog") out.push(sql`s."group" = 'backlog'`);
  if (scope.sub_issue === false) out.push(sql`i.parent_id is null`);
  return out;
}

/** ?search=: name contains the text, or a sequence number ("12", "#12", "WEB-12"). */
export function searchCondition(search: string, projectIdentifierColumn?: SQL): SQL | null {
  const query = search.trim();
  if (!query) return null;
  const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const parts: SQL[] = [sql`lower(i.name) like ${pattern}`];
  const seq = parseSequenceSearch(query);
  if (seq) {
    parts.push(
      seq.identifier && projectIdentifierColumn
        ? sql`(i.sequence_id = ${seq.sequence} and ${projectIdentifierColumn} = ${seq.identifier})`
        : sql`i.sequence_id = ${seq.sequence}`,
    );
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}
