/**
 * Cycles of each project (GET projects/{id}/cycles/): the list every cycle screen, picker and
 * filter reads, kept fresh by the project's live channel (`cycle.*` events carry the cycle with
 * fresh counters). Only these actions call the cycles API.
 */
import { type CycleStatus, type DomainEvent, EMPTY_PROGRESS_COUNTERS, type ProgressCounters } from "@tideline/shared";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { api, errorMessage } from "../lib/api";
import { mutationHeaders } from "../lib/client-mutations";
import { loadWithLocalCopy, sameRows, writeListsThrough } from "../lib/local-db/meta";
import { serverAfterCopy } from "../lib/local-db/preload";
import { defineStore } from "../lib/store";
import { markEntityFavorite, settleFavorites } from "./favorites";
import { metaFromLocalCopy } from "./project-meta";
import { getProjectWorkItems, getWorkItem, upsertWorkItems, type WorkItem } from "./work-items";
import type { LogoProps } from "./workspaces";

/** A cycle as the API presents it (live-server/src/routes/cycles/presenter.ts). */
export type Cycle = ProgressCounters & {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  description: string;
  start_date: string | null;
  end_date: string | null;
  owned_by_id: string | null;
  sort_order: number;
  view_props: Record<string, unknown>;
  logo_props: Record<string, unknown>;
  progress_snapshot: Record<string, unknown>;
  archived_at: string | null;
  status: CycleStatus;
  days_left: number;
  assignee_ids: string[];
  /** The caller's own star; events leave it out (they go to every member). */
  is_favorite?: boolean;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
};

export type CycleListStatus = "loading" | "ready" | "error";

export type ProjectCycles = {
  status: CycleListStatus;
  /** The project's unarchived cycles in the server's list order. */
  list: Cycle[];
};

/** Assignee or label share of a cycle's work (the reference's TCycleDistribution rows). */
export type CycleAssigneeShare = {
  assignee_id: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
} & ShareCounts;
export type CycleLabelShare = {
  label_id: string | null;
  label_name: string | null;
  color: string | null;
} & ShareCounts;
/** Work items (total_issues …) or points (total_estimates …), by the analytics type. */
export type ShareCounts = Partial<{
  total_issues: number;
  completed_issues: number;
  pending_issues: number;
  total_estimates: number;
  completed_estimates: number;
  pending_estimates: number;
}>;

export type CycleAnalytics = {
  assignees: CycleAssigneeShare[];
  labels: CycleLabelShare[];
  /** {yyyy-MM-dd: pending | null}, null on days still to come. */
  completion_chart: Record<string, number | null>;
  /** The same days with their scope (the chart's scope line); null on days to come. */
  progress?: { date: string; scope: number | null }[];
};

export type AnalyticsType = "issues" | "points";

/** GET cycles/{id}/ and archived-cycles/{id}/: the cycle with its distributions. */
export type CycleDetail = Cycle & { distribution?: CycleAnalytics; estimate_distribution?: CycleAnalytics };

export type CycleDetailEntry = { status: "loading" | "ready" | "missing" | "error"; cycle: CycleDetail | null };

export const cycles = defineStore(() => ({
  byProject: {} as Record<string, ProjectCycles>,
  /** Archived cycles per project (GET archived-cycles/), loaded when the archive is opened. */
  archived: {} as Record<string, ProjectCycles>,
  /** One cycle with its distributions, by id (a cycle's screen; also finds completed/archived ones). */
  details: {} as Record<string, CycleDetailEntry>,
  /** Assignee/label shares and the completion chart, by `${cycleId}:${type}`. */
  analytics: {} as Record<string, { status: "loading" | "ready" | "error"; data: CycleAnalytics | null }>,
}));

