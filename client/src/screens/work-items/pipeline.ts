/**
 * The board's local pipeline (the spec's local-database mode): filter, group, sub-group and order
 * a project's cached work items with the server's semantics — the shared filter evaluator, the
 * server's group keys (an item with two labels is in both label groups; items without a value are
 * in "None"; an item in two modules is in both module groups) and its orderings (urgent first;
 * items without the value last in both directions; ties by sequence_id then id). Pure functions
 * only: the unit tests run them in node.
 */
import {
  type DisplayScope,
  type FilterableIssue,
  type GroupByKey,
  type IssueFilters,
  issuePosition,
  matchesDisplayScope,
  matchesFilters,
  matchesSearch,
  NONE_GROUP,
  type OrderByKey,
  PRIORITIES,
  type Priority,
  STATE_GROUPS,
} from "@tideline/shared";

/** What the pipeline reads of a work item (the cache's WorkItem fits). */
export type PipelineItem = FilterableIssue & {
  id: string;
  name: string;
  sequence_id: number;
  sort_order: number;
  created_at: string;
  updated_at: string;
  estimate_point: string | null;
  archived_at: string | null;
  is_draft: boolean;
  cycle_id?: string | null;
  module_ids?: readonly string[];
};

/**
 * A cycle or module of the project as the pipeline knows it (the stores' Cycle and Module fit).
 * A cycle of status "completed" takes no new work items (the server answers 400), so it is no
 * drop target and prefills nothing.
 */
export type PipelineNamed = { id: string; name: string; status?: string };

function takesItems(cycle: PipelineNamed | undefined): boolean {
  return cycle !== undefined && cycle.status !== "completed";
}

/** The project's named values, in display order (states by group then sequence, labels by sort_order). */
export type PipelineContext = {
  states: readonly { id: string; group: string }[];
  labels: readonly { id: string; name: string }[];
  members: readonly { id: string; name: string }[];
  estimatePoints: readonly { id: string; key: number }[];
  /**
   * The project's unarchived cycles and modules (any order: groups and orderings sort them by
   * name). Items in an archived cycle are grouped under its id but order as without a cycle, as
   * on the server. Absent while the lists load.
   */
  cycles?: readonly PipelineNamed[];
  modules?: readonly PipelineNamed[];
  /** The projects of a board of several projects (their groups, by name); absent on a project's board. */
  projects?: readonly PipelineNamed[];
  /** Today as yyyy-MM-dd (relative date filters). */
  today: string;
};

export type PipelineOptions = {
  filters: IssueFilters;
  scope: DisplayScope;
  search?: string;
  projectIdentifier?: string;
  /** On a board of several projects: each item's project identifier (so "WEB-12" finds only WEB's 12). */
  identifierOf?: (projectId: string) => string | undefined;
  groupBy: GroupByKey | null;
  subGroupBy: GroupByKey | null;
  orderBy: OrderByKey;
  showEmptyGroups: boolean;
};

export type Group<T> = {
  key: string;
  /** Items of the group (all of its sub-groups together when sub-grouped), in order. */
  items: T[];
  subGroups: Group<T>[] | null;
  /** How many items the group holds when `items` is only its first page (the server's first paint). */
  count?: number;
};

/** The number a group header shows. */
export function groupCount<T>(group: Group<T>): number {
  return group.count ?? group.items.length;
}

// ───────────── filtering ─────────────

/** Live items that pass the filters, the display scope and the search. */
export function filterItems<T extends PipelineItem>(
  items: Iterable<T>,
  options: Pick<PipelineOptions, "filters" | "scope" | "search" | "projectIdentifier" | "identifierOf">,
  today: string,
): T[] {
  const out: T[] = [];
  const search = options.search?.trim() ?? "";
  for (const item of items) {
    if (item.archived_at || item.is_draft) continue;
    if (!matchesFilters(item, options.filters, today)) continue;
    if (!matchesDisplayScope(item, options.scope)) continue;
    if (search && !matchesSearch(item, search, options.identifierOf?.(item.project_id) ?? options.projectIdentifier))
      continue;
    out.push(item);
  }
  return out;
}

