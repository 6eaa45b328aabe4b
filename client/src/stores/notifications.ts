/**
 * The caller's in-app notifications in a workspace (/api/workspaces/:slug/users/notifications/):
 * the unread counts behind the sidebar badge, the list of the notifications screen (one tab and
 * filter set at a time, paged by cursor), and the read / archive / snooze actions — optimistic,
 * undone with a toast if the server refuses. Live `notification.*` events on `user.{id}` keep
 * both fresh without a reload. Counts never go below 0 (product-domain §4).
 */
import type { DomainEvent } from "@tideline/shared";
import { api } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { addUserChannelHandler } from "../lib/user-channel";
import { workspaces } from "./workspaces";

const PAGE = 50;

export type NotificationActor = {
  id: string;
  first_name: string;
  last_name: string;
  display_name: string;
  avatar: string | null;
  avatar_url: string | null;
  is_bot: boolean;
};

export type Notification = {
  id: string;
  title: string;
  data: {
    issue: {
      id: string;
      name: string;
      sequence_id: number;
      identifier: string;
      project_id: string;
      state_name?: string | null;
      state_group?: string | null;
      is_epic?: boolean;
    } | null;
    /** The change it is about, as the history recorded it (values are names, not ids). */
    issue_activity?: {
      field: string | null;
      verb: string;
      old_value?: string | null;
      new_value?: string | null;
      issue_comment?: string | null;
    } | null;
    /** The intake request, when the work item was one as the notification was made. */
    intake?: { id: string } | null;
  };
  entity_identifier: string | null;
  message_stripped: string | null;
  sender: string;
  receiver: string;
  triggered_by: string | null;
  triggered_by_details: NotificationActor | null;
  read_at: string | null;
  archived_at: string | null;
  snoozed_till: string | null;
  is_mentioned_notification: boolean;
  /** About an intake request not accepted yet: opened in the project's intake (data.intake). */
  is_inbox_issue: boolean;
  workspace: string;
  project: string | null;
  created_at: string;
  updated_at: string;
};

export type NotificationTab = "all" | "mentions";
export type NotificationType = "assigned" | "created" | "subscribed";
export const NOTIFICATION_TYPES: NotificationType[] = ["assigned", "created", "subscribed"];

export type NotificationFilters = {
  types: NotificationType[];
  read: "any" | "read" | "unread";
  snoozed: boolean;
  archived: boolean;
};

export type UnreadCounts = { total: number; mention: number };

export type NotificationList = {
  /** The tab and filters this list was loaded for. */
  key: string;
  status: "loading" | "ready" | "error";
  items: Notification[];
  next: string | null;
  loadingMore: boolean;
};

export const DEFAULT_FILTERS: NotificationFilters = { types: [], read: "any", snoozed: false, archived: false };

export const notifications = defineStore(() => ({
  counts: {} as Record<string, UnreadCounts>,
  tab: "all" as NotificationTab,
  filters: { ...DEFAULT_FILTERS } as NotificationFilters,
  lists: {} as Record<string, NotificationList>,
}));

const base = (slug: string) => `/api/workspaces/${slug}/users/notifications/`;
const clamp = (n: number) => Math.max(0, n);

function listKey(tab: NotificationTab, f: NotificationFilters): string {
  return JSON.stringify([tab, [...f.types].sort(), f.read, f.snoozed, f.archived]);
}

/** The list call's query: the All tab lists mentions too (no `mentioned`), Mentions only them. */
export function query(tab: NotificationTab, f: NotificationFilters): Record<string, string> {
  const q: Record<string, string> = { snoozed: String(f.snoozed), archived: String(f.archived) };
  if (tab === "mentions") q.mentioned = "true";
  if (f.types.length > 0) q.type = f.types.join(",");
  if (f.read !== "any") q.read = String(f.read === "read");
  return q;
}

type CountsAnswer = { total_unread_notifications_count: number; mention_unread_notifications_count: number };

function setCounts(slug: string, answer: CountsAnswer): void {
  notifications.counts[slug] = {
    total: clamp(answer.total_unread_notifications_count),
    mention: clamp(answer.mention_unread_notifications_count),
  };
}

export async function loadUnreadCounts(slug: string): Promise<void> {
  setCounts(slug, await api.get(`${base(slug)}unread/`).json<CountsAnswer>());
}

type Page = { results: Notification[]; next_cursor: string; next_page_results: boolean };

