/**
 * Reactions on work items ({type}/:id/reactions/) and on comments (comments/:commentId/reactions/).
 * One row per actor and reaction: reacting again returns the existing one (200, no event). A
 * reaction is removed by its owner only, named by its id or (for work items) by its value.
 */
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Db, DbOrTx, Tx } from "../../db/client.ts";
import { commentReactions, issueReactions } from "../../db/schema.ts";
import { type EventBus, eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { forbidden, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { IssueAccess } from "../../policies/access.ts";
import { commentAccess } from "./comments.ts";
import {
  ITEM_TYPES,
  type ItemParams,
  type ItemType,
  itemAccess,
  loadActors,
  PROJECT_PATH,
  type ProjectParams,
  recordItemActivity,
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
type ReactionRow = IssueReactionRow | CommentReactionRow;

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

/**
 * What tells reactions on a work item from reactions on a comment; adding and removing follow
 * the same rules for both.
 */
type ReactionTarget<Row extends ReactionRow> = {
  access: IssueAccess;
  table: typeof issueReactions | typeof commentReactions;
  /** The reactions' column naming what they are on, and its value here. */
  on: typeof issueReactions.issueId | typeof commentReactions.commentId;
  onId: string;
  /** A comment's reactions also name the comment in their history row (field "reaction" either way, as the reference writes it). */
  commentId?: string;
  insert: (tx: Tx, reaction: string) => Promise<Row | undefined>;
  present: (db: DbOrTx, rows: Row[]) => Promise<Record<string, unknown>[]>;
};

function issueTarget(access: IssueAccess): ReactionTarget<IssueReactionRow> {
  return {
    access,
    table: issueReactions,
    on: issueReactions.issueId,
    onId: access.issue.id,
    insert: async (tx, reaction) => {
      const [row] = await tx
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
      return row;
    },
    present: presentIssueReactions,
  };
}

function commentTarget(access: IssueAccess & { comment: { id: string } }): ReactionTarget<CommentReactionRow> {
  return {
    access,
    table: commentReactions,
    on: commentReactions.commentId,
    onId: access.comment.id,
    commentId: access.comment.id,
    insert: async (tx, reaction) => {
      const [row] = await tx
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
      return row;
    },
    present: presentCommentReactions,
  };
}

/** Events about a comment's reaction also name the work item, so boards can find the comment. */
function eventData<Row extends ReactionRow>(
  target: ReactionTarget<Row>,
  presented: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return target.commentId ? { ...presented, issue: target.access.issue.id } : (presented ?? {});
}

async function findReaction<Row extends ReactionRow>(
  db: DbOrTx,
  target: ReactionTarget<Row>,
  ...conditions: SQL[]
): Promise<Row | undefined> {
  const { table } = target;
  const [row] = await db
    .select()
    .from(table)
    .where(and(eq(target.on, target.onId), ...conditions))
    .limit(1);
  return row as Row | undefined;
}

/** React as the caller; reacting again answers the existing reaction (created: false, no event). */
async function addReaction<Row extends ReactionRow>(
  db: Db,
  events: EventBus,
  request: FastifyRequest,
  target: ReactionTarget<Row>,
) {
  const { access, table } = target;
  const { reaction } = parse(reactionBody, request.body);
  return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
    const inserted = await target.insert(tx, reaction);
    if (!inserted) {
      const existing = await findReaction(tx, target, eq(table.actorId, access.user.id), eq(table.reaction, reaction));
      if (!existing) throw new Error("reaction vanished");
      const [presented] = await target.present(tx, [existing]);
      return { created: false, reaction: presented };
    }
    await recordItemActivity(tx, access, {
      verb: "created",
      field: "reaction",
      newValue: reaction,
      newIdentifier: inserted.id,
      commentId: target.commentId,
    });
    const [presented] = await target.present(tx, [inserted]);
    emit("reaction.created", scopeOf(access, inserted.id), eventData(target, presented));
    return { created: true, reaction: presented };
  });
}

/**
 * Remove the caller's reaction named by `key`: its id, or its value among the caller's own.
 * Someone else's reaction is 403.
 */
async function removeReaction<Row extends ReactionRow>(
  db: Db,
  events: EventBus,
  request: FastifyRequest,
  target: ReactionTarget<Row>,
  key: string,
): Promise<void> {
  const { access, table } = target;
  // A reaction value is at most 16 code points, so a UUID can only be a reaction's id.
  const byId = isUuid(key);
  const row = await findReaction(
    db,
    target,
    byId ? eq(table.id, key) : eq(table.reaction, key),
    ...(byId ? [] : [eq(table.actorId, access.user.id)]),
  );
  if (!row) throw notFound("Reaction");
  if (row.actorId !== access.user.id) throw forbidden("You can only remove your own reactions.");
  await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
    const [presented] = await target.present(tx, [row]);
    const deleted = await tx.delete(table).where(eq(table.id, row.id)).returning({ id: table.id });
    if (deleted.length === 0) throw notFound("Reaction");
    await recordItemActivity(tx, access, {
      verb: "deleted",
      field: "reaction",
      oldValue: row.reaction,
      oldIdentifier: row.id,
      commentId: target.commentId,
    });
    emit("reaction.deleted", scopeOf(access, row.id), eventData(target, presented));
  });
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
      const result = await addReaction(db, events, request, issueTarget(access));
      return reply.status(result.created ? 201 : 200).send(result.reaction);
    });

    app.delete<{ Params: ItemParams & { reaction: string } }>(`${base}/:reaction/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      await removeReaction(db, events, request, issueTarget(access), request.params.reaction);
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
    const result = await addReaction(db, events, request, commentTarget(access));
    return reply.status(result.created ? 201 : 200).send(result.reaction);
  });

  app.delete<{ Params: CommentParams & { reactionId: string } }>(
    `${commentBase}/:reactionId/`,
    async (request, reply) => {
      const access = await commentAccess(db, request, request.params, true);
      await removeReaction(db, events, request, commentTarget(access), request.params.reactionId);
      return reply.status(204).send();
    },
  );
}
