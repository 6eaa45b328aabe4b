/**
 * Webhook answers in the reference's shape (IWebhook: the fields its list and detail return),
 * plus `intake` (the reference has no intake toggle) and the delivery health: `failing`,
 * `last_failure_at`, `last_failure_reason`. `secret_key` only in the create and regenerate
 * answers, never in a list or a read.
 */
import type { webhookLogs, webhooks } from "../../db/schema.ts";

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookLogRow = typeof webhookLogs.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    is_active: row.isActive,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    project: row.project,
    issue: row.issue,
    cycle: row.cycle,
    module: row.module,
    issue_comment: row.issueComment,
    intake: row.intake,
    failing: row.failing,
    last_failure_at: iso(row.lastFailureAt),
    last_failure_reason: row.lastFailureReason,
  };
}

/** The create and regenerate answers: the webhook with its secret, shown this once. */
export function presentWebhookWithSecret(row: WebhookRow) {
  return { ...presentWebhook(row), secret_key: row.secretKey };
}

/** One delivery attempt (the reference's WebhookLog, with the attempt's outcome spelled out). */
export function presentWebhookLog(row: WebhookLogRow) {
  return {
    id: row.id,
    webhook: row.webhookId,
    workspace: row.workspaceId,
    delivery_id: row.deliveryId,
    event: row.event,
    event_type: row.event,
    action: row.action,
    status: row.status,
    attempt: row.attempt,
    retry_count: row.attempt - 1,
    duration_ms: row.durationMs,
    response_status: row.responseStatus,
    response_body: row.responseBody,
    error: row.error,
    request_body: row.requestBody,
    created_at: iso(row.createdAt),
  };
}
