/**
 * The caller's home in a workspace (product-domain §2 home dashboard, quick links, recent visits;
 * §3 Workspace quick link, Home widget): their widgets (GET/PATCH home-preferences/), quick
 * links (quick-links/ CRUD), recent visits (GET recent-visits/?entity_name=) and the first few of
 * their own work items per tab (GET user-issues/{me}/ — the member profile's list — with the
 * counts of the profile's summary, stores/member-profile.ts loadMemberStats).
 *
 * - Widgets are shown first-to-last by `sort_order`, highest first (the reference's order). A
 *   move gives the widget the midpoint of its new neighbours (or ±1000 past the ends); showing,
 *   hiding and moving are optimistic (lib/optimistic.ts) and undone with a toast if refused.
 * - Quick links: adding and editing wait for the server, whose 400 (an address that is not
 *   http/https, one already there) the form shows inline; removing is optimistic.
 * - Live: `quick_link.*` and `home_preference.updated` arrive on the user's own channel
 *   (lib/user-channel.ts) from their other tabs and browsers; our own echoes are skipped (client
 *   mutation ids). A read that began before a local change does not take it back (LocalChanges).
 *   After a reconnection, what is loaded is read again. Recent visits have no events: they are
 *   read again each time the home opens.
 */
import type { DomainEvent } from "@tideline/shared";
import { i18next } from "../i18n";
import { api, errorMessage, fieldErrors } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { LocalChanges } from "../lib/local-changes";
import { optimistic } from "../lib/optimistic";
import { defineStore, onStoresReset } from "../lib/store";
import { addUserChannelHandler } from "../lib/user-channel";
import type { WorkItem } from "./work-items";
import { workspaces } from "./workspaces";

// ── shapes (live-server/src/routes/home, routes/recent-visits) ───────────────

/** The widgets this client draws, in the server's keys; any other key is kept but not shown. */
export const HOME_WIDGET_KEYS = ["quick_links", "recents", "my_stickies", "my_work_items"] as const;
export type HomeWidgetKey = (typeof HOME_WIDGET_KEYS)[number];
export const isHomeWidgetKey = (key: string): key is HomeWidgetKey =>
  (HOME_WIDGET_KEYS as readonly string[]).includes(key);

export type HomeWidget = { key: string; is_enabled: boolean; config: Record<string, unknown>; sort_order: number };

export type QuickLink = {
  id: string;
  created_at: string;
  updated_at: string;
  title: string | null;
  url: string;
  metadata: Record<string, unknown>;
  workspace: string;
  owner: string;
};

export type RecentIssueData = {
  id: string;
  name: string;
  state: string | null;
  priority: string;
  assignees: string[];
  type: null;
  sequence_id: number;
  project_id: string;
  project_identifier: string;
  is_epic?: boolean;
};
export type RecentPageData = {
  id: string;
  name: string;
  logo_props: Record<string, unknown>;
  project_id: string;
  owned_by: string;
  project_identifier: string;
};
export type RecentProjectData = {
  id: string;
  name: string;
  logo_props: Record<string, unknown>;
  project_members: string[];
  identifier: string;
};

export type RecentVisit =
  | { id: string; entity_name: "issue"; entity_identifier: string; visited_at: string; entity_data: RecentIssueData }
  | { id: string; entity_name: "page"; entity_identifier: string; visited_at: string; entity_data: RecentPageData }
  | {
      id: string;
      entity_name: "project";
      entity_identifier: string;
      visited_at: string;
      entity_data: RecentProjectData;
    };

/** The Recents filter: every kind, or one (the server's entity_name). */
export const RECENT_FILTERS = ["all", "issue", "page", "project"] as const;
export type RecentFilter = (typeof RECENT_FILTERS)[number];

export const MY_WORK_TABS = ["assigned", "created", "subscribed", "overdue"] as const;
export type MyWorkTab = (typeof MY_WORK_TABS)[number];
/** How many of a tab's work items the widget shows. */
export const MY_WORK_SHOWN = 6;

