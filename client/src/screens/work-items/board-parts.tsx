/**
 * The pieces both work-item boards are made of — the one-project board (work-items-board.tsx:
 * a project, cycle, module, saved view or the epics) and the board of several projects
 * (multi-project-board.tsx: workspace views, a member's work): the selection, the layout
 * switcher, the body for the chosen layout with its loading, empty and no-results states, and
 * the locked view's menus.
 */
import type { DisplayFilters, DisplayProperties, GroupByKey, IssueLayout } from "@tideline/shared";
import clsx from "clsx";
import {
  CalendarDays,
  Columns3,
  FolderKanban,
  GanttChart,
  LayoutList,
  ListFilter,
  Lock,
  Plus,
  Search,
  SearchX,
  Sheet,
  SlidersHorizontal,
  SquareStack,
  X,
} from "lucide-react";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button, EmptyState } from "../../components/ui";
import { type StoredFilters, setDisplayFilters } from "../../stores/work-item-view";
import type { WorkItem } from "../../stores/work-items";
import { Skeleton, SkeletonRows } from "../workspace/components/skeleton";
import { CalendarLayout, CalendarSkeleton } from "./calendar-layout";
import { type SelectionValue, WorkItemsContext, type WorkItemsContextValue } from "./context";
import { DisplayMenu } from "./display-menu";
import { FilterChips, FiltersMenu } from "./filters";
import { KanbanLayout } from "./kanban-layout";
import { ListLayout } from "./list-layout";
import type { Group } from "./pipeline";
import { SpreadsheetLayout } from "./spreadsheet-layout";
import { TimelineLayout, TimelineSkeleton } from "./timeline-layout";

export type BoardLayout = "list" | "kanban" | "spreadsheet" | "calendar" | "gantt_chart";

/** The layout a board shows for its display filters (anything unknown is the list). */
export function boardLayoutOf(display: Pick<DisplayFilters, "layout">): BoardLayout {
  return display.layout === "kanban" ||
    display.layout === "spreadsheet" ||
    display.layout === "calendar" ||
    display.layout === "gantt_chart"
    ? display.layout
    : "list";
}

/**
 * The board's selection (ticked items for the bulk bar): shift-click ranges, select all, cleared
 * when the board changes (`resetKey`), and items that leave the board leave the selection.
 */
export function useBoardSelection(
  items: readonly WorkItem[],
  resetKey: string,
): { selection: SelectionValue; selected: ReadonlySet<string>; clearSelection: () => void } {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);
  const selection = useMemo<SelectionValue>(
    () => ({
      selected,
      toggle: (id, range) => {
        setSelected((current) => {
          const next = new Set(current);
          if (range && anchor.current && anchor.current !== id) {
            const a = range.order.indexOf(anchor.current);
            const b = range.order.indexOf(id);
            if (a >= 0 && b >= 0) {
              for (const x of range.order.slice(Math.min(a, b), Math.max(a, b) + 1)) next.add(x);
              return next;
            }
          }
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        });
        anchor.current = id;
      },
      setAll: (ids, on) =>
        setSelected((current) => {
          const next = new Set(current);
          for (const id of ids) {
            if (on) next.add(id);
            else next.delete(id);
          }
          return next;
        }),
      clear: () => {
        setSelected(new Set());
        anchor.current = null;
      },
    }),
    [selected],
  );
  // A new project or scope starts with nothing selected; deleted items leave the selection.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on board change only
  useEffect(() => setSelected(new Set()), [resetKey]);
  useEffect(() => {
    if (!selected.size) return;
    const alive = new Set(items.filter((i) => !i.archived_at).map((i) => i.id));
    if ([...selected].some((id) => !alive.has(id))) setSelected(new Set([...selected].filter((id) => alive.has(id))));
  }, [items, selected]);
  const clearSelection = useCallback(() => setSelected(new Set()), []);
  return { selection, selected, clearSelection };
}

// labelKey: a layout whose name lives with its own strings (default workItems.layouts.<layout>).
const LAYOUTS: { layout: IssueLayout; icon: typeof LayoutList; labelKey?: string }[] = [
  { layout: "list", icon: LayoutList },
  { layout: "kanban", icon: Columns3 },
  { layout: "spreadsheet", icon: Sheet },
  { layout: "calendar", icon: CalendarDays, labelKey: "calendar.layout" },
  { layout: "gantt_chart", icon: GanttChart, labelKey: "timeline.layout" },
];

