/** How notifications appear in API responses and in the events about them (snake_case). */
import { and, eq, gt, inArray, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { notifications } from "../db/schema.ts";
import { type ActorDetail, iso, loadActors } from "../routes/issue-details/common.ts";

export type NotificationRow = typeof notifications.$inferSelect;

export function presentNotification(row: NotificationRow, triggeredBy: ActorDetail | null) {
  return {
    id: row.id,
    title: row.title,
    data: row.data,
    entity_identifier: row.entityIdentifier,
    entity_name: row.entityName,
    message_html: row.messageHtml,
    message: row.message,
    message_stripped: row.messageStripped,
    sender: row.sender,
    receiver: row.receiverId,
    triggered_by: row.triggeredById,
    triggered_by_details: triggeredBy,
    read_at: iso(row.readAt),
    archived_at: iso(row.archivedAt),
    snoozed_till: iso(row.snoozedTill),
    is_inbox_issue: row.isInboxIssue,
    is_mentioned_notification: row.isMentionedNotification,
    workspace: row.workspaceId,
    project: row.projectId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    created_by: row.createdById,
    updated_by: row.updatedById,
  };
}
export type PresentedNotification = ReturnType<typeof presentNotification>;

/** Present rows with the people who triggered them: one extra query whatever their number. */
export async function presentNotifications(
  db: DbOrTx,
  rows: readonly NotificationRow[],
): Promise<PresentedNotification[]> {
  if (rows.length === 0) return [];
  const actors = await loadActors(
    db,
    rows.map((r) => r.triggeredById),
  );
  return rows.map((r) => presentNotification(r, r.triggeredById ? (actors.get(r.triggeredById) ?? null) : null));
}

// ───────────────────────────── what counts as what ─────────────────────────────

/** Snoozed right now: a snooze time still in the future. A passed snooze counts as not snoozed. */
export const snoozedNow = (): SQL =>
  and(isNotNull(notifications.snoozedTill), gt(notifications.snoozedTill, sql`now()`)) as SQL;
export const notSnoozedNow = (): SQL =>
  or(isNull(notifications.snoozedTill), lte(notifications.snoozedTill, sql`now()`)) as SQL;

/** Notifications about a work item that was deleted since are not shown (nor counted). */
export const aboutLiveEntity = (): SQL =>
  sql`not exists (select 1 from issues di where di.id = ${notifications.entityIdentifier} and di.deleted_at is not null)`;

export type UnreadCounts = { total_unread_notifications_count: number; mention_unread_notifications_count: number };

/**
 * Unread counts per receiver in one workspace: unread, not archived, not snoozed now, about a
 * live work item. `total` counts them all, mentions included (the All tab, and the sidebar badge)
 * and `mention` the mention ones (the Mentions tab). Tideline's All tab lists mentions too, so
 * its count does; the reference product left mentions out of both. Counted rows, so never below 0.
 */
export async function unreadCounts(
  db: DbOrTx,
  workspaceId: string,
  receiverIds: readonly string[],
): Promise<Map<string, UnreadCounts>> {
  const unique = [...new Set(receiverIds)];
  const out = new Map<string, UnreadCounts>(
    unique.map((id) => [id, { total_unread_notifications_count: 0, mention_unread_notifications_count: 0 }]),
  );
  if (unique.length === 0) return out;
  const rows = await db
    .select({
      receiverId: notifications.receiverId,
      total: sql<number>`count(*)`.mapWith(Number),
      mention: sql<number>`count(*) filter (where ${notifications.isMentionedNotification})`.mapWith(Number),
    })
    .from(notifications)
    .where(
      and(
        eq(notifications.workspaceId, workspaceId),
        inArray(notifications.receiverId, unique),
        isNull(notifications.readAt),
        isNull(notifications.archivedAt),
        notSnoozedNow(),
        aboutLiveEntity(),
      ),
    )
    .groupBy(notifications.receiverId);
  for (const r of rows) {
    out.set(r.receiverId, {
      total_unread_notifications_count: Math.max(0, r.total),
      mention_unread_notifications_count: Math.max(0, r.mention),
    });
  }
  return out;
}
