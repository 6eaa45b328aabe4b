/**
 * The board's timeline (gantt_chart) layout: the shared timeline (components/timeline) over the
 * board's items in the board's order (filters, search and scope applied by the pipeline). A bar
 * runs from an item's start date to its target date; an item with one of them shows a one-day
 * marker; items without dates are listed after the dated ones and are dated by dragging them onto
 * the chart. Date changes go through updateWorkItemDates (POST issue-dates/, optimistic). Arrows
 * show blocking relations (loaded from issues-detail/: see stores/timeline-relations, kept fresh
 * by the project channel's relation events), drawn for the rows on screen. The scale is saved
 * with the board's display filters (display_filters.gantt.scale), per user and per board. On a
 * board of several projects' items (ctx.projectId is "") each item keeps its own project: its key,
 * the caller's rights there, where its dates are saved and whose relations are read.
 */
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSnapshot } from "valtio";
import { Timeline, type TimelineChangeMode, type TimelineRow } from "../../components/timeline/timeline";
import type { TimelineScale } from "../../components/timeline/timeline-geometry";
import { getBlockingPairs, showTimelineRelations, timelineRelations } from "../../stores/timeline-relations";
import { setDisplayFilters, workItemView } from "../../stores/work-item-view";
import { getWorkItem, updateWorkItemDates, type WorkItem } from "../../stores/work-items";
import { StateIcon } from "../work-item/state-icon";
import { Skeleton } from "../workspace/components/skeleton";
import { scopeFilters } from "./board-scope";
import { useWorkItemsContext, type WorkItemsContextValue } from "./context";
import {
  blockingArrows,
  changedDates,
  datesPatch,
  itemProjectId,
  itemRow,
  ROW_HEIGHT,
  SCHEDULE_SPAN,
  timelineProjects,
} from "./timeline-logic";
import "./timeline-layout.css";

