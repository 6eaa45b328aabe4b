/**
 * A user's view settings per board (GET/PATCH user-properties/): filters, display filters
 * (layout, grouping, ordering, scope) and display properties. A project's board, each cycle's and
 * each module's board have their own settings, addressed by a view key (viewKeyOf). A change shows
 * at once and is saved
 * shortly after (changes within 400 ms travel in one PATCH); a refusal reverts to what the server
 * holds, with a toast; a request that got no answer (offline) is kept and sent again.
 */
import {
  DEFAULT_DISPLAY_PROPERTIES,
  type DisplayFilters,
  type DisplayFiltersPatch,
  type DisplayProperties,
  type DisplayProperty,
  type GroupByKey,
  ISSUE_FILTER_KEYS,
  type IssueFilterKey,
  mergeDisplayFilters,
  readDisplayFilters,
  readDisplayProperties,
} from "@tideline/shared";
import { dequal } from "dequal/lite";
import { toast } from "sonner";
import { api, errorMessage, HTTPError } from "../lib/api";
import { onKeptAnswerChanged } from "../lib/offline/last-answers";
import { defineStore } from "../lib/store";

/** Stored filters: a list of strings per key (dates in their query form, e.g. "2_weeks;after;fromnow"). */
export type StoredFilters = Partial<Record<IssueFilterKey, string[]>>;

export type WorkItemView = {
  status: "loading" | "ready" | "error";
  filters: StoredFilters;
  display_filters: DisplayFilters;
  display_properties: DisplayProperties;
};

type UserPropertiesAnswer = {
  filters: Record<string, unknown>;
  display_filters: Record<string, unknown>;
  display_properties: Record<string, unknown>;
};

export const workItemView = defineStore(() => ({
  /** By view key (viewKeyOf). */
  byKey: {} as Record<string, WorkItemView>,
}));

/** Which board the settings belong to: the project's, one cycle's, one module's or one saved view's. */
export type ViewScope =
  | { kind: "project" }
  | { kind: "cycle"; cycleId: string }
  | { kind: "module"; moduleId: string }
  | { kind: "view"; viewId: string }
  | { kind: "epics" };

/**
 * The key of a board's settings: the project id for the project board, `{projectId}/cycles/{id}`
 * or `{projectId}/modules/{id}` for a cycle's or module's board — the path under `projects/`
 * where that board's user-properties live, so the key alone is enough to save it.
 */
export function viewKeyOf(projectId: string, scope: ViewScope): string {
  if (scope.kind === "cycle") return `${projectId}/cycles/${scope.cycleId}`;
  if (scope.kind === "module") return `${projectId}/modules/${scope.moduleId}`;
  if (scope.kind === "view") return `${projectId}/views/${scope.viewId}`;
  if (scope.kind === "epics") return `${projectId}/${EPICS_KEY}`;
  return projectId;
}

/** The epics list's settings live at epics-user-properties/ (the server keeps them apart). */
const EPICS_KEY = "epics";

/**
 * Working copies that are never saved as user properties: a saved view's board starts from the
 * view's own filters and display (seedLocalView), and its changes stay on screen until the user
 * updates the view (or resets), so they go through the same setters without a PATCH.
 */
const localKeys = new Set<string>();

/** Start (or restart, for "Reset") a local working copy under a view key. */
export function seedLocalView(
  viewKey: string,
  saved: {
    filters: Record<string, unknown>;
    display_filters: Record<string, unknown>;
    display_properties: Record<string, unknown>;
  },
): void {
  localKeys.add(viewKey);
  workItemView.byKey[viewKey] = fromAnswer(saved);
}

/**
 * The settings' key of a workspace-level board (`ws/{slug}/{screen}`): a built-in workspace view
 * (all-issues, assigned, created, subscribed) or a profile tab (profile-assigned, …), saved at
 * workspace-views/{screen}/user-properties/; or a saved workspace view's working copy
 * (`ws/{slug}/views/{id}`, seeded with seedLocalView and never saved as user properties).
 */
export function workspaceViewKey(slug: string, screen: string): string {
  return `${WS_PREFIX}${slug}/${screen}`;
}

const WS_PREFIX = "ws/";

/** The user-properties call of a view key. */
export function viewPath(slug: string, viewKey: string): string {
  if (viewKey.startsWith(WS_PREFIX)) {
    const screen = viewKey.slice(WS_PREFIX.length).split("/")[1] ?? "";
    return `/api/workspaces/${slug}/workspace-views/${screen}/user-properties/`;
  }
  if (viewKey.endsWith(`/${EPICS_KEY}`))
    return `/api/workspaces/${slug}/projects/${viewKey.slice(0, -EPICS_KEY.length - 1)}/epics-user-properties/`;
  return `/api/workspaces/${slug}/projects/${viewKey}/user-properties/`;
}

function readFilters(raw: Record<string, unknown>): StoredFilters {
  const out: StoredFilters = {};
  for (const key of ISSUE_FILTER_KEYS) {
    const value = raw[key];
    if (Array.isArray(value)) {
      const list = value.filter((v): v is string => typeof v === "string");
      if (list.length) out[key] = list;
    }
  }
  return out;
}

