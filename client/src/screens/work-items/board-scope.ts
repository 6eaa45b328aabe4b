/**
 * What a board's scope (the whole project, one cycle, one module, a saved view or the epics) means for the board, as pure
 * functions: which items it shows (an implicit filter with the shared filter rules, never shown as
 * a chip nor saved), which server list paints it first, and what a new item created in it starts
 * with.
 */
import { type FilterableIssue, type IssueFilters, matchesFilters } from "@tideline/shared";
import type { ViewScope } from "../../stores/work-item-view";

export type BoardScope = ViewScope;

/** The filter the scope implies ({} for the project). */
export function scopeFilters(scope: BoardScope): IssueFilters {
  if (scope.kind === "cycle") return { cycle: [scope.cycleId] };
  if (scope.kind === "module") return { module: [scope.moduleId] };
  return {};
}

/**
 * The items of the scope, in their order. The project scope returns the list itself (no copy), so
 * memoised work downstream keeps its identity.
 */
export function itemsInScope<T extends FilterableIssue & { is_epic?: boolean }>(
  items: readonly T[],
  scope: BoardScope,
  today: string,
): readonly T[] {
  if (scope.kind === "epics") return items.filter((item) => item.is_epic);
  // Epics share the cache (the epics screens load them, the live layer brings them) but, as on the
  // server's issues/ list, they are no other board's work items. Without any, no copy.
  const workItems = items.some((item) => item.is_epic) ? items.filter((item) => !item.is_epic) : items;
  // A saved view's filters are the board's own (shown as chips, changeable): no implicit filter.
  if (scope.kind === "project" || scope.kind === "view") return workItems;
  const filters = scopeFilters(scope);
  return workItems.filter((item) => matchesFilters(item, filters, today));
}

/** The server list call (under the project) that answers for the scope, with the same query parameters. */
export function scopeListPath(scope: BoardScope): string {
  if (scope.kind === "cycle") return `cycles/${scope.cycleId}/cycle-issues/`;
  if (scope.kind === "module") return `modules/${scope.moduleId}/issues/`;
  if (scope.kind === "epics") return "epics/";
  // A view's board sends its working filters as parameters: the project list answers them exactly
  // (views/{id}/issues/ would AND the stored filters too, wrong once a filter is taken off).
  return "issues/";
}

export type ScopeDefaults = { cycle_id?: string | null; module_ids?: string[]; is_epic?: boolean };

/** What a new item created in the scope starts with, so it lands in the scope. */
export function scopeDefaults(scope: BoardScope): ScopeDefaults {
  if (scope.kind === "cycle") return { cycle_id: scope.cycleId };
  if (scope.kind === "module") return { module_ids: [scope.moduleId] };
  // Created through POST epics/ (createWorkItem), so it is an epic.
  if (scope.kind === "epics") return { is_epic: true };
  return {};
}

/**
 * A prefill (a group's values, a caller's values) over the scope's defaults: the prefill wins,
 * except that modules add up — an item made in a module's "module X" group is in both.
 */
export function withScopeDefaults<T extends object>(
  defaults: ScopeDefaults,
  prefill: T | undefined,
): T & ScopeDefaults {
  const merged = { ...defaults, ...prefill } as T & ScopeDefaults;
  const extra = (prefill as ScopeDefaults | undefined)?.module_ids;
  if (defaults.module_ids?.length && extra) merged.module_ids = [...new Set([...defaults.module_ids, ...extra])];
  return merged;
}
