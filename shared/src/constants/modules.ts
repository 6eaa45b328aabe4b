/**
 * Modules (product-domain §3 Module, §4 module status, §9 module orders and default filters;
 * shapes of the reference's packages/types/src/module/).
 */

/** Module status, in the order the board shows its columns (product-domain §4). */
export const MODULE_STATUSES = ["backlog", "planned", "in-progress", "paused", "completed", "cancelled"] as const;
export type ModuleStatus = (typeof MODULE_STATUSES)[number];

/** A new module's status when none is sent (the reference's default). */
export const DEFAULT_MODULE_STATUS: ModuleStatus = "planned";

/** Only these modules may be archived (the reference's rule). */
export const ARCHIVABLE_MODULE_STATUSES: readonly ModuleStatus[] = ["completed", "cancelled"];

export function isModuleStatus(value: unknown): value is ModuleStatus {
  return typeof value === "string" && (MODULE_STATUSES as readonly string[]).includes(value);
}

/** Module list layouts (product-domain §2). */
export const MODULE_LAYOUTS = ["list", "board", "gantt"] as const;
export type ModuleLayout = (typeof MODULE_LAYOUTS)[number];

/** Module list orderings (product-domain §9). */
export const MODULE_ORDER_BY = [
  "name",
  "-name",
  "progress",
  "-progress",
  "issues_length",
  "-issues_length",
  "target_date",
  "-target_date",
  "created_at",
  "-created_at",
  "sort_order",
] as const;
export type ModuleOrderBy = (typeof MODULE_ORDER_BY)[number];

/** Default module list display filters (product-domain §9): list, by name, favorites off. */
export const DEFAULT_MODULE_DISPLAY_FILTERS = { layout: "list", order_by: "name", favorites: false } as const;

export const MODULE_NAME_MAX = 255;
export const MODULE_DESCRIPTION_MAX = 10_000;
