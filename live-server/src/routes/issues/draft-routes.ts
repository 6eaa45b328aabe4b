/**
 * Drafts: work items with is_draft, personal to whoever wrote them (only their author sees or
 * changes them), outside every list, without history, subscriptions or events until published.
 * A draft gets its sequence number when it is created (numbers stay unique and the counter
 * never goes back), so published drafts keep the number they were given.
 *
 * Project: GET/POST issue-drafts/, GET/PATCH/DELETE issue-drafts/{id}/ (PATCH with
 * is_draft: false publishes). Workspace: GET/POST draft-issues/ (project_id in the body),
 * GET/PATCH/DELETE draft-issues/{id}/, POST draft-to-issue/{id}/. Member and up.
 */
import { ROLE } from "@tideline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SessionUser } from "../../auth/sessions.ts";
import { issues } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { type IssueAccess, projectAccess, requireUser, workspaceAccess } from "../../policies/access.ts";
import { PROJECT_PATH, type ProjectParams, singleQueryValue, WS_PATH } from "./common.ts";
import { listIssuePage, parseCursor } from "./list.ts";
import { loadIssue } from "./query.ts";
import { createIssueBody, updateDraftBody, workspaceDraftBody } from "./schema.ts";
import { createIssue, lockIssueRow, publishDraft, updateIssue } from "./service.ts";

type Query = Record<string, unknown>;

/**
 * The caller's own draft `id` in workspace `slug` (and project, when the path names one). The
 * project membership is checked like any item: member and up for changes.
 */
async function draftAccess(
  app: FastifyInstance,
  request: FastifyRequest,
  slug: string,
  id: string,
  options: { projectId?: string; write?: boolean },
): Promise<IssueAccess> {
  const { db } = app.ctx;
  const user: SessionUser = requireUser(request);
  const ws = await workspaceAccess(db, request, slug);
  if (!isUuid(id)) throw notFound("Draft");
  const [row] = await db
    .select()
    .from(issues)
    .where(and(eq(issues.id, id), eq(issues.workspaceId, ws.workspace.id), eq(issues.isDraft, true)))
    .limit(1);
  if (!row || row.deletedAt || row.createdById !== user.id) throw notFound("Draft");
  if (options.projectId !== undefined && row.projectId !== options.projectId) throw notFound("Draft");
  const access = await projectAccess(db, request, slug, row.projectId, options.write ? { minRole: ROLE.member } : {});
  return { ...access, issue: row };
}

