/**
 * Comments on a work item: GET/POST {type}/:id/comments/, PATCH/DELETE …/comments/:commentId/.
 * The HTML is sanitised before it is stored and a plain-text copy kept for search; commenting
 * subscribes the commenter. Only the author edits a comment (edited_at marks it); the author or
 * a project admin deletes it.
 */
import { ROLE } from "@tideline/shared";
import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { htmlToPlainText, isEmptyRichText, sanitizeRichText } from "../../content/sanitize.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { issueComments, issues } from "../../db/schema.ts";
import { type EmitFn, eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, forbidden, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { guestSeesOwnOnly, type IssueAccess, projectAccess } from "../../policies/access.ts";
import { transactionOnce } from "../../services/client-mutations.ts";
import { ensureSubscribed } from "../../services/issue-subscriptions.ts";
import {
  ITEM_TYPES,
  type ItemParams,
  type ItemType,
  itemAccess,
  laterThan,
  PROJECT_PATH,
  type ProjectParams,
  recordItemActivity,
  scopeOf,
  timestampParam,
} from "./common.ts";
import { presentComments } from "./presenters.ts";

/** Generous for prose, small enough that one comment can't fill the database. */
export const COMMENT_HTML_MAX = 200_000;

const commentHtml = z
  .string("Write a comment")
  .max(COMMENT_HTML_MAX, `A comment can have at most ${COMMENT_HTML_MAX} characters of HTML`);
const commentAccessField = z.enum(["INTERNAL", "EXTERNAL"]);

export const createCommentBody = z.object({ comment_html: commentHtml, access: commentAccessField.optional() });
export const updateCommentBody = z.object({
  comment_html: commentHtml.optional(),
  access: commentAccessField.optional(),
});
const listCommentsQuery = z.object({ created_at__gt: timestampParam, updated_at__gt: timestampParam });

export type CommentRow = typeof issueComments.$inferSelect;
type CommentParams = ItemParams & { commentId: string };

/** Sanitised HTML and its plain text; an empty comment is refused (400). */
export function cleanComment(html: string): { html: string; stripped: string } {
  const clean = sanitizeRichText(html);
  if (isEmptyRichText(clean)) {
    const message = "A comment can't be empty.";
    throw badRequest(message, { comment_html: [message] }, "COMMENT_EMPTY");
  }
  return { html: clean, stripped: htmlToPlainText(clean) };
}

/** A comment of the item the caller reached, or 404. */
export async function findComment(db: DbOrTx, issueId: string, commentId: string): Promise<CommentRow> {
  if (!isUuid(commentId)) throw notFound("Comment");
  const [row] = await db
    .select()
    .from(issueComments)
    .where(and(eq(issueComments.id, commentId), eq(issueComments.issueId, issueId)))
    .limit(1);
  if (!row) throw notFound("Comment");
  return row;
}

/**
 * A comment addressed by id under its project (comment reactions): the same rules as its work
 * item — 404 when the item is deleted or the caller is a guest who may not see it.
 */
export async function commentAccess(
  db: DbOrTx,
  request: FastifyRequest,
  params: ProjectParams & { commentId: string },
  write = false,
): Promise<IssueAccess & { comment: CommentRow }> {
  const access = await projectAccess(db, request, params.slug, params.projectId, write ? { minRole: ROLE.member } : {});
  if (!isUuid(params.commentId)) throw notFound("Comment");
  const [row] = await db
    .select({ comment: issueComments, issue: issues })
    .from(issueComments)
    .innerJoin(issues, eq(issues.id, issueComments.issueId))
    .where(
      and(
        eq(issueComments.id, params.commentId),
        eq(issueComments.projectId, access.project.id),
        eq(issues.projectId, access.project.id),
        isNull(issues.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound("Comment");
  if (guestSeesOwnOnly(access) && row.issue.createdById !== access.user.id) throw notFound("Comment");
  return { ...access, issue: row.issue, comment: row.comment };
}

/** Add a comment (sanitised by cleanComment) to the item: the commenter subscribed, history, comment.created. */
export async function insertComment(
  tx: Tx,
  emit: EmitFn,
  access: IssueAccess,
  body: { html: string; stripped: string; access?: "INTERNAL" | "EXTERNAL" },
): Promise<CommentRow> {
  const { html, stripped } = body;
  const [row] = await tx
    .insert(issueComments)
    .values({
      workspaceId: access.workspace.id,
      projectId: access.project.id,
      issueId: access.issue.id,
      actorId: access.user.id,
      commentHtml: html,
      commentStripped: stripped,
      access: body.access ?? "INTERNAL",
      createdById: access.user.id,
      updatedById: access.user.id,
    })
    .returning();
  if (!row) throw new Error("comment insert failed");
  await ensureSubscribed(tx, access.issue, [access.user.id]);
  await recordItemActivity(tx, access, {
    verb: "created",
    field: "comment",
    newValue: row.commentHtml,
    newIdentifier: row.id,
    commentId: row.id,
  });
  const [presented] = await presentComments(tx, [row]);
  emit("comment.created", scopeOf(access, row.id), presented ?? {});
  return row;
}

/** Change a comment's text (edited_at when it changed, history) or access; comment.updated. */
export async function editComment(
  tx: Tx,
  emit: EmitFn,
  access: IssueAccess,
  before: CommentRow,
  body: { cleaned: { html: string; stripped: string } | null; access?: "INTERNAL" | "EXTERNAL" },
): Promise<CommentRow> {
  const { cleaned } = body;
  const textChanged = cleaned !== null && cleaned.html !== before.commentHtml;
  const [row] = await tx
    .update(issueComments)
    .set({
      ...(cleaned ? { commentHtml: cleaned.html, commentStripped: cleaned.stripped } : {}),
      ...(textChanged ? { editedAt: new Date() } : {}),
      ...(body.access ? { access: body.access } : {}),
      updatedById: access.user.id,
    })
    .where(and(eq(issueComments.id, before.id), eq(issueComments.issueId, access.issue.id)))
    .returning();
  if (!row) throw notFound("Comment");
  if (textChanged) {
    await recordItemActivity(tx, access, {
      verb: "updated",
      field: "comment",
      oldValue: before.commentHtml,
      newValue: row.commentHtml,
      oldIdentifier: row.id,
      newIdentifier: row.id,
      commentId: row.id,
    });
  }
  const [presented] = await presentComments(tx, [row]);
  emit("comment.updated", scopeOf(access, row.id), presented ?? {});
  return row;
}

/** Delete a comment: history keeps which it was; comment.deleted carries it as it was. */
export async function removeComment(tx: Tx, emit: EmitFn, access: IssueAccess, before: CommentRow): Promise<void> {
  // Presented before the delete: the event carries the comment as it was.
  const [presented] = await presentComments(tx, [before]);
  const deleted = await tx
    .delete(issueComments)
    .where(and(eq(issueComments.id, before.id), eq(issueComments.issueId, access.issue.id)))
    .returning({ id: issueComments.id });
  if (deleted.length === 0) throw notFound("Comment");
  await recordItemActivity(tx, access, {
    // The reference keeps only which comment it was.
    verb: "deleted",
    field: "comment",
    commentId: before.id,
  });
  emit("comment.deleted", scopeOf(access, before.id), presented ?? {});
}

export async function registerCommentRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  for (const type of ITEM_TYPES) {
    const base = `${PROJECT_PATH}/${type}/:issueId/comments`;
    const t: ItemType = type;

    app.get<{ Params: ItemParams }>(`${base}/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params);
      const query = parse(listCommentsQuery, request.query);
      const conditions: SQL[] = [eq(issueComments.issueId, access.issue.id)];
      if (query.created_at__gt) conditions.push(laterThan(issueComments.createdAt, query.created_at__gt));
      if (query.updated_at__gt) conditions.push(laterThan(issueComments.updatedAt, query.updated_at__gt));
      const rows = await db
        .select()
        .from(issueComments)
        .where(and(...conditions))
        .orderBy(asc(issueComments.createdAt), asc(issueComments.id));
      return presentComments(db, rows);
    });

    app.post<{ Params: ItemParams }>(`${base}/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const body = parse(createCommentBody, request.body);
      const { html, stripped } = cleanComment(body.comment_html);
      const answer = await transactionOnce(db, events, request, 201, async (tx, emit) => {
        const row = await insertComment(tx, emit, access, { html, stripped, access: body.access });
        const [presented] = await presentComments(tx, [row]);
        return presented;
      });
      return reply.status(answer.status).send(answer.body);
    });

    app.patch<{ Params: CommentParams }>(`${base}/:commentId/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const before = await findComment(db, access.issue.id, request.params.commentId);
      if (before.actorId !== access.user.id) throw forbidden("Only the author can edit a comment.");
      const body = parse(updateCommentBody, request.body);
      const cleaned = body.comment_html !== undefined ? cleanComment(body.comment_html) : null;
      return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const row = await editComment(tx, emit, access, before, { cleaned, access: body.access });
        const [presented] = await presentComments(tx, [row]);
        return presented;
      });
    });

    app.delete<{ Params: CommentParams }>(`${base}/:commentId/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const before = await findComment(db, access.issue.id, request.params.commentId);
      const isProjectAdmin = (access.projectMembership?.role ?? 0) >= ROLE.admin;
      if (before.actorId !== access.user.id && !isProjectAdmin) {
        throw forbidden("Only the author or a project admin can delete a comment.");
      }
      await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        await removeComment(tx, emit, access, before);
      });
      return reply.status(204).send();
    });
  }
}
