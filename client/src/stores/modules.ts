/**
 * Modules of each project (GET projects/{id}/modules/): the list every module screen, picker and
 * filter reads, kept fresh by the project's live channel (`module.*` events carry the module with
 * fresh counters, without the caller's favorite flag). Only these actions call the modules API.
 */
import type { DomainEvent, ModuleStatus, ProgressCounters } from "@tideline/shared";
import { useSnapshot } from "valtio";
import { api } from "../lib/api";
import { defineStore } from "../lib/store";

/** A module as the API presents it (live-server/src/routes/modules/presenter.ts). */
export type Module = ProgressCounters & {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  description: string;
  description_text: string;
  description_html: string;
  start_date: string | null;
  target_date: string | null;
  status: ModuleStatus;
  lead_id: string | null;
  member_ids: string[];
  view_props: Record<string, unknown>;
  sort_order: number;
  external_source: string | null;
  external_id: string | null;
  logo_props: Record<string, unknown>;
  /** The caller's own star; events leave it out (they go to every member). */
  is_favorite?: boolean;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: string | null;
  updated_by: string | null;
};

export type ModuleListStatus = "loading" | "ready" | "error";

export type ProjectModules = {
  status: ModuleListStatus;
  /** The project's unarchived modules (favorites first, then newest, as the server lists them). */
  list: Module[];
};

export const modules = defineStore(() => ({
  byProject: {} as Record<string, ProjectModules>,
}));

export const modulesPath = (slug: string, projectId: string) =>
  `/api/workspaces/${slug}/projects/${projectId}/modules/`;

const inflight = new Map<string, Promise<void>>();

/** Load (or, with `force`, reload) a project's modules; concurrent calls share one request. */
export function loadModules(slug: string, projectId: string, force = false): Promise<void> {
  const running = inflight.get(projectId);
  if (running) return running;
  const current = modules.byProject[projectId];
  if (current?.status === "ready" && !force) return Promise.resolve();
  if (!current) modules.byProject[projectId] = { status: "loading", list: [] };
  const promise = api
    .get(modulesPath(slug, projectId))
    .json<Module[]>()
    .then((list) => {
      modules.byProject[projectId] = { status: "ready", list };
    })
    .catch((error: unknown) => {
      const entry = modules.byProject[projectId];
      if (entry && entry.status !== "ready") entry.status = "error";
      throw error;
    })
    .finally(() => inflight.delete(projectId));
  inflight.set(projectId, promise);
  return promise;
}

/** Insert or replace one module of a project's list (keeps the caller's favorite flag). */
export function putModule(module: Module): void {
  const entry = modules.byProject[module.project_id];
  if (!entry) return;
  const index = entry.list.findIndex((m) => m.id === module.id);
  if (module.archived_at) {
    if (index >= 0) entry.list.splice(index, 1);
    return;
  }
  if (index >= 0) {
    const previous = entry.list[index] as Module;
    entry.list[index] = { ...module, is_favorite: module.is_favorite ?? previous.is_favorite };
  } else entry.list.unshift(module);
}

export function removeModule(projectId: string, moduleId: string): void {
  const entry = modules.byProject[projectId];
  if (!entry) return;
  const index = entry.list.findIndex((m) => m.id === moduleId);
  if (index >= 0) entry.list.splice(index, 1);
}

/** A `module.*` event (not `module.link.*`) from the project's channel; true when it was one. */
export function applyModuleEvent(event: DomainEvent): boolean {
  if (!event.type.startsWith("module.") || event.type.startsWith("module.link.") || !event.project_id) return false;
  if (event.type === "module.deleted" || event.type === "module.archived")
    removeModule(event.project_id, event.entity_id);
  else putModule(event.data as unknown as Module);
  return true;
}

/** A project's modules as a snapshot (empty while loading). */
export function useProjectModules(projectId: string): readonly Module[] {
  const snap = useSnapshot(modules);
  return (snap.byProject[projectId]?.list ?? []) as readonly Module[];
}