export async function issueDraftRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  const list = (request: FastifyRequest<{ Querystring: Query }>, conditions: ReturnType<typeof sql>[]) =>
    listIssuePage(db, {
      where: conditions,
      projectId: "",
      groupBy: null,
      subGroupBy: null,
      orderBy: "-created_at",
      cursor: parseCursor(singleQueryValue(request.query.cursor), singleQueryValue(request.query.per_page)),
      includeDescription: true,
    });

  const createDraft = async (
    request: FastifyRequest,
    slug: string,
    projectId: string,
    body: ReturnType<typeof createIssueBody.parse>,
  ) => {
    const access = await projectAccess(db, request, slug, projectId, { minRole: ROLE.member });
    return transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
      createIssue(tx, emit, { project: access.project, actorId: access.user.id }, body, {
        isEpic: false,
        isDraft: true,
      }),
    );
  };

  const patchDraft = async (request: FastifyRequest, access: IssueAccess) => {
    const { is_draft, ...patch } = parse(updateDraftBody, request.body);
    return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const actor = { project: access.project, actorId: access.user.id };
      const current = await lockIssueRow(tx, access.issue);
      const { issue } = await updateIssue(tx, emit, actor, current, patch, { quiet: true });
      if (is_draft !== false) return issue;
      const [row] = await tx.select().from(issues).where(eq(issues.id, access.issue.id));
      if (!row) throw notFound("Draft");
      return publishDraft(tx, emit, access.user.id, row);
    });
  };

  const readDraft = async (access: IssueAccess) => {
    const issue = await loadIssue(db, access.issue.id, { includeDescription: true });
    if (!issue) throw notFound("Draft");
    return issue;
  };

  const removeDraft = async (access: IssueAccess) => {
    // Drafts were never visible to anyone else: removing one is final.
    await db.delete(issues).where(and(eq(issues.id, access.issue.id), eq(issues.isDraft, true)));
  };

  // ───────── project drafts ─────────

  const P = `${PROJECT_PATH}/issue-drafts`;
  type DraftParams = ProjectParams & { id: string };

  app.get<{ Params: ProjectParams; Querystring: Query }>(`${P}/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    return list(request, [
      sql`i.project_id = ${access.project.id}::uuid`,
      sql`i.is_draft`,
      sql`i.deleted_at is null`,
      sql`i.created_by = ${access.user.id}::uuid`,
    ]);
  });

  app.post<{ Params: ProjectParams }>(`${P}/`, async (request, reply) => {
    const body = parse(createIssueBody, request.body);
    const draft = await createDraft(request, request.params.slug, request.params.projectId, body);
    return reply.status(201).send(draft);
  });

  app.get<{ Params: DraftParams }>(`${P}/:id/`, async (request) => {
    const { slug, projectId, id } = request.params;
    return readDraft(await draftAccess(app, request, slug, id, { projectId }));
  });

  app.patch<{ Params: DraftParams }>(`${P}/:id/`, async (request) => {
    const { slug, projectId, id } = request.params;
    return patchDraft(request, await draftAccess(app, request, slug, id, { projectId, write: true }));
  });

  app.delete<{ Params: DraftParams }>(`${P}/:id/`, async (request, reply) => {
    const { slug, projectId, id } = request.params;
    await removeDraft(await draftAccess(app, request, slug, id, { projectId, write: true }));
    return reply.status(204).send();
  });

  // ───────── workspace drafts ─────────

  const W = `${WS_PATH}/draft-issues`;
  type WsParams = { slug: string };
  type WsDraftParams = WsParams & { id: string };

  app.get<{ Params: WsParams; Querystring: Query }>(`${W}/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return list(request, [
      sql`i.workspace_id = ${ws.workspace.id}::uuid`,
      sql`i.is_draft`,
      sql`i.deleted_at is null`,
      sql`i.created_by = ${ws.user.id}::uuid`,
      // Only drafts of projects the author still belongs to.
      sql`i.project_id in (select pm.project_id from project_members pm
                            where pm.member_id = ${ws.user.id}::uuid and pm.is_active)`,
    ]);
  });

  app.post<{ Params: WsParams }>(`${W}/`, async (request, reply) => {
    const { project_id, ...body } = parse(workspaceDraftBody, request.body);
    const draft = await createDraft(request, request.params.slug, project_id, body);
    return reply.status(201).send(draft);
  });

  app.get<{ Params: WsDraftParams }>(`${W}/:id/`, async (request) =>
    readDraft(await draftAccess(app, request, request.params.slug, request.params.id, {})),
  );

  app.patch<{ Params: WsDraftParams }>(`${W}/:id/`, async (request) =>
    patchDraft(request, await draftAccess(app, request, request.params.slug, request.params.id, { write: true })),
  );

  app.delete<{ Params: WsDraftParams }>(`${W}/:id/`, async (request, reply) => {
    await removeDraft(await draftAccess(app, request, request.params.slug, request.params.id, { write: true }));
    return reply.status(204).send();
  });

  app.post<{ Params: WsDraftParams }>(`${WS_PATH}/draft-to-issue/:id/`, async (request) => {
    const access = await draftAccess(app, request, request.params.slug, request.params.id, { write: true });
    return transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
      lockIssueRow(tx, access.issue).then((row) => {
        if (!row.isDraft) throw notFound("Draft");
        return publishDraft(tx, emit, access.user.id, row);
      }),
    );
  });
}
