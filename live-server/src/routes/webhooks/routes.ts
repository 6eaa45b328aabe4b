/**
 * Webhooks API under /api/workspaces/:slug (calls-errors-sync §7 "Webhooks"; product-domain §6:
 * /settings/webhooks is for workspace admins only):
 * - GET /webhooks/ (newest first), POST /webhooks/ {url, is_active?, project?, issue?,
 *   module?, cycle?, issue_comment?, intake?} → 201 with `secret_key` (shown this once);
 * - GET, PATCH (the same fields), DELETE (204) /webhooks/:webhookId/;
 * - POST /webhooks/:webhookId/regenerate/ → the webhook with its new `secret_key`;
 * - GET /webhooks/:webhookId/logs/ (`cursor` per_page:page:offset, `per_page`): the delivery
 *   log, newest first; POST /webhooks/:webhookId/logs/:logId/redeliver/ → 202 {delivery_id}:
 *   the same body sent again as a new delivery.
 * Who: workspace admins; members and guests 403, non-members 404. Bad input is a 400 naming the
 * field, a URL already used by the workspace a 409 (as the reference), nothing stored.
 * Delivery itself: webhooks/delivery.ts.
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { webhookDeliveryOf } from "../../webhooks/delivery.ts";
import { presentWebhook, presentWebhookWithSecret } from "./presenter.ts";
import { createWebhookBody, parseWebhookLogQuery, updateWebhookBody } from "./schema.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookLogs,
  listWebhooks,
  redeliver,
  regenerateSecret,
  updateWebhook,
} from "./service.ts";

type SlugParams = { slug: string };
type WebhookParams = SlugParams & { webhookId: string };
type LogParams = WebhookParams & { logId: string };

const WEBHOOKS = "/api/workspaces/:slug/webhooks";

export async function webhooksRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const { db } = ctx;
  // The outbox and the delivery job (webhooks/delivery.ts) run from the start.
  webhookDeliveryOf(ctx);
  const admin = (request: Parameters<typeof workspaceAccess>[1], slug: string) =>
    workspaceAccess(db, request, slug, ROLE.admin);

  app.get<{ Params: SlugParams }>(`${WEBHOOKS}/`, async (request) => {
    const access = await admin(request, request.params.slug);
    return (await listWebhooks(db, access)).map(presentWebhook);
  });

  app.post<{ Params: SlugParams }>(`${WEBHOOKS}/`, async (request, reply) => {
    const access = await admin(request, request.params.slug);
    const body = parse(createWebhookBody, request.body ?? {});
    const row = await createWebhook(ctx, eventOrigin(request), access, body);
    return reply.status(201).send(presentWebhookWithSecret(row));
  });

  const WEBHOOK = `${WEBHOOKS}/:webhookId/`;

  app.get<{ Params: WebhookParams }>(WEBHOOK, async (request) => {
    const access = await admin(request, request.params.slug);
    return presentWebhook(await getWebhook(db, access, request.params.webhookId));
  });

  app.patch<{ Params: WebhookParams }>(WEBHOOK, async (request) => {
    const access = await admin(request, request.params.slug);
    const body = parse(updateWebhookBody, request.body ?? {});
    return presentWebhook(await updateWebhook(ctx, eventOrigin(request), access, request.params.webhookId, body));
  });

  app.delete<{ Params: WebhookParams }>(WEBHOOK, async (request, reply) => {
    const access = await admin(request, request.params.slug);
    await deleteWebhook(ctx, eventOrigin(request), access, request.params.webhookId);
    return reply.status(204).send();
  });

  app.post<{ Params: WebhookParams }>(`${WEBHOOKS}/:webhookId/regenerate/`, async (request) => {
    const access = await admin(request, request.params.slug);
    return presentWebhookWithSecret(
      await regenerateSecret(ctx, eventOrigin(request), access, request.params.webhookId),
    );
  });

  app.get<{ Params: WebhookParams; Querystring: Record<string, unknown> }>(
    `${WEBHOOKS}/:webhookId/logs/`,
    async (request) => {
      const access = await admin(request, request.params.slug);
      return listWebhookLogs(db, access, request.params.webhookId, parseWebhookLogQuery(request.query));
    },
  );

  app.post<{ Params: LogParams }>(`${WEBHOOKS}/:webhookId/logs/:logId/redeliver/`, async (request, reply) => {
    const access = await admin(request, request.params.slug);
    const answer = await redeliver(ctx, access, request.params.webhookId, request.params.logId);
    return reply.status(202).send(answer);
  });
}
