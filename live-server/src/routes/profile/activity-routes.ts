/**
 * What a member did (product-domain §2 profile, activity tab; /profile/activity for oneself):
 * - GET /api/workspaces/{slug}/user-activity/{userId}/: the user's work-item history in the
 *   workspace, newest first, paged (`cursor=perPage:page:0`, `per_page` ≤ 100, default 50);
 *   `project=` (comma list) narrows it;
 * - POST …/user-activity/{userId}/export/ `{date: yyyy-MM-dd}`: that day's rows (the
 *   workspace's time zone) as CSV, as the reference does: columns Actor name, Issue ID, Project,
 *   Created at, Updated at, Action, Field, Old value, New value; at most 10,000 rows; members
 *   and admins only (guests 403);
 * - GET /api/users/me/activities/: the caller's own history across their workspaces, paged the
 *   same way.
 * Rows come only from items the caller may see (issues/visibility.ts: projects they are in, the
 * guest rule, live projects, items not deleted); comment and reaction rows are left out (the
 * comments themselves are on the item). Each row is the history's shape (routes/issue-details/
 * history.ts) plus `issue_detail {id, name, sequence_id, is_epic}` and
 * `project_detail {id, identifier, name}`.
 */
import { personName, ROLE } from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import { parse } from "../../http/errors.ts";
import { requireUser } from "../../policies/access.ts";
import { type ActorDetail, loadActors } from "../issue-details/common.ts";
import { readIdList, singleQueryValue } from "../issues/common.ts";
import { parseCursor } from "../issues/list.ts";
import { itemVisibleTo } from "../issues/visibility.ts";
import { PROFILE_UNLISTED_FIELDS, type ProfileParams, profileAccess, WS_PATH } from "./common.ts";

type Query = Record<string, unknown>;

/** Rows in one export, as the reference caps it. */
export const EXPORT_MAX_ROWS = 10_000;

type ActivityRow = {
  id: string;
  created_at: Date | string;
  verb: string;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  old_identifier: string | null;
  new_identifier: string | null;
  comment_id: string | null;
  comment: string | null;
  actor_id: string | null;
  workspace_id: string;
  project_id: string;
  issue_id: string;
  issue_name: string;
  sequence_id: number;
  is_epic: boolean;
  project_identifier: string;
  project_name: string;
  total: number;
};

const unlisted = sql`(a.field is null or a.field not in (${sql.join(
  PROFILE_UNLISTED_FIELDS.map((f) => sql`${f}`),
  sql`, `,
)}))`;

/** Activity rows (alias a, with the item i and project p) matching `where`, newest first. */
function activitySql(where: SQL[], limit: number, offset: number): SQL {
  return sql`select a.id::text as id, a.created_at, a.verb, a.field, a.old_value, a.new_value,
                    a.old_identifier::text as old_identifier, a.new_identifier::text as new_identifier,
                    a.comment_id::text as comment_id, a.comment, a.actor_id::text as actor_id,
                    a.workspace_id::text as workspace_id, a.project_id::text as project_id,
                    a.issue_id::text as issue_id, i.name as issue_name, i.sequence_id, i.is_epic,
                    p.identifier as project_identifier, p.name as project_name,
                    count(*) over ()::int as total
             from issue_activities a join issues i on i.id = a.issue_id join projects p on p.id = i.project_id
             where ${sql.join([unlisted, ...where], sql` and `)}
             order by a.created_at desc, a.id desc
             limit ${limit} offset ${offset}`;
}

const isoOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function presentActivity(row: ActivityRow, actor: ActorDetail | undefined) {
  const at = isoOf(row.created_at);
  return {
    id: row.id,
    created_at: at,
    updated_at: at,
    verb: row.verb,
    field: row.field,
    old_value: row.old_value,
    new_value: row.new_value,
    old_identifier: row.old_identifier,
    new_identifier: row.new_identifier,
    // As the history answers it (issue-details/history.ts): the row's sentence, the comment's id apart.
    comment: row.comment,
    issue_comment: row.comment_id,
    epoch: Math.floor(new Date(at).getTime() / 1000),
    actor: row.actor_id,
    actor_detail: actor ?? null,
    workspace: row.workspace_id,
    project: row.project_id,
    issue: row.issue_id,
    issue_detail: {
      id: row.issue_id,
      name: row.issue_name,
      sequence_id: Number(row.sequence_id),
      is_epic: row.is_epic,
    },
    project_detail: { id: row.project_id, identifier: row.project_identifier, name: row.project_name },
  };
}