// ───────────── ordering ─────────────

const PRIORITY_RANK = new Map<string, number>(PRIORITIES.map((p, i) => [p, i]));
const STATE_GROUP_RANK = new Map<string, number>(STATE_GROUPS.map((g, i) => [g, i]));

type SortValue = number | string | null;

/** Lower-cased names by id, for the cycle and module name orderings. */
function nameKeys(list: readonly PipelineNamed[] | undefined): Map<string, string> {
  return new Map((list ?? []).map((x) => [x.id, x.name.toLowerCase()]));
}

/**
 * The first of an item's module names (the last when descending — the server's min/max, as
 * for labels), or null without a known module.
 */
function moduleNameKey(ids: readonly string[] | undefined, names: Map<string, string>, desc: boolean): string | null {
  let out: string | null = null;
  for (const id of ids ?? []) {
    const name = names.get(id);
    if (name === undefined) continue;
    if (out === null || (desc ? name > out : name < out)) out = name;
  }
  return out;
}

type SortLookups = { pointKeys: Map<string, number>; names: Map<string, string>; desc: boolean };

function sortValue(item: PipelineItem, key: string, lookups: SortLookups): SortValue {
  switch (key) {
    case "sort_order":
      return item.sort_order;
    case "created_at":
      return item.created_at;
    case "updated_at":
      return item.updated_at;
    case "start_date":
      return item.start_date;
    case "target_date":
      return item.target_date;
    case "name":
      return (item.name ?? "").toLowerCase();
    case "priority":
      return PRIORITY_RANK.get(item.priority) ?? null;
    case "state__group":
      return item.state__group ? (STATE_GROUP_RANK.get(item.state__group) ?? null) : null;
    case "estimate_point__key":
      return item.estimate_point ? (lookups.pointKeys.get(item.estimate_point) ?? null) : null;
    case "issue_cycle__cycle__name":
      return item.cycle_id ? (lookups.names.get(item.cycle_id) ?? null) : null;
    case "issue_module__module__name":
      return moduleNameKey(item.module_ids, lookups.names, lookups.desc);
    default:
      return null;
  }
}

/**
 * Order items as the server's order_by does: ascending, or descending with "-"; items without the
 * value last in both directions; ties by sequence_id (same direction), then id.
 */
