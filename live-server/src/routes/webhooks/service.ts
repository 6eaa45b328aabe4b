/**
 * Webhooks of a workspace (product-domain §6: workspace settings, admins only; calls-errors-sync
 * §7 "Webhooks"). Every query is scoped by the workspace the policy returned, so another
 * workspace's webhook is a 404.
 * - The URL must be http(s) and, when its name resolves, reach no refused address
 *   (webhooks/addresses.ts; WEBHOOK_ALLOW_PRIVATE lifts the private ranges); one URL once per
 *   workspace (the reference's unique (workspace, url): 409).
 * - The secret (`tideline_wh_` + 48 hex digits) signs every delivery; it is answered only by
 *   create and regenerate.
 * - Changes drop the process's cache of the workspace's active webhooks (webhooks/delivery.ts)
 *   so the outbox sees them from the next transaction. Webhook settings emit no domain events:
 *   they are not live data, and only admins may read them.
 */
import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { DbOrTx } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { webhookLogs, webhooks } from "../../db/schema.ts";
import { type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import { urlRefusal } from "../../webhooks/addresses.ts";
import { webhookDeliveryOf } from "../../webhooks/delivery.ts";
import { presentWebhook, presentWebhookLog, type WebhookRow } from "./presenter.ts";
import type { CreateWebhookBody, UpdateWebhookBody, WebhookLogQuery } from "./schema.ts";

const DUPLICATE = "URL already exists for the workspace";

/** A new signing secret. */
export function generateSecret(): string {
  return `tideline_wh_${randomBytes(24).toString("hex")}`;
}

async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  const refusal = await urlRefusal(url, allowPrivate);
  if (refusal) throw badRequest(refusal, { url: [refusal] }, "INVALID_WEBHOOK_URL");
}

function duplicateOr(error: unknown): never {
  if (isUniqueViolation(error)) throw conflict(DUPLICATE, { url: [DUPLICATE] }, "WEBHOOK_URL_EXISTS");
  throw error;
}

/** The workspace's webhooks, newest first (as the reference orders them). */
export async function listWebhooks(db: DbOrTx, access: WorkspaceAccess): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.workspaceId, access.workspace.id))
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id));
}

/** One webhook of the workspace, or 404. */
export async function getWebhook(db: DbOrTx, access: WorkspaceAccess, id: string): Promise<WebhookRow> {
  if (!isUuid(id)) throw notFound("Webhook");
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.workspaceId, access.workspace.id)))
    .limit(1);
  if (!row) throw notFound("Webhook");
  return row;
}

/** Create a webhook with a fresh secret. */
export async function createWebhook(
  ctx: AppContext,
  origin: EventOrigin,
  access: WorkspaceAccess,
  body: CreateWebhookBody,
): Promise<WebhookRow> {
  await checkUrl(body.url, ctx.config.webhookAllowPrivate);
  const row = await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const [created] = await tx
      .insert(webhooks)
      .values({
        workspaceId: access.workspace.id,
        url: body.url,
        isActive: body.is_active ?? true,
        secretKey: generateSecret(),
        project: body.project ?? false,
        issue: body.issue ?? false,
        module: body.module ?? false,
        cycle: body.cycle ?? false,
        issueComment: body.issue_comment ?? false,
        intake: body.intake ?? false,
        createdById: access.user.id,
        updatedById: access.user.id,
      })
      .returning();
    if (!created) throw new Error("webhook insert failed");
    emit(
      "webhook.created",
      { workspaceId: access.workspace.id, projectId: null, entityId: created.id },
      presentWebhook(created),
    );
    return created;
  }).catch(duplicateOr);
  webhookDeliveryOf(ctx).invalidate(access.workspace.id);
  return row;
}

/** Change a webhook's URL, active flag or events. */
export async function updateWebhook(
  ctx: AppContext,
  origin: EventOrigin,
  access: WorkspaceAccess,
  id: string,
  body: UpdateWebhookBody,
): Promise<WebhookRow> {
  const before = await getWebhook(ctx.db, access, id);
  if (body.url !== undefined && body.url !== before.url) await checkUrl(body.url, ctx.config.webhookAllowPrivate);
  const row = await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const [updated] = await tx
      .update(webhooks)
      .set({
        url: body.url,
        isActive: body.is_active,
        project: body.project,
        issue: body.issue,
        module: body.module,
        cycle: body.cycle,
        issueComment: body.issue_comment,
        intake: body.intake,
        updatedById: access.user.id,
      })
      .where(and(eq(webhooks.id, before.id), eq(webhooks.workspaceId, access.workspace.id)))
      .returning();
    if (!updated) throw notFound("Webhook");
    emit(
      "webhook.updated",
      { workspaceId: access.workspace.id, projectId: null, entityId: updated.id },
      presentWebhook(updated),
    );
    return updated;
  }).catch(duplicateOr);
  webhookDeliveryOf(ctx).invalidate(access.workspace.id);
  return row;
}

