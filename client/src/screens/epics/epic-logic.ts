/**
 * Pure helpers of the epics screens: where an epic lives, and its children's progress by state
 * group in the counters the shared progress bar reads (components/progress/progress-by-group).
 */
import { EMPTY_PROGRESS_COUNTERS, type ProgressCounters, STATE_GROUPS, type StateGroup } from "@tideline/shared";
import { type ProgressItem, progressFromItems } from "../../lib/progress";

export function epicsPath(slug: string, projectId: string): string {
  return `/${slug}/projects/${projectId}/epics/`;
}

export function epicPath(slug: string, projectId: string, epicId: string): string {
  return `/${slug}/projects/${projectId}/epics/${epicId}/`;
}

/** Child ids per state group, as epics/{id}/issues/ answers `state_distribution`. */
export type StateDistribution = Partial<Record<StateGroup, readonly string[]>>;

/**
 * The children's counts per state group as progress counters (work items only: an epic's progress
 * counts its children, estimate points stay 0).
 */
export function countersFromDistribution(distribution: StateDistribution): ProgressCounters {
  const counters: ProgressCounters = { ...EMPTY_PROGRESS_COUNTERS };
  for (const group of STATE_GROUPS) {
    const count = distribution[group]?.length ?? 0;
    counters[`${group}_issues`] = count;
    counters.total_issues += count;
  }
  return counters;
}

type ChildItem = ProgressItem & { parent_id: string | null };

/**
 * Every parent's children counted by state group, in one pass over a project's items (the epics
 * board asks once per cache version, not once per row). Counted with the cycles' and modules'
 * local rule (lib/progress.ts: archived items and drafts left out, an unknown group read as
 * backlog), estimate points left at 0 as on the epic's page.
 */
export function childCountersByParent(items: Iterable<ChildItem>): Map<string, ProgressCounters> {
  const byParent = new Map<string, ChildItem[]>();
  for (const item of items) {
    if (!item.parent_id) continue;
    const siblings = byParent.get(item.parent_id);
    if (siblings) siblings.push(item);
    else byParent.set(item.parent_id, [item]);
  }
  const out = new Map<string, ProgressCounters>();
  for (const [parentId, children] of byParent) {
    const counters = progressFromItems(
      children,
      () => true,
      () => 0,
    );
    if (counters.total_issues) out.set(parentId, counters);
  }
  return out;
}

/**
 * Done out of the children that count: cancelled children are left out of the total, as the
 * reference's epic progress reads "completed / (total − cancelled)".
 */
export function epicCompletion(counters: ProgressCounters): { done: number; total: number; percent: number } {
  const total = counters.total_issues - counters.cancelled_issues;
  const done = counters.completed_issues;
  return { done, total, percent: total > 0 ? Math.round((done / total) * 100) : 0 };
}
