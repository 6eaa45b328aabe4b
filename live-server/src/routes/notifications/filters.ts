/**
 * The filters of the notifications list and of mark-all-read, as SQL on `notifications`
 * (calls-errors-sync §7 "Notifications"):
 * - type: comma list of assigned (items the caller is assigned to now), created (items they
 *   created), subscribed (items they follow now); alternatives, none means all;
 * - snoozed: true → snoozed now (snoozed_till in the future); false (default) → not snoozed now,
 *   so a snooze whose time has passed brings the notification back;
 * - archived: true → archived only; false (default) → not archived;
 * - read: true → read only; false → unread only; absent → both;
 * - mentioned: true → mention notifications only (the Mentions tab, counted by
 *   mention_unread_notifications_count); false → the others; absent → both (the list's default:
 *   the All tab, counted by total_unread_notifications_count, mentions included).
 * Always: the caller's own notifications in this workspace, about a work item not deleted.
 */
import { and, eq, inArray, isNotNull, isNull, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../db/client.ts";
import { issueAssignees, issueSubscribers, issues, notifications } from "../../db/schema.ts";
import { aboutLiveEntity, notSnoozedNow, snoozedNow } from "../../notifications/presenter.ts";

export const NOTIFICATION_TYPES = ["assigned", "created", "subscribed"] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export type NotificationFilters = {
  types: NotificationType[];
  snoozed: boolean;
  archived: boolean;
  read: boolean | undefined;
  mentioned: boolean | undefined;
};

/** "assigned,created" (or a list of them) → the distinct types; "" or absent → []. */
export const typeList = z
  .union([z.string(), z.array(z.string())])
  .nullish()
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : (value ?? "").split(","))
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean);
    const bad = parts.filter((p) => !(NOTIFICATION_TYPES as readonly string[]).includes(p));
    if (bad.length) {
      ctx.addIssue({ code: "custom", message: `Unknown type ${bad.join(", ")}: use ${NOTIFICATION_TYPES.join(", ")}` });
      return z.NEVER;
    }
    return [...new Set(parts)] as NotificationType[];
  });

/** In a query string: "true" or "false" only. */
export const queryFlag = z.enum(["true", "false"], "Use true or false").transform((v) => v === "true");

/** In a JSON body: a boolean, or "true"/"false" as some clients send; null means absent. */
export const bodyFlag = z.union([z.boolean(), queryFlag], "Use true or false").nullish();

export function notificationConditions(db: DbOrTx, workspaceId: string, userId: string, f: NotificationFilters): SQL[] {
  const conditions: SQL[] = [
    eq(notifications.workspaceId, workspaceId),
    eq(notifications.receiverId, userId),
    aboutLiveEntity(),
    f.snoozed ? snoozedNow() : notSnoozedNow(),
    f.archived ? isNotNull(notifications.archivedAt) : isNull(notifications.archivedAt),
  ];
  if (f.read !== undefined) conditions.push(f.read ? isNotNull(notifications.readAt) : isNull(notifications.readAt));
  if (f.mentioned !== undefined) conditions.push(eq(notifications.isMentionedNotification, f.mentioned));
  if (f.types.length) {
    const about: SQL[] = [];
    for (const type of f.types) {
      if (type === "assigned") {
        about.push(
          inArray(
            notifications.entityIdentifier,
            db
              .select({ id: issueAssignees.issueId })
              .from(issueAssignees)
              .where(and(eq(issueAssignees.assigneeId, userId), eq(issueAssignees.workspaceId, workspaceId))),
          ),
        );
      } else if (type === "subscribed") {
        about.push(
          inArray(
            notifications.entityIdentifier,
            db
              .select({ id: issueSubscribers.issueId })
              .from(issueSubscribers)
              .where(and(eq(issueSubscribers.subscriberId, userId), eq(issueSubscribers.workspaceId, workspaceId))),
          ),
        );
      } else {
        about.push(
          inArray(
            notifications.entityIdentifier,
            db
              .select({ id: issues.id })
              .from(issues)
              .where(and(eq(issues.createdById, userId), eq(issues.workspaceId, workspaceId))),
          ),
        );
      }
    }
    const any = or(...about);
    if (any) conditions.push(any);
  }
  return conditions;
}
