/**
 * How a cycle appears in API responses and cycle.* events (the reference's ICycle, snake_case).
 * Counters come from progress.ts: live ones, or the frozen progress_snapshot once completed.
 */
import {
  type CycleStatus,
  cycleDaysLeft,
  cycleStatus,
  EMPTY_PROGRESS_COUNTERS,
  type ProgressCounters,
} from "@tideline/shared";
import type { cycles } from "../../db/schema.ts";

export type CycleRow = typeof cycles.$inferSelect;

export type CycleCounters = ProgressCounters;
export const EMPTY_COUNTERS: ProgressCounters = EMPTY_PROGRESS_COUNTERS;

export type CycleExtras = {
  counters: CycleCounters;
  assigneeIds: string[];
  /** Per user; left out of events (they go to every member). */
  isFavorite?: boolean;
};

export function hasSnapshot(row: CycleRow): boolean {
  return Object.keys(row.progressSnapshot ?? {}).length > 0;
}

export function presentCycle(row: CycleRow, today: string, extras: CycleExtras) {
  const status: CycleStatus = cycleStatus({ start_date: row.startDate, end_date: row.endDate }, today);
  const counters = hasSnapshot(row) ? { ...EMPTY_COUNTERS, ...pickCounters(row.progressSnapshot) } : extras.counters;
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    project_id: row.projectId,
    name: row.name,
    description: row.description,
    start_date: row.startDate,
    end_date: row.endDate,
    owned_by_id: row.ownedById,
    sort_order: row.sortOrder,
    view_props: row.viewProps,
    logo_props: row.logoProps,
    progress_snapshot: row.progressSnapshot,
    archived_at: row.archivedAt?.toISOString() ?? null,
    status,
    days_left: cycleDaysLeft({ start_date: row.startDate, end_date: row.endDate }, today),
    version: 1,
    ...counters,
    assignee_ids: extras.assigneeIds,
    ...(extras.isFavorite === undefined ? {} : { is_favorite: extras.isFavorite }),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    created_by: row.createdById,
    updated_by: row.updatedById,
  };
}

export type PresentedCycle = ReturnType<typeof presentCycle>;

function pickCounters(snapshot: Record<string, unknown>): Partial<CycleCounters> {
  const out: Partial<CycleCounters> = {};
  for (const key of Object.keys(EMPTY_COUNTERS) as (keyof CycleCounters)[]) {
    const v = snapshot[key];
    if (typeof v === "number") out[key] = v;
  }
  return out;
}
