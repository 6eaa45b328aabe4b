/**
 * What a board shows, from its items and view settings — shared by the one-project board and the
 * board of several projects: the layout and grouping, the pipeline over the local cache, the
 * server's first page while the cache loads (painted at once, each item as the cache holds it
 * now), how many items the scope holds, and the performance marks the benchmarks read.
 */
import {
  type DisplayFilters,
  type GroupByKey,
  hasActiveFilters,
  type IssueFilters,
  parseIssueFilters,
} from "@tideline/shared";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { closeStartWindow } from "../../lib/offline/last-answers";
import { handOverPrepaint, markBoardPainted } from "../../lib/prepaint";
import type { StoredFilters } from "../../stores/work-item-view";
import { getWorkItem, type WorkItem, type WorkItemListPage } from "../../stores/work-items";
import { type BoardLayout, type BoardShown, boardLayoutOf, filteredNow } from "./board-parts";
import { type Lookups, pipelineContext } from "./context";
import { buildGroups, type Group, pageToGroups, sortItems } from "./pipeline";

const EMPTY: { groups: Group<WorkItem>[]; total: number; items: WorkItem[] } = { groups: [], total: 0, items: [] };

export type BoardDataOptions = {
  items: readonly WorkItem[];
  /** Marks in-place changes of cached items. */
  version: number;
  /** The board's settings (a snapshot of stores/work-item-view). */
  view: { readonly filters: object; readonly display_filters: object };
  viewKey: string;
  search: string;
  lookups: Lookups;
  today: string;
  /** A project's identifier ("WEB-12" search), or each item's on a board of several projects. */
  projectIdentifier?: string;
  identifierOf?: (projectId: string) => string | undefined;
  /** The grouping the board uses for a stored one (a board of several projects has no state columns). */
  mapGroupBy?: (key: GroupByKey | null) => GroupByKey | null;
  /** The cache holds every item and the metadata: the pipeline answers. */
  localReady: boolean;
  /** The metadata is in: the server's first page can be painted. */
  metaReady: boolean;
  /** Ask the server for the first page now (the cache is still loading and the settings are in). */
  previewWanted: boolean;
  /** The server's list for the same query (stable between renders while its target is the same). */
  fetchPreview: (query: Record<string, string>) => Promise<WorkItemListPage>;
};

export type BoardData = {
  layout: BoardLayout;
  display: DisplayFilters;
  filters: IssueFilters;
  groupBy: GroupByKey | null;
  subGroupBy: GroupByKey | null;
  shown: BoardShown;
  /** Something to show: the pipeline's result or the server's first page. */
  ready: boolean;
  /** How many items the scope holds whatever the filters (0 → the empty state). */
  liveCount: number;
  /** Filters, search or the display scope narrow the list. */
  filtered: boolean;
};

