/**
 * What every cycles screen needs about where it is: the project and the caller's role (shared
 * with the pages screens' hook), whether guests see everything, the project's cycles kept live,
 * and each cycle's counters (local from the work-items cache when it holds the whole project,
 * else the server's — cycle-logic.ts countsLocally).
 */
import { calendarDate, EMPTY_PROGRESS_COUNTERS, type ProgressCounters } from "@tideline/shared";
import { useEffect, useMemo } from "react";
import { useSnapshot } from "valtio";
import { numericPoint } from "../../lib/progress";
import { type Cycle, cycles, loadCycleAnalytics, loadCycles } from "../../stores/cycles";
import { watchProjectLive } from "../../stores/live-board";
import { activeEstimate, projectMeta } from "../../stores/project-meta";
import { type ProjectDetail, projects } from "../../stores/projects";
import { session } from "../../stores/session";
import { loadProjectWorkItems, useProjectWorkItems, type WorkItem } from "../../stores/work-items";
import { usePagesProject } from "../pages/use-pages";
import { countersByCycle, countsLocally, pickCounters, seesWholeProject, unfinishedOf } from "./cycle-logic";

export type CyclesProjectContext = ReturnType<typeof useCyclesProject>;

export function useCyclesProject(projectId: string) {
  const base = usePagesProject(projectId);
  const projectsSnap = useSnapshot(projects);
  const sessionSnap = useSnapshot(session);
  const metaSnap = useSnapshot(projectMeta);
  const detail = projectsSnap.details[projectId] as ProjectDetail | undefined;
  const meta = metaSnap.byProject[projectId];
  const estimate = activeEstimate(meta as Parameters<typeof activeEstimate>[0]);
  return {
    ...base,
    userId: sessionSnap.user?.id,
    guestViewAll: detail?.guest_view_all_features,
    /** Points are offered when the project's active estimate is numeric points. */
    hasPoints: estimate?.type === "points",
    /** The project's calendar day (its timezone, as the server computes statuses), for "Starts in". */
    today: calendarDate(new Date(), detail?.timezone),
    cyclesOn: base.project ? base.project.cycle_view !== false : true,
  };
}

/**
 * Keep the project's cycles, its work-items cache and metadata loaded and live while a cycles
 * screen is open (the channel is shared with the board, ref-counted). `onProgress` hears which
 * cycle's progress changed (to refetch its chart).
 */
export function useCyclesLive(
  slug: string,
  projectId: string,
  enabled: boolean,
  onProgress?: (cycleId: string) => void,
): void {
  useEffect(() => {
    if (!enabled || !slug) return;
    void loadCycles(slug, projectId).catch(() => undefined);
    void loadProjectWorkItems(slug, projectId).catch(() => undefined);
    return watchProjectLive(slug, projectId, {
      onEvent: (event) => {
        if (event.type !== "cycle.updated") return;
        const data = event.data as { progress_changed?: boolean };
        if (data.progress_changed) onProgress?.(event.entity_id);
      },
      onSynced: () => onProgress?.("*"),
    });
  }, [slug, projectId, enabled, onProgress]);
}

/** Refetch every loaded analytics entry of a cycle ("*": every cycle of the screen). */
export function refreshAnalytics(slug: string, projectId: string, cycleId: string): void {
  for (const key of Object.keys(cycles.analytics)) {
    const [id, type] = key.split(":");
    if (!id || (cycleId !== "*" && id !== cycleId)) continue;
    if (type === "issues" || type === "points") void loadCycleAnalytics(slug, projectId, id, type);
  }
}

/** Per project items list (a new array on every change): the counters of all its cycles, computed once. */
const byCycleMemo = new WeakMap<
  readonly WorkItem[],
  { points: ReadonlyMap<string, number>; map: Map<string, ProgressCounters> }
>();

function useCountersByCycle(projectId: string): { ready: boolean; map: Map<string, ProgressCounters> } {
  const { items, status } = useProjectWorkItems(projectId);
  const metaSnap = useSnapshot(projectMeta);
  const estimates = metaSnap.byProject[projectId]?.estimates;
  const points = useMemo(() => {
    const map = new Map<string, number>();
    for (const estimate of estimates ?? []) for (const p of estimate.points) map.set(p.id, numericPoint(p.value));
    return map;
  }, [estimates]);
  let memo = byCycleMemo.get(items);
  if (!memo || memo.points !== points) {
    memo = { points, map: countersByCycle(items, (id) => points.get(id) ?? 0) };
    byCycleMemo.set(items, memo);
  }
  return { ready: status === "ready", map: memo.map };
}

/** A cycle's counters as the screen shows them (see countsLocally). */
export function useCycleCounters(cycle: Cycle | null | undefined, _ctx: CyclesProjectContext): ProgressCounters | null {
  const { ready, map } = useCountersByCycle(cycle?.project_id ?? "");
  const local = cycle ? countsLocally({ cacheReady: ready, status: cycle.status }) : false;
  return useMemo(() => {
    if (!cycle) return null;
    return local ? (map.get(cycle.id) ?? { ...EMPTY_PROGRESS_COUNTERS }) : pickCounters(cycle);
  }, [cycle, local, map]);
}

/**
 * How many unfinished items a transfer would move: the items in the cycle now that are not
 * completed or cancelled. For a completed cycle this is not its frozen progress (items may have
 * joined after its end), so it is counted from the cache whenever the cache holds the whole
 * project, else taken from the server's counters.
 */
export function useCycleUnfinished(cycle: Cycle | null | undefined, ctx: CyclesProjectContext): number {
  const { ready, map } = useCountersByCycle(cycle?.project_id ?? "");
  const whole = seesWholeProject({ cacheReady: ready, projectRole: ctx.projectRole, guestViewAll: ctx.guestViewAll });
  if (!cycle) return 0;
  return unfinishedOf(whole ? (map.get(cycle.id) ?? EMPTY_PROGRESS_COUNTERS) : cycle);
}