/**
 * Take the server's copy of a board's settings, changing only the parts that differ: a save's
 * answer usually repeats what the screen already shows, and replacing equal filters with new
 * objects made the whole board filter, group and render again for nothing.
 */
function adoptAnswer(viewKey: string, answer: UserPropertiesAnswer): void {
  const next = fromAnswer(answer);
  const view = workItemView.byKey[viewKey];
  if (!view) {
    workItemView.byKey[viewKey] = next;
    return;
  }
  if (view.status !== next.status) view.status = next.status;
  if (!dequal(view.filters, next.filters)) view.filters = next.filters;
  if (!dequal(view.display_filters, next.display_filters)) view.display_filters = next.display_filters;
  if (!dequal(view.display_properties, next.display_properties)) view.display_properties = next.display_properties;
}

function fromAnswer(answer: UserPropertiesAnswer): WorkItemView {
  return {
    status: "ready",
    filters: readFilters(answer.filters ?? {}),
    display_filters: readDisplayFilters(answer.display_filters),
    display_properties: readDisplayProperties(answer.display_properties),
  };
}

/**
 * The defaults, shown while loading (and kept if loading fails). A workspace-level board's are
 * the server's for it (spreadsheet, newest first), so the layout doesn't jump when they arrive.
 */
export function defaultView(viewKey?: string): WorkItemView {
  const workspaceLevel = viewKey?.startsWith(WS_PREFIX) ?? false;
  return {
    status: "loading",
    filters: {},
    display_filters: readDisplayFilters(workspaceLevel ? { layout: "spreadsheet", order_by: "-created_at" } : null),
    display_properties: { ...DEFAULT_DISPLAY_PROPERTIES },
  };
}

const inflight = new Map<string, Promise<void>>();

export function loadWorkItemView(slug: string, viewKey: string): Promise<void> {
  if (localKeys.has(viewKey)) return Promise.resolve();
  const running = inflight.get(viewKey);
  if (running) return running;
  if (!workItemView.byKey[viewKey]) workItemView.byKey[viewKey] = defaultView(viewKey);
  const promise = api
    .get(viewPath(slug, viewKey))
    .json<UserPropertiesAnswer>()
    .then((answer) => {
      // A change made while loading wins: it is already queued for saving.
      if (queued.has(viewKey)) return;
      adoptAnswer(viewKey, answer);
      performance.mark("tideline:work-item-view:loaded");
    })
    .catch((error: unknown) => {
      const view = workItemView.byKey[viewKey];
      if (view) view.status = "error";
      throw error;
    })
    .finally(() => inflight.delete(viewKey));
  inflight.set(viewKey, promise);
  return promise;
}

// A board that started from its kept settings (lib/offline/last-answers.ts) whose server copy
// differs: read them again (a change made meanwhile still wins, as in any load).
onKeptAnswerChanged(/^\/api\/workspaces\/[^/]+\/projects\/[^/]+\/(epics-)?user-properties\/$/, (pathname) => {
  const [, , , slug = "", , projectId = "", call = ""] = pathname.split("/");
  const viewKey = call === "epics-user-properties" ? `${projectId}/${EPICS_KEY}` : projectId;
  if (workItemView.byKey[viewKey]) loadWorkItemView(slug, viewKey).catch(() => undefined);
});

// ───────────── debounced saving ─────────────

type Pending = {
  slug: string;
  filters: Record<string, string[] | null>;
  display_filters: DisplayFiltersPatch;
  display_properties: Partial<DisplayProperties>;
  timer: ReturnType<typeof setTimeout>;
};

const queued = new Map<string, Pending>();
const SAVE_DELAY = 400;

function queue(slug: string, viewKey: string, change: Partial<Omit<Pending, "slug" | "timer">>): void {
  if (localKeys.has(viewKey)) return;
  const current = queued.get(viewKey);
  if (current) clearTimeout(current.timer);
  const next: Pending = {
    slug,
    filters: { ...(current?.filters ?? {}), ...(change.filters ?? {}) },
    display_filters: { ...(current?.display_filters ?? {}), ...(change.display_filters ?? {}) },
    display_properties: { ...(current?.display_properties ?? {}), ...(change.display_properties ?? {}) },
    timer: setTimeout(() => void save(viewKey), SAVE_DELAY),
  };
  queued.set(viewKey, next);
}

/**
 * Send what is queued. Always with `keepalive`: a save the debounce timer started just before
 * the page went away (a click, then at once a link or a reload) would otherwise be cancelled
 * with the page, after taking the change off the queue the pagehide flush reads — lost (an e2e
 * test caught it). The settings are a few hundred bytes, far under keepalive's 64 kB.
 */
