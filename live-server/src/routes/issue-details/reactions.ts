/**
 * Reactions on work items ({type}/:id/reactions/) and on comments (comments/:commentId/reactions/).
 * One row per actor and reaction: reacting again returns the existing one (200, no event). A
 * reaction is removed by its owner only, named by its id or (for work items) by its value.
 */
import { and, asc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { DbOrTx } from "../../db/client.ts";
import { commentReactions, issueReactions } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { forbidden, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { recordActivity } from "../../services/issue-activity.ts";
import { commentAccess } from "./comments.ts";
import {
  ITEM_TYPES,
  type ItemParams,
  type ItemType,
  itemAccess,
  loadActors,
  PROJECT_PATH,
  type ProjectParams,
  scopeOf,
} from "./common.ts";
import { presentCommentReaction, presentIssueReaction } from "./presenters.ts";

/**
 * 1–16 code points of emoji or text (a family emoji with joiners is 7). No whitespace, no
 * control or bidi-override characters (the zero-width joiner that glues emoji is the one
 * format character kept), no markup or path characters: the value also travels in URLs.
 */
export const REACTION_PATTERN = /^(?:[^\s\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}<>&"'`/\\?#%]|\u200D){1,16}$/u;

export function isValidReaction(value: string): boolean {
  return REACTION_PATTERN.test(value);
}

const reactionBody = z.object({
  reaction: z
    .string("Choose a reaction")
    .trim()
    .refine(isValidReaction, "A reaction is an emoji or up to 16 characters without spaces"),
});

type IssueReactionRow = typeof issueReactions.$inferSelect;
type CommentReactionRow = typeof commentReactions.$inferSelect;

async function presentIssueReactions(db: DbOrTx, rows: IssueReactionRow[]) {
  const actors = await loadActors(
    db,
    rows.map((r) => r.actorId),
  );
  return rows.map((r) => presentIssueReaction(r, actors.get(r.actorId) ?? null));
}

async function presentCommentReactions(db: DbOrTx, rows: CommentReactionRow[]) {
  const actors = await loadActors(
    db,
    rows.map((r) => r.actorId),
  );
  return rows.map((r) => presentCommentReaction(r, actors.get(r.actorId) ?? null));
}

export async function registerReactionRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  // ───────── work-item reactions ─────────

  for (const type of ITEM_TYPES) {
    const base = `${PROJECT_PATH}/${type}/:issueId/reactions`;
    const t: ItemType = type;

    app.get<{ Params: ItemParams }>(`${base}/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params);
      const rows = await db
        .select()
        .from(issueReactions)
        .where(eq(issueReactions.issueId, access.issue.id))
        .orderBy(asc(issueReactions.createdAt), asc(issueReactions.id));
      return presentIssueReactions(db, rows);
    });

    app.post<{ Params: ItemParams }>(`${base}/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const { reaction } = parse(reactionBody, request.body);
      const result = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const [inserted] = await tx
          .insert(issueReactions)
          .values({
            workspaceId: access.workspace.id,
            projectId: access.project.id,
            issueId: access.issue.id,
            actorId: access.user.id,
            reaction,
          })
          .onConflictDoNothing()
          .returning();
        if (!inserted) {
          const [existing] = await tx
            .select()
            .from(issueReactions)
            .where(
              and(
                eq(issueReactions.issueId, access.issue.id),
                eq(issueReactions.actorId, access.user.id),
                eq(issueReactions.reaction, reaction),
              ),
            )
            .limit(1);
          if (!existing) throw new Error("reaction vanished");
          const [presented] = await presentIssueReactions(tx, [existing]);
          return { created: false, reaction: presented };
        }
        await recordActivity(tx, {
          workspaceId: access.workspace.id,
          projectId: access.project.id,
          issueId: access.issue.id,
          actorId: access.user.id,
          verb: "created",
          field: "reaction",
          newValue: reaction,
          newIdentifier: inserted.id,
        });
        const [presented] = await presentIssueReactions(tx, [inserted]);
        emit("reaction.created", scopeOf(access, inserted.id), presented ?? {});
        return { created: true, reaction: presented };
      });
      return reply.status(result.created ? 201 : 200).send(result.reaction);
    });

    app.delete<{ Params: ItemParams & { reaction: string } }>(`${base}/:reaction/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const key = request.params.reaction;
      // A reaction value is at most 16 code points, so a UUID can only be a reaction's id.
      const byId = isUuid(key);
      const [row] = await db
        .select()
        .from(issueReactions)
        .where(
          and(
            eq(issueReactions.issueId, access.issue.id),
            byId ? eq(issueReactions.id, key) : eq(issueReactions.reaction, key),
            ...(byId ? [] : [eq(issueReactions.actorId, access.user.id)]),
          ),
        )
        .limit(1);
      if (!row) throw notFound("Reaction");
      if (row.actorId !== access.user.id) throw forbidden("You can only remove your own reactions.");
      await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const [presented] = await presentIssueReactions(tx, [row]);
        const deleted = await tx
          .delete(issueReactions)
          .where(eq(issueReactions.id, row.id))
          .returning({ id: issueReactions.id });
        if (deleted.length === 0) throw notFound("Reaction");
        await recordActivity(tx, {
          workspaceId: access.workspace.id,
          projectId: access.project.id,
          issueId: access.issue.id,
          actorId: access.user.id,
          verb: "deleted",
          field: "reaction",
          oldValue: row.reaction,
          oldIdentifier: row.id,
        });
        emit("reaction.deleted", scopeOf(access, row.id), presented ?? {});
      });
      return reply.status(204).send();
    });
  }

  // ───────── comment reactions ─────────

  type CommentParams = ProjectParams & { commentId: string };
  const commentBase = `${PROJECT_PATH}/comments/:commentId/reactions`;

  app.get<{ Params: CommentParams }>(`${commentBase}/`, async (request) => {
    const access = await commentAccess(db, request, request.params);
    const rows = await db
      .select()
      .from(commentReactions)
      .where(eq(commentReactions.commentId, access.comment.id))
      .orderBy(asc(commentReactions.createdAt), asc(commentReactions.id));
    return presentCommentReactions(db, rows);
  });

  app.post<{ Params: CommentParams }>(`${commentBase}/`, async (request, reply) => {
    const access = await commentAccess(db, request, request.params, true);
    const { reaction } = parse(reactionBody, request.body);
    const result = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const [inserted] = await tx
        .insert(commentReactions)
        .values({
          workspaceId: access.workspace.id,
          projectId: access.project.id,
          commentId: access.comment.id,
          actorId: access.user.id,
          reaction,
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) {
        const [existing] = await tx
          .select()
          .from(commentReactions)
          .where(
            and(
              eq(commentReactions.commentId, access.comment.id),
              eq(commentReactions.actorId, access.user.id),
              eq(commentReactions.reaction, reaction),
            ),
          )
          .limit(1);
        if (!existing) throw new Error("reaction vanished");
        const [presented] = await presentCommentReactions(tx, [existing]);
        return { created: false, reaction: presented };
      }
      await recordActivity(tx, {
        workspaceId: access.workspace.id,
        projectId: access.project.id,
        issueId: access.issue.id,
        actorId: access.user.id,
        verb: "created",
        field: "comment_reaction",
        newValue: reaction,
        newIdentifier: inserted.id,
        commentId: access.comment.id,
      });
      const [presented] = await presentCommentReactions(tx, [inserted]);
      emit("reaction.created", scopeOf(access, inserted.id), { ...presented, issue: access.issue.id });
      return { created: true, reaction: presented };
    });
    return reply.status(result.created ? 201 : 200).send(result.reaction);
  });

  app.delete<{ Params: CommentParams & { reactionId: string } }>(
    `${commentBase}/:reactionId/`,
    async (request, reply) => {
      const access = await commentAccess(db, request, request.params, true);
      const key = request.params.reactionId;
      const byId = isUuid(key);
      const [row] = await db
        .select()
        .from(commentReactions)
        .where(
          and(
            eq(commentReactions.commentId, access.comment.id),
            byId ? eq(commentReactions.id, key) : eq(commentReactions.reaction, key),
            ...(byId ? [] : [eq(commentReactions.actorId, access.user.id)]),
          ),
        )
        .limit(1);
      if (!row) throw notFound("Reaction");
      if (row.actorId !== access.user.id) throw forbidden("You can only remove your own reactions.");
      await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const [presented] = await presentCommentReactions(tx, [row]);
        const deleted = await tx
          .delete(commentReactions)
          .where(eq(commentReactions.id, row.id))
          .returning({ id: commentReactions.id });
        if (deleted.length === 0) throw notFound("Reaction");
        await recordActivity(tx, {
          workspaceId: access.workspace.id,
          projectId: access.project.id,
          issueId: access.issue.id,
          actorId: access.user.id,
          verb: "deleted",
          field: "comment_reaction",
          oldValue: row.reaction,
          oldIdentifier: row.id,
          commentId: access.comment.id,
        });
        emit("reaction.deleted", scopeOf(access, row.id), { ...presented, issue: access.issue.id });
      });
      return reply.status(204).send();
    },
  );
}