export const cyclesPath = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}/cycles/`;

// A change of the list (created, edited, archived here or by a live event) reaches the local
// copy at once, so the next visit paints it rather than what the last load saw.
writeListsThrough(cycles, "byProject", (projectId) => {
  const entry = cycles.byProject[projectId];
  return entry?.status === "ready" ? { cycles: entry.list } : null;
});

const inflight = new Map<string, Promise<void>>();

/** Load (or, with `force`, reload) a project's cycles; concurrent calls share one request. */
export function loadCycles(slug: string, projectId: string, force = false): Promise<void> {
  const running = inflight.get(projectId);
  if (running) return running;
  const current = cycles.byProject[projectId];
  if (current?.status === "ready" && !force) return Promise.resolve();
  if (!current) cycles.byProject[projectId] = { status: "loading", list: [] };
  // The local database's copy paints first when there is one; the server's answer replaces it.
  const promise = loadWithLocalCopy(
    projectId,
    ["cycles"],
    // A list shown (or about to be) from the local copy: the server is asked once the board has painted.
    serverAfterCopy(projectId, ["cycles"], metaFromLocalCopy(projectId))
      .then(() => api.get(cyclesPath(slug, projectId)).json<Cycle[]>())
      .then((list) => ({ cycles: list })),
    (lists) => {
      // The same list again (the server confirming the stored copy): keep what is shown.
      const shown = cycles.byProject[projectId];
      if (shown?.status === "ready" && sameRows(shown.list, lists.cycles)) return;
      cycles.byProject[projectId] = { status: "ready", list: lists.cycles };
    },
    !current,
  )
    .catch((error: unknown) => {
      const entry = cycles.byProject[projectId];
      if (entry && entry.status !== "ready") entry.status = "error";
      throw error;
    })
    .finally(() => inflight.delete(projectId));
  inflight.set(projectId, promise);
  return promise;
}

/** Insert or replace one cycle of a project's list (keeps the caller's favorite flag). */
export function putCycle(cycle: Cycle): void {
  const entry = cycles.byProject[cycle.project_id];
  if (!entry) return;
  const index = entry.list.findIndex((c) => c.id === cycle.id);
  if (cycle.archived_at) {
    if (index >= 0) entry.list.splice(index, 1);
    return;
  }
  if (index >= 0) {
    const previous = entry.list[index] as Cycle;
    // Over the previous: a restricted guest's events come without counts (they keep their own).
    entry.list[index] = { ...previous, ...cycle, is_favorite: cycle.is_favorite ?? previous.is_favorite };
  } else {
    // A new one from a restricted guest's event has no counts: its own start at zero.
    const sent: Partial<Cycle> = cycle;
    entry.list.push({ ...EMPTY_PROGRESS_COUNTERS, assignee_ids: [], progress_snapshot: {}, ...sent } as Cycle);
  }
}

export function removeCycle(projectId: string, cycleId: string): void {
  const entry = cycles.byProject[projectId];
  if (!entry) return;
  const index = entry.list.findIndex((c) => c.id === cycleId);
  if (index >= 0) entry.list.splice(index, 1);
}

/** Keep an open cycle's detail in step with the list (events carry fresh counters, not distributions). */
function mergeDetail(cycle: Cycle): void {
  const entry = cycles.details[cycle.id];
  if (entry?.cycle)
    entry.cycle = { ...entry.cycle, ...cycle, is_favorite: cycle.is_favorite ?? entry.cycle.is_favorite };
}

/** A `cycle.*` event from the project's channel; true when it was one. */
export function applyCycleEvent(event: DomainEvent): boolean {
  if (!event.type.startsWith("cycle.") || !event.project_id) return false;
  const cycle = event.data as unknown as Cycle;
  if (event.type === "cycle.deleted" || event.type === "cycle.archived") {
    removeCycle(event.project_id, event.entity_id);
    const entry = cycles.details[event.entity_id];
    if (event.type === "cycle.deleted" && entry) cycles.details[event.entity_id] = { status: "missing", cycle: null };
    else if (entry?.cycle) entry.cycle = { ...entry.cycle, ...cycle };
    const archived = cycles.archived[event.project_id];
    if (event.type === "cycle.archived" && archived && !archived.list.some((c) => c.id === cycle.id))
      archived.list.unshift(cycle);
  } else {
    putCycle(cycle);
    mergeDetail(cycle);
    if (event.type === "cycle.restored") {
      const archived = cycles.archived[event.project_id];
      if (archived) archived.list = archived.list.filter((c) => c.id !== event.entity_id);
    }
  }
  return true;
}

/** A project's cycles as a snapshot (empty while loading). */
export function useProjectCycles(projectId: string): readonly Cycle[] {
  const snap = useSnapshot(cycles);
  return (snap.byProject[projectId]?.list ?? []) as readonly Cycle[];
}

// ───────────── actions ─────────────

const projectPath = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}`;
const cyclePath = (slug: string, projectId: string, cycleId: string) => `${cyclesPath(slug, projectId)}${cycleId}/`;

