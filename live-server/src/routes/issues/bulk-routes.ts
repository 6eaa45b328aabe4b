/**
 * Changes to several work items at once, each all or nothing (one transaction; any bad item
 * refuses the whole request and nothing is stored):
 * - POST bulk-operation-issues/ {issue_ids, properties}: set state, priority, dates, estimate;
 *   assignee_ids, label_ids and module_ids are ADDED to each item's own (the spreadsheet's bulk edit).
 *   History per item and field, one issue.updated per item;
 * - DELETE bulk-delete-issues/ {issue_ids}: soft delete (project admin, or a member deleting
 *   only items they created);
 * - POST bulk-subscribe-issues/ {issue_ids}: the caller follows them (guests too, for items
 *   they can see);
 * - POST issue-dates/ {updates: [{id, start_date, target_date}]}: the timeline's date moves.
 */
import { ROLE } from "@tideline/shared";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Tx } from "../../db/client.ts";
import { issueAssignees, issueLabels, issueSubscribers, issues, moduleIssues } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { ApiError, badRequest, forbidden, parse } from "../../http/errors.ts";
import { guestSeesOwnOnly, type IssueRow, type ProjectAccess, projectAccess } from "../../policies/access.ts";
import { ensureSubscribed } from "../../services/issue-subscriptions.ts";
import { PROJECT_PATH, type ProjectParams } from "./common.ts";
import type { PresentedIssue } from "./query.ts";
import { bulkOperationBody, issueDatesBody, issueIdsBody } from "./schema.ts";
import { deleteIssues, loadProjectRefs, updateIssue } from "./service.ts";

/** The project's visible, non-draft, non-deleted items `ids` (in that order), or a 400 naming the missing. */
export async function projectItems(tx: Tx, access: ProjectAccess, ids: readonly string[]): Promise<IssueRow[]> {
  const unique = [...new Set(ids)];
  const rows = await tx
    .select()
    .from(issues)
    .where(
      and(
        inArray(issues.id, unique),
        eq(issues.projectId, access.project.id),
        isNull(issues.deletedAt),
        eq(issues.isDraft, false),
        eq(issues.inIntake, false),
      ),
    )
    .orderBy(issues.id)
    .for("update");
  const visible = guestSeesOwnOnly(access) ? rows.filter((r) => r.createdById === access.user.id) : rows;
  const byId = new Map(visible.map((r) => [r.id, r]));
  const missing = unique.filter((id) => !byId.has(id));
  if (missing.length) throw badRequest("Work item not found", { issue_ids: missing }, "NOT_FOUND");
  return unique.map((id) => byId.get(id) as IssueRow);
}

/** Name the item in a refusal from one of several updates. */
async function forItem<T>(key: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      throw badRequest(`${key}: ${error.message}`, error.fields, String(error.code ?? "VALIDATION_ERROR"));
    }
    throw error;
  }
}

