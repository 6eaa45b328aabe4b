/**
 * Following a work item: GET {type}/{id}/subscribe/ → {subscribed}; POST follows, DELETE stops.
 * Every project member may follow what they can see, guests included (it changes nothing but
 * their own notifications). Emits subscription.created / subscription.deleted.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { issueSubscribers } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { ensureSubscribed } from "../../services/issue-subscriptions.ts";
import { ITEM_TYPES, type ItemParams, itemAccess, PROJECT_PATH } from "./common.ts";

export async function issueSubscriptionRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  for (const type of ITEM_TYPES) {
    const path = `${PROJECT_PATH}/${type}/:id/subscribe/`;

    app.get<{ Params: ItemParams }>(path, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      const [row] = await db
        .select({ id: issueSubscribers.issueId })
        .from(issueSubscribers)
        .where(and(eq(issueSubscribers.issueId, access.issue.id), eq(issueSubscribers.subscriberId, access.user.id)))
        .limit(1);
      return { subscribed: Boolean(row) };
    });

    app.post<{ Params: ItemParams }>(path, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      const { issue, user } = access;
      await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const [existing] = await tx
          .select({ id: issueSubscribers.issueId })
          .from(issueSubscribers)
          .where(and(eq(issueSubscribers.issueId, issue.id), eq(issueSubscribers.subscriberId, user.id)))
          .limit(1);
        if (existing) return;
        await ensureSubscribed(tx, issue, [user.id]);
        emit(
          "subscription.created",
          { workspaceId: issue.workspaceId, projectId: issue.projectId, entityId: issue.id },
          { issue_id: issue.id, subscriber_id: user.id, subscribed: true },
        );
      });
      return { subscribed: true };
    });

    app.delete<{ Params: ItemParams }>(path, async (request) => {
      const access = await itemAccess(db, request, type, request.params);
      const { issue, user } = access;
      await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const removed = await tx
          .delete(issueSubscribers)
          .where(and(eq(issueSubscribers.issueId, issue.id), eq(issueSubscribers.subscriberId, user.id)))
          .returning({ id: issueSubscribers.issueId });
        if (!removed.length) return;
        emit(
          "subscription.deleted",
          { workspaceId: issue.workspaceId, projectId: issue.projectId, entityId: issue.id },
          { issue_id: issue.id, subscriber_id: user.id, subscribed: false },
        );
      });
      return { subscribed: false };
    });
  }
}
