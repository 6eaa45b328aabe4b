/**
 * Work-item constants shared by the server's list query, the user-properties endpoint and the
 * client's local filtering, grouping and sorting (product-domain §3, §5, §9).
 */

/** Priorities, most urgent first (the order of the "priority" sort and of priority groups). */
export const PRIORITIES = ["urgent", "high", "medium", "low", "none"] as const;
export type Priority = (typeof PRIORITIES)[number];

/** The local cache's numeric priority: none 0, low 1, medium 2, high 3, urgent 4. */
export const PRIORITY_MAP: Readonly<Record<Priority, number>> = { none: 0, low: 1, medium: 2, high: 3, urgent: 4 };

export function isPriority(value: unknown): value is Priority {
  return typeof value === "string" && (PRIORITIES as readonly string[]).includes(value);
}

/** Work-item list layouts. */
export const ISSUE_LAYOUTS = ["list", "kanban", "calendar", "spreadsheet", "gantt_chart"] as const;
export type IssueLayout = (typeof ISSUE_LAYOUTS)[number];

/**
 * Keys a work-item list can be grouped (and sub-grouped) by. These are the keys of the list
 * endpoint's group_by/sub_group_by and of stored display filters. An item in several modules
 * (labels, assignees) is in each of their groups.
 */
export const GROUP_BY = [
  "state_id",
  "state__group",
  "priority",
  "labels__id",
  "assignees__id",
  "created_by",
  "project_id",
  "target_date",
  "start_date",
  "estimate_point",
  "cycle_id",
  "module_id",
] as const;
export type GroupByKey = (typeof GROUP_BY)[number];

/** The peer client's names for the same groupings, accepted as aliases and mapped to GROUP_BY keys. */
export const GROUP_BY_ALIASES: Readonly<Record<string, GroupByKey>> = {
  state: "state_id",
  "state_detail.group": "state__group",
  labels: "labels__id",
  assignees: "assignees__id",
  project: "project_id",
  cycle: "cycle_id",
  module: "module_id",
  issue_module__module_id: "module_id",
  estimate: "estimate_point",
};

/** Group by keys that hold several values per item: an item appears in each of its groups. */
export const MANY_TO_MANY_GROUP_BY: readonly GroupByKey[] = ["labels__id", "assignees__id", "module_id"];

/** The group name for items without a value. */
export const NONE_GROUP = "None";

/** Kanban columns an item may be dragged between (dropping sets that property). */
export const KANBAN_DRAGGABLE_GROUP_KEYS: readonly GroupByKey[] = [
  "state_id",
  "priority",
  "assignees__id",
  "labels__id",
  "cycle_id",
  "module_id",
];

export function toGroupByKey(value: unknown): GroupByKey | null {
  if (typeof value !== "string") return null;
  if ((GROUP_BY as readonly string[]).includes(value)) return value as GroupByKey;
  return GROUP_BY_ALIASES[value] ?? null;
}

/**
 * Orderings of the list. "priority" puts urgent first; dates, names, estimates, cycle names and
 * module names put items without a value last in both directions.
 */
export const ORDER_BY = [
  "sort_order",
  "-sort_order",
  "created_at",
  "-created_at",
  "updated_at",
  "-updated_at",
  "sequence_id",
  "-sequence_id",
  "name",
  "-name",
  "priority",
  "-priority",
  "start_date",
  "-start_date",
  "target_date",
  "-target_date",
  "state__name",
  "-state__name",
  "state__group",
  "-state__group",
  "labels__name",
  "-labels__name",
  "assignees__first_name",
  "-assignees__first_name",
  "estimate_point__key",
  "-estimate_point__key",
  "link_count",
  "-link_count",
  "attachment_count",
  "-attachment_count",
  "sub_issues_count",
  "-sub_issues_count",
  "issue_cycle__cycle__name",
  "-issue_cycle__cycle__name",
  "issue_module__module__name",
  "-issue_module__module__name",
] as const;
export type OrderByKey = (typeof ORDER_BY)[number];
export const DEFAULT_ORDER_BY: OrderByKey = "sort_order";

export function isOrderByKey(value: unknown): value is OrderByKey {
  return typeof value === "string" && (ORDER_BY as readonly string[]).includes(value);
}

/**
 * The peer client's orderings that differ from ORDER_BY, mapped to the key the list sorts by.
 * (Cycle and module name orderings use the reference's own words, so they are ORDER_BY keys:
 * by the item's cycle name, or its first module's name, items without one last.)
 */
export const ORDER_BY_ALIASES: Readonly<Record<string, OrderByKey>> = {
  estimate_point: "estimate_point__key",
  "-estimate_point": "-estimate_point__key",
};

/** The ordering a saved or requested order_by means (aliases included), or null. */
export function toOrderByKey(value: unknown): OrderByKey | null {
  if (isOrderByKey(value)) return value;
  return typeof value === "string" ? (ORDER_BY_ALIASES[value] ?? null) : null;
}

/** The display filter "type": active = unstarted + started groups, backlog = backlog group. */
export const ISSUE_TYPE_FILTERS = ["active", "backlog"] as const;
export type IssueTypeFilter = (typeof ISSUE_TYPE_FILTERS)[number];

/** Properties shown on list rows and cards; all on by default (product-domain §3). */
export const DISPLAY_PROPERTIES = [
  "assignee",
  "start_date",
  "due_date",
  "labels",
  "priority",
  "state",
  "sub_issue_count",
  "attachment_count",
  "link",
  "estimate",
  "key",
  "created_on",
  "updated_on",
  "modules",
  "cycle",
  "issue_type",
] as const;
export type DisplayProperty = (typeof DISPLAY_PROPERTIES)[number];
export type DisplayProperties = Record<DisplayProperty, boolean>;

export const DEFAULT_DISPLAY_PROPERTIES: Readonly<DisplayProperties> = Object.fromEntries(
  DISPLAY_PROPERTIES.map((key) => [key, true]),
) as DisplayProperties;

/** Work-item list paging: cursor "perPage:pageIndex:0", 50 per page (per group) by default, at most 100. */
export const ISSUE_PAGE_SIZE = 50;
export const ISSUE_PAGE_SIZE_MAX = 100;

/** Limits of the default form. */
export const ISSUE_NAME_MAX = 255;

/**
 * A work item's description history (description-versions/): while the description is edited
 * live, a version at most this often (as pages); every REST write of it records one.
 */
export const DESCRIPTION_VERSION_INTERVAL_MS = 10 * 60 * 1000;
/** Versions kept per work item (the oldest go). */
export const DESCRIPTION_VERSIONS_KEPT = 50;