type Status = "loading" | "ready" | "error";

export type HomeState = {
  widgets: { status: Status; items: HomeWidget[] };
  links: { status: Status; items: QuickLink[] };
  recents: { filter: RecentFilter; lists: Partial<Record<RecentFilter, { status: Status; items: RecentVisit[] }>> };
  myWork: { tab: MyWorkTab; lists: Partial<Record<MyWorkTab, { status: Status; items: WorkItem[] }>> };
};

export const home = defineStore(() => ({
  bySlug: {} as Record<string, HomeState>,
}));

function stateOf(slug: string): HomeState {
  let state = home.bySlug[slug];
  if (!state) {
    home.bySlug[slug] = {
      widgets: { status: "loading", items: [] },
      links: { status: "loading", items: [] },
      recents: { filter: "all", lists: {} },
      myWork: { tab: "assigned", lists: {} },
    };
    state = home.bySlug[slug] as HomeState;
  }
  return state;
}

const base = (slug: string) => `/api/workspaces/${slug}`;

// ── pure rules (home.test.ts) ─────────────────────────────────────────────────

/** The widgets in the order the home shows them: highest sort_order first, then by key. */
export function orderWidgets<T extends Pick<HomeWidget, "key" | "sort_order">>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => b.sort_order - a.sort_order || a.key.localeCompare(b.key));
}

/** The step past the first or last widget when one is moved to an end. */
export const WIDGET_ORDER_STEP = 1000;

/**
 * The sort_order that puts `key` at `toIndex` of `ordered` (the shown order): the midpoint of
 * its new neighbours, or a step past the first / last. Null when it would not move.
 */
export function widgetSortOrderFor(
  ordered: readonly Pick<HomeWidget, "key" | "sort_order">[],
  key: string,
  toIndex: number,
): number | null {
  const from = ordered.findIndex((w) => w.key === key);
  if (from < 0 || from === toIndex || toIndex < 0 || toIndex >= ordered.length) return null;
  const others = ordered.filter((w) => w.key !== key);
  const above = others[toIndex - 1];
  const below = others[toIndex];
  if (!above && !below) return null;
  if (!above) return (below as HomeWidget).sort_order + WIDGET_ORDER_STEP;
  if (!below) return above.sort_order - WIDGET_ORDER_STEP;
  return (above.sort_order + below.sort_order) / 2;
}

/** Where a recent visit opens: a work item by its key, an epic on its page, a page, a project's work items. */
export function recentVisitPath(slug: string, visit: RecentVisit): string {
  if (visit.entity_name === "issue") {
    const d = visit.entity_data;
    if (d.is_epic) return `/${slug}/projects/${d.project_id}/epics/${d.id}/`;
    return `/${slug}/browse/${d.project_identifier}-${d.sequence_id}/`;
  }
  if (visit.entity_name === "page")
    return `/${slug}/projects/${visit.entity_data.project_id}/pages/${visit.entity_data.id}/`;
  return `/${slug}/projects/${visit.entity_data.id}/issues/`;
}

/** The query of a My work items tab (the member profile's list, newest first). */
export function myWorkParams(tab: MyWorkTab, today: string): Record<string, string> {
  const params: Record<string, string> = { per_page: String(MY_WORK_SHOWN), order_by: "-created_at" };
  if (tab === "overdue") {
    // The profile's overdue count: assigned, due today or before, not completed or cancelled.
    params.type = "assigned";
    params.target_date = `${today};before`;
    params.state_group = "backlog,unstarted,started";
    params.order_by = "target_date";
  } else params.type = tab;
  return params;
}

