/**
 * Request shapes of the webhooks API. Unknown keys are dropped (the reference's web client
 * sends what it shows); a known key of the wrong type is a 400 and nothing is stored. The URL's
 * scheme and addresses are checked by the service (webhooks/addresses.ts), which needs DNS.
 */
import { z } from "zod";
import { badRequest } from "../../http/errors.ts";

export const WEBHOOK_URL_MAX = 1024;
export const WEBHOOK_LOG_PAGE_SIZE = 20;
export const WEBHOOK_LOG_PAGE_SIZE_MAX = 100;

const toggle = (name: string) => z.boolean(`${name} must be true or false`);

const fields = {
  url: z
    .string("url must be a string")
    .trim()
    .min(1, "Enter the URL that receives the events")
    .max(WEBHOOK_URL_MAX, `At most ${WEBHOOK_URL_MAX} characters`),
  is_active: toggle("is_active"),
  project: toggle("project"),
  issue: toggle("issue"),
  module: toggle("module"),
  cycle: toggle("cycle"),
  issue_comment: toggle("issue_comment"),
  intake: toggle("intake"),
};

export const createWebhookBody = z.object(fields).partial().required({ url: true });
export type CreateWebhookBody = z.output<typeof createWebhookBody>;

export const updateWebhookBody = z.object(fields).partial();
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>;

export type WebhookLogQuery = { perPage: number; pageIndex: number };

/** `cursor` is `per_page:page:offset`, as the reference's paged lists; `per_page` beside it wins. */
export function parseWebhookLogQuery(raw: Record<string, unknown>): WebhookLogQuery {
  const one = (value: unknown) => (Array.isArray(value) ? value[0] : value);
  let perPage = WEBHOOK_LOG_PAGE_SIZE;
  let pageIndex = 0;
  const cursor = one(raw.cursor);
  if (cursor !== undefined && cursor !== "") {
    const m = /^(\d{1,4}):(\d{1,7}):(\d{1,7})$/.exec(String(cursor));
    if (!m)
      throw badRequest("Invalid cursor: expected per_page:page:offset", { cursor: ["Expected per_page:page:offset"] });
    perPage = Number(m[1]) || WEBHOOK_LOG_PAGE_SIZE;
    pageIndex = Number(m[2]);
  }
  const perPageParam = one(raw.per_page);
  if (perPageParam !== undefined && perPageParam !== "") {
    const n = Number(perPageParam);
    if (!Number.isInteger(n) || n < 1)
      throw badRequest("per_page must be a positive whole number", { per_page: ["Invalid"] });
    perPage = n;
  }
  return { perPage: Math.min(perPage, WEBHOOK_LOG_PAGE_SIZE_MAX), pageIndex };
}
