/**
 * One work item at a time: create, read (with ?expand=), read several by id, update, delete;
 * the ids deleted since a moment (sync), and the item by its key (WEB-12).
 * Reads: every project member (restricted guests only their own items). Writes: member and up;
 * deleting: project admin or the item's creator.
 */
import { ROLE } from "@tideline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { queryRows } from "../../db/client.ts";
import { projects } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, forbidden, notFound, parse } from "../../http/errors.ts";
import { foldPendingLog } from "../../live/storage.ts";
import {
  guestSeesOwnOnly,
  type IssueAccess,
  issueAccess,
  projectAccess,
  workspaceAccess,
} from "../../policies/access.ts";
import { transactionOnce } from "../../services/client-mutations.ts";
import { recordRecentVisit } from "../recent-visits/service.ts";
import {
  ITEM_TYPES,
  type ItemParams,
  itemAccess,
  PROJECT_PATH,
  type ProjectParams,
  readIdList,
  typedProjectAccess,
  visibleConditions,
  WS_PATH,
} from "./common.ts";
import { issueDetail, readExpand } from "./expand.ts";
import { loadIssues } from "./query.ts";
import { createIssueBody, updateIssueBody } from "./schema.ts";
import { createIssue, deleteIssues, lockIssueRow, updateIssue } from "./service.ts";

type Query = Record<string, unknown>;

export async function issueCrudRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;
  // Opening an item is a recent visit (the home's Recents), recorded once the read succeeded.
  const recordIssueVisit = (log: FastifyBaseLogger, access: IssueAccess) =>
    recordRecentVisit(db, log, {
      workspaceId: access.workspace.id,
      userId: access.user.id,
      projectId: access.project.id,
      entityName: "issue",
      entityIdentifier: access.issue.id,
    });

  for (const type of ITEM_TYPES) {
    const base = `${PROJECT_PATH}/${type}`;

    app.post<{ Params: ProjectParams }>(`${base}/`, async (request, reply) => {
      const access = await typedProjectAccess(db, request, request.params, type, true);
      const body = parse(createIssueBody, request.body);
      // Once per client mutation id: a replayed offline create answers the item made the first time.
      const answer = await transactionOnce(db, events, request, 201, (tx, emit) =>
        createIssue(tx, emit, { project: access.project, actorId: access.user.id }, body, {
          isEpic: type === "epics",
          isDraft: false,
        }),
      );
      return reply.status(answer.status).send(answer.body);
    });

    app.get<{ Params: ProjectParams; Querystring: Query }>(`${base}/list/`, async (request) => {
      const access = await typedProjectAccess(db, request, request.params, type);
      const ids = readIdList(request.query.issues, "issues");
      if (!ids.length) return [];
      const conditions = visibleConditions(access);
      if (type === "epics") conditions.push(sql`i.is_epic`);
      return loadIssues(db, { ids, where: sql.join(conditions, sql` and `) });
    });

    app.get<{ Params: ItemParams; Querystring: Query }>(`${base}/:id/`, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      // Edits still only in the write-ahead log (a crash, a pending store) show in description_html.
      await foldPendingLog(db, events, { kind: "issue", id: access.issue.id }, app.ctx.live.instanceId);
      const detail = await issueDetail(
        db,
        access.issue.id,
        { userId: access.user.id, workspaceSlug: access.workspace.slug },
        readExpand(request.query.expand),
      );
      if (!detail) throw notFound("Work item");
      await recordIssueVisit(request.log, access);
      return detail;
    });

    app.patch<{ Params: ItemParams }>(`${base}/:id/`, async (request, reply) => {
      const access = await itemAccess(db, request, type, request.params, true);
      const body = parse(updateIssueBody, request.body);
      const answer = await transactionOnce(db, events, request, 200, (tx, emit) =>
        lockIssueRow(tx, access.issue)
          .then((row) => updateIssue(tx, emit, { project: access.project, actorId: access.user.id }, row, body))
          .then(({ issue }) => issue),
      );
      return reply.status(answer.status).send(answer.body);
    });

    app.delete<{ Params: ItemParams }>(`${base}/:id/`, async (request, reply) => {
      const access = await itemAccess(db, request, type, request.params, true);
      const isAdmin = (access.projectMembership?.role ?? 0) >= ROLE.admin;
      if (!isAdmin && access.issue.createdById !== access.user.id) {
        throw forbidden("Only a project admin or the work item's creator can delete it.");
      }
      await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
        lockIssueRow(tx, access.issue).then((row) =>
          deleteIssues(tx, emit, { project: access.project, actorId: access.user.id }, [row]),
        ),
      );
      return reply.status(204).send();
    });
  }

  /** Ids of work items deleted after `updated_at__gt` (ISO time), for clients catching up. */
  app.get<{ Params: ProjectParams; Querystring: Query }>(`${PROJECT_PATH}/deleted-issues/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    const raw = request.query.updated_at__gt;
    const conditions = [sql`i.project_id = ${access.project.id}::uuid`, sql`i.deleted_at is not null`];
    if (raw !== undefined && raw !== "") {
      const since = Date.parse(String(raw));
      if (Number.isNaN(since))
        throw badRequest("updated_at__gt must be an ISO date-time", { updated_at__gt: ["Invalid"] });
      conditions.push(sql`i.deleted_at > ${new Date(since).toISOString()}::timestamptz`);
    }
    if (guestSeesOwnOnly(access)) conditions.push(sql`i.created_by = ${access.user.id}::uuid`);
    const rows = await queryRows<{ id: string }>(
      db,
      sql`select i.id::text as id from issues i where ${sql.join(conditions, sql` and `)} order by i.deleted_at, i.id`,
    );
    return rows.map((r) => r.id);
  });

  /** A work item by its key, e.g. /work-items/WEB-12/ (the browse URL). */
  app.get<{ Params: { slug: string; key: string }; Querystring: Query }>(
    `${WS_PATH}/work-items/:key/`,
    async (request) => {
      const ws = await workspaceAccess(db, request, request.params.slug);
      const m = /^([A-Za-z0-9]+)-(\d{1,9})$/.exec(request.params.key);
      if (!m) throw notFound("Work item");
      const [project] = await db
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.workspaceId, ws.workspace.id), eq(projects.identifier, (m[1] as string).toUpperCase())))
        .limit(1);
      if (!project) throw notFound("Work item");
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`select id::text as id from issues where project_id = ${project.id}::uuid and sequence_id = ${Number(m[2])}
              and deleted_at is null and is_draft = false and in_intake = false`,
      );
      if (!row) throw notFound("Work item");
      // Same checks as the item path: project membership, guest rule.
      const access = await issueAccess(db, request, request.params.slug, project.id, row.id, { includeDrafts: false });
      await foldPendingLog(db, events, { kind: "issue", id: access.issue.id }, app.ctx.live.instanceId);
      const detail = await issueDetail(
        db,
        access.issue.id,
        { userId: access.user.id, workspaceSlug: access.workspace.slug },
        readExpand(request.query.expand),
      );
      if (!detail) throw notFound("Work item");
      await recordIssueVisit(request.log, access);
      return { ...detail, project__identifier: access.project.identifier };
    },
  );
}
