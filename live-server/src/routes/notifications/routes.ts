/**
 * The caller's notifications in a workspace, under /api/workspaces/:slug/users/notifications/
 * (calls-errors-sync §7 "Notifications"): unread counts, the filtered and paged list, read /
 * unread, archive / restore, snooze (PATCH snoozed_till) and mark-all-read. Any active member of
 * the workspace (guests too) has notifications; only their receiver sees or changes one — for
 * anyone else, and outside the workspace, it does not exist (404).
 *
 * This plugin also starts the service that makes notifications from domain events
 * (notifications/service.ts) and stops it when the app closes. Changes emit
 * `notification.updated` (after commit) with `receiver_id` and the receiver's new unread counts,
 * for the live layer to forward to `user.{receiver_id}`.
 */
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { notifications } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import {
  type NotificationRow,
  presentNotifications,
  type UnreadCounts,
  unreadCounts,
} from "../../notifications/presenter.ts";
import { NotificationService, registerNotificationService } from "../../notifications/service.ts";
import { type WorkspaceAccess, workspaceAccess } from "../../policies/access.ts";
import { bodyFlag, notificationConditions, queryFlag, typeList } from "./filters.ts";

const BASE = "/api/workspaces/:slug/users/notifications";

/** Page size of the notifications page (calls-errors-sync §9). */
export const NOTIFICATIONS_PAGE_SIZE = 300;
export const NOTIFICATIONS_MAX_PAGE_SIZE = 1000;

type SlugParams = { slug: string };
type ItemParams = SlugParams & { id: string };

const listQuery = z.object({
  type: typeList,
  snoozed: queryFlag.optional(),
  archived: queryFlag.optional(),
  read: queryFlag.optional(),
  mentioned: queryFlag.optional(),
  per_page: z
    .string()
    .regex(/^\d+$/, "per_page must be a positive whole number")
    .transform(Number)
    .refine((n) => n >= 1, "per_page must be at least 1")
    .optional(),
  cursor: z
    .string()
    .regex(/^\d+:\d+:[01]$/, "cursor must look like count:offset:0 (page size, page index)")
    .refine((c) => Number(c.split(":")[0]) >= 1, "The cursor's page size must be at least 1")
    .optional(),
});

const markAllReadBody = z.object({
  type: typeList,
  snoozed: bodyFlag,
  archived: bodyFlag,
  read: bodyFlag,
  mentioned: bodyFlag,
});

const moment = z.iso.datetime({ offset: true, message: "Expected an ISO date-time (or null)" }).nullable().optional();
const patchBody = z.object({ read_at: moment, archived_at: moment, snoozed_till: moment });