/** Load the first page of the current tab and filters, or the next one with `more`. */
export async function loadNotifications(slug: string, more = false): Promise<void> {
  const { tab, filters } = notifications;
  const key = listKey(tab, filters);
  const current = notifications.lists[slug];
  if (more && (!current || current.key !== key || !current.next || current.loadingMore)) return;
  if (more && current) current.loadingMore = true;
  else notifications.lists[slug] = { key, status: "loading", items: [], next: null, loadingMore: false };
  try {
    const cursor = more && current?.next ? current.next : `${PAGE}:0:0`;
    const page = await api
      .get(base(slug), { searchParams: { ...query(tab, filters), per_page: String(PAGE), cursor } })
      .json<Page>();
    const list = notifications.lists[slug];
    // The tab or filters changed while this page was on its way: a newer load owns the list.
    if (!list || list.key !== key) return;
    Object.assign(list, {
      status: "ready",
      items: more
        ? [...list.items, ...page.results.filter((n) => !list.items.some((x) => x.id === n.id))]
        : page.results,
      next: page.next_page_results ? page.next_cursor : null,
      loadingMore: false,
    });
  } catch (error) {
    const list = notifications.lists[slug];
    if (list && list.key === key) {
      if (more) list.loadingMore = false;
      else list.status = "error";
    }
    throw error;
  }
}

export function setNotificationTab(slug: string, tab: NotificationTab): void {
  notifications.tab = tab;
  void loadNotifications(slug).catch(() => undefined);
}

export function setNotificationFilters(slug: string, patch: Partial<NotificationFilters>): void {
  notifications.filters = { ...notifications.filters, ...patch };
  void loadNotifications(slug).catch(() => undefined);
}

/**
 * Counted in the badge: unread, not archived, not snoozed now. The badge and the All tab show
 * `total` (every such notification, mentions included); the Mentions tab shows `mention`.
 */
function counted(n: Pick<Notification, "read_at" | "archived_at" | "snoozed_till">): boolean {
  return !n.read_at && !n.archived_at && !(n.snoozed_till && Date.parse(n.snoozed_till) > Date.now());
}

/** Does the notification belong in the list as currently filtered (as far as the client can tell)? */
function fitsView(n: Notification): boolean {
  const { tab, filters } = notifications;
  if (tab === "mentions" && !n.is_mentioned_notification) return false;
  if (Boolean(n.archived_at) !== filters.archived) return false;
  const snoozed = Boolean(n.snoozed_till && Date.parse(n.snoozed_till) > Date.now());
  if (snoozed !== filters.snoozed) return false;
  if (filters.read === "read" && !n.read_at) return false;
  if (filters.read === "unread" && n.read_at) return false;
  return true;
}

/**
 * Replace a notification everywhere and move the counts by the difference; returns the undo.
 * A notification that no longer fits the view leaves the list (archived, snoozed, read under
 * "unread only").
 */
function change(slug: string, id: string, patch: Partial<Notification>): () => void {
  const list = notifications.lists[slug];
  const index = list?.items.findIndex((n) => n.id === id) ?? -1;
  if (!list || index < 0) return () => undefined;
  const before = list.items[index] as Notification;
  const after = { ...before, ...patch };
  const mention = before.is_mentioned_notification;
  const delta = Number(counted(after)) - Number(counted(before));
  const counts = notifications.counts[slug];
  if (counts && delta !== 0) {
    counts.total = clamp(counts.total + delta);
    if (mention) counts.mention = clamp(counts.mention + delta);
  }
  const items = list.items.slice();
  if (fitsView(after)) items[index] = after;
  else items.splice(index, 1);
  list.items = items;
  return () => {
    const now = notifications.lists[slug];
    if (now) {
      const at = now.items.findIndex((n) => n.id === id);
      const restored = now.items.slice();
      if (at >= 0) restored[at] = before;
      else restored.splice(Math.min(index, restored.length), 0, before);
      now.items = restored;
    }
    const c = notifications.counts[slug];
    if (c && delta !== 0) {
      c.total = clamp(c.total - delta);
      if (mention) c.mention = clamp(c.mention - delta);
    }
  };
}

async function send(slug: string, id: string, method: "post" | "delete" | "patch", path: string, json?: object) {
  const url = `${base(slug)}${id}/${path}`;
  return api(url, { method, json, headers: mutationHeaders() }).json<Notification>();
}

export function markNotificationRead(slug: string, n: Notification, read: boolean, error: string) {
  if (Boolean(n.read_at) === read) return Promise.resolve(undefined);
  return optimistic({
    apply: () => change(slug, n.id, { read_at: read ? new Date().toISOString() : null }),
    call: () => send(slug, n.id, read ? "post" : "delete", "read/"),
    error,
  });
}