export function sortItems<T extends PipelineItem>(items: readonly T[], orderBy: OrderByKey, ctx: PipelineContext): T[] {
  const desc = orderBy.startsWith("-");
  const key = desc ? orderBy.slice(1) : orderBy;
  const dir = desc ? -1 : 1;
  const tie = (a: T, b: T) => dir * (a.sequence_id - b.sequence_id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  if (key === "sequence_id") return [...items].sort(tie);
  const lookups: SortLookups = {
    pointKeys: new Map(ctx.estimatePoints.map((p) => [p.id, p.key])),
    names:
      key === "issue_cycle__cycle__name"
        ? nameKeys(ctx.cycles)
        : key === "issue_module__module__name"
          ? nameKeys(ctx.modules)
          : new Map(),
    desc,
  };
  // Decorate once: a 10,000-item sort reads each value once, not per comparison.
  const decorated = items.map((item) => ({ item, v: sortValue(item, key, lookups) }));
  decorated.sort((a, b) => {
    if (a.v === null || b.v === null) {
      if (a.v === null && b.v !== null) return 1;
      if (b.v === null && a.v !== null) return -1;
      return tie(a.item, b.item);
    }
    const c = a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
    return dir * c || tie(a.item, b.item);
  });
  return decorated.map((d) => d.item);
}

// ───────────── grouping ─────────────

/** The group keys an item belongs to for a grouping (several for labels, assignees and modules). */
export function groupKeysOf(item: PipelineItem, key: GroupByKey): string[] {
  switch (key) {
    case "state_id":
      return [item.state_id ?? NONE_GROUP];
    case "state__group":
      return [item.state__group ?? NONE_GROUP];
    case "priority":
      return [item.priority];
    case "labels__id":
      return item.label_ids.length ? [...new Set(item.label_ids)] : [NONE_GROUP];
    case "assignees__id":
      return item.assignee_ids.length ? [...new Set(item.assignee_ids)] : [NONE_GROUP];
    case "created_by":
      return [item.created_by ?? NONE_GROUP];
    case "project_id":
      return [item.project_id];
    case "target_date":
      return [item.target_date?.slice(0, 10) ?? NONE_GROUP];
    case "start_date":
      return [item.start_date?.slice(0, 10) ?? NONE_GROUP];
    case "estimate_point":
      return [item.estimate_point ?? NONE_GROUP];
    case "cycle_id":
      return [item.cycle_id ?? NONE_GROUP];
    case "module_id":
      return item.module_ids?.length ? [...new Set(item.module_ids)] : [NONE_GROUP];
  }
}

/** Cycles or modules in the server's group order: by lower-cased name, then id. */
function byName(list: readonly PipelineNamed[] | undefined): string[] {
  return [...(list ?? [])]
    .map((x) => ({ id: x.id, k: x.name.toLowerCase() }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((x) => x.id);
}

/** Groups a grouping always shows (even empty), in display order — as the server's list does. */
export function knownGroupKeys(key: GroupByKey, ctx: PipelineContext): string[] {
  switch (key) {
    case "state_id":
      return ctx.states.map((s) => s.id);
    case "state__group":
      return [...STATE_GROUPS];
    case "priority":
      return [...PRIORITIES];
    case "labels__id":
      return [...ctx.labels.map((l) => l.id), NONE_GROUP];
    case "assignees__id":
      return [...ctx.members.map((m) => m.id), NONE_GROUP];
    case "estimate_point":
      return [...ctx.estimatePoints.map((p) => p.id), NONE_GROUP];
    case "cycle_id":
      return [...byName(ctx.cycles), NONE_GROUP];
    case "module_id":
      return [...byName(ctx.modules), NONE_GROUP];
    case "project_id":
      return byName(ctx.projects);
    case "target_date":
    case "start_date":
      return [NONE_GROUP];
    default:
      return [];
  }
}

/** Known keys first in their order, then the others (dates ascending, creators by name), None last. */
function orderGroupKeys(found: Iterable<string>, key: GroupByKey, ctx: PipelineContext): string[] {
  const known = knownGroupKeys(key, ctx);
  const all = new Set([...known, ...found]);
  const knownSet = new Set(known);
  const names = new Map(ctx.members.map((m) => [m.id, m.name.toLowerCase()]));
  const rest = [...all]
    .filter((k) => !knownSet.has(k) && k !== NONE_GROUP)
    .sort((a, b) => {
      if (key === "created_by") {
        const na = names.get(a) ?? a;
        const nb = names.get(b) ?? b;
        return na < nb ? -1 : na > nb ? 1 : 0;
      }
      return a < b ? -1 : a > b ? 1 : 0;
    });
  const head = known.filter((k) => k !== NONE_GROUP);
  return [...head, ...rest, ...(all.has(NONE_GROUP) ? [NONE_GROUP] : [])];
}

function bucket<T extends PipelineItem>(items: readonly T[], key: GroupByKey): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    for (const k of groupKeysOf(item, key)) {
      const list = out.get(k);
      if (list) list.push(item);
      else out.set(k, [item]);
    }
  }
  return out;
}

function groupsOf<T extends PipelineItem>(
  items: readonly T[],
  key: GroupByKey,
  ctx: PipelineContext,
  showEmpty: boolean,
): Group<T>[] {
  const buckets = bucket(items, key);
  const keys = orderGroupKeys(buckets.keys(), key, ctx).filter((k) => showEmpty || buckets.has(k));
  return keys.map((k) => ({ key: k, items: buckets.get(k) ?? [], subGroups: null }));
}

/**
 * The whole pipeline: filter, order, group (and sub-group). Without group_by the result is one
 * group with key "all". Items keep the order inside every group.
 *
 * `presorted`: the items are already in `options.orderBy`'s order (sortItems of these items or
 * of more). The order is total (ties end on the id), and filtering keeps it, so sorting once per
 * cache version and ordering leaves a filter change only the filtering and the grouping.
 */
export function buildGroups<T extends PipelineItem>(
  items: Iterable<T>,
  options: PipelineOptions,
  ctx: PipelineContext,
  presorted = false,
): { groups: Group<T>[]; total: number; items: T[] } {
  const filtered = filterItems(items, options, ctx.today);
  const ordered = presorted ? filtered : sortItems(filtered, options.orderBy, ctx);
  if (!options.groupBy)
    return { groups: [{ key: "all", items: ordered, subGroups: null }], total: ordered.length, items: ordered };
  const groups = groupsOf(ordered, options.groupBy, ctx, options.showEmptyGroups);
  const sub = options.subGroupBy && options.subGroupBy !== options.groupBy ? options.subGroupBy : null;
  if (sub) {
    // Every column shows the same swimlanes, so lanes are computed over all items.
    const laneKeys = groupsOf(ordered, sub, ctx, options.showEmptyGroups).map((g) => g.key);
    for (const group of groups) {
      const inner = bucket(group.items, sub);
      group.subGroups = laneKeys.map((k) => ({ key: k, items: inner.get(k) ?? [], subGroups: null }));
    }
  }
  return { groups, total: ordered.length, items: ordered };
}

// ───────────── drag and drop ─────────────

/**
 * The sort_order of an item dropped at `index` of a list (the list without the dragged item, in
 * display order): the first position is the first − 10000, the last the last + 10000, otherwise the
 * average of the neighbours (product-domain §5).
 */
export function dropSortOrder(sortOrders: readonly number[], index: number): number {
  const at = Math.max(0, Math.min(index, sortOrders.length));
  const before = at > 0 ? (sortOrders[at - 1] ?? null) : null;
  const after = at < sortOrders.length ? (sortOrders[at] ?? null) : null;
  return issuePosition(before, after);
}

export type GroupPatch = Partial<{
  state_id: string | null;
  priority: Priority;
  label_ids: string[];
  assignee_ids: string[];
  start_date: string | null;
  target_date: string | null;
  estimate_point: string | null;
  cycle_id: string | null;
  module_ids: string[];
}>;

/**
 * Whether a group takes work items (a drop, a quick add): not a completed cycle's, nor an
 * unknown (archived) cycle's — the server refuses items there.
 */
export function groupTakesItems(
  key: GroupByKey | null,
  groupKey: string,
  ctx: Pick<PipelineContext, "cycles">,
): boolean {
  if (key !== "cycle_id" || groupKey === NONE_GROUP) return true;
  return takesItems(ctx.cycles?.find((c) => c.id === groupKey));
}

/**
 * What changes when an item moves from group `from` to group `to` of a grouping: the new state,
 * priority or cycle (None: out of any cycle); for labels, assignees and modules the old group's
 * value is replaced by the new one (None empties the list). Null when the grouping can't be set
 * by moving (creator, state group, dates).
 */
export function moveGroupPatch(
  key: GroupByKey,
  item: Pick<PipelineItem, "label_ids" | "assignee_ids" | "module_ids">,
  from: string,
  to: string,
): GroupPatch | null {
  if (from === to) return {};
  switch (key) {
    case "state_id":
      return to === NONE_GROUP ? null : { state_id: to };
    case "priority":
      return (PRIORITIES as readonly string[]).includes(to) ? { priority: to as Priority } : null;
    case "labels__id":
      return { label_ids: swap(item.label_ids, from, to) };
    case "assignees__id":
      return { assignee_ids: swap(item.assignee_ids, from, to) };
    case "cycle_id":
      return { cycle_id: to === NONE_GROUP ? null : to };
    case "module_id":
      return { module_ids: swap(item.module_ids ?? [], from, to) };
    default:
      return null;
  }
}

function swap(values: readonly string[], from: string, to: string): string[] {
  if (to === NONE_GROUP) return [];
  const kept = values.filter((v) => v !== from);
  return kept.includes(to) ? kept : [...kept, to];
}

/**
 * Values a new item created in a group starts with (quick add): the group's state, priority,
 * label, assignee, date, cycle or module. None groups prefill nothing (product-domain §5: quick
 * add ignores a cycle or module of None), nor does a completed cycle's (it takes no items).
 */
export function prefillFor(
  key: GroupByKey | null,
  groupKey: string,
  ctx?: Pick<PipelineContext, "states" | "cycles">,
): GroupPatch {
  if (!key || groupKey === NONE_GROUP || groupKey === "all") return {};
  switch (key) {
    case "state_id":
      return { state_id: groupKey };
    case "state__group": {
      // The group's first state (states are in display order).
      const state = ctx?.states.find((s) => s.group === groupKey);
      return state ? { state_id: state.id } : {};
    }
    case "priority":
      return (PRIORITIES as readonly string[]).includes(groupKey) ? { priority: groupKey as Priority } : {};
    case "labels__id":
      return { label_ids: [groupKey] };
    case "assignees__id":
      return { assignee_ids: [groupKey] };
    case "target_date":
      return { target_date: groupKey };
    case "start_date":
      return { start_date: groupKey };
    case "estimate_point":
      return { estimate_point: groupKey };
    case "cycle_id":
      // Without the list of cycles (still loading) the group's cycle is used; the server judges.
      return !ctx?.cycles || takesItems(ctx.cycles.find((c) => c.id === groupKey)) ? { cycle_id: groupKey } : {};
    case "module_id":
      return { module_ids: [groupKey] };
    default:
      return {};
  }
}

// ───────────── the server's first page ─────────────

type Cell<T> = { results: T[]; total_results: number };

/**
 * The server's paged list answer (flat, grouped or sub-grouped) as groups, for the first paint
 * while the cache loads. Known empty groups come from the server; `showEmptyGroups` drops them.
 */
export function pageToGroups<T extends { id: string }>(
  results: T[] | Record<string, Cell<T>> | Record<string, { results: Record<string, Cell<T>>; total_results: number }>,
  totalCount: number,
  options: { grouped: boolean; subGrouped: boolean; showEmptyGroups: boolean },
): { groups: Group<T>[]; total: number; items: T[] } {
  if (Array.isArray(results) || !options.grouped) {
    const items = Array.isArray(results) ? results : [];
    return { groups: [{ key: "all", items, subGroups: null, count: totalCount }], total: totalCount, items };
  }
  const groups: Group<T>[] = [];
  const all = new Map<string, T>();
  for (const [key, cell] of Object.entries(results)) {
    if (!options.showEmptyGroups && cell.total_results === 0) continue;
    if (options.subGrouped) {
      const inner = cell.results as Record<string, Cell<T>>;
      const subGroups: Group<T>[] = Object.entries(inner).map(([k, c]) => ({
        key: k,
        items: c.results,
        subGroups: null,
        count: c.total_results,
      }));
      const items = [...new Map(subGroups.flatMap((g) => g.items.map((i) => [i.id, i] as const))).values()];
      for (const i of items) all.set(i.id, i);
      groups.push({ key, items, subGroups, count: cell.total_results });
    } else {
      const items = (cell as Cell<T>).results;
      for (const i of items) all.set(i.id, i);
      groups.push({ key, items, subGroups: null, count: cell.total_results });
    }
  }
  if (options.subGrouped && !options.showEmptyGroups) {
    // Lanes empty in every column go, as the local pipeline does.
    const used = new Set(groups.flatMap((g) => g.subGroups?.filter((s) => (s.count ?? 0) > 0).map((s) => s.key) ?? []));
    for (const g of groups) g.subGroups = g.subGroups?.filter((s) => used.has(s.key)) ?? null;
  }
  return { groups, total: totalCount, items: [...all.values()] };
}
