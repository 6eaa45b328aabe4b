/**
 * Webhooks of a workspace (Settings → Webhooks, admins only): the list, one webhook's delivery
 * log, and the changes. The secret comes only in the create and regenerate answers: it is handed
 * back to the screen that shows it once, never kept in the store. Other admins' changes arrive
 * as webhook.* events on the workspace channel (admins only) and are applied here.
 */
import type { DomainEvent } from "@tideline/shared";
import { api } from "../lib/api";
import { LocalChanges } from "../lib/local-changes";
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

/**
 * Changes made here, in order (one webhook's PATCHes go one after another) and in flight: a list
 * read, an answer or a live event older than a change still on its way is not shown over it.
 */
const changes = new LocalChanges();
/** The latest switch of each webhook asked here: only its answer is shown. */
const latestSwitch = new Map<string, number>();
let switches = 0;

/** Read the workspace's webhooks (those being changed here keep what this screen shows). */
export async function loadWebhooks(slug: string): Promise<void> {
  const since = changes.now();
  const fetched = await api.get(base(slug)).json<Webhook[]>();
  const held = new Map((webhooksStore.bySlug[slug] ?? []).map((h) => [h.id, h]));
  webhooksStore.bySlug[slug] = fetched.map((h) => (changes.isNewerHere(h.id, since) ? (held.get(h.id) ?? h) : h));
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
  const updated = await changes.track(id, () => api.patch(`${base(slug)}${id}/`, { json: input }).json<Webhook>());
  replace(slug, updated);
  return updated;
}

/** Switch a webhook on or off, at once, undone with a toast if refused. */
export async function setWebhookActive(slug: string, id: string, isActive: boolean, error: string): Promise<void> {
  const mine = ++switches;
  latestSwitch.set(id, mine);
  await optimistic({
    apply: () => {
      const before = webhooksStore.bySlug[slug]?.find((h) => h.id === id);
      if (before) replace(slug, { ...before, is_active: isActive });
      return () => {
        if (before) replace(slug, before);
      };
    },
    // Switched off and straight back on: the "off" answer arrives while the "on" waits its turn;
    // shown, it would flip the switch back until the "on" answers.
    call: () =>
      changes.track(id, async () => {
        const answer = await api.patch(`${base(slug)}${id}/`, { json: { is_active: isActive } }).json<Webhook>();
        if (latestSwitch.get(id) === mine) replace(slug, answer);
      }),
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

/** Apply a webhook.* event of the workspace channel (another admin's change, or one's own echoed). */
export function applyWebhookEvent(slug: string, event: DomainEvent): void {
  if (!event.type.startsWith("webhook.")) return;
  const list = webhooksStore.bySlug[slug];
  if (!list) return;
  if (event.type === "webhook.deleted") {
    webhooksStore.bySlug[slug] = list.filter((h) => h.id !== event.entity_id);
    return;
  }
  const hook = event.data as unknown as Webhook;
  // A change of it is on its way from here: its answer will say what the server holds.
  if (changes.isChanging(hook.id)) return;
  const current = list.find((h) => h.id === hook.id);
  // An event may arrive after the answer to one's own newer change: keep the newer.
  if (current && current.updated_at > hook.updated_at) return;
  replace(slug, hook);
}