export function TimelineLayout({ items }: { items: readonly WorkItem[] }) {
  const ctx = useWorkItemsContext();
  const { t, slug, projectId, openPeek, canEdit, scope, viewKey, forProject } = ctx;
  // Saved with the board's display filters (a view's board keeps it in its working copy).
  const scale: TimelineScale = useSnapshot(workItemView).byKey[viewKey]?.display_filters.gantt.scale ?? "week";
  const onScaleChange = useCallback(
    (next: TimelineScale) => setDisplayFilters(slug, viewKey, { gantt: { scale: next } }),
    [slug, viewKey],
  );

  // An item's own project's context (key, rights, states) on a board of several projects; one per
  // project per render, however many items it has.
  const contextOf = useMemo(() => {
    const cache = new Map<string, WorkItemsContextValue>();
    return (id: string): WorkItemsContextValue => {
      if (!forProject || id === projectId) return ctx;
      let own = cache.get(id);
      if (!own) {
        own = forProject(id);
        cache.set(id, own);
      }
      return own;
    };
  }, [ctx, forProject, projectId]);

  const rows = useMemo(
    () =>
      forProject
        ? items.map((item) => ({ ...itemRow(item), editable: contextOf(item.project_id).canEdit }))
        : items.map(itemRow),
    [items, forProject, contextOf],
  );
  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);
  // Dragging is offered (the undated list's hint) when at least one row may be changed.
  const editable = forProject ? rows.some((row) => row.editable) : canEdit;

  // Relations may have changed since the timeline was last open: load them again (a cycle's or a
  // module's board only for its own items), for every project shown.
  const epics = scope.kind === "epics";
  const scopeQuery = useMemo(() => {
    const query: Record<string, string> = {};
    for (const [key, values] of Object.entries(scopeFilters(scope))) if (values?.length) query[key] = values.join(",");
    return JSON.stringify(query);
  }, [scope]);
  const projectKey = useMemo(() => timelineProjects(projectId, items).join(","), [projectId, items]);
  const projectIds = useMemo(() => (projectKey ? projectKey.split(",") : []), [projectKey]);
  // The projects read during this visit and how: a project coming into view is read once; a new
  // board or scope reads them all again.
  const shownRef = useRef<{ query: string; stops: Map<string, () => void> }>({ query: "", stops: new Map() });
  useEffect(() => {
    const query = JSON.stringify([slug, scopeQuery, epics]);
    const shown = shownRef.current;
    if (shown.query !== query) {
      for (const stop of shown.stops.values()) stop();
      shown.stops.clear();
      shown.query = query;
    }
    const filters = JSON.parse(scopeQuery) as Record<string, string>;
    for (const id of projectIds) {
      if (!shown.stops.has(id))
        shown.stops.set(id, showTimelineRelations(slug, id, filters, epics ? "epics" : "issues"));
    }
  }, [slug, scopeQuery, epics, projectIds]);
  useEffect(
    () => () => {
      const shown = shownRef.current;
      for (const stop of shown.stops.values()) stop();
      shown.stops.clear();
      shown.query = "";
    },
    [],
  );
  const versions = useSnapshot(timelineRelations).version;
  const relationsVersion = projectIds.map((id) => versions[id] ?? 0).join(",");
  const arrows = useMemo(() => {
    void relationsVersion;
    return blockingArrows(projectIds.flatMap(getBlockingPairs), new Set(byId.keys()));
  }, [relationsVersion, projectIds, byId]);

  const onChange = useCallback(
    (id: string, dates: { start: string; end: string }, mode: TimelineChangeMode) => {
      const item = getWorkItem(id);
      if (!item) return;
      const patch = changedDates(item, datesPatch(item, dates, mode));
      if (patch.start_date === undefined && patch.target_date === undefined) return;
      // One item per change, sent to its own project (issue-dates/ takes only that project's items).
      void updateWorkItemDates(slug, itemProjectId(projectId, item), [{ id, ...patch }]);
    },
    [slug, projectId],
  );

  const renderSide = useCallback(
    (row: TimelineRow) => {
      const item = byId.get(row.id);
      if (!item) return null;
      const own = contextOf(item.project_id);
      const state = item.state_id ? own.lookups.stateById.get(item.state_id) : undefined;
      const key = `${own.identifier}-${item.sequence_id}`;
      return (
        <button
          type="button"
          className="wit-side"
          onClick={() => openPeek(item.id)}
          title={state ? `${key} · ${item.name} · ${state.name}` : `${key} · ${item.name}`}
        >
          <span className="wit-state" role="img" aria-label={state?.name ?? t("timeline.noState")}>
            <StateIcon group={item.state__group} color={state?.color} />
          </span>
          <span className="wit-key">{key}</span>
          <span className="wit-name">{item.name}</span>
        </button>
      );
    },
    [byId, contextOf, openPeek, t],
  );

  return (
    <Timeline
      className="wit"
      rows={rows}
      onChange={onChange}
      onOpen={openPeek}
      editable={editable}
      scale={scale}
      onScaleChange={onScaleChange}
      newSpan={SCHEDULE_SPAN}
      title={t("timeline.workItems")}
      renderSide={renderSide}
      rowHeight={ROW_HEIGHT}
      undatedApart
      singleDayMarkers
      arrows={arrows}
    />
  );
}

/** The timeline's shape while the project's items load: the side list and a few bars. */
export function TimelineSkeleton() {
  return (
    <div className="wit-skeleton" role="status" aria-label="Loading">
      <div className="wit-skeleton-toolbar">
        <Skeleton width={180} height={26} radius={6} />
        <Skeleton width={60} height={26} radius={6} />
      </div>
      {Array.from({ length: 10 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <div key={i} className="wit-skeleton-row">
          <div className="wit-skeleton-side">
            <Skeleton width={14} height={14} radius={7} />
            <Skeleton width={`${45 + ((i * 19) % 40)}%`} />
          </div>
          <div className="wit-skeleton-chart">
            <span style={{ marginLeft: `${(i * 37) % 50}%`, width: `${12 + ((i * 23) % 25)}%` }}>
              <Skeleton height={24} radius={6} />
            </span>
          </div>
        </div>
      ))}
    </div>
  );
}