async function save(viewKey: string): Promise<void> {
  const job = queued.get(viewKey);
  if (!job) return;
  queued.delete(viewKey);
  const body = bodyOf(job);
  try {
    const answer = await api
      .patch(viewPath(job.slug, viewKey), { json: body, keepalive: true })
      .json<UserPropertiesAnswer>();
    // Only adopt the answer when nothing newer is waiting (it would be overwritten by stale data).
    if (!queued.has(viewKey)) adoptAnswer(viewKey, answer);
  } catch (error) {
    if (!(error instanceof HTTPError)) {
      // No answer at all (offline, server restarting): the change is still wanted, so keep it
      // on screen and send it again rather than reverting to a copy that is only older.
      retryLater(viewKey, job);
      return;
    }
    toast.error("Couldn't save the view", { description: await errorMessage(error) });
    // Back to what the server holds.
    loadWorkItemView(job.slug, viewKey).catch(() => undefined);
  }
}

const RETRY_DELAY = 5_000;

/** Put a job that got no answer back in the queue, under anything changed since; send it when online. */
function retryLater(viewKey: string, job: Pending): void {
  const newer = queued.get(viewKey);
  if (newer) clearTimeout(newer.timer);
  const send = () => void save(viewKey);
  const merged: Pending = {
    slug: job.slug,
    filters: { ...job.filters, ...(newer?.filters ?? {}) },
    display_filters: { ...job.display_filters, ...(newer?.display_filters ?? {}) },
    display_properties: { ...job.display_properties, ...(newer?.display_properties ?? {}) },
    timer: setTimeout(() => {
      if (navigator.onLine) send();
      else window.addEventListener("online", send, { once: true });
    }, RETRY_DELAY),
  };
  queued.set(viewKey, merged);
}

function bodyOf(job: Pending): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (Object.keys(job.filters).length) body.filters = job.filters;
  if (Object.keys(job.display_filters).length) body.display_filters = job.display_filters;
  if (Object.keys(job.display_properties).length) body.display_properties = job.display_properties;
  return body;
}

/**
 * Save now what is waiting: when leaving the screen, or (`unloading`: beforeunload, pagehide)
 * the page itself. Then the request leaves from this very event handler, through fetch with
 * keepalive, not through the client's request pipeline (ky, its hooks), which reaches fetch only
 * in later microtasks. The boards flush at beforeunload, while the page is still whole: a
 * request sent at pagehide from a page the service worker controls was dropped as the page went
 * (found by e2e 19's "a filter changed just before leaving the page is saved all the same").
 */
export function flushWorkItemView(viewKey: string, unloading = false): void {
  const job = queued.get(viewKey);
  if (!job) return;
  clearTimeout(job.timer);
  if (!unloading) {
    void save(viewKey);
    return;
  }
  queued.delete(viewKey);
  fetch(viewPath(job.slug, viewKey), {
    method: "PATCH",
    keepalive: true,
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(bodyOf(job)),
  }).catch(() => undefined);
}

function viewOf(viewKey: string): WorkItemView {
  let view = workItemView.byKey[viewKey];
  if (!view) {
    workItemView.byKey[viewKey] = defaultView(viewKey);
    view = workItemView.byKey[viewKey] as WorkItemView;
  }
  return view;
}

/** Change display filters (layout, grouping, ordering, …); the kanban rules apply at once. */
export function setDisplayFilters(slug: string, viewKey: string, patch: DisplayFiltersPatch): void {
  const view = viewOf(viewKey);
  const next = mergeDisplayFilters(view.display_filters, patch);
  view.display_filters = next;
  // Send what the rules produced too (e.g. kanban's default group_by), so server and screen agree.
  const sent: DisplayFiltersPatch = { ...patch };
  if (patch.layout !== undefined || patch.group_by !== undefined || patch.sub_group_by !== undefined) {
    sent.group_by = next.group_by;
    sent.sub_group_by = next.sub_group_by;
  }
  queue(slug, viewKey, { display_filters: sent });
}

export function setDisplayProperty(slug: string, viewKey: string, key: DisplayProperty, on: boolean): void {
  const view = viewOf(viewKey);
  view.display_properties[key] = on;
  queue(slug, viewKey, { display_properties: { [key]: on } });
}

/** Replace one filter's values ([] removes the filter). */
export function setFilter(slug: string, viewKey: string, key: IssueFilterKey, values: string[]): void {
  const view = viewOf(viewKey);
  if (values.length) view.filters[key] = values;
  else delete view.filters[key];
  queue(slug, viewKey, { filters: { [key]: values.length ? values : null } });
}

/** Add or remove one value of a filter. */
export function toggleFilterValue(slug: string, viewKey: string, key: IssueFilterKey, value: string): void {
  const current = viewOf(viewKey).filters[key] ?? [];
  setFilter(slug, viewKey, key, current.includes(value) ? current.filter((v) => v !== value) : [...current, value]);
}

export function clearFilters(slug: string, viewKey: string): void {
  const view = viewOf(viewKey);
  const keys = Object.keys(view.filters);
  view.filters = {};
  queue(slug, viewKey, { filters: Object.fromEntries(keys.map((k) => [k, null])) });
}

/** Group by, with kanban's rules (clearing group_by clears sub_group_by). */
export function setGroupBy(slug: string, viewKey: string, groupBy: GroupByKey | null): void {
  setDisplayFilters(slug, viewKey, { group_by: groupBy });
}