/** One page of activity, in the reference's paged answer. */
async function activityPage(db: DbOrTx, where: SQL[], query: Query) {
  const { perPage, pageIndex } = parseCursor(singleQueryValue(query.cursor), singleQueryValue(query.per_page));
  const rows = await queryRows<ActivityRow>(db, activitySql(where, perPage, pageIndex * perPage));
  // A page past the end has no rows to carry the total: count separately only then.
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (!rows.length && pageIndex > 0) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from issue_activities a join issues i on i.id = a.issue_id
          join projects p on p.id = i.project_id where ${sql.join([unlisted, ...where], sql` and `)}`,
    );
    total = Number(row?.n ?? 0);
  }
  const actors = await loadActors(
    db,
    rows.map((r) => r.actor_id),
  );
  const offset = pageIndex * perPage;
  return {
    results: rows.map((r) => presentActivity(r, r.actor_id ? actors.get(r.actor_id) : undefined)),
    count: rows.length,
    total_results: total,
    total_pages: Math.ceil(total / perPage),
    next_cursor: `${perPage}:${pageIndex + 1}:0`,
    prev_cursor: `${perPage}:${Math.max(pageIndex - 1, 0)}:0`,
    next_page_results: total > offset + perPage,
    prev_page_results: pageIndex > 0,
    extra_stats: null,
  };
}

const exportBody = z.object({
  date: z.iso.date("Expected a date as yyyy-MM-dd"),
});

/** A CSV cell: always quoted; a leading = + - @ (a spreadsheet formula) is neutralised with '. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The actor as every screen names them (personName: their display name). */
function actorName(actor: ActorDetail | undefined): string {
  return actor ? personName(actor) : "";
}

export async function profileActivityRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: ProfileParams; Querystring: Query }>(`${WS_PATH}/user-activity/:userId/`, async (request) => {
    const access = await profileAccess(db, request, request.params);
    const where: SQL[] = [
      sql`a.workspace_id = ${access.workspace.id}::uuid`,
      sql`a.actor_id = ${access.target.id}::uuid`,
      itemVisibleTo("i", access.user.id, { activeProjectsOnly: true }),
    ];
    const projects = readIdList(request.query.project, "project");
    if (projects.length) {
      where.push(
        sql`a.project_id in (${sql.join(
          projects.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      );
    }
    return activityPage(db, where, request.query);
  });

  app.post<{ Params: ProfileParams }>(`${WS_PATH}/user-activity/:userId/export/`, async (request, reply) => {
    const access = await profileAccess(db, request, request.params, ROLE.member);
    const { date } = parse(exportBody, request.body);
    const rows = await queryRows<ActivityRow>(
      db,
      activitySql(
        [
          sql`a.workspace_id = ${access.workspace.id}::uuid`,
          sql`a.actor_id = ${access.target.id}::uuid`,
          sql`(a.created_at at time zone ${access.workspace.timezone})::date = ${date}::date`,
          itemVisibleTo("i", access.user.id, { activeProjectsOnly: true }),
        ],
        EXPORT_MAX_ROWS,
        0,
      ),
    );
    const actors = await loadActors(
      db,
      rows.map((r) => r.actor_id),
    );
    const header = [
      "Actor name",
      "Issue ID",
      "Project",
      "Created at",
      "Updated at",
      "Action",
      "Field",
      "Old value",
      "New value",
    ];
    const lines = [
      header,
      ...rows.map((r) => {
        const at = isoOf(r.created_at);
        return [
          actorName(r.actor_id ? actors.get(r.actor_id) : undefined),
          `${r.project_identifier}-${r.sequence_id}`,
          r.project_name,
          at,
          at,
          r.verb,
          r.field ?? "",
          r.old_value ?? "",
          r.new_value ?? "",
        ];
      }),
    ].map((cells) => cells.map(csvCell).join(","));
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="workspace-user-activity.csv"')
      .send(`${lines.join("\r\n")}\r\n`);
  });

  app.get<{ Querystring: Query }>("/api/users/me/activities/", async (request) => {
    const user = requireUser(request);
    return activityPage(
      db,
      [
        sql`a.actor_id = ${user.id}::uuid`,
        sql`exists (select 1 from workspace_members wm where wm.workspace_id = a.workspace_id
                    and wm.member_id = ${user.id}::uuid and wm.is_active)`,
        itemVisibleTo("i", user.id, { activeProjectsOnly: true }),
      ],
      request.query,
    );
  });
}
