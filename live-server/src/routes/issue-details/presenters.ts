/** How comments and reactions appear in API responses and in the events about them. */
import { asc, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { commentReactions, type issueComments, type issueReactions } from "../../db/schema.ts";
import { type ActorDetail, iso, loadActors } from "./common.ts";

type CommentRow = typeof issueComments.$inferSelect;
type IssueReactionRow = typeof issueReactions.$inferSelect;
type CommentReactionRow = typeof commentReactions.$inferSelect;

function reactionBase(row: IssueReactionRow | CommentReactionRow, actor: ActorDetail | null) {
  return {
    id: row.id,
    actor: row.actorId,
    actor_id: row.actorId,
    actor_detail: actor,
    display_name: actor?.display_name ?? null,
    reaction: row.reaction,
    project: row.projectId,
    workspace: row.workspaceId,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentIssueReaction(row: IssueReactionRow, actor: ActorDetail | null) {
  return { ...reactionBase(row, actor), issue: row.issueId };
}

export function presentCommentReaction(row: CommentReactionRow, actor: ActorDetail | null) {
  return { ...reactionBase(row, actor), comment: row.commentId };
}

export type PresentedCommentReaction = ReturnType<typeof presentCommentReaction>;

export function presentComment(
  row: CommentRow,
  actor: ActorDetail | null,
  reactions: readonly PresentedCommentReaction[],
) {
  return {
    id: row.id,
    comment_html: row.commentHtml,
    comment_stripped: row.commentStripped,
    access: row.access,
    actor: row.actorId,
    actor_detail: actor,
    issue: row.issueId,
    issue_id: row.issueId,
    project: row.projectId,
    workspace: row.workspaceId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    edited_at: iso(row.editedAt),
    created_by: row.createdById,
    updated_by: row.updatedById,
    comment_reactions: reactions,
  };
}
export type PresentedComment = ReturnType<typeof presentComment>;

/** Present comments with their authors and reactions: three queries whatever their number. */
export async function presentComments(db: DbOrTx, rows: readonly CommentRow[]): Promise<PresentedComment[]> {
  if (rows.length === 0) return [];
  const reactions = await db
    .select()
    .from(commentReactions)
    .where(
      inArray(
        commentReactions.commentId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(commentReactions.createdAt), asc(commentReactions.id));
  const actors = await loadActors(db, [...rows.map((r) => r.actorId), ...reactions.map((r) => r.actorId)]);
  const byComment = new Map<string, PresentedCommentReaction[]>();
  for (const r of reactions) {
    const list = byComment.get(r.commentId) ?? [];
    list.push(presentCommentReaction(r, actors.get(r.actorId) ?? null));
    byComment.set(r.commentId, list);
  }
  return rows.map((row) => presentComment(row, actors.get(row.actorId) ?? null, byComment.get(row.id) ?? []));
}