export function archiveNotification(slug: string, n: Notification, archived: boolean, error: string) {
  return optimistic({
    apply: () => change(slug, n.id, { archived_at: archived ? new Date().toISOString() : null }),
    call: () => send(slug, n.id, archived ? "post" : "delete", "archive/"),
    error,
  });
}

/** Snooze until `until` (null: wake it now). */
export function snoozeNotification(slug: string, n: Notification, until: Date | null, error: string) {
  const snoozed_till = until ? until.toISOString() : null;
  return optimistic({
    apply: () => change(slug, n.id, { snoozed_till }),
    call: () => send(slug, n.id, "patch", "", { snoozed_till }),
    error,
  });
}

/** Mark the current tab's filtered unread notifications read. */
export async function markAllNotificationsRead(slug: string, error: string): Promise<void> {
  const { tab, filters } = notifications;
  const body: Record<string, unknown> = { snoozed: filters.snoozed, archived: filters.archived };
  if (tab === "mentions") body.mentioned = true;
  if (filters.types.length > 0) body.type = filters.types;
  const result = await optimistic({
    apply: () => {
      const list = notifications.lists[slug];
      const counts = notifications.counts[slug];
      const beforeItems = list?.items;
      const beforeCounts = counts ? { ...counts } : undefined;
      const now = new Date().toISOString();
      if (list) {
        list.items = list.items
          .map((n) => (n.read_at ? n : { ...n, read_at: now }))
          .filter((n) => filters.read !== "unread" || !n.read_at);
      }
      // Without type filters the whole tab's unread set is marked (All marks mentions too).
      if (counts && filters.types.length === 0 && !filters.archived && !filters.snoozed) {
        counts.total = tab === "all" ? 0 : clamp(counts.total - counts.mention);
        counts.mention = 0;
      }
      return () => {
        const l = notifications.lists[slug];
        if (l && beforeItems) l.items = beforeItems;
        if (beforeCounts) notifications.counts[slug] = beforeCounts;
      };
    },
    call: () => api.post(`${base(slug)}mark-all-read/`, { json: body, headers: mutationHeaders() }).json<unknown>(),
    error,
  });
  // The server's counts are the truth (type filters mark a subset the client can't count).
  if (result !== undefined) await loadUnreadCounts(slug).catch(() => undefined);
}

type LiveNotification = Notification & { receiver_id: string; unread_counts?: CountsAnswer };
type LiveMarkAll = {
  receiver_id: string;
  mark_all_read: true;
  ids: string[];
  read_at: string;
  unread_counts?: CountsAnswer;
};

/** Apply a `notification.*` event from the user's live channel. */
export function applyNotificationEvent(event: DomainEvent): void {
  if (event.type !== "notification.created" && event.type !== "notification.updated") return;
  const slug = Object.values(workspaces.bySlug).find((w) => w.id === event.workspace_id)?.slug;
  if (!slug) return;
  // Our own change is already shown (and its counts too); a later change may be in flight.
  if (isOwnClientMutation(event.client_mutation_id)) return;
  const data = event.data as unknown as LiveNotification | LiveMarkAll;
  if (data.unread_counts) setCounts(slug, data.unread_counts);
  const list = notifications.lists[slug];
  if (!list) return;
  if ("mark_all_read" in data) {
    const ids = new Set(data.ids);
    list.items = list.items
      .map((n) => (ids.has(n.id) && !n.read_at ? { ...n, read_at: data.read_at } : n))
      .filter(fitsView);
    return;
  }
  const { receiver_id: _r, unread_counts: _c, ...n } = data;
  const at = list.items.findIndex((x) => x.id === n.id);
  if (event.type === "notification.created") {
    // Type filters (assigned/created/subscribed) depend on server state: reload rather than guess.
    if (at < 0 && fitsView(n) && notifications.filters.types.length === 0) list.items = [n, ...list.items];
    return;
  }
  const items = list.items.slice();
  if (at >= 0) {
    if (fitsView(n)) items[at] = n;
    else items.splice(at, 1);
    list.items = items;
  }
}

addUserChannelHandler({
  onEvent: applyNotificationEvent,
  // Events sent while the socket was down are lost: catch up on the counts shown.
  onSynced: () => {
    for (const slug of Object.keys(notifications.counts)) void loadUnreadCounts(slug).catch(() => undefined);
  },
});
