/**
 * Webhook deliveries: a transactional outbox on the job queue.
 *
 * - Outbox: a commit hook (EventBus.onBeforeCommit) sees the domain events of every
 *   transactionWithEvents just before it commits, and inserts one `webhook.deliver` job per
 *   (event, active webhook that wants it) in that same transaction. The job commits with the
 *   change or not at all, so a stop between commit and delivery loses nothing: the next start's
 *   worker sends it. The exact JSON body is built there, from the event's data (the entity as
 *   the API presents it after the change).
 * - Cost for workspaces without webhooks: events that no webhook could want (stickies,
 *   favorites, …) cost nothing; for the others, the workspace's active webhooks are cached per
 *   process for CACHE_MS (dropped at once on this process's webhook changes; another instance's
 *   change is seen within CACHE_MS).
 * - Delivery (the job): the webhook is read again (deleted or switched off: the job is dropped),
 *   the body signed with its current secret and POSTed (webhooks/http.ts: SSRF checks on the
 *   connected address, no redirects, 10 s). Every attempt is logged in webhook_logs. A failure is
 *   retried with exponential back-off (10 s doubling, at most 1 h apart) for 24 h; then the job
 *   is given up and the webhook marked failing, until a later delivery succeeds.
 */
import { createHmac, randomUUID } from "node:crypto";
import type { DomainEvent, DomainEventType } from "@tideline/shared";
import { and, eq, lt, sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import type { DbOrTx, Tx } from "../db/client.ts";
import { jobs, users, webhookLogs, webhooks } from "../db/schema.ts";
import type { JobInfo } from "../jobs/queue.ts";
import { postWebhook } from "./http.ts";

export const WEBHOOK_JOB = "webhook.deliver";
export const WEBHOOK_USER_AGENT = "Tideline-Webhook";
export const SIGNATURE_HEADER = "X-Webhook-Signature";
export const DELIVERY_HEADER = "X-Webhook-Delivery-Id";
export const EVENT_HEADER = "X-Webhook-Event";

/** The event toggles of a webhook, named as the body's `event`. */
export const WEBHOOK_EVENTS = ["project", "issue", "module", "cycle", "issue_comment", "intake"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookAction = "created" | "updated" | "deleted";

const CACHE_MS = 5000;
const LOG_KEEP_DAYS = 30;

/** Which webhook event and action a domain event is; null when webhooks never hear of it. */
export function webhookEventOf(type: DomainEventType): { event: WebhookEvent; action: WebhookAction } | null {
  const [entity, verb] = type.split(".") as [string, string];
  const event: WebhookEvent | null =
    entity === "issue"
      ? "issue"
      : entity === "comment"
        ? "issue_comment"
        : entity === "cycle" || entity === "module" || entity === "project" || entity === "intake"
          ? entity
          : null;
  if (!event || type.split(".").length !== 2) return null;
  // Archiving and restoring change the entity's archived_at: the reference calls that an update.
  const action: WebhookAction | null =
    verb === "created" || verb === "deleted"
      ? verb
      : verb === "updated" || verb === "archived" || verb === "restored"
        ? "updated"
        : null;
  return action ? { event, action } : null;
}

type ActiveHook = Pick<typeof webhooks.$inferSelect, "id" | WebhookToggleKey>;
type WebhookToggleKey = "project" | "issue" | "module" | "cycle" | "issueComment" | "intake";
const TOGGLE: Record<WebhookEvent, WebhookToggleKey> = {
  project: "project",
  issue: "issue",
  module: "module",
  cycle: "cycle",
  issue_comment: "issueComment",
  intake: "intake",
};

export type DeliveryPayload = {
  webhook_id: string;
  workspace_id: string;
  delivery_id: string;
  event: WebhookEvent;
  action: WebhookAction;
  /** The exact body sent (signed as it is). */
  body: string;
};

/** Retry timing; tests shorten it on their app (webhookDeliveryOf(app.ctx).retry). */
export type RetrySettings = { firstDelayMs: number; maxDelayMs: number; windowMs: number };

export class WebhookDelivery {
  readonly retry: RetrySettings = { firstDelayMs: 10_000, maxDelayMs: 3_600_000, windowMs: 24 * 3_600_000 };
  private readonly cache = new Map<string, { hooks: ActiveHook[]; at: number }>();
  private readonly ctx: AppContext;

  constructor(ctx: AppContext) {
    this.ctx = ctx;
    ctx.jobs.register(WEBHOOK_JOB, (payload, job) => this.deliver(payload as DeliveryPayload, job), {
      retryDelayMs: (job) => this.retryDelayMs(job),
      onGiveUp: (payload, error) => this.markFailing(payload as DeliveryPayload, error),
      maxRunning: 3,
    });
    ctx.events.onBeforeCommit((tx, events) => this.enqueueFor(tx, events));
    // The jobs were inserted before the commit: wake the worker once they are visible.
    ctx.events.subscribe((event) => {
      if (event.workspace_id && this.cache.get(event.workspace_id)?.hooks.length && webhookEventOf(event.type)) {
        void ctx.jobs.kick();
      }
    });
  }

  /** Forget the cached webhooks of a workspace (after any change to them). */
  invalidate(workspaceId: string): void {
    this.cache.delete(workspaceId);
  }

  private async activeHooks(tx: Tx, workspaceId: string): Promise<ActiveHook[]> {
    const cached = this.cache.get(workspaceId);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.hooks;
    const hooks = await tx
      .select({
        id: webhooks.id,
        project: webhooks.project,
        issue: webhooks.issue,
        module: webhooks.module,
        cycle: webhooks.cycle,
        issueComment: webhooks.issueComment,
        intake: webhooks.intake,
      })
      .from(webhooks)
      .where(and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.isActive, true)));
    this.cache.set(workspaceId, { hooks, at: Date.now() });
    return hooks;
  }

  /** The outbox: delivery jobs for `events`, inserted in their transaction. */
  private async enqueueFor(tx: Tx, events: readonly DomainEvent[]): Promise<void> {
    const rows: { kind: string; payload: Record<string, unknown> }[] = [];
    const actors = new Map<string, Record<string, unknown> | null>();
    for (const domainEvent of events) {
      const kind = webhookEventOf(domainEvent.type);
      const workspaceId = domainEvent.workspace_id;
      if (!kind || !workspaceId) continue;
      const hooks = (await this.activeHooks(tx, workspaceId)).filter((hook) => hook[TOGGLE[kind.event]]);
      if (!hooks.length) continue;
      const actorId = domainEvent.actor_id;
      if (actorId && !actors.has(actorId)) actors.set(actorId, await actorOf(tx, actorId));
      const data = kind.action === "deleted" ? { id: domainEvent.entity_id } : domainEvent.data;
      const activity = {
        field: null,
        new_value: null,
        old_value: null,
        actor: actorId ? (actors.get(actorId) ?? null) : null,
        old_identifier: null,
        new_identifier: null,
      };
      for (const hook of hooks) {
        const body = JSON.stringify({
          event: kind.event,
          action: kind.action,
          webhook_id: hook.id,
          workspace_id: workspaceId,
          data,
          activity,
        });
        const payload: DeliveryPayload = {
          webhook_id: hook.id,
          workspace_id: workspaceId,
          delivery_id: randomUUID(),
          event: kind.event,
          action: kind.action,
          body,
        };
        rows.push({ kind: WEBHOOK_JOB, payload });
      }
    }
    if (rows.length) await tx.insert(jobs).values(rows);
  }

  /** Queue the same body again as a new delivery (the log's "redeliver"). */
  async redeliver(
    db: DbOrTx,
    log: { webhookId: string; workspaceId: string; event: string; action: string; requestBody: string },
  ): Promise<string> {
    const payload: DeliveryPayload = {
      webhook_id: log.webhookId,
      workspace_id: log.workspaceId,
      delivery_id: randomUUID(),
      event: log.event as WebhookEvent,
      action: log.action as WebhookAction,
      body: log.requestBody,
    };
    await this.ctx.jobs.enqueue(WEBHOOK_JOB, payload, db);
    return payload.delivery_id;
  }

  private retryDelayMs(job: JobInfo): number | null {
    const { firstDelayMs, maxDelayMs, windowMs } = this.retry;
    const delay = Math.min(firstDelayMs * 2 ** (job.attempts - 1), maxDelayMs);
    return Date.now() + delay - job.createdAt.getTime() > windowMs ? null : delay;
  }

  private async deliver(payload: DeliveryPayload, job: JobInfo): Promise<void> {
    const { db, config } = this.ctx;
    const [hook] = await db.select().from(webhooks).where(eq(webhooks.id, payload.webhook_id)).limit(1);
    if (!hook?.isActive) return; // deleted or switched off since: nothing to send
    const signature = createHmac("sha256", hook.secretKey).update(payload.body).digest("hex");
    const result = await postWebhook(
      hook.url,
      payload.body,
      {
        "Content-Type": "application/json",
        "User-Agent": WEBHOOK_USER_AGENT,
        [DELIVERY_HEADER]: payload.delivery_id,
        [EVENT_HEADER]: payload.event,
        [SIGNATURE_HEADER]: signature,
      },
      config.webhookAllowPrivate,
    );
    await db.insert(webhookLogs).values({
      workspaceId: hook.workspaceId,
      webhookId: hook.id,
      deliveryId: payload.delivery_id,
      event: payload.event,
      action: payload.action,
      status: result.ok ? "success" : "failed",
      attempt: job.attempts,
      durationMs: result.durationMs,
      responseStatus: result.status,
      responseBody: result.body,
      error: result.ok ? null : result.error,
      requestBody: payload.body,
    });
    await db
      .delete(webhookLogs)
      .where(
        and(
          eq(webhookLogs.webhookId, hook.id),
          lt(webhookLogs.createdAt, sql`now() - make_interval(days => ${LOG_KEEP_DAYS})`),
        ),
      );
    if (!result.ok) throw new Error(result.error);
    if (hook.failing) {
      await db
        .update(webhooks)
        .set({ failing: false, lastFailureAt: null, lastFailureReason: null, updatedAt: hook.updatedAt })
        .where(eq(webhooks.id, hook.id));
    }
  }

  private async markFailing(payload: DeliveryPayload, error: string): Promise<void> {
    const [hook] = await this.ctx.db.select().from(webhooks).where(eq(webhooks.id, payload.webhook_id)).limit(1);
    if (!hook) return;
    await this.ctx.db
      .update(webhooks)
      .set({ failing: true, lastFailureAt: new Date(), lastFailureReason: error, updatedAt: hook.updatedAt })
      .where(eq(webhooks.id, hook.id));
  }
}

/** The actor as the reference's UserLiteSerializer shows them. */
async function actorOf(tx: Tx, userId: string): Promise<Record<string, unknown> | null> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return null;
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    avatar: user.avatarUrl,
    avatar_url: user.avatarUrl,
    is_bot: user.isBot,
    display_name: user.displayName,
  };
}

const deliveries = new WeakMap<AppContext, WebhookDelivery>();

/** The app's webhook delivery, made on first use (routes/webhooks registers it at start). */
export function webhookDeliveryOf(ctx: AppContext): WebhookDelivery {
  let delivery = deliveries.get(ctx);
  if (!delivery) {
    delivery = new WebhookDelivery(ctx);
    deliveries.set(ctx, delivery);
  }
  return delivery;
}