export type CycleInput = {
  name: string;
  description: string;
  start_date: string | null;
  end_date: string | null;
};

function findCycle(projectId: string, cycleId: string): Cycle | undefined {
  return cycles.byProject[projectId]?.list.find((c) => c.id === cycleId) ?? cycles.details[cycleId]?.cycle ?? undefined;
}

async function fail(message: string, error: unknown): Promise<void> {
  toast.error(message, { description: await errorMessage(error) });
}

/** Create a cycle. Throws on refusal so the form can show the field errors. */
export async function createCycle(slug: string, projectId: string, input: CycleInput): Promise<Cycle> {
  const cycle = await api.post(cyclesPath(slug, projectId), { json: input, headers: mutationHeaders() }).json<Cycle>();
  putCycle(cycle);
  return cycle;
}

/** Change a cycle from its form. Throws on refusal so the form can show the field errors. */
export async function updateCycle(
  slug: string,
  projectId: string,
  cycleId: string,
  patch: Partial<CycleInput>,
): Promise<Cycle> {
  const cycle = await api
    .patch(cyclePath(slug, projectId, cycleId), { json: patch, headers: mutationHeaders() })
    .json<Cycle>();
  putCycle(cycle);
  mergeDetail(cycle);
  return cycle;
}

/** The items of the cache in a cycle, as they are now (to move them and to undo the move). */
function cachedItemsIn(projectId: string, cycleId: string, only?: ReadonlySet<string>): WorkItem[] {
  const out: WorkItem[] = [];
  for (const id of only ?? []) {
    const item = getWorkItem(id);
    if (item) out.push(item);
  }
  if (only) return out;
  // No id list: every item of the project's cache in that cycle.
  return getProjectWorkItems(projectId).filter((item) => item.cycle_id === cycleId);
}

/** Put items in `cycleId` (or none) in the cache at once; returns the undo. */
function moveInCache(projectId: string, items: readonly WorkItem[], cycleId: string | null): () => void {
  const before = items.filter((item) => item.cycle_id !== cycleId);
  if (!before.length) return () => undefined;
  upsertWorkItems(
    projectId,
    before.map((item) => ({ ...item, cycle_id: cycleId })),
  );
  return () => {
    // Only undo items nobody changed meanwhile (still in the cycle we put them in).
    const current = before.filter((item) => getWorkItem(item.id)?.cycle_id === cycleId);
    upsertWorkItems(
      projectId,
      current.map((item) => ({ ...(getWorkItem(item.id) as WorkItem), cycle_id: item.cycle_id })),
    );
  };
}

/** Delete a cycle (its items leave it); gone from the list at once, back with a toast if refused. */
export async function deleteCycle(slug: string, projectId: string, cycleId: string): Promise<boolean> {
  const entry = cycles.byProject[projectId];
  const index = entry?.list.findIndex((c) => c.id === cycleId) ?? -1;
  const previous = index >= 0 ? entry?.list[index] : undefined;
  removeCycle(projectId, cycleId);
  const undoItems = moveInCache(projectId, cachedItemsIn(projectId, cycleId), null);
  try {
    await api.delete(cyclePath(slug, projectId, cycleId), { headers: mutationHeaders() });
    cycles.details[cycleId] = { status: "missing", cycle: null };
    return true;
  } catch (error) {
    undoItems();
    if (previous && entry && !entry.list.some((c) => c.id === cycleId))
      entry.list.splice(Math.min(index, entry.list.length), 0, previous);
    await fail("The cycle could not be deleted.", error);
    return false;
  }
}

/** Delete an archived cycle (from the archive's list). */
export async function deleteArchivedCycle(slug: string, projectId: string, cycleId: string): Promise<boolean> {
  const archived = cycles.archived[projectId];
  const before = archived?.list ?? [];
  if (archived) archived.list = before.filter((c) => c.id !== cycleId);
  try {
    await api.delete(cyclePath(slug, projectId, cycleId), { headers: mutationHeaders() });
    cycles.details[cycleId] = { status: "missing", cycle: null };
    return true;
  } catch (error) {
    if (archived) archived.list = before;
    await fail("The cycle could not be deleted.", error);
    return false;
  }
}