export async function issueBulkRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;
  const memberAccess = (request: { params: ProjectParams }, req: Parameters<typeof projectAccess>[1]) =>
    projectAccess(db, req, request.params.slug, request.params.projectId, { minRole: ROLE.member });

  app.post<{ Params: ProjectParams }>(`${PROJECT_PATH}/bulk-operation-issues/`, async (request) => {
    const access = await memberAccess(request, request);
    const { issue_ids, properties } = parse(bulkOperationBody, request.body);
    return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const rows = await projectItems(tx, access, issue_ids);
      const ids = rows.map((r) => r.id);
      const refs = await loadProjectRefs(tx, access.project);
      // Sequential: one transaction is one connection.
      const assignees = properties.assignee_ids
        ? await tx.select().from(issueAssignees).where(inArray(issueAssignees.issueId, ids))
        : [];
      const labels = properties.label_ids
        ? await tx.select().from(issueLabels).where(inArray(issueLabels.issueId, ids))
        : [];
      const inModules = properties.module_ids
        ? await tx.select().from(moduleIssues).where(inArray(moduleIssues.issueId, ids))
        : [];
      const out: PresentedIssue[] = [];
      for (const row of rows) {
        const { assignee_ids, label_ids, module_ids, ...rest } = properties;
        const patch: Parameters<typeof updateIssue>[4] = { ...rest };
        if (assignee_ids) {
          const own = assignees.filter((a) => a.issueId === row.id).map((a) => a.assigneeId);
          patch.assignee_ids = [...new Set([...own, ...assignee_ids])];
        }
        if (label_ids) {
          const own = labels.filter((l) => l.issueId === row.id).map((l) => l.labelId);
          patch.label_ids = [...new Set([...own, ...label_ids])];
        }
        if (module_ids) {
          const own = inModules.filter((m) => m.issueId === row.id).map((m) => m.moduleId);
          patch.module_ids = [...new Set([...own, ...module_ids])];
        }
        const { issue } = await forItem(`${access.project.identifier}-${row.sequenceId}`, () =>
          updateIssue(tx, emit, { project: access.project, actorId: access.user.id }, row, patch, { refs }),
        );
        out.push(issue);
      }
      return out;
    });
  });

  app.delete<{ Params: ProjectParams }>(`${PROJECT_PATH}/bulk-delete-issues/`, async (request, reply) => {
    const access = await memberAccess(request, request);
    const { issue_ids } = parse(issueIdsBody, request.body);
    await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const rows = await projectItems(tx, access, issue_ids);
      const isAdmin = (access.projectMembership?.role ?? 0) >= ROLE.admin;
      if (!isAdmin && rows.some((r) => r.createdById !== access.user.id)) {
        throw forbidden("Only a project admin can delete work items created by others.");
      }
      await deleteIssues(tx, emit, { project: access.project, actorId: access.user.id }, rows);
    });
    return reply.status(204).send();
  });

  app.post<{ Params: ProjectParams }>(`${PROJECT_PATH}/bulk-subscribe-issues/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    const { issue_ids } = parse(issueIdsBody, request.body);
    return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const rows = await projectItems(tx, access, issue_ids);
      const already = new Set(
        (
          await tx
            .select({ id: issueSubscribers.issueId })
            .from(issueSubscribers)
            .where(
              and(
                eq(issueSubscribers.subscriberId, access.user.id),
                inArray(
                  issueSubscribers.issueId,
                  rows.map((r) => r.id),
                ),
              ),
            )
        ).map((r) => r.id),
      );
      for (const row of rows) {
        if (already.has(row.id)) continue;
        await ensureSubscribed(tx, row, [access.user.id]);
        emit(
          "subscription.created",
          { workspaceId: row.workspaceId, projectId: row.projectId, entityId: row.id },
          { issue_id: row.id, subscriber_id: access.user.id, subscribed: true },
        );
      }
      return { issue_ids: rows.map((r) => r.id), subscribed: true };
    });
  });

  app.post<{ Params: ProjectParams }>(`${PROJECT_PATH}/issue-dates/`, async (request) => {
    const access = await memberAccess(request, request);
    const { updates } = parse(issueDatesBody, request.body);
    const ids = updates.map((u) => u.id);
    if (new Set(ids).size !== ids.length)
      throw badRequest("Each work item may appear once", { updates: ["Duplicate id"] });
    return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const rows = await projectItems(tx, access, ids);
      const refs = await loadProjectRefs(tx, access.project);
      const out: PresentedIssue[] = [];
      for (const [index, row] of rows.entries()) {
        const update = updates[index];
        if (!update) continue;
        const patch = {
          ...(update.start_date !== undefined ? { start_date: update.start_date } : {}),
          ...(update.target_date !== undefined ? { target_date: update.target_date } : {}),
        };
        const { issue } = await forItem(`${access.project.identifier}-${row.sequenceId}`, () =>
          updateIssue(tx, emit, { project: access.project, actorId: access.user.id }, row, patch, { refs }),
        );
        out.push(issue);
      }
      return out;
    });
  });
}