/** The row of layout buttons in a board's header. A locked view keeps its layout (the others are disabled). */
export function LayoutSwitcher({
  layout,
  lockedReason,
  onChange,
}: {
  layout: BoardLayout;
  lockedReason?: string;
  onChange: (layout: IssueLayout) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="wi-layouts" aria-label={t("workItems.layouts.label")}>
      {LAYOUTS.map(({ layout: l, icon: Icon, labelKey }) => (
        <button
          key={l}
          type="button"
          className={clsx("wi-layout-btn", layout === l && "is-on")}
          aria-pressed={layout === l}
          aria-label={t(labelKey ?? `workItems.layouts.${l}`)}
          title={lockedReason ?? t(labelKey ?? `workItems.layouts.${l}`)}
          disabled={Boolean(lockedReason) && layout !== l}
          onClick={() => !lockedReason && onChange(l)}
        >
          <Icon size={15} aria-hidden />
        </button>
      ))}
    </fieldset>
  );
}

export type BoardShown = { groups: Group<WorkItem>[]; items: WorkItem[]; total: number };

export type BoardBodyProps = {
  layout: BoardLayout;
  /** Something to show: the local cache, or the server's first page. */
  ready: boolean;
  /** The local cache holds every item (the calendar and timeline wait for it). */
  localReady: boolean;
  loadFailed: boolean;
  onRetry: () => void;
  shown: BoardShown;
  groupBy: GroupByKey | null;
  subGroupBy: GroupByKey | null;
  display: DisplayFilters;
  /** How many items the board holds whatever the filters (0 → the empty state). */
  liveCount: number;
  /** Filters, search or the display scope narrow the list. */
  filtered: boolean;
  empty?: { title: string; description?: string; action?: ReactNode };
  /** The caller may add items here: the empty states offer the Add button. */
  canAdd: boolean;
  onAdd: () => void;
  addLabel?: string;
  /** "Clear filters" of the no-results state. */
  onClearFilters: () => void;
};

/**
 * A board's header controls: search, the layout switcher, and the Filters and Display menus (a
 * locked view's say why they don't open). The menus read the board's context.
 */
export function BoardControls({
  ctx,
  search,
  onSearch,
  placeholder,
  layout,
  lockedReason,
  filters,
  display,
  properties,
}: {
  ctx: WorkItemsContextValue;
  search: string;
  onSearch: (value: string) => void;
  placeholder: string;
  layout: BoardLayout;
  lockedReason?: string;
  filters: StoredFilters;
  display: DisplayFilters;
  properties: DisplayProperties;
}): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <div className="wi-search">
        <Search size={13} aria-hidden />
        <input
          type="search"
          className="wi-search-input"
          placeholder={placeholder}
          aria-label={t("workItems.search")}
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
      <LayoutSwitcher
        layout={layout}
        lockedReason={lockedReason}
        onChange={(l) => setDisplayFilters(ctx.slug, ctx.viewKey, { layout: l })}
      />
      {lockedReason ? (
        <LockedMenus reason={lockedReason} />
      ) : (
        <WorkItemsContext.Provider value={ctx}>
          <FiltersMenu filters={filters} />
          <DisplayMenu display={display} properties={properties} />
        </WorkItemsContext.Provider>
      )}
    </>
  );
}

/** The applied filters as chips, with the board's own actions at the row's end (e.g. "Update view"). */
export function BoardFilterBar({ filters, actions }: { filters: StoredFilters; actions?: ReactNode }): ReactNode {
  if (!actions) return <FilterChips filters={filters} />;
  return (
    <div className="wib-filterbar">
      <FilterChips filters={filters} />
      <div className="wib-filterbar-actions">{actions}</div>
    </div>
  );
}