/** Archive a completed cycle: it leaves the list at once (back with a toast if refused). */
export async function archiveCycle(slug: string, projectId: string, cycleId: string): Promise<boolean> {
  const entry = cycles.byProject[projectId];
  const index = entry?.list.findIndex((c) => c.id === cycleId) ?? -1;
  const previous = index >= 0 ? entry?.list[index] : undefined;
  removeCycle(projectId, cycleId);
  try {
    const { archived_at } = await api
      .post(`${cyclePath(slug, projectId, cycleId)}archive/`, { headers: mutationHeaders() })
      .json<{ archived_at: string }>();
    const archived = cycles.archived[projectId];
    if (previous && archived && !archived.list.some((c) => c.id === cycleId))
      archived.list.unshift({ ...previous, archived_at, is_favorite: false });
    const detail = cycles.details[cycleId];
    if (detail?.cycle) detail.cycle = { ...detail.cycle, archived_at, is_favorite: false };
    return true;
  } catch (error) {
    if (previous && entry && !entry.list.some((c) => c.id === cycleId))
      entry.list.splice(Math.min(index, entry.list.length), 0, previous);
    await fail("The cycle could not be archived.", error);
    return false;
  }
}

/** Restore an archived cycle back into the project's list. */
export async function restoreCycle(slug: string, projectId: string, cycleId: string): Promise<boolean> {
  const archived = cycles.archived[projectId];
  const before = archived?.list ?? [];
  const cycle = before.find((c) => c.id === cycleId);
  if (archived) archived.list = before.filter((c) => c.id !== cycleId);
  try {
    await api.delete(`${cyclePath(slug, projectId, cycleId)}archive/`, { headers: mutationHeaders() });
    if (cycle) putCycle({ ...cycle, archived_at: null });
    const detail = cycles.details[cycleId];
    if (detail?.cycle) detail.cycle = { ...detail.cycle, archived_at: null };
    return true;
  } catch (error) {
    if (archived) archived.list = before;
    await fail("The cycle could not be restored.", error);
    return false;
  }
}

/** Star or unstar a cycle for the caller; at once, undone with a toast if refused. */
export async function setCycleFavorite(
  slug: string,
  projectId: string,
  cycleId: string,
  favorite: boolean,
): Promise<boolean> {
  const set = (value: boolean) => {
    const inList = cycles.byProject[projectId]?.list.find((c) => c.id === cycleId);
    if (inList) inList.is_favorite = value;
    const detail = cycles.details[cycleId]?.cycle;
    if (detail) detail.is_favorite = value;
  };
  const found = findCycle(projectId, cycleId);
  const was = Boolean(found?.is_favorite);
  set(favorite);
  // The sidebar's Favorites shows it at once too (the server's favorite.created replaces it).
  const undoSidebar = markEntityFavorite(
    slug,
    {
      entity_type: "cycle",
      id: cycleId,
      project_id: projectId,
      name: found?.name ?? "",
      logo_props: found?.logo_props as LogoProps,
    },
    favorite,
  );
  try {
    if (favorite) await api.post(`${projectPath(slug, projectId)}/user-favorite-cycles/`, { json: { cycle: cycleId } });
    else await api.delete(`${projectPath(slug, projectId)}/user-favorite-cycles/${cycleId}/`);
    settleFavorites(slug);
    return true;
  } catch (error) {
    set(was);
    undoSidebar();
    await fail(
      favorite ? "The cycle could not be added to favorites." : "The cycle could not be removed from favorites.",
      error,
    );
    return false;
  }
}

export type DateCheck = { status: true } | { status: false; error: string; cycle_id?: string; code?: string };

/** Whether a date range is free in the project (the modal asks while dates change). */
export async function checkCycleDates(
  slug: string,
  projectId: string,
  range: { start_date: string; end_date: string; cycle_id?: string },
  signal?: AbortSignal,
): Promise<DateCheck> {
  return api.post(`${cyclesPath(slug, projectId)}date-check/`, { json: range, signal }).json<DateCheck>();
}

/**
 * Move the unfinished items of a completed cycle to another; the cache follows with the ids the
 * server moved. Resolves to how many moved, or null when refused (with a toast).
 */
export async function transferIssues(
  slug: string,
  projectId: string,
  cycleId: string,
  newCycleId: string,
): Promise<number | null> {
  try {
    const answer = await api
      .post(`${cyclePath(slug, projectId, cycleId)}transfer-issues/`, {
        json: { new_cycle_id: newCycleId },
        headers: mutationHeaders(),
      })
      .json<{ transferred: number; issues: string[] }>();
    moveInCache(projectId, cachedItemsIn(projectId, cycleId, new Set(answer.issues)), newCycleId);
    return answer.transferred;
  } catch (error) {
    await fail("The work items could not be transferred.", error);
    return null;
  }
}

