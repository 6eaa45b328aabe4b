/**
 * Work-item lists: the paged, filtered, grouped list (GET /{type}/), the archive
 * (GET /archived-issues/, same machinery) and the sync list for the local cache
 * (GET /v2/{type}/, ordered by updated_at then id, with the caller's `scope`).
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { queryRows } from "../../db/client.ts";
import { asBulkRead } from "../../db/priority.ts";
import { badRequest } from "../../http/errors.ts";
import { guestSeesOwnOnly, type ProjectAccess, projectAccess } from "../../policies/access.ts";
import {
  ITEM_TYPES,
  PROJECT_PATH,
  type ProjectParams,
  readListQuery,
  singleQueryValue,
  typedProjectAccess,
  visibleConditions,
} from "./common.ts";
import { projectListFromRequest } from "./layout.ts";
import { listIssuePage } from "./list.ts";
import { loadIssues } from "./query.ts";

type Query = Record<string, unknown>;

/** Sync pages hold 500 items by default (calls-errors-sync §9), at most 1000. */
const SYNC_PAGE = 500;
const SYNC_PAGE_MAX = 1000;

/**
 * The sync cursor: "<updated_at with microseconds, UTC>|<id>", the last item of the previous
 * page. Opaque to clients, but documented so a client may build one from an item it holds.
 */
function parseSyncCursor(raw: string | undefined): { at: string; id: string } | null {
  if (!raw) return null;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)\|([0-9a-f-]{36})$/i.exec(raw);
  if (!m)
    throw badRequest("Invalid cursor", { cursor: ["Expected <updated_at>|<id> from next_cursor"] }, "VALIDATION_ERROR");
  return { at: m[1] as string, id: m[2] as string };
}

/**
 * Which of the project's items the caller's sync list holds: `all`, or `own` for a restricted
 * guest (only the items they created). A delta (`updated_at__gt`) answers only what changed, so
 * it can't say that items left (or entered) the caller's view when their rights changed; a
 * client that finds another scope than the one its copy was made under syncs again in full
 * (client/src/lib/local-db/README.md). The rule is visibleConditions' guest rule, so the scope
 * names exactly the set the list is drawn from.
 */
export function syncScope(access: ProjectAccess): "all" | "own" {
  return guestSeesOwnOnly(access) ? "own" : "all";
}

export async function issueListRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  for (const type of ITEM_TYPES) {
    app.get<{ Params: ProjectParams; Querystring: Query }>(`${PROJECT_PATH}/${type}/`, async (request) => {
      const access = await typedProjectAccess(db, request, request.params, type);
      // layout and expand (layout.ts), then the same paged list.
      return projectListFromRequest(db, request, access, type);
    });

    app.get<{ Params: ProjectParams; Querystring: Query }>(`${PROJECT_PATH}/v2/${type}/`, async (request) => {
      const access = await typedProjectAccess(db, request, request.params, type);
      const q = request.query;
      const cursor = parseSyncCursor(singleQueryValue(q.cursor) || undefined);
      const perPageRaw = singleQueryValue(q.per_page);
      const perPage = perPageRaw ? Number(perPageRaw) : SYNC_PAGE;
      if (!Number.isInteger(perPage) || perPage < 1)
        throw badRequest(
          "per_page must be a positive whole number",
          { per_page: ["Expected a whole number of at least 1"] },
          "VALIDATION_ERROR",
        );
      const limit = Math.min(perPage, SYNC_PAGE_MAX);
      const conditions = [...visibleConditions(access), sql`i.is_epic = ${type === "epics"}`];
      const scope = syncScope(access);
      const since = singleQueryValue(q.updated_at__gt);
      if (since) {
        if (Number.isNaN(Date.parse(since)))
          throw badRequest(
            "updated_at__gt must be an ISO date-time",
            { updated_at__gt: ["Expected an ISO date-time"] },
            "VALIDATION_ERROR",
          );
        conditions.push(sql`i.updated_at > ${new Date(since).toISOString()}::timestamptz`);
      }
      if (cursor) conditions.push(sql`(i.updated_at, i.id) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
      // A page of up to 1,000 items for the local copy: a bulk read (db/priority.ts).
      return asBulkRead(async () => {
        const rows = await queryRows<{ id: string; key: string }>(
          db,
          sql`select i.id::text as id,
                     to_char(i.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || i.id::text as key
              from issues i where ${sql.join(conditions, sql` and `)}
              order by i.updated_at, i.id limit ${limit + 1}`,
        );
        const page = rows.slice(0, limit);
        const more = rows.length > limit;
        const results = await loadIssues(db, {
          ids: page.map((r) => r.id),
          includeDescription: singleQueryValue(q.description) === "true",
        });
        return {
          results,
          count: results.length,
          next_cursor: more ? (page[page.length - 1]?.key ?? null) : null,
          next_page_results: more,
          scope,
        };
      });
    });
  }

  /** Archived work items (issues and epics), with the list's filters, grouping and paging. */
  app.get<{ Params: ProjectParams; Querystring: Query }>(`${PROJECT_PATH}/archived-issues/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    const options = readListQuery(request.query, access);
    return listIssuePage(db, {
      where: [...visibleConditions(access), sql`i.archived_at is not null`, ...options.conditions],
      projectId: access.project.id,
      groupBy: options.groupBy,
      subGroupBy: options.subGroupBy,
      orderBy: options.orderBy,
      cursor: options.cursor,
    });
  });
}
