/**
 * The workspace sync (calls-errors-sync §4, §9): once a workspace is open, the metadata of every
 * project the user belongs to in it (states, labels, estimates, cycles, modules) is fetched with
 * the five workspace-wide calls and stored per project in the local database. A project opened
 * later, or a workspace screen that draws items of many projects, then paints its lists from the
 * copy, and has them offline, even if that project was never opened here.
 *
 * Skip rules: a workspace sync is skipped if another ran within 5 seconds, in this page or in any
 * other tab of the browser (the "workspace write lock": a timestamp in localStorage, shared by the
 * tabs), and while one is running in this page. Lists a page already holds in memory are not
 * overwritten: those are kept current by their stores' write-through (meta.ts), and a workspace
 * answer fetched a moment earlier could be older than them. Project members are not part of it:
 * no workspace-wide call lists them, so they are stored when a project loads.
 */

import type { Cycle } from "../../stores/cycles";
import type { Module } from "../../stores/modules";
import type { Estimate, ProjectLabel, ProjectState } from "../../stores/project-meta";
import { readLocal, writeLocal } from "../local-storage";
import { localDatabase } from "./database";
import { type MetaLists, storeProjectLists } from "./meta";

/** How long a workspace sync keeps others from starting (calls-errors-sync §9). */
export const WORKSPACE_SYNC_LOCK_MS = 5_000;

/** The stores a workspace sync fills. */
export const WORKSPACE_LISTS = ["states", "labels", "estimates", "cycles", "modules"] as const;
export type WorkspaceListName = (typeof WORKSPACE_LISTS)[number];

/** The five workspace-wide answers (each row names its project: `project_id`, or `project` for estimates). */
export type WorkspaceLists = {
  states: ProjectState[];
  labels: ProjectLabel[];
  estimates: (Estimate & { project: string })[];
  cycles: Cycle[];
  modules: Module[];
};

const lockKey = (workspaceId: string) => `tideline:local-db:workspace-sync:${workspaceId}`;
const running = new Set<string>();

/**
 * Take the workspace's write lock unless a sync took it less than 5 s ago (in any tab). A clock
 * that went back (a stamp in the future) does not hold the lock forever. Without localStorage
 * (private modes that refuse it) every page syncs on its own.
 */
export function takeWorkspaceSyncLock(workspaceId: string, now = Date.now()): boolean {
  const last = readLocal<number>(lockKey(workspaceId), 0);
  if (typeof last === "number" && last > 0 && now >= last && now - last < WORKSPACE_SYNC_LOCK_MS) return false;
  writeLocal(lockKey(workspaceId), now);
  return true;
}

export type WorkspaceSyncInput = {
  workspaceId: string;
  /** The projects the user is a member of: each gets its lists stored, empty ones included. */
  projectIds: readonly string[];
  fetchLists: () => Promise<WorkspaceLists>;
  /** A list this page holds in memory for that project (kept current by write-through): not stored. */
  heldInMemory: (projectId: string, list: WorkspaceListName) => boolean;
};

/**
 * Run a workspace sync unless a skip rule applies. Resolves "synced" once every project's lists
 * are stored, "skipped" when it did not run (lock, already running, no local database); a
 * failed call rejects and leaves the copy as it was.
 */
export async function syncWorkspaceLists(input: WorkspaceSyncInput): Promise<"synced" | "skipped"> {
  const { workspaceId } = input;
  if (running.has(workspaceId)) return "skipped";
  if (!(await localDatabase())) return "skipped";
  if (!takeWorkspaceSyncLock(workspaceId)) return "skipped";
  running.add(workspaceId);
  try {
    const lists = await input.fetchLists();
    const byProject = new Map<string, Partial<{ [K in WorkspaceListName]: unknown[] }>>();
    for (const projectId of input.projectIds) byProject.set(projectId, {});
    const add = (name: WorkspaceListName, projectId: string, row: unknown) => {
      const entry = byProject.get(projectId);
      // A row of a project the user is not a member of here (left meanwhile) is not stored.
      if (!entry) return;
      entry[name] ??= [];
      entry[name].push(row);
    };
    for (const row of lists.states) add("states", row.project_id, row);
    for (const row of lists.labels) add("labels", row.project_id, row);
    for (const row of lists.estimates) add("estimates", row.project, row);
    for (const row of lists.cycles) add("cycles", row.project_id, row);
    for (const row of lists.modules) add("modules", row.project_id, row);
    for (const [projectId, entry] of byProject) {
      const toStore: Partial<Record<WorkspaceListName, unknown[]>> = {};
      for (const name of WORKSPACE_LISTS) {
        if (!input.heldInMemory(projectId, name)) toStore[name] = entry[name] ?? [];
      }
      if (Object.keys(toStore).length > 0) {
        await storeProjectLists(projectId, toStore as MetaLists<WorkspaceListName>);
      }
    }
    return "synced";
  } finally {
    running.delete(workspaceId);
  }
}