/** Add work items to a cycle (moving them from any other); the boards change at once. */
export async function addIssuesToCycle(
  slug: string,
  projectId: string,
  cycleId: string,
  issueIds: readonly string[],
): Promise<boolean> {
  if (!issueIds.length) return true;
  const undo = moveInCache(projectId, cachedItemsIn(projectId, cycleId, new Set(issueIds)), cycleId);
  try {
    await api.post(`${cyclePath(slug, projectId, cycleId)}cycle-issues/`, {
      json: { issues: issueIds },
      headers: mutationHeaders(),
    });
    return true;
  } catch (error) {
    undo();
    await fail("The work items could not be added to the cycle.", error);
    return false;
  }
}

/** Take one work item out of a cycle; at once, back with a toast if refused. */
export async function removeIssueFromCycle(
  slug: string,
  projectId: string,
  cycleId: string,
  issueId: string,
): Promise<boolean> {
  const undo = moveInCache(projectId, cachedItemsIn(projectId, cycleId, new Set([issueId])), null);
  try {
    await api.delete(`${cyclePath(slug, projectId, cycleId)}cycle-issues/${issueId}/`, { headers: mutationHeaders() });
    return true;
  } catch (error) {
    undo();
    await fail("The work item could not be removed from the cycle.", error);
    return false;
  }
}

/**
 * One cycle with its distributions (GET cycles/{id}/, else archived-cycles/{id}/ for an archived
 * one). A 404 marks it missing (deleted, or another project's).
 */
export async function loadCycleDetail(slug: string, projectId: string, cycleId: string): Promise<void> {
  const entry = cycles.details[cycleId];
  if (entry?.status !== "ready") cycles.details[cycleId] = { status: "loading", cycle: entry?.cycle ?? null };
  try {
    const cycle = await api.get(cyclePath(slug, projectId, cycleId)).json<CycleDetail>();
    cycles.details[cycleId] = { status: "ready", cycle };
  } catch (error) {
    const status = (error as { response?: Response }).response?.status;
    if (status === 404) {
      const archived = await api
        .get(`${projectPath(slug, projectId)}/archived-cycles/${cycleId}/`)
        .json<CycleDetail>()
        .catch(() => null);
      cycles.details[cycleId] = archived ? { status: "ready", cycle: archived } : { status: "missing", cycle: null };
      return;
    }
    const current = cycles.details[cycleId];
    if (current && current.status !== "ready") current.status = "error";
  }
}

const analyticsInflight = new Map<string, Promise<void>>();

/** Assignee/label shares and the completion chart (work items or points); refetched on progress changes. */
export function loadCycleAnalytics(
  slug: string,
  projectId: string,
  cycleId: string,
  type: AnalyticsType,
): Promise<void> {
  const key = `${cycleId}:${type}`;
  const running = analyticsInflight.get(key);
  if (running) return running;
  if (!cycles.analytics[key]) cycles.analytics[key] = { status: "loading", data: null };
  const promise = api
    .get(`${cyclePath(slug, projectId, cycleId)}analytics/`, { searchParams: { type } })
    .json<CycleAnalytics>()
    .then((data) => {
      cycles.analytics[key] = { status: "ready", data };
    })
    .catch(() => {
      const current = cycles.analytics[key];
      if (current && current.status !== "ready") current.status = "error";
    })
    .finally(() => analyticsInflight.delete(key));
  analyticsInflight.set(key, promise);
  return promise;
}

const archivedInflight = new Map<string, Promise<void>>();

/** The project's archived cycles (the archive screen). */
export function loadArchivedCycles(slug: string, projectId: string): Promise<void> {
  const running = archivedInflight.get(projectId);
  if (running) return running;
  if (!cycles.archived[projectId]) cycles.archived[projectId] = { status: "loading", list: [] };
  const promise = api
    .get(`${projectPath(slug, projectId)}/archived-cycles/`)
    .json<Cycle[]>()
    .then((list) => {
      cycles.archived[projectId] = { status: "ready", list };
    })
    .catch(() => {
      const current = cycles.archived[projectId];
      if (current && current.status !== "ready") current.status = "error";
    })
    .finally(() => archivedInflight.delete(projectId));
  archivedInflight.set(projectId, promise);
  return promise;
}