/** A quick link's name on the home: its title, else its address without the scheme. */
export function quickLinkLabel(link: Pick<QuickLink, "title" | "url">): string {
  return link.title?.trim() || link.url.replace(/^https?:\/\//i, "").replace(/\/$/, "");
}

// ── widgets ───────────────────────────────────────────────────────────────────

/** Stamps of the widgets and links changed here, so a read begun before does not take them back. */
const changes = new LocalChanges();
const widgetId = (slug: string, key: string) => `widget:${slug}:${key}`;

/** Read the caller's widgets (the server makes the defaults on the first read). */
export async function loadHomeWidgets(slug: string): Promise<void> {
  const state = stateOf(slug);
  const since = changes.now();
  try {
    const items = await api.get(`${base(slug)}/home-preferences/`).json<HomeWidget[]>();
    const now = stateOf(slug).widgets;
    const held = new Map(now.items.map((w) => [w.key, w]));
    now.items = orderWidgets(
      items.map((w) => (changes.isNewerHere(widgetId(slug, w.key), since) ? (held.get(w.key) ?? w) : w)),
    );
    now.status = "ready";
  } catch (error) {
    if (state.widgets.status !== "ready") stateOf(slug).widgets.status = "error";
    throw error;
  }
}

function patchWidget(slug: string, key: string, patch: Partial<HomeWidget>): void {
  const widgets = stateOf(slug).widgets;
  widgets.items = orderWidgets(widgets.items.map((w) => (w.key === key ? { ...w, ...patch } : w)));
}

async function saveWidget(
  slug: string,
  key: string,
  patch: Pick<HomeWidget, "is_enabled"> | Pick<HomeWidget, "sort_order">,
  error: string,
) {
  const before = stateOf(slug).widgets.items.find((w) => w.key === key);
  if (!before) return false;
  const undo = { is_enabled: before.is_enabled, sort_order: before.sort_order };
  const answer = await optimistic({
    apply: () => {
      patchWidget(slug, key, patch);
      return () =>
        patchWidget(
          slug,
          key,
          "is_enabled" in patch ? { is_enabled: undo.is_enabled } : { sort_order: undo.sort_order },
        );
    },
    call: () =>
      changes.track(widgetId(slug, key), () =>
        api
          .patch(`${base(slug)}/home-preferences/${key}/`, { json: patch, headers: mutationHeaders() })
          .json<Pick<HomeWidget, "key" | "is_enabled" | "sort_order">>(),
      ),
    error,
  });
  return answer !== undefined;
}

/** Show or hide a widget at once; undone with a toast if refused. */
export function setHomeWidgetEnabled(slug: string, key: string, enabled: boolean): Promise<boolean> {
  return saveWidget(slug, key, { is_enabled: enabled }, i18next.t("home.errors.widget"));
}

/** Move a widget to `toIndex` of the shown order at once; undone with a toast if refused. */
export function moveHomeWidget(slug: string, key: string, toIndex: number): Promise<boolean> {
  const ordered = orderWidgets(stateOf(slug).widgets.items.filter((w) => isHomeWidgetKey(w.key)));
  const sortOrder = widgetSortOrderFor(ordered, key, toIndex);
  if (sortOrder === null) return Promise.resolve(false);
  return saveWidget(slug, key, { sort_order: sortOrder }, i18next.t("home.errors.reorder"));
}

// ── quick links ───────────────────────────────────────────────────────────────

const linkId = (id: string) => `link:${id}`;

/** Read the caller's quick links (newest first). */
export async function loadQuickLinks(slug: string): Promise<void> {
  const state = stateOf(slug);
  const since = changes.now();
  try {
    const items = await api.get(`${base(slug)}/quick-links/`).json<QuickLink[]>();
    const now = stateOf(slug).links;
    const held = new Map(now.items.map((l) => [l.id, l]));
    const fetched = new Set(items.map((l) => l.id));
    // A link added here meanwhile stays first; one changed or removed here keeps what this tab holds.
    const addedHere = now.items.filter((l) => !fetched.has(l.id) && changes.isNewerHere(linkId(l.id), since));
    const merged: QuickLink[] = [...addedHere];
    for (const l of items) {
      if (!changes.isNewerHere(linkId(l.id), since)) merged.push(l);
      else {
        const mine = held.get(l.id);
        if (mine) merged.push(mine);
      }
    }
    now.items = merged;
    now.status = "ready";
  } catch (error) {
    if (state.links.status !== "ready") stateOf(slug).links.status = "error";
    throw error;
  }
}

export type QuickLinkInput = { url: string; title: string };
/** A save's outcome: the link, or the server's refusal (per field, else one sentence). */
export type QuickLinkResult =
  | { ok: true; link: QuickLink }
  | { ok: false; fields: Record<string, string>; message: string };

/**
 * Add a quick link (no `id`) or change one. Waits for the server: a refusal comes back for the
 * form to show next to its field, and nothing changes on the home.
 */
export async function saveQuickLink(slug: string, input: QuickLinkInput, id?: string): Promise<QuickLinkResult> {
  const json = { url: input.url.trim(), title: input.title.trim() };
  try {
    const call = () =>
      id
        ? api.patch(`${base(slug)}/quick-links/${id}/`, { json, headers: mutationHeaders() }).json<QuickLink>()
        : api.post(`${base(slug)}/quick-links/`, { json, headers: mutationHeaders() }).json<QuickLink>();
    const link = id ? await changes.track(linkId(id), call) : await call();
    changes.stamp(linkId(link.id));
    const links = stateOf(slug).links;
    links.items = id
      ? links.items.map((l) => (l.id === id ? link : l))
      : [link, ...links.items.filter((l) => l.id !== link.id)];
    return { ok: true, link };
  } catch (error) {
    const [fields, message] = await Promise.all([fieldErrors(error), errorMessage(error)]);
    return { ok: false, fields, message };
  }
}

/** Remove a quick link at once; put back where it was, with a toast, if the call fails. */
export async function deleteQuickLink(slug: string, id: string): Promise<boolean> {
  const links = stateOf(slug).links;
  const index = links.items.findIndex((l) => l.id === id);
  if (index < 0) return false;
  const removed = links.items[index] as QuickLink;
  const ok = await optimistic({
    apply: () => {
      links.items = links.items.filter((l) => l.id !== id);
      return () => {
        const now = stateOf(slug).links;
        if (now.items.some((l) => l.id === id)) return;
        const items = now.items.slice();
        items.splice(Math.min(index, items.length), 0, removed);
        now.items = items;
      };
    },
    call: () =>
      changes.track(linkId(id), () =>
        api.delete(`${base(slug)}/quick-links/${id}/`, { headers: mutationHeaders() }).then(() => true),
      ),
    error: i18next.t("home.errors.removeLink"),
  });
  return ok === true;
}

// ── recents ───────────────────────────────────────────────────────────────────

const recentReads = new Map<string, number>();

/** Read the recent visits of a filter (what a list shows meanwhile stays until the answer). */
export async function loadRecents(slug: string, filter: RecentFilter = stateOf(slug).recents.filter): Promise<void> {
  const recents = stateOf(slug).recents;
  const held = recents.lists[filter];
  if (!held) recents.lists[filter] = { status: "loading", items: [] };
  const key = `${slug}:${filter}`;
  const read = (recentReads.get(key) ?? 0) + 1;
  recentReads.set(key, read);
  try {
    const searchParams: Record<string, string> = filter === "all" ? {} : { entity_name: filter };
    const items = await api.get(`${base(slug)}/recent-visits/`, { searchParams }).json<RecentVisit[]>();
    if (recentReads.get(key) !== read) return;
    stateOf(slug).recents.lists[filter] = { status: "ready", items: items.filter((v) => v.entity_data) };
  } catch (error) {
    const list = stateOf(slug).recents.lists[filter];
    if (recentReads.get(key) === read && list && list.status !== "ready") list.status = "error";
    throw error;
  }
}

/** Show another kind of recent visit (read again: visits move all the time). */
export function setRecentsFilter(slug: string, filter: RecentFilter): void {
  stateOf(slug).recents.filter = filter;
  void loadRecents(slug, filter).catch(() => undefined);
}

// ── my work items ─────────────────────────────────────────────────────────────

type ListPage = { results: WorkItem[] };
const workReads = new Map<string, number>();

/** The first few work items of a My work items tab (the member profile's list of the caller). */
export async function loadMyWork(slug: string, userId: string, tab: MyWorkTab, today: string): Promise<void> {
  const myWork = stateOf(slug).myWork;
  if (!myWork.lists[tab]) myWork.lists[tab] = { status: "loading", items: [] };
  const key = `${slug}:${tab}`;
  const read = (workReads.get(key) ?? 0) + 1;
  workReads.set(key, read);
  try {
    const page = await api
      .get(`${base(slug)}/user-issues/${userId}/`, { searchParams: myWorkParams(tab, today) })
      .json<ListPage>();
    if (workReads.get(key) !== read) return;
    stateOf(slug).myWork.lists[tab] = { status: "ready", items: Array.isArray(page.results) ? page.results : [] };
  } catch (error) {
    const list = stateOf(slug).myWork.lists[tab];
    if (workReads.get(key) === read && list && list.status !== "ready") list.status = "error";
    throw error;
  }
}

export function setMyWorkTab(slug: string, tab: MyWorkTab): void {
  stateOf(slug).myWork.tab = tab;
}

onStoresReset(() => {
  recentReads.clear();
  workReads.clear();
});

// ── live ──────────────────────────────────────────────────────────────────────

/** Apply a quick_link.* / home_preference.updated event from another tab or browser of this person. */
export function applyHomeEvent(event: DomainEvent): void {
  if (!event.type.startsWith("quick_link.") && event.type !== "home_preference.updated") return;
  if (isOwnClientMutation(event.client_mutation_id)) return;
  const slug = Object.values(workspaces.bySlug).find((w) => w.id === event.workspace_id)?.slug;
  const state = slug ? home.bySlug[slug] : undefined;
  if (!slug || !state) return;
  if (event.type === "home_preference.updated") {
    const data = event.data as unknown as Partial<HomeWidget>;
    if (typeof data?.key !== "string" || state.widgets.status !== "ready") return;
    const widget: HomeWidget = {
      key: data.key,
      is_enabled: Boolean(data.is_enabled),
      config: data.config ?? {},
      sort_order: Number(data.sort_order),
    };
    const others = state.widgets.items.filter((w) => w.key !== widget.key);
    state.widgets.items = orderWidgets([...others, widget]);
    changes.stamp(widgetId(slug, widget.key));
    return;
  }
  const link = event.data as unknown as QuickLink;
  if (typeof link?.id !== "string" || state.links.status !== "ready") return;
  changes.stamp(linkId(link.id));
  const items = state.links.items;
  if (event.type === "quick_link.deleted") state.links.items = items.filter((l) => l.id !== link.id);
  else if (items.some((l) => l.id === link.id)) state.links.items = items.map((l) => (l.id === link.id ? link : l));
  else if (event.type === "quick_link.created") state.links.items = [link, ...items];
}

addUserChannelHandler({
  onEvent: applyHomeEvent,
  // Events sent while the socket was down are lost: read again what is loaded.
  onSynced: () => {
    for (const [slug, state] of Object.entries(home.bySlug)) {
      if (state.widgets.status === "ready") void loadHomeWidgets(slug).catch(() => undefined);
      if (state.links.status === "ready") void loadQuickLinks(slug).catch(() => undefined);
      if (state.recents.lists[state.recents.filter]) void loadRecents(slug).catch(() => undefined);
    }
  },
});
