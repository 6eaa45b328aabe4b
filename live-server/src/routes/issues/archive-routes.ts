/**
 * Archiving (calls-errors-sync §7; product-domain §4, §5): POST {type}/{id}/archive/ archives a
 * closed item (state group completed or cancelled) and answers {archived_at}; DELETE restores;
 * GET reads an archived item. POST bulk-archive-issues/ archives several, all or nothing.
 * Archived items leave the lists, stay editable (PATCH) and can be restored. Member and up.
 */
import { ROLE } from "@tideline/shared";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { issues } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound, parse } from "../../http/errors.ts";
import { foldPendingLog } from "../../live/storage.ts";
import { guestSeesOwnOnly, projectAccess } from "../../policies/access.ts";
import { ITEM_TYPES, type ItemParams, itemAccess, PROJECT_PATH, type ProjectParams } from "./common.ts";
import { issueDetail, readExpand } from "./expand.ts";
import { issueIdsBody } from "./schema.ts";
import { archiveIssues, assertArchivable, loadProjectRefs, lockIssueRow, restoreIssue } from "./service.ts";

export async function issueArchiveRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  for (const type of ITEM_TYPES) {
    const path = `${PROJECT_PATH}/${type}/:id/archive/`;

    app.get<{ Params: ItemParams; Querystring: Record<string, unknown> }>(path, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      if (!access.issue.archivedAt) throw notFound("Archived work item");
      // Edits still only in the write-ahead log (a crash, a pending store) show in description_html.
      await foldPendingLog(db, events, { kind: "issue", id: access.issue.id }, app.ctx.live.instanceId);
      const detail = await issueDetail(
        db,
        access.issue.id,
        { userId: access.user.id, workspaceSlug: access.workspace.slug },
        readExpand(request.query.expand),
      );
      if (!detail) throw notFound("Work item");
      return detail;
    });

    app.post<{ Params: ItemParams }>(path, async (request) => {
      const access = await itemAccess(db, request, type, request.params, true);
      const archivedAt = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const row = await lockIssueRow(tx, access.issue);
        assertArchivable(row, await loadProjectRefs(tx, access.project));
        return archiveIssues(tx, emit, { project: access.project, actorId: access.user.id }, [row]);
      });
      return { archived_at: archivedAt.toISOString() };
    });

    app.delete<{ Params: ItemParams }>(path, async (request) => {
      const access = await itemAccess(db, request, type, request.params, true);
      return transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
        lockIssueRow(tx, access.issue).then((row) =>
          restoreIssue(tx, emit, { project: access.project, actorId: access.user.id }, row),
        ),
      );
    });
  }

  app.post<{ Params: ProjectParams }>(`${PROJECT_PATH}/bulk-archive-issues/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
      minRole: ROLE.member,
    });
    const { issue_ids } = parse(issueIdsBody, request.body);
    const ids = [...new Set(issue_ids)];
    const archivedAt = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const rows = await tx
        .select()
        .from(issues)
        .where(
          and(
            inArray(issues.id, ids),
            eq(issues.projectId, access.project.id),
            isNull(issues.deletedAt),
            eq(issues.isDraft, false),
            eq(issues.inIntake, false),
          ),
        )
        .for("update");
      const visible = guestSeesOwnOnly(access) ? rows.filter((r) => r.createdById === access.user.id) : rows;
      if (visible.length !== ids.length) {
        const found = new Set(visible.map((r) => r.id));
        throw badRequest("Work item not found", { issue_ids: ids.filter((id) => !found.has(id)) }, "NOT_FOUND");
      }
      const refs = await loadProjectRefs(tx, access.project);
      for (const row of visible) assertArchivable(row, refs, `${access.project.identifier}-${row.sequenceId}`);
      return archiveIssues(tx, emit, { project: access.project, actorId: access.user.id }, visible);
    });
    return { archived_at: archivedAt.toISOString() };
  });
}
