/**
 * Cycles of each project (GET projects/{id}/cycles/): the list every cycle screen, picker and
 * filter reads, kept fresh by the project's live channel (`cycle.*` events carry the cycle with
 * fresh counters). Only these actions call the cycles API.
 */
import type { CycleStatus, DomainEvent, ProgressCounters } from "@tideline/shared";
import { useSnapshot } from "valtio";
import { api } from "../lib/api";
import { defineStore } from "../lib/store";

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

export const cycles = defineStore(() => ({
  byProject: {} as Record<string, ProjectCycles>,
}));

export const cyclesPath = (slug: string, projectId: string) => `/api/workspaces/${slug}/projects/${projectId}/cycles/`;

const inflight = new Map<string, Promise<void>>();

/** Load (or, with `force`, reload) a project's cycles; concurrent calls share one request. */
export function loadCycles(slug: string, projectId: string, force = false): Promise<void> {
  const running = inflight.get(projectId);
  if (running) return running;
  const current = cycles.byProject[projectId];
  if (current?.status === "ready" && !force) return Promise.resolve();
  if (!current) cycles.byProject[projectId] = { status: "loading", list: [] };
  const promise = api
    .get(cyclesPath(slug, projectId))
    .json<Cycle[]>()
    .then((list) => {
      cycles.byProject[projectId] = { status: "ready", list };
    })
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
    entry.list[index] = { ...cycle, is_favorite: cycle.is_favorite ?? previous.is_favorite };
  } else entry.list.push(cycle);
}

export function removeCycle(projectId: string, cycleId: string): void {
  const entry = cycles.byProject[projectId];
  if (!entry) return;
  const index = entry.list.findIndex((c) => c.id === cycleId);
  if (index >= 0) entry.list.splice(index, 1);
}

/** A `cycle.*` event from the project's channel; true when it was one. */
export function applyCycleEvent(event: DomainEvent): boolean {
  if (!event.type.startsWith("cycle.") || !event.project_id) return false;
  const cycle = event.data as unknown as Cycle;
  if (event.type === "cycle.deleted" || event.type === "cycle.archived") removeCycle(event.project_id, event.entity_id);
  else putCycle(cycle);
  return true;
}

/** A project's cycles as a snapshot (empty while loading). */
export function useProjectCycles(projectId: string): readonly Cycle[] {
  const snap = useSnapshot(cycles);
  return (snap.byProject[projectId]?.list ?? []) as readonly Cycle[];
}
