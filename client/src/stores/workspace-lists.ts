/**
 * Starts the workspace sync (lib/local-db/workspace-sync.ts) once a workspace's projects are
 * known: the metadata of all of its projects goes to the local database in the background, after
 * the screen has had its first seconds to itself.
 */
import { api } from "../lib/api";
import { syncWorkspaceLists, type WorkspaceListName, type WorkspaceLists } from "../lib/local-db/workspace-sync";
import { cycles } from "./cycles";
import { modules } from "./modules";
import { projectMeta } from "./project-meta";
import { projects } from "./projects";

/** Started this long after the workspace opened, when the page is idle: a board paints first. */
const START_AFTER_MS = 3_000;

function heldInMemory(projectId: string, list: WorkspaceListName): boolean {
  const entry =
    list === "cycles"
      ? cycles.byProject[projectId]
      : list === "modules"
        ? modules.byProject[projectId]
        : projectMeta.byProject[projectId];
  // Loading, ready, or painted from the copy: that page's own load stores it (or just did).
  return entry !== undefined && entry.status !== "error";
}

function fetchWorkspaceLists(slug: string): Promise<WorkspaceLists> {
  const base = `/api/workspaces/${slug}`;
  return Promise.all([
    api.get(`${base}/states/`).json<WorkspaceLists["states"]>(),
    api.get(`${base}/labels/`).json<WorkspaceLists["labels"]>(),
    api.get(`${base}/estimates/`).json<WorkspaceLists["estimates"]>(),
    api.get(`${base}/cycles/`).json<WorkspaceLists["cycles"]>(),
    api.get(`${base}/modules/`).json<WorkspaceLists["modules"]>(),
  ]).then(([states, labels, estimates, cycleList, moduleList]) => ({
    states,
    labels,
    estimates,
    cycles: cycleList,
    modules: moduleList,
  }));
}

/** Sync the workspace's lists soon (skipped when another tab or page did within 5 s). */
export function scheduleWorkspaceSync(slug: string, workspaceId: string): () => void {
  let idle: number | null = null;
  const run = () => {
    const projectIds = (projects.bySlug[slug] ?? []).filter((p) => p.is_member).map((p) => p.id);
    void syncWorkspaceLists({
      workspaceId,
      projectIds,
      fetchLists: () => fetchWorkspaceLists(slug),
      heldInMemory,
    }).catch(() => undefined); // offline or refused: the copy stays as it was
  };
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === "function") idle = requestIdleCallback(run, { timeout: 2_000 });
    else run();
  }, START_AFTER_MS);
  return () => {
    clearTimeout(timer);
    if (idle !== null) cancelIdleCallback(idle);
  };
}