/** Delete a webhook, its logs and its queued deliveries. */
export async function deleteWebhook(ctx: AppContext, origin: EventOrigin, access: WorkspaceAccess, id: string) {
  const before = await getWebhook(ctx.db, access, id);
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await tx.delete(webhooks).where(and(eq(webhooks.id, before.id), eq(webhooks.workspaceId, access.workspace.id)));
    // Queued deliveries would be dropped when they run; remove them now.
    await tx.execute(
      sql`delete from jobs where kind = 'webhook.deliver' and status <> 'running' and payload->>'webhook_id' = ${before.id}`,
    );
    emit(
      "webhook.deleted",
      { workspaceId: access.workspace.id, projectId: null, entityId: before.id },
      { id: before.id },
    );
  });
  webhookDeliveryOf(ctx).invalidate(access.workspace.id);
}

/** A new secret; deliveries from now on (retries included) are signed with it. */
export async function regenerateSecret(
  ctx: AppContext,
  origin: EventOrigin,
  access: WorkspaceAccess,
  id: string,
): Promise<WebhookRow> {
  const before = await getWebhook(ctx.db, access, id);
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const [updated] = await tx
      .update(webhooks)
      .set({ secretKey: generateSecret(), updatedById: access.user.id })
      .where(and(eq(webhooks.id, before.id), eq(webhooks.workspaceId, access.workspace.id)))
      .returning();
    if (!updated) throw notFound("Webhook");
    // The event never carries the secret: only the answer to this call does.
    emit(
      "webhook.updated",
      { workspaceId: access.workspace.id, projectId: null, entityId: updated.id },
      presentWebhook(updated),
    );
    return updated;
  });
}

/** One page of a webhook's delivery log, newest first, in the reference's paged answer. */
export async function listWebhookLogs(db: DbOrTx, access: WorkspaceAccess, id: string, q: WebhookLogQuery) {
  const hook = await getWebhook(db, access, id);
  const where = and(eq(webhookLogs.webhookId, hook.id), eq(webhookLogs.workspaceId, access.workspace.id));
  const start = q.pageIndex * q.perPage;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(webhookLogs)
      .where(where)
      .orderBy(desc(webhookLogs.createdAt), desc(webhookLogs.id))
      .limit(q.perPage)
      .offset(start),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(webhookLogs)
      .where(where),
  ]);
  const total = counted?.n ?? 0;
  return {
    total_count: total,
    next_cursor: `${q.perPage}:${q.pageIndex + 1}:0`,
    prev_cursor: `${q.perPage}:${Math.max(q.pageIndex - 1, 0)}:0`,
    next_page_results: total > start + rows.length,
    prev_page_results: start > 0,
    count: rows.length,
    total_pages: Math.ceil(total / q.perPage),
    total_results: total,
    extra_stats: null,
    results: rows.map(presentWebhookLog),
  };
}

/** Queue the logged delivery's body again, as a new delivery (new delivery id). */
export async function redeliver(ctx: AppContext, access: WorkspaceAccess, id: string, logId: string) {
  const hook = await getWebhook(ctx.db, access, id);
  if (!isUuid(logId)) throw notFound("Webhook log");
  const [log] = await ctx.db
    .select()
    .from(webhookLogs)
    .where(
      and(
        eq(webhookLogs.id, logId),
        eq(webhookLogs.webhookId, hook.id),
        eq(webhookLogs.workspaceId, access.workspace.id),
      ),
    )
    .limit(1);
  if (!log) throw notFound("Webhook log");
  if (!hook.isActive)
    throw badRequest("This webhook is turned off. Turn it on to redeliver.", undefined, "WEBHOOK_INACTIVE");
  const deliveryId = await webhookDeliveryOf(ctx).redeliver(ctx.db, log);
  return { delivery_id: deliveryId };
}
