/**
 * /api/v1 comments, links and activity of a work item (the reference's work_item.py:
 * issues/:id/comments/, issues/:id/links/, issues/:id/activities/, and the work-items/ aliases):
 * GET (cursor pages), POST; :id/: GET, PATCH, DELETE; activities are read-only. Rules as in the web API: reading needs the item; writing needs project member;
 * only the author edits a comment, the author or a project admin deletes it. The writes are
 * issue-details/comments.ts and links.ts, so history, subscriptions and events follow.
 */
import { ROLE } from "@tideline/shared";
import { and, asc, desc, eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { issueActivities, issueComments, issueLinks } from "../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../events/bus.ts";
import { forbidden, notFound, parse } from "../http/errors.ts";
import { isUuid } from "../http/ids.ts";
import { issueAccess } from "../policies/access.ts";
import {
  type CommentRow,
  cleanComment,
  createCommentBody,
  editComment,
  findComment,
  insertComment,
  removeComment,
  updateCommentBody,
} from "../routes/issue-details/comments.ts";
import {
  createLinkBody,
  editLink,
  findLink,
  insertLink,
  type LinkRow,
  removeLink,
  updateLinkBody,
} from "../routes/issue-details/links.ts";
import { PROJECT, type ProjectParams, type V1 } from "./context.ts";
import { dumpRow } from "./dump.ts";
import { paginateList } from "./paginate.ts";

/** A comment as the reference's public IssueCommentSerializer answers it. */
export function presentPublicComment(row: CommentRow) {
  return {
    ...dumpRow(row, ["commentStripped"]),
    attachments: [],
    external_source: null,
    external_id: null,
    is_member: true,
  };
}

/** A link as the reference's IssueLinkSerializer answers it. */
export function presentPublicLink(row: LinkRow) {
  return dumpRow(row);
}

type ItemParams = ProjectParams & { issueId: string };
type CommentParams = ItemParams & { commentId: string };
type LinkParams = ItemParams & { linkId: string };

export function registerIssueDetailRoutes({ app, docs }: V1): void {
  const { db, events } = app.ctx;
  const item = async (request: FastifyRequest<{ Params: ItemParams }>, write = false) => {
    const access = await issueAccess(
      db,
      request,
      request.params.slug,
      request.params.projectId,
      request.params.issueId,
      {
        minRole: write ? ROLE.member : undefined,
        includeDrafts: false,
      },
    );
    return access;
  };

  for (const kind of ["issues", "work-items"] as const) {
    const comments = `${PROJECT}/${kind}/:issueId/comments`;
    const tag = "Work item comments";
    docs.add<ItemParams>(
      app,
      "get",
      `${comments}/`,
      { summary: "List comments", tag, paginated: true },
      async (request) => {
        const access = await item(request);
        const rows = await db
          .select()
          .from(issueComments)
          .where(eq(issueComments.issueId, access.issue.id))
          .orderBy(desc(issueComments.createdAt), asc(issueComments.id));
        return paginateList(request.query, rows.map(presentPublicComment));
      },
    );
    docs.add<ItemParams>(
      app,
      "post",
      `${comments}/`,
      { summary: "Add a comment", tag, body: createCommentBody, status: 201 },
      async (request, reply) => {
        const access = await item(request, true);
        const body = parse(createCommentBody, request.body);
        const { html, stripped } = cleanComment(body.comment_html);
        const row = await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          insertComment(tx, emit, access, { html, stripped, access: body.access }),
        );
        return reply.status(201).send(presentPublicComment(row));
      },
    );
    docs.add<CommentParams>(
      app,
      "get",
      `${comments}/:commentId/`,
      { summary: "Get a comment", tag },
      async (request) => {
        const access = await item(request);
        return presentPublicComment(await findComment(db, access.issue.id, request.params.commentId));
      },
    );
    docs.add<CommentParams>(
      app,
      "patch",
      `${comments}/:commentId/`,
      { summary: "Edit a comment (its author)", tag, body: updateCommentBody },
      async (request) => {
        const access = await item(request, true);
        const before = await findComment(db, access.issue.id, request.params.commentId);
        if (before.actorId !== access.user.id) throw forbidden("Only the author can edit a comment.");
        const body = parse(updateCommentBody, request.body);
        const cleaned = body.comment_html !== undefined ? cleanComment(body.comment_html) : null;
        const row = await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          editComment(tx, emit, access, before, { cleaned, access: body.access }),
        );
        return presentPublicComment(row);
      },
    );
    docs.add<CommentParams>(
      app,
      "delete",
      `${comments}/:commentId/`,
      { summary: "Delete a comment (its author or a project admin)", tag, empty: true },
      async (request, reply) => {
        const access = await item(request, true);
        const before = await findComment(db, access.issue.id, request.params.commentId);
        if (before.actorId !== access.user.id && (access.projectMembership?.role ?? 0) < ROLE.admin) {
          throw forbidden("Only the author or a project admin can delete a comment.");
        }
        await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          removeComment(tx, emit, access, before),
        );
        return reply.status(204).send();
      },
    );

    // History (the reference's activities/): every recorded change, oldest first.
    type ActivityParams = ItemParams & { activityId: string };
    const activities = `${PROJECT}/${kind}/:issueId/activities`;
    // The reference names the comment reference issue_comment (comment is the sentence).
    const presentActivity = ({ commentId, ...row }: typeof issueActivities.$inferSelect) =>
      dumpRow({ ...row, issueCommentId: commentId, updatedAt: row.createdAt });
    docs.add<ItemParams>(
      app,
      "get",
      `${activities}/`,
      { summary: "List a work item's activity", tag: "Work item activity", paginated: true },
      async (request) => {
        const access = await item(request);
        const rows = await db
          .select()
          .from(issueActivities)
          .where(eq(issueActivities.issueId, access.issue.id))
          .orderBy(asc(issueActivities.createdAt), asc(issueActivities.id));
        return paginateList(request.query, rows.map(presentActivity));
      },
    );
    docs.add<ActivityParams>(
      app,
      "get",
      `${activities}/:activityId/`,
      { summary: "Get one activity of a work item", tag: "Work item activity" },
      async (request) => {
        const access = await item(request);
        if (!isUuid(request.params.activityId)) throw notFound("Activity");
        const [row] = await db
          .select()
          .from(issueActivities)
          .where(and(eq(issueActivities.id, request.params.activityId), eq(issueActivities.issueId, access.issue.id)))
          .limit(1);
        if (!row) throw notFound("Activity");
        return presentActivity(row);
      },
    );

    const links = `${PROJECT}/${kind}/:issueId/links`;
    const linkTag = "Work item links";
    docs.add<ItemParams>(
      app,
      "get",
      `${links}/`,
      { summary: "List links", tag: linkTag, paginated: true },
      async (request) => {
        const access = await item(request);
        const rows = await db
          .select()
          .from(issueLinks)
          .where(eq(issueLinks.issueId, access.issue.id))
          .orderBy(desc(issueLinks.createdAt), asc(issueLinks.id));
        return paginateList(request.query, rows.map(presentPublicLink));
      },
    );
    docs.add<ItemParams>(
      app,
      "post",
      `${links}/`,
      { summary: "Add a link (http or https)", tag: linkTag, body: createLinkBody, status: 201 },
      async (request, reply) => {
        const access = await item(request, true);
        const body = parse(createLinkBody, request.body);
        const row = await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          insertLink(tx, emit, access, body),
        );
        return reply.status(201).send(presentPublicLink(row));
      },
    );
    docs.add<LinkParams>(app, "get", `${links}/:linkId/`, { summary: "Get a link", tag: linkTag }, async (request) => {
      const access = await item(request);
      return presentPublicLink(await findLink(db, access, request.params.linkId));
    });
    docs.add<LinkParams>(
      app,
      "patch",
      `${links}/:linkId/`,
      { summary: "Update a link", tag: linkTag, body: updateLinkBody },
      async (request) => {
        const access = await item(request, true);
        const before = await findLink(db, access, request.params.linkId);
        const body = parse(updateLinkBody, request.body);
        const row = await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          editLink(tx, emit, access, before, body),
        );
        return presentPublicLink(row);
      },
    );
    docs.add<LinkParams>(
      app,
      "delete",
      `${links}/:linkId/`,
      { summary: "Delete a link", tag: linkTag, empty: true },
      async (request, reply) => {
        const access = await item(request, true);
        const before = await findLink(db, access, request.params.linkId);
        await transactionWithEvents(db, events, eventOrigin(request), (tx, emit) =>
          removeLink(tx, emit, access, before),
        );
        return reply.status(204).send();
      },
    );
  }
}
