/**
 * The modules page's pure rules: the §9 orders, the filters (status, lead, members, favorites
 * only, search) and the page's remembered display settings (per project, in this browser).
 */
import {
  DEFAULT_MODULE_DISPLAY_FILTERS,
  isModuleStatus,
  MODULE_LAYOUTS,
  MODULE_ORDER_BY,
  type ModuleLayout,
  type ModuleOrderBy,
  type ModuleStatus,
} from "@tideline/shared";
import type { Module } from "../../stores/modules";

export type ModuleFilters = {
  status: ModuleStatus[];
  lead: string[];
  members: string[];
  favorites: boolean;
};

export type ModulePagePrefs = { layout: ModuleLayout; order_by: ModuleOrderBy; filters: ModuleFilters };

export const EMPTY_MODULE_FILTERS: ModuleFilters = { status: [], lead: [], members: [], favorites: false };

export const DEFAULT_MODULE_PREFS: ModulePagePrefs = {
  layout: DEFAULT_MODULE_DISPLAY_FILTERS.layout,
  order_by: DEFAULT_MODULE_DISPLAY_FILTERS.order_by,
  filters: { ...EMPTY_MODULE_FILTERS, favorites: DEFAULT_MODULE_DISPLAY_FILTERS.favorites },
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** Whatever was stored (old, hand-edited, missing) → valid prefs, the §9 defaults where unknown. */
export function normalizePrefs(stored: unknown): ModulePagePrefs {
  const raw = (stored && typeof stored === "object" ? stored : {}) as Record<string, unknown>;
  const filters = (raw.filters && typeof raw.filters === "object" ? raw.filters : {}) as Record<string, unknown>;
  return {
    layout: (MODULE_LAYOUTS as readonly unknown[]).includes(raw.layout)
      ? (raw.layout as ModuleLayout)
      : DEFAULT_MODULE_PREFS.layout,
    order_by: (MODULE_ORDER_BY as readonly unknown[]).includes(raw.order_by)
      ? (raw.order_by as ModuleOrderBy)
      : DEFAULT_MODULE_PREFS.order_by,
    filters: {
      status: strings(filters.status).filter(isModuleStatus),
      lead: strings(filters.lead),
      members: strings(filters.members),
      favorites: filters.favorites === true,
    },
  };
}

export const prefsKey = (projectId: string) => `tideline:modules:page:${projectId}`;

/** Completed over total, 0–1 (a module without items is at 0). */
export function moduleProgress(m: Pick<Module, "total_issues" | "completed_issues">): number {
  return m.total_issues ? m.completed_issues / m.total_issues : 0;
}

const byName = (a: Module, b: Module) => a.name.localeCompare(b.name, undefined, { sensitivity: "base" });

/**
 * Order by one of the §9 orders. Ties fall back to the name so the list never shuffles; modules
 * without a target date come last whichever way dates are sorted.
 */
export function sortModules(list: readonly Module[], order: ModuleOrderBy): Module[] {
  const desc = order.startsWith("-");
  const key = desc ? order.slice(1) : order;
  const sign = desc ? -1 : 1;
  const compare = (a: Module, b: Module): number => {
    switch (key) {
      case "name":
        return sign * byName(a, b);
      case "progress":
        return sign * (moduleProgress(a) - moduleProgress(b)) || byName(a, b);
      case "issues_length":
        return sign * (a.total_issues - b.total_issues) || byName(a, b);
      case "target_date": {
        if (!a.target_date || !b.target_date) {
          if (a.target_date === b.target_date) return byName(a, b);
          return a.target_date ? -1 : 1;
        }
        return sign * a.target_date.localeCompare(b.target_date) || byName(a, b);
      }
      case "created_at":
        return sign * a.created_at.localeCompare(b.created_at) || byName(a, b);
      default:
        return a.sort_order - b.sort_order || byName(a, b);
    }
  };
  return [...list].sort(compare);
}

/** The modules matching the filters and the search (name, case-insensitive). */
export function filterModules(list: readonly Module[], filters: ModuleFilters, search: string): Module[] {
  const q = search.trim().toLowerCase();
  return list.filter((m) => {
    if (q && !m.name.toLowerCase().includes(q)) return false;
    if (filters.status.length && !filters.status.includes(m.status)) return false;
    if (filters.lead.length && !(m.lead_id && filters.lead.includes(m.lead_id))) return false;
    if (filters.members.length && !m.member_ids.some((id) => filters.members.includes(id))) return false;
    if (filters.favorites && !m.is_favorite) return false;
    return true;
  });
}

export function activeFilterCount(filters: ModuleFilters): number {
  return filters.status.length + filters.lead.length + filters.members.length + (filters.favorites ? 1 : 0);
}

/** Only completed and cancelled modules may be archived (the server's rule). */
export function canArchive(m: Pick<Module, "status">): boolean {
  return m.status === "completed" || m.status === "cancelled";
}

/** The modules per status column, in MODULE_STATUSES order (board layout). */
export function groupByStatus(list: readonly Module[], statuses: readonly ModuleStatus[]): Map<ModuleStatus, Module[]> {
  const out = new Map<ModuleStatus, Module[]>(statuses.map((s) => [s, []]));
  for (const m of list) out.get(m.status)?.push(m);
  return out;
}