export function useBoardData({
  items,
  version,
  view,
  viewKey,
  search,
  lookups,
  today,
  projectIdentifier,
  identifierOf,
  mapGroupBy,
  localReady,
  metaReady,
  previewWanted,
  fetchPreview,
}: BoardDataOptions): BoardData {
  const display = view.display_filters as DisplayFilters;
  const viewFilters = view.filters as StoredFilters;
  const filters = useMemo(() => parseIssueFilters(viewFilters as Record<string, unknown>).filters, [viewFilters]);
  const layout = boardLayoutOf(display);
  const map = mapGroupBy ?? ((key: GroupByKey | null) => key);
  // The calendar and the timeline place items by date: they need them filtered and ordered, not grouped.
  const groupBy =
    layout === "spreadsheet" || layout === "calendar" || layout === "gantt_chart" ? null : map(display.group_by);
  const mappedSub = layout === "kanban" ? map(display.sub_group_by) : null;
  const subGroupBy = mappedSub !== groupBy ? mappedSub : null;

  // ───── first paint from the server while the cache loads ─────
  const previewQuery = useMemo(() => {
    const q: Record<string, string> = {
      per_page: layout === "spreadsheet" ? "100" : "50",
      order_by: display.order_by,
    };
    if (groupBy) q.group_by = groupBy;
    if (groupBy && subGroupBy) q.sub_group_by = subGroupBy;
    if (display.type) q.type = display.type;
    if (!display.sub_issue) q.sub_issue = "false";
    for (const [key, values] of Object.entries(viewFilters)) if (values?.length) q[key] = values.join(",");
    if (search.trim()) q.search = search.trim();
    return q;
  }, [layout, display.order_by, display.type, display.sub_issue, groupBy, subGroupBy, viewFilters, search]);
  const previewKey = JSON.stringify([viewKey, previewQuery, display.show_empty_groups]);
  const [preview, setPreview] = useState<{ key: string; page: WorkItemListPage } | null>(null);
  useEffect(() => {
    if (!previewWanted) return;
    let alive = true;
    fetchPreview(previewQuery)
      .then((page) => alive && setPreview({ key: previewKey, page }))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [previewWanted, fetchPreview, previewQuery, previewKey]);
  const previewResult = useMemo(() => {
    if (!preview || preview.key !== previewKey) return null;
    void version;
    const shown = pageToGroups(preview.page.results, preview.page.total_count, {
      grouped: groupBy !== null,
      subGrouped: groupBy !== null && subGroupBy !== null,
      showEmptyGroups: display.show_empty_groups,
    });
    // Show each item as the cache holds it now (a change made on the first page shows at once).
    const fresh = (list: WorkItem[]) => list.map((i) => getWorkItem(i.id) ?? i).filter((i) => !i.archived_at);
    for (const g of shown.groups) {
      g.items = fresh(g.items);
      if (g.subGroups) for (const sg of g.subGroups) sg.items = fresh(sg.items);
    }
    shown.items = fresh(shown.items);
    return shown;
  }, [preview, previewKey, version, groupBy, subGroupBy, display.show_empty_groups]);

  // ───── the pipeline over the local cache ─────
  const context = useMemo(() => pipelineContext(lookups, today), [lookups, today]);
  // The cache is ready, or there is no server page to show instead: the pipeline answers.
  const local = localReady || previewResult === null;
  // Sorted once per cache version and ordering: a filter change, a search or the display scope
  // then only filter these (in order) and group them.
  const ordered = useMemo(() => {
    void version;
    return local ? sortItems(items, display.order_by, context) : null;
  }, [local, items, version, display.order_by, context]);
  const result = useMemo(
    () =>
      ordered
        ? buildGroups<WorkItem>(
            ordered,
            {
              filters,
              scope: { type: display.type, sub_issue: display.sub_issue },
              search,
              projectIdentifier,
              identifierOf,
              groupBy,
              subGroupBy,
              orderBy: display.order_by,
              showEmptyGroups: display.show_empty_groups,
            },
            context,
            true,
          )
        : null,
    [
      ordered,
      filters,
      display.type,
      display.sub_issue,
      display.order_by,
      display.show_empty_groups,
      search,
      projectIdentifier,
      identifierOf,
      groupBy,
      subGroupBy,
      context,
    ],
  );

  const ready = localReady || (previewResult !== null && metaReady);
  const shown = (localReady ? result : (previewResult ?? result)) ?? EMPTY;
  // How many live items the cache holds: counted once per cache version, not per filter change.
  const localCount = useMemo(() => {
    void version;
    return localReady ? items.filter((i) => !i.archived_at && !i.is_draft).length : 0;
  }, [localReady, items, version]);
  const liveCount = localReady
    ? localCount
    : previewResult && !filteredNow(viewFilters, search, display)
      ? previewResult.total
      : 1;
  const filtered = hasActiveFilters(filters) || Boolean(search.trim()) || display.type !== null || !display.sub_issue;

  // The last visit's board painted before the app (public/prepaint.js) goes in the same commit as
  // this board arrives (a layout effect: no frame shows both, or neither).
  useLayoutEffect(() => {
    if (!ready) return;
    const gone = markBoardPainted();
    handOverPrepaint();
    return gone;
  }, [ready]);

  // Performance marks (benchmarks read them): the first painted board, and each repaint after a filter change.
  const painted = useRef(false);
  const filterKey = JSON.stringify([view.filters, search, display.type, display.sub_issue]);
  const lastFilterKey = useRef(filterKey);
  useEffect(() => {
    if (!ready) return;
    const after = (name: string) => requestAnimationFrame(() => setTimeout(() => performance.mark(name), 0));
    if (!painted.current) {
      painted.current = true;
      lastFilterKey.current = filterKey;
      after("tideline:board:painted");
      // The start is over: later reads of the start-up calls ask the server first.
      closeStartWindow();
    } else if (lastFilterKey.current !== filterKey) {
      lastFilterKey.current = filterKey;
      after("tideline:filter:painted");
    }
  }, [ready, filterKey]);

  return { layout, display, filters, groupBy, subGroupBy, shown, ready, liveCount, filtered };
}
