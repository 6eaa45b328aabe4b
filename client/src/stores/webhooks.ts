/**
 * Webhooks of a workspace (Settings → Webhooks, admins only): the list, one webhook's delivery
 * log, and the changes. The secret comes only in the create and regenerate answers: it is handed
 * back to the screen that shows it once, never kept in the store.
 */
import { api } from "../lib/api";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";

/** The events a webhook can receive, as the server names its toggles (the reference's plus intake). */
export const WEBHOOK_EVENTS = ["project", "issue", "cycle", "module", "issue_comment", "intake"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The reference's IWebhook, plus intake and the delivery health. */
export type Webhook = {
  id: string;
  url: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  failing: boolean;
  last_failure_at: string | null;
  last_failure_reason: string | null;
} & Record<WebhookEvent, boolean>;

export type WebhookWithSecret = Webhook & { secret_key: string };

export type WebhookLog = {
  id: string;
  delivery_id: string;
  event: string;
  action: string;
  status: "success" | "failed";
  attempt: number;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  request_body: string;
  created_at: string;
};

type LogPage = { results: WebhookLog[]; next_page_results: boolean; total_results: number };

export const LOG_PAGE_SIZE = 20;

/** What the form sends: the URL and the event toggles. */
export type WebhookInput = { url: string } & Record<WebhookEvent, boolean>;

export const webhooksStore = defineStore(() => ({
  /** Per workspace slug, newest first (undefined until read). */
  bySlug: {} as Record<string, Webhook[] | undefined>,
  /** Per webhook id: the delivery log read so far, newest first. */
  logsById: {} as Record<string, WebhookLog[] | undefined>,
  moreLogsById: {} as Record<string, boolean>,
}));

const base = (slug: string) => `/api/workspaces/${slug}/webhooks/`;

function replace(slug: string, hook: Webhook): void {
  const list = webhooksStore.bySlug[slug] ?? [];
  const at = list.findIndex((h) => h.id === hook.id);
  webhooksStore.bySlug[slug] = at === -1 ? [hook, ...list] : list.map((h) => (h.id === hook.id ? hook : h));
}

function withoutSecret(hook: WebhookWithSecret): Webhook {
  const { secret_key: _secret, ...rest } = hook;
  return rest;
}

/** Read the workspace's webhooks. */
export async function loadWebhooks(slug: string): Promise<void> {
  webhooksStore.bySlug[slug] = await api.get(base(slug)).json<Webhook[]>();
}

/** Read one webhook (the detail screen opened directly). */
export async function loadWebhook(slug: string, id: string): Promise<Webhook> {
  const hook = await api.get(`${base(slug)}${id}/`).json<Webhook>();
  replace(slug, hook);
  return hook;
}

/** Create a webhook; answers it with its secret, to be shown once. Throws the server's refusal. */
export async function createWebhook(slug: string, input: WebhookInput): Promise<WebhookWithSecret> {
  const created = await api.post(base(slug), { json: input }).json<WebhookWithSecret>();
  replace(slug, withoutSecret(created));
  return created;
}

/** Change the URL or the events (the form). Throws the server's refusal for the form to show. */
export async function updateWebhook(slug: string, id: string, input: Partial<WebhookInput>): Promise<Webhook> {
  const updated = await api.patch(`${base(slug)}${id}/`, { json: input }).json<Webhook>();
  replace(slug, updated);
  return updated;
}

/** Switch a webhook on or off, at once, undone with a toast if refused. */
export async function setWebhookActive(slug: string, id: string, isActive: boolean, error: string): Promise<void> {
  await optimistic({
    apply: () => {
      const before = webhooksStore.bySlug[slug]?.find((h) => h.id === id);
      if (before) replace(slug, { ...before, is_active: isActive });
      return () => {
        if (before) replace(slug, before);
      };
    },
    call: async () =>
      replace(slug, await api.patch(`${base(slug)}${id}/`, { json: { is_active: isActive } }).json<Webhook>()),
    error,
  });
}

/** Delete a webhook (after the screen's confirmation); true when it is gone. */
export async function deleteWebhook(slug: string, id: string, error: string): Promise<boolean> {
  const done = await optimistic({
    apply: () => {
      const before = webhooksStore.bySlug[slug];
      webhooksStore.bySlug[slug] = before?.filter((h) => h.id !== id);
      return () => {
        webhooksStore.bySlug[slug] = before;
      };
    },
    call: async () => {
      await api.delete(`${base(slug)}${id}/`);
      return true;
    },
    error,
  });
  return done === true;
}

/** A new secret (the old one stops signing at once); answered with it, to be shown once. */
export async function regenerateSecret(slug: string, id: string): Promise<WebhookWithSecret> {
  const hook = await api.post(`${base(slug)}${id}/regenerate/`).json<WebhookWithSecret>();
  replace(slug, withoutSecret(hook));
  return hook;
}

/** Read the first page of the delivery log again (opening the screen, refresh, after a redeliver). */
export async function loadWebhookLogs(slug: string, id: string): Promise<void> {
  const held = webhooksStore.logsById[id]?.length ?? 0;
  const size = Math.max(LOG_PAGE_SIZE, Math.min(100, held));
  const page = await api
    .get(`${base(slug)}${id}/logs/`, { searchParams: { per_page: size, cursor: `${size}:0:0` } })
    .json<LogPage>();
  webhooksStore.logsById[id] = page.results;
  webhooksStore.moreLogsById[id] = page.next_page_results;
}

/** Read older deliveries. */
export async function loadMoreWebhookLogs(slug: string, id: string): Promise<void> {
  const held = webhooksStore.logsById[id] ?? [];
  const pageIndex = Math.floor(held.length / LOG_PAGE_SIZE);
  const page = await api
    .get(`${base(slug)}${id}/logs/`, {
      searchParams: { per_page: LOG_PAGE_SIZE, cursor: `${LOG_PAGE_SIZE}:${pageIndex}:0` },
    })
    .json<LogPage>();
  const known = new Set(held.map((l) => l.id));
  webhooksStore.logsById[id] = [...held, ...page.results.filter((l) => !known.has(l.id))];
  webhooksStore.moreLogsById[id] = page.next_page_results;
}

/** Queue the logged delivery's body again. Throws the server's refusal. */
export async function redeliverWebhookLog(slug: string, id: string, logId: string): Promise<void> {
  await api.post(`${base(slug)}${id}/logs/${logId}/redeliver/`);
}
