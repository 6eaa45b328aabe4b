/**
 * GET search-issues/ — work items for pickers: ?search= (name or number, as in the list),
 * ?issue_id= the item the picker is for, and what it picks:
 * - parent=true: candidates for its parent — not itself, not any of its descendants (a loop);
 * - sub_issue=true: candidates for its sub-issues — not itself, not its ancestors, and only items
 *   without a parent yet;
 * - issue_relation=true: not itself and not items already related to it.
 * Archived, draft and deleted items never show; restricted guests see their own. 30 results by
 * default (per_page, at most 100), newest numbers first.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { queryRows } from "../../db/client.ts";
import { badRequest } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { projectAccess } from "../../policies/access.ts";
import { PROJECT_PATH, type ProjectParams, singleQueryValue, visibleConditions } from "./common.ts";
import { searchCondition } from "./filters.ts";

const SEARCH_PAGE = 30;

export async function issueSearchRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: ProjectParams; Querystring: Record<string, unknown> }>(
    `${PROJECT_PATH}/search-issues/`,
    async (request) => {
      const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
      const q = request.query;
      const conditions = [...visibleConditions(access), sql`i.archived_at is null`];
      const search = singleQueryValue(q.search) ?? "";
      const condition = searchCondition(search, sql`p.identifier`);
      if (condition) conditions.push(condition);
      const issueId = singleQueryValue(q.issue_id);
      if (issueId) {
        if (!isUuid(issueId)) throw badRequest("issue_id must be an id", { issue_id: ["Expected an id"] });
        conditions.push(sql`i.id <> ${issueId}::uuid`);
        if (singleQueryValue(q.parent) === "true") {
          conditions.push(sql`i.id not in (
            with recursive down(id, depth) as (
              select id, 0 from issues where parent_id = ${issueId}::uuid
              union all select c.id, d.depth + 1 from issues c join down d on c.parent_id = d.id where d.depth < 1000
            ) select id from down)`);
        }
        if (singleQueryValue(q.sub_issue) === "true") {
          conditions.push(sql`i.parent_id is null`);
          conditions.push(sql`i.id not in (
            with recursive up(id, parent_id, depth) as (
              select id, parent_id, 0 from issues where id = ${issueId}::uuid
              union all select p2.id, p2.parent_id, u.depth + 1 from issues p2 join up u on p2.id = u.parent_id where u.depth < 1000
            ) select id from up)`);
        }
        if (singleQueryValue(q.issue_relation) === "true") {
          conditions.push(sql`not exists (select 1 from issue_relations r
            where (r.issue_id = ${issueId}::uuid and r.related_issue_id = i.id)
               or (r.related_issue_id = ${issueId}::uuid and r.issue_id = i.id))`);
        }
      }
      const perPageRaw = Number(singleQueryValue(q.per_page) ?? SEARCH_PAGE);
      const limit = Number.isInteger(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, 100) : SEARCH_PAGE;
      return queryRows(
        db,
        sql`select i.id, i.name, i.sequence_id, i.project_id, p.identifier as project__identifier,
                   p.name as project__name, ${access.workspace.slug}::text as workspace__slug,
                   i.state_id, s.name as state__name, s."group" as state__group, s.color as state__color,
                   i.priority, i.is_epic, i.parent_id,
                   to_char(i.start_date, 'YYYY-MM-DD') as start_date, to_char(i.target_date, 'YYYY-MM-DD') as target_date
            from issues i join projects p on p.id = i.project_id left join states s on s.id = i.state_id
            where ${sql.join(conditions, sql` and `)}
            order by i.sequence_id desc limit ${limit}`,
      );
    },
  );
}
