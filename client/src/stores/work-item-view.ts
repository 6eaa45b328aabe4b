/**
 * A user's view settings per project (GET/PATCH user-properties/): filters, display filters
 * (layout, grouping, ordering, scope) and display properties. A change shows at once and is saved
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
import { toast } from "sonner";
import { api, errorMessage, HTTPError } from "../lib/api";
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
  byProject: {} as Record<string, WorkItemView>,
}));

const path = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}/user-properties/`;

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

function fromAnswer(answer: UserPropertiesAnswer): WorkItemView {
  return {
    status: "ready",
    filters: readFilters(answer.filters ?? {}),
    display_filters: readDisplayFilters(answer.display_filters),
    display_properties: readDisplayProperties(answer.display_properties),
  };
}

/** The defaults, shown while loading (and kept if loading fails). */
export function defaultView(): WorkItemView {
  return {
    status: "loading",
    filters: {},
    display_filters: readDisplayFilters(null),
    display_properties: { ...DEFAULT_DISPLAY_PROPERTIES },
  };
}

const inflight = new Map<string, Promise<void>>();

export function loadWorkItemView(slug: string, projectId: string): Promise<void> {
  const running = inflight.get(projectId);
  if (running) return running;
  if (!workItemView.byProject[projectId]) workItemView.byProject[projectId] = defaultView();
  const promise = api
    .get(path(slug, projectId))
    .json<UserPropertiesAnswer>()
    .then((answer) => {
      // A change made while loading wins: it is already queued for saving.
      if (queued.has(projectId)) return;
      workItemView.byProject[projectId] = fromAnswer(answer);
    })
    .catch((error: unknown) => {
      const view = workItemView.byProject[projectId];
      if (view) view.status = "error";
      throw error;
    })
    .finally(() => inflight.delete(projectId));
  inflight.set(projectId, promise);
  return promise;
}

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

function queue(slug: string, projectId: string, change: Partial<Omit<Pending, "slug" | "timer">>): void {
  const current = queued.get(projectId);
  if (current) clearTimeout(current.timer);
  const next: Pending = {
    slug,
    filters: { ...(current?.filters ?? {}), ...(change.filters ?? {}) },
    display_filters: { ...(current?.display_filters ?? {}), ...(change.display_filters ?? {}) },
    display_properties: { ...(current?.display_properties ?? {}), ...(change.display_properties ?? {}) },
    timer: setTimeout(() => void save(projectId), SAVE_DELAY),
  };
  queued.set(projectId, next);
}

async function save(projectId: string): Promise<void> {
  const job = queued.get(projectId);
  if (!job) return;
  queued.delete(projectId);
  const body: Record<string, unknown> = {};
  if (Object.keys(job.filters).length) body.filters = job.filters;
  if (Object.keys(job.display_filters).length) body.display_filters = job.display_filters;
  if (Object.keys(job.display_properties).length) body.display_properties = job.display_properties;
  try {
    const answer = await api.patch(path(job.slug, projectId), { json: body }).json<UserPropertiesAnswer>();
    // Only adopt the answer when nothing newer is waiting (it would be overwritten by stale data).
    if (!queued.has(projectId)) workItemView.byProject[projectId] = fromAnswer(answer);
  } catch (error) {
    if (!(error instanceof HTTPError)) {
      // No answer at all (offline, server restarting): the change is still wanted, so keep it
      // on screen and send it again rather than reverting to a copy that is only older.
      retryLater(projectId, job);
      return;
    }
    toast.error("Couldn't save the view", { description: await errorMessage(error) });
    // Back to what the server holds.
    loadWorkItemView(job.slug, projectId).catch(() => undefined);
  }
}

const RETRY_DELAY = 5_000;

/** Put a job that got no answer back in the queue, under anything changed since; send it when online. */
function retryLater(projectId: string, job: Pending): void {
  const newer = queued.get(projectId);
  if (newer) clearTimeout(newer.timer);
  const send = () => void save(projectId);
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
  queued.set(projectId, merged);
}

/** Save now what is waiting (e.g. when leaving the screen). */
export function flushWorkItemView(projectId: string): void {
  const job = queued.get(projectId);
  if (!job) return;
  clearTimeout(job.timer);
  void save(projectId);
}

function viewOf(projectId: string): WorkItemView {
  let view = workItemView.byProject[projectId];
  if (!view) {
    workItemView.byProject[projectId] = defaultView();
    view = workItemView.byProject[projectId] as WorkItemView;
  }
  return view;
}

/** Change display filters (layout, grouping, ordering, …); the kanban rules apply at once. */
export function setDisplayFilters(slug: string, projectId: string, patch: DisplayFiltersPatch): void {
  const view = viewOf(projectId);
  const next = mergeDisplayFilters(view.display_filters, patch);
  view.display_filters = next;
  // Send what the rules produced too (e.g. kanban's default group_by), so server and screen agree.
  const sent: DisplayFiltersPatch = { ...patch };
  if (patch.layout !== undefined || patch.group_by !== undefined || patch.sub_group_by !== undefined) {
    sent.group_by = next.group_by;
    sent.sub_group_by = next.sub_group_by;
  }
  queue(slug, projectId, { display_filters: sent });
}

export function setDisplayProperty(slug: string, projectId: string, key: DisplayProperty, on: boolean): void {
  const view = viewOf(projectId);
  view.display_properties[key] = on;
  queue(slug, projectId, { display_properties: { [key]: on } });
}

/** Replace one filter's values ([] removes the filter). */
export function setFilter(slug: string, projectId: string, key: IssueFilterKey, values: string[]): void {
  const view = viewOf(projectId);
  if (values.length) view.filters[key] = values;
  else delete view.filters[key];
  queue(slug, projectId, { filters: { [key]: values.length ? values : null } });
}

/** Add or remove one value of a filter. */
export function toggleFilterValue(slug: string, projectId: string, key: IssueFilterKey, value: string): void {
  const current = viewOf(projectId).filters[key] ?? [];
  setFilter(slug, projectId, key, current.includes(value) ? current.filter((v) => v !== value) : [...current, value]);
}

export function clearFilters(slug: string, projectId: string): void {
  const view = viewOf(projectId);
  const keys = Object.keys(view.filters);
  view.filters = {};
  queue(slug, projectId, { filters: Object.fromEntries(keys.map((k) => [k, null])) });
}

/** Group by, with kanban's rules (clearing group_by clears sub_group_by). */
export function setGroupBy(slug: string, projectId: string, groupBy: GroupByKey | null): void {
  setDisplayFilters(slug, projectId, { group_by: groupBy });
}