type StatePatch = { readAt?: Date | null; archivedAt?: Date | null; snoozedTill?: Date | null };

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  const service = new NotificationService(db, events, app.log);
  service.start();
  registerNotificationService(app.ctx, service);
  // The root onClose closes the database before plugins' onClose hooks run: finish what is
  // queued while it is still open, then stop listening.
  app.addHook("preClose", async () => service.idle());
  app.addHook("onClose", async () => service.stop());

  /** The caller's notification `id` in this workspace, or 404. */
  async function ownNotification(tx: Tx, access: WorkspaceAccess, id: string): Promise<NotificationRow> {
    if (!isUuid(id)) throw notFound("Notification");
    const [row] = await tx
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.id, id),
          eq(notifications.receiverId, access.user.id),
          eq(notifications.workspaceId, access.workspace.id),
        ),
      )
      .for("update");
    if (!row) throw notFound("Notification");
    return row;
  }

  /**
   * Change one notification of the caller: `compute` says what to set given the stored row;
   * only real changes are written and announced.
   */
  async function change(
    request: FastifyRequest<{ Params: ItemParams }>,
    access: WorkspaceAccess,
    compute: (row: NotificationRow) => StatePatch,
  ) {
    return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const row = await ownNotification(tx, access, request.params.id);
      const wanted = compute(row);
      const set: StatePatch = {};
      if (wanted.readAt !== undefined && !sameTime(wanted.readAt, row.readAt)) set.readAt = wanted.readAt;
      if (wanted.archivedAt !== undefined && !sameTime(wanted.archivedAt, row.archivedAt))
        set.archivedAt = wanted.archivedAt;
      if (wanted.snoozedTill !== undefined && !sameTime(wanted.snoozedTill, row.snoozedTill))
        set.snoozedTill = wanted.snoozedTill;
      let current = row;
      if (Object.keys(set).length) {
        const [updated] = await tx
          .update(notifications)
          .set({ ...set, updatedById: access.user.id })
          .where(eq(notifications.id, row.id))
          .returning();
        if (!updated) throw notFound("Notification");
        current = updated;
      }
      const [presented] = await presentNotifications(tx, [current]);
      if (!presented) throw new Error("notification vanished");
      if (current !== row) {
        const counts = await countsOf(tx, access);
        emit(
          "notification.updated",
          { workspaceId: access.workspace.id, projectId: current.projectId, entityId: current.id },
          { ...presented, receiver_id: access.user.id, unread_counts: counts },
        );
      }
      return presented;
    });
  }

  async function countsOf(tx: DbOrTx, access: WorkspaceAccess): Promise<UnreadCounts> {
    const counts = await unreadCounts(tx, access.workspace.id, [access.user.id]);
    return counts.get(access.user.id) ?? { total_unread_notifications_count: 0, mention_unread_notifications_count: 0 };
  }

  app.get<{ Params: SlugParams }>(`${BASE}/unread/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return countsOf(db, access);
  });

  app.get<{ Params: SlugParams }>(`${BASE}/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const query = parse(listQuery, request.query);
    const [cursorSize, cursorPage] = (query.cursor ?? `${NOTIFICATIONS_PAGE_SIZE}:0:0`).split(":").map(Number);
    // per_page wins over the cursor's size, as on the work-items list.
    const size = Math.min(query.per_page ?? cursorSize ?? NOTIFICATIONS_PAGE_SIZE, NOTIFICATIONS_MAX_PAGE_SIZE);
    const page = cursorPage ?? 0;
    const offset = page * size;
    if (!Number.isSafeInteger(offset))
      throw badRequest(
        "cursor: this page is out of range",
        { cursor: ["This page is out of range"] },
        "VALIDATION_ERROR",
      );
    const where = and(
      ...notificationConditions(db, access.workspace.id, access.user.id, {
        types: query.type,
        snoozed: query.snoozed ?? false,
        archived: query.archived ?? false,
        read: query.read,
        // Absent: both kinds — the All tab lists mentions too, as its count counts them.
        mentioned: query.mentioned,
      }),
    );
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(notifications)
        .where(where)
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(size)
        .offset(offset),
      db.select({ n: count() }).from(notifications).where(where),
    ]);
    const totalCount = total?.n ?? 0;
    const results = await presentNotifications(db, rows);
    return {
      results,
      count: results.length,
      total_count: totalCount,
      total_results: totalCount,
      total_pages: Math.ceil(totalCount / size),
      next_cursor: `${size}:${page + 1}:0`,
      prev_cursor: `${size}:${page - 1}:1`,
      next_page_results: offset + results.length < totalCount,
      prev_page_results: page > 0,
    };
  });

  const caller = (request: FastifyRequest<{ Params: SlugParams }>) => workspaceAccess(db, request, request.params.slug);

  app.patch<{ Params: ItemParams }>(`${BASE}/:id/`, async (request) => {
    const access = await caller(request);
    const body = parse(patchBody, request.body);
    return change(request, access, () => ({
      readAt: toDate(body.read_at),
      archivedAt: toDate(body.archived_at),
      snoozedTill: toDate(body.snoozed_till),
    }));
  });

  app.post<{ Params: ItemParams }>(`${BASE}/:id/read/`, async (request) =>
    // Already read: keeps the time it was first read.
    change(request, await caller(request), (row) => ({ readAt: row.readAt ?? new Date() })),
  );
  app.delete<{ Params: ItemParams }>(`${BASE}/:id/read/`, async (request) =>
    change(request, await caller(request), () => ({ readAt: null })),
  );
  app.post<{ Params: ItemParams }>(`${BASE}/:id/archive/`, async (request) =>
    change(request, await caller(request), (row) => ({ archivedAt: row.archivedAt ?? new Date() })),
  );
  app.delete<{ Params: ItemParams }>(`${BASE}/:id/archive/`, async (request) =>
    change(request, await caller(request), () => ({ archivedAt: null })),
  );

  /**
   * Mark the filtered set read (the same filters as the list; without `mentioned`, both kinds).
   * One `notification.updated` for the whole set: entity_id is the receiver, data lists the ids.
   */
  app.post<{ Params: SlugParams }>(`${BASE}/mark-all-read/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(markAllReadBody, request.body);
    return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const readAt = new Date();
      const conditions = notificationConditions(tx, access.workspace.id, access.user.id, {
        types: body.type,
        snoozed: body.snoozed ?? false,
        archived: body.archived ?? false,
        read: body.read ?? undefined,
        mentioned: body.mentioned ?? undefined,
      });
      const updated = await tx
        .update(notifications)
        .set({ readAt, updatedById: access.user.id })
        .where(and(...conditions, isNull(notifications.readAt)))
        .returning({ id: notifications.id });
      if (updated.length) {
        emit(
          "notification.updated",
          { workspaceId: access.workspace.id, projectId: null, entityId: access.user.id },
          {
            receiver_id: access.user.id,
            mark_all_read: true,
            ids: updated.map((r) => r.id),
            read_at: readAt.toISOString(),
            unread_counts: await countsOf(tx, access),
          },
        );
      }
      return { message: "Successful", count: updated.length };
    });
  });
}