/** The board's body for its layout, with the loading, failed, empty and no-results states. */
export function BoardBody({
  layout,
  ready,
  localReady,
  loadFailed,
  onRetry,
  shown,
  groupBy,
  subGroupBy,
  display,
  liveCount,
  filtered,
  empty,
  canAdd,
  onAdd,
  addLabel,
  onClearFilters,
}: BoardBodyProps): ReactNode {
  const { t } = useTranslation();
  let body: ReactNode;
  if (loadFailed && !ready) {
    body = (
      <EmptyState
        icon={FolderKanban}
        title={t("workItems.loadFailed")}
        action={
          <Button variant="secondary" onClick={onRetry}>
            {t("workItems.retry")}
          </Button>
        }
      />
    );
  } else if (!ready) {
    body =
      layout === "calendar" ? (
        <CalendarSkeleton />
      ) : layout === "gantt_chart" ? (
        <TimelineSkeleton />
      ) : (
        <BoardSkeleton layout={layout} />
      );
  } else if (liveCount === 0 && empty) {
    body = (
      <EmptyState
        icon={SquareStack}
        title={empty.title}
        description={empty.description}
        action={
          // Without an action of its own, the scope's empty state offers the board's Add.
          empty.action ??
          (canAdd ? (
            <Button onClick={() => onAdd()}>
              <Plus size={14} aria-hidden />
              {addLabel ?? t("workItems.add")}
            </Button>
          ) : undefined)
        }
      />
    );
  } else if (liveCount === 0) {
    body = (
      <EmptyState
        icon={SquareStack}
        title={t("workItems.empty.title")}
        description={canAdd ? t("workItems.empty.description") : t("workItems.empty.descriptionGuest")}
        action={
          canAdd ? (
            <Button onClick={() => onAdd()}>
              <Plus size={14} aria-hidden />
              {t("workItems.add")}
            </Button>
          ) : null
        }
      />
    );
  } else if (shown.total === 0 && filtered && layout !== "kanban") {
    body = (
      <EmptyState
        icon={SearchX}
        title={t("workItems.noResults.title")}
        description={t("workItems.noResults.description")}
        action={
          <Button variant="secondary" onClick={onClearFilters}>
            <X size={14} aria-hidden />
            {t("workItems.noResults.clear")}
          </Button>
        }
      />
    );
  } else if (layout === "kanban") {
    body = <KanbanLayout groups={shown.groups} groupBy={groupBy} subGroupBy={subGroupBy} orderBy={display.order_by} />;
  } else if (layout === "calendar") {
    // The server's first page (50 items) would leave most days wrongly empty: wait for the cache.
    body = localReady ? <CalendarLayout items={shown.items} display={display} /> : <CalendarSkeleton />;
  } else if (layout === "gantt_chart") {
    // Like the calendar: the first page alone would list most items as undated. Wait for the cache.
    body = localReady ? <TimelineLayout items={shown.items} /> : <TimelineSkeleton />;
  } else if (layout === "spreadsheet") {
    body = <SpreadsheetLayout items={shown.items} />;
  } else {
    body = <ListLayout groups={shown.groups} groupBy={groupBy} />;
  }

  return body;
}

/** A locked view's Filters and Display: shown where the menus are, saying why they don't open. */
export function LockedMenus({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return (
    <>
      {[
        { icon: ListFilter, label: t("workItems.filters.button") },
        { icon: SlidersHorizontal, label: t("workItems.display.button") },
      ].map(({ icon: Icon, label }) => (
        <Button
          key={label}
          variant="secondary"
          size="sm"
          className="wib-locked-menu"
          aria-disabled="true"
          aria-label={`${label}: ${reason}`}
          title={reason}
          onClick={() => toast(reason)}
        >
          <Icon size={14} aria-hidden />
          <span className="wi-btn-text">{label}</span>
          <Lock size={12} aria-hidden />
        </Button>
      ))}
    </>
  );
}

/** Placeholders the shape of the layout, so nothing jumps when the items arrive. */
export function BoardSkeleton({ layout }: { layout: "list" | "kanban" | "spreadsheet" }) {
  if (layout === "kanban") {
    return (
      <div className="wi-board" aria-busy>
        {[0, 1, 2, 3].map((col) => (
          <div key={col} className="wi-column">
            <div className="wi-column-head">
              <Skeleton width={90} />
            </div>
            <div className="wi-column-body">
              {[0, 1, 2].slice(0, 3 - (col % 2)).map((card) => (
                <div key={card} className="wi-card wi-card-skeleton">
                  <Skeleton width={50} height={10} />
                  <Skeleton width="80%" />
                  <Skeleton width="45%" height={18} />
                </div>
              ))}
            </div>
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="wi-list-skeleton">
      <SkeletonRows count={12} height={36} />
    </div>
  );
}

/** Do the filters, search or display scope narrow the list? */
export function filteredNow(filters: StoredFilters, search: string, display: DisplayFilters): boolean {
  return (
    Object.values(filters).some((v) => (v?.length ?? 0) > 0) ||
    Boolean(search.trim()) ||
    display.type !== null ||
    !display.sub_issue
  );
}
