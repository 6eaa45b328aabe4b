/**
 * The board's timeline (gantt_chart) layout: the shared timeline (components/timeline) over the
 * board's items in the board's order (filters, search and scope applied by the pipeline). A bar
 * runs from an item's start date to its target date; an item with one of them shows a one-day
 * marker; items without dates are listed after the dated ones and are dated by dragging them onto
 * the chart. Date changes go through updateWorkItemDates (POST issue-dates/, optimistic). Arrows
 * show blocking relations (loaded from issues-detail/: see stores/timeline-relations), drawn for
 * the rows on screen.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { useSnapshot } from "valtio";
import { Timeline, type TimelineChangeMode, type TimelineRow } from "../../components/timeline/timeline";
import type { TimelineScale } from "../../components/timeline/timeline-geometry";
import { getBlockingPairs, loadTimelineRelations, timelineRelations } from "../../stores/timeline-relations";
import { getWorkItem, updateWorkItemDates, type WorkItem } from "../../stores/work-items";
import { StateIcon } from "../work-item/state-icon";
import { Skeleton } from "../workspace/components/skeleton";
import { scopeFilters } from "./board-scope";
import { useWorkItemsContext } from "./context";
import { blockingArrows, changedDates, datesPatch, itemRow, ROW_HEIGHT, SCHEDULE_SPAN } from "./timeline-logic";
import "./timeline-layout.css";

// The scale stays as chosen while the app is open (switching layouts and back keeps it).
let lastScale: TimelineScale = "week";

export function TimelineLayout({ items }: { items: readonly WorkItem[] }) {
  const ctx = useWorkItemsContext();
  const { t, slug, projectId, identifier, lookups, openPeek, canEdit, scope } = ctx;
  const [scale, setScale] = useState<TimelineScale>(lastScale);
  const onScaleChange = useCallback((next: TimelineScale) => {
    lastScale = next;
    setScale(next);
  }, []);

  const rows = useMemo(() => items.map(itemRow), [items]);
  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);

  // Relations may have changed since the timeline was last open: load them again (a cycle's or a
  // module's board only for its own items).
  const epics = scope.kind === "epics";
  const scopeQuery = useMemo(() => {
    const query: Record<string, string> = {};
    for (const [key, values] of Object.entries(scopeFilters(scope))) if (values?.length) query[key] = values.join(",");
    return JSON.stringify(query);
  }, [scope]);
  useEffect(() => {
    const query = JSON.parse(scopeQuery) as Record<string, string>;
    void loadTimelineRelations(slug, projectId, query, epics ? "epics" : "issues");
  }, [slug, projectId, scopeQuery, epics]);
  const relationsVersion = useSnapshot(timelineRelations).version[projectId] ?? 0;
  const arrows = useMemo(() => {
    void relationsVersion;
    return blockingArrows(getBlockingPairs(projectId), new Set(byId.keys()));
  }, [relationsVersion, projectId, byId]);

  const onChange = useCallback(
    (id: string, dates: { start: string; end: string }, mode: TimelineChangeMode) => {
      const item = getWorkItem(id);
      if (!item) return;
      const patch = changedDates(item, datesPatch(item, dates, mode));
      if (patch.start_date === undefined && patch.target_date === undefined) return;
      void updateWorkItemDates(slug, projectId, [{ id, ...patch }]);
    },
    [slug, projectId],
  );

  const renderSide = useCallback(
    (row: TimelineRow) => {
      const item = byId.get(row.id);
      if (!item) return null;
      const state = item.state_id ? lookups.stateById.get(item.state_id) : undefined;
      const key = `${identifier}-${item.sequence_id}`;
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
    [byId, lookups.stateById, identifier, openPeek, t],
  );

  return (
    <Timeline
      className="wit"
      rows={rows}
      onChange={onChange}
      onOpen={openPeek}
      editable={canEdit}
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
