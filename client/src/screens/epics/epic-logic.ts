/**
 * Pure helpers of the epics screens: where an epic lives, and its children's progress by state
 * group in the counters the shared progress bar reads (components/progress/progress-by-group).
 */
import { EMPTY_PROGRESS_COUNTERS, type ProgressCounters, STATE_GROUPS, type StateGroup } from "@tideline/shared";

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

/**
 * Done out of the children that count: cancelled children are left out of the total, as the
 * reference's epic progress reads "completed / (total − cancelled)".
 */
export function epicCompletion(counters: ProgressCounters): { done: number; total: number; percent: number } {
  const total = counters.total_issues - counters.cancelled_issues;
  const done = counters.completed_issues;
  return { done, total, percent: total > 0 ? Math.round((done / total) * 100) : 0 };
}
