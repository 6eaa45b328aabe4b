/**
 * Shared by the work-item route files: paths, the `{type}` segment (issues, or epics when the
 * project has them on), access to one item, and the list's query-string reader.
 */
import {
  calendarDate,
  DEFAULT_ORDER_BY,
  type GroupByKey,
  type OrderByKey,
  parseIssueFilters,
  ROLE,
  toGroupByKey,
  toOrderByKey,
} from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import {
  guestSeesOwnOnly,
  type IssueAccess,
  issueAccess,
  type ProjectAccess,
  projectAccess,
} from "../../policies/access.ts";
import { filterConditions, scopeConditions, searchCondition } from "./filters.ts";
import { type Cursor, parseCursor } from "./list.ts";

export const WS_PATH = "/api/workspaces/:slug";
export const PROJECT_PATH = `${WS_PATH}/projects/:projectId`;

/** Path segments naming work items: `issues`, and `epics` (work items with is_epic). */
export const ITEM_TYPES = ["issues", "epics"] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export type ProjectParams = { slug: string; projectId: string };
export type ItemParams = ProjectParams & { id: string };

/** The project for a `{type}` list or create: epics exist only when the project has them on. */
export async function typedProjectAccess(
  db: DbOrTx,
  request: FastifyRequest,
  params: ProjectParams,
  type: ItemType,
  write = false,
): Promise<ProjectAccess> {
  const access = await projectAccess(db, request, params.slug, params.projectId, write ? { minRole: ROLE.member } : {});
  if (type === "epics" && !access.project.isEpicEnabled) throw notFound("Project");
  return access;
}

/**
 * One work item by path, checked for the caller (deleted, other workspaces, restricted
 * guests → 404; writes need member). `issues` reaches every work item, `epics` only epics of a
 * project with epics on. Drafts are reached only through the draft paths.
 */
export async function itemAccess(
  db: DbOrTx,
  request: FastifyRequest,
  type: ItemType,
  params: ItemParams,
  write = false,
): Promise<IssueAccess> {
  const access = await issueAccess(db, request, params.slug, params.projectId, params.id, {
    minRole: write ? ROLE.member : undefined,
    includeDrafts: false,
  });
  if (type === "epics" && !(access.issue.isEpic && access.project.isEpicEnabled)) throw notFound("Work item");
  return access;
}

/** Conditions every list of a project shares: not deleted, not drafts, the guest rule. */
export function visibleConditions(access: ProjectAccess): SQL[] {
  const out: SQL[] = [
    sql`i.project_id = ${access.project.id}::uuid`,
    sql`i.deleted_at is null`,
    sql`i.is_draft = false`,
    // Intake requests are not work items until accepted (routes/intake).
    sql`i.in_intake = false`,
  ];
  if (guestSeesOwnOnly(access)) out.push(sql`i.created_by = ${access.user.id}::uuid`);
  return out;
}

type Query = Record<string, unknown>;

const single = (value: unknown): string | undefined => {
  if (Array.isArray(value)) return value.length ? String(value[value.length - 1]) : undefined;
  return value === undefined || value === null ? undefined : String(value);
};

function readGroupBy(query: Query, key: "group_by" | "sub_group_by"): GroupByKey | null {
  const raw = single(query[key]);
  if (raw === undefined || raw === "" || raw === "null" || raw === "None") return null;
  const value = toGroupByKey(raw);
  if (!value) throw badRequest(`Unknown ${key} "${raw}"`, { [key]: [`Unknown grouping "${raw}"`] });
  return value;
}

function readBoolean(query: Query, key: string, fallback: boolean): boolean {
  const raw = single(query[key]);
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw badRequest(`${key} must be true or false`, { [key]: ["Expected true or false"] });
}

export type ListOptions = {
  conditions: SQL[];
  groupBy: GroupByKey | null;
  subGroupBy: GroupByKey | null;
  orderBy: OrderByKey;
  cursor: Cursor;
};

/**
 * Read a list's query string: cursor/per_page, group_by/sub_group_by, order_by, type,
 * sub_issue, search and every filter (issue-filters.ts). Bad values are a 400 naming them.
 */
export function readListQuery(query: Query, access: ProjectAccess): ListOptions {
  return readListQueryIn(query, { timezone: access.project.timezone, identifier: sql`${access.project.identifier}` });
}

/**
 * readListQuery for any scope: `timezone` gives "today" for relative date filters, and
 * `identifier` the SQL value of an item's project identifier for "WEB-12" searches (the
 * workspace list, across projects, passes a per-row expression).
 */
export function readListQueryIn(query: Query, scope: { timezone: string; identifier: SQL }): ListOptions {
  const cursor = parseCursor(single(query.cursor), single(query.per_page));
  const groupBy = readGroupBy(query, "group_by");
  let subGroupBy = readGroupBy(query, "sub_group_by");
  if (!groupBy) subGroupBy = null;
  if (groupBy && subGroupBy === groupBy) {
    throw badRequest("group_by and sub_group_by must differ", { sub_group_by: ["Must differ from group_by"] });
  }
  const orderRaw = single(query.order_by);
  let orderBy: OrderByKey = DEFAULT_ORDER_BY;
  if (orderRaw !== undefined && orderRaw !== "" && orderRaw !== "null") {
    // The reference's orderings (user-properties keep them as saved) map to ours here only.
    const key = toOrderByKey(orderRaw);
    if (!key) throw badRequest(`Unknown order_by "${orderRaw}"`, { order_by: ["Unknown ordering"] });
    orderBy = key;
  }
  const typeRaw = single(query.type);
  let type: "active" | "backlog" | null = null;
  if (typeRaw === "active" || typeRaw === "backlog") type = typeRaw;
  else if (typeRaw !== undefined && !["", "null", "all"].includes(typeRaw)) {
    throw badRequest(`Unknown type "${typeRaw}"`, { type: ["Use active or backlog"] });
  }
  const subIssue = readBoolean(query, "sub_issue", true);
  const filterInput: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) filterInput[key] = Array.isArray(value) ? value.join(",") : value;
  const { filters, errors } = parseIssueFilters(filterInput);
  if (Object.keys(errors).length) {
    const [first] = Object.entries(errors);
    throw badRequest(first ? `${first[0]}: ${first[1][0]}` : "Invalid filters", errors, "VALIDATION_ERROR");
  }
  const today = calendarDate(new Date(), scope.timezone);
  const conditions = [...filterConditions(filters, today), ...scopeConditions({ type, sub_issue: subIssue })];
  const search = single(query.search);
  if (search) {
    const condition = searchCondition(search, scope.identifier);
    if (condition) conditions.push(condition);
  }
  return { conditions, groupBy, subGroupBy, orderBy, cursor };
}

/** Parse a comma list of ids (?issues=a,b); non-ids are a 400. */
export function readIdList(value: unknown, key: string): string[] {
  const raw = single(value) ?? "";
  const ids = [
    ...new Set(
      raw
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  const bad = ids.filter((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (bad.length) throw badRequest(`${key}: invalid id ${bad[0]}`, { [key]: ["Expected comma-separated ids"] });
  if (ids.length > 500) throw badRequest(`${key}: at most 500 ids`, { [key]: ["At most 500 ids"] });
  return ids;
}

export { single as singleQueryValue };
