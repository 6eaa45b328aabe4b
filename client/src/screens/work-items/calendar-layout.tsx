/**
 * The calendar layout of the work-items board (product-domain §2): a month grid or a week grid of
 * Sunday-first weeks, weekends hidden unless the display menu shows them, each item on its target
 * day. The items are the board's pipeline output (filtered, searched and ordered) bucketed by day
 * once per render. Dragging a card to another day changes its target date (optimistic, undone with
 * a toast if refused); "+" on a day quick-adds an item due that day in the board's scope; a day
 * holding more cards than fit shows "+N more", which lists them all in a popover. The shown month
 * or week is kept in the URL (?date=yyyy-MM-dd) so a reload or a shared link shows the same period.
 *
 * Keyboard: the grid is one Tab stop (roving focus); arrows move between days (past the edge they
 * move the period), Enter goes into the day (its first card, or the quick add of an empty day),
 * Escape from a card comes back to the day, "c" on a day opens the create modal due that day.
 * Phones (<768 px) get the week as an agenda — one row per day, full-width cards — since a month's
 * 7 columns leave a phone no room for names; there the month/week switch is hidden and dragging is
 * off (the peek's due date picker changes a date).
 */
import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { type DisplayFilters, isOverdue } from "@tideline/shared";
import clsx from "clsx";
import { CalendarX2, ChevronLeft, ChevronRight, Plus } from "lucide-react";
import { Popover } from "radix-ui";
import { type KeyboardEvent, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import { useIsNarrow } from "../../lib/use-media";
import { setDisplayFilters } from "../../stores/work-item-view";
import { createWorkItem, moveWorkItem, type WorkItem } from "../../stores/work-items";
import { Skeleton } from "../workspace/components/skeleton";
import { withScopeDefaults } from "./board-scope";
import {
  anchorFromParam,
  bucketByTargetDate,
  type CalendarDay,
  type CalendarMode,
  calendarWeeks,
  inShownPeriod,
  parseDay,
  periodTitle,
  shiftAnchor,
  splitOverflow,
  stepDay,
  weekdayColumns,
} from "./calendar-logic";
import { ItemProject, useWorkItemsContext } from "./context";
import { PriorityIcon, StateIcon } from "./properties";
import "./calendar.css";

/** Heights the month cell's row count is measured with (kept in step with calendar.css). */
const CELL_HEAD = 30;
const CELL_PAD = 6;
const CARD_ROW = 26;

const NO_ITEMS: readonly WorkItem[] = [];

/** A day's title for screen readers and the overflow popover ("Wednesday, November 25"). */
function longDay(date: string): string {
  return (parseDay(date) ?? new Date()).toLocaleDateString(undefined, {
    weekday: "long",
    month: "long",
    day: "numeric",
  });
}

function weekdayName(weekday: number, width: "short" | "narrow" = "short"): string {
  // 2026-11-01 is a Sunday: day n of that week has weekday n.
  return new Date(2026, 10, 1 + weekday).toLocaleDateString(undefined, { weekday: width });
}

export function CalendarLayout({ items, display }: { items: readonly WorkItem[]; display: DisplayFilters }) {
  const { t } = useTranslation();
  const ctx = useWorkItemsContext();
  const narrow = useIsNarrow();
  const [params, setParams] = useSearchParams();
  const anchor = anchorFromParam(params.get("date"), ctx.today);
  // A phone always shows the week (as an agenda): its saved month choice is the desktop's.
  const mode: CalendarMode = narrow ? "week" : display.calendar.layout;
  const showWeekends = display.calendar.show_weekends;
  const weeks = useMemo(() => calendarWeeks(anchor, mode, showWeekends), [anchor, mode, showWeekends]);
  const shownDays = useMemo(() => new Set(weeks.flatMap((w) => w.days.map((d) => d.date))), [weeks]);
  // One pass over the items per render, not one per cell.
  const { byDate, undated } = useMemo(() => bucketByTargetDate(items), [items]);

  const setAnchor = useCallback(
    (date: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set("date", date);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setMode = (layout: CalendarMode) =>
    setDisplayFilters(ctx.slug, ctx.viewKey, { calendar: { ...display.calendar, layout } });

  // ───── roving focus ─────
  const firstShown = weeks.flatMap((w) => w.days).find((d) => d.inPeriod)?.date ?? anchor;
  const [focusDay, setFocusDay] = useState<string | null>(null);
  const tabDay = focusDay && shownDays.has(focusDay) ? focusDay : shownDays.has(ctx.today) ? ctx.today : firstShown;
  const gridRef = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<string | null>(null);
  useEffect(() => {
    const date = pendingFocus.current;
    if (!date || !shownDays.has(date)) return;
    pendingFocus.current = null;
    gridRef.current?.querySelector<HTMLElement>(`[data-date="${date}"]`)?.focus();
  });
  const moveFocus = (date: string) => {
    setFocusDay(date);
    pendingFocus.current = date;
    // Moving past the shown days moves the period (the days of neighbouring months a month grid
    // shows are days like any other).
    if (!shownDays.has(date) && !inShownPeriod(date, anchor, mode)) setAnchor(date);
    else gridRef.current?.querySelector<HTMLElement>(`[data-date="${date}"]`)?.focus();
  };
  const columns = weekdayColumns(showWeekends).length;
  const onCellKey = (event: KeyboardEvent<HTMLElement>, date: string) => {
    if (event.target !== event.currentTarget) {
      // Escape from a card gives the focus back to its day (the popover's own Escape closes it first).
      const target = event.target as HTMLElement;
      if (event.key === "Escape" && target.classList.contains("cal-card") && event.currentTarget.contains(target)) {
        event.currentTarget.focus();
      }
      return;
    }
    const step =
      event.key === "ArrowLeft"
        ? -1
        : event.key === "ArrowRight"
          ? 1
          : event.key === "ArrowUp"
            ? -columns
            : event.key === "ArrowDown"
              ? columns
              : 0;
    if (step) {
      event.preventDefault();
      moveFocus(stepDay(date, step, showWeekends));
    } else if (event.key === "c" && quickAddAllowed && !event.metaKey && !event.ctrlKey && !event.altKey) {
      // The board's "c" opens the create modal; on a focused day the new item is due that day.
      // Stopping the event here keeps it from the board's window listener.
      event.preventDefault();
      event.stopPropagation();
      ctx.openCreate({ target_date: date });
    } else if (event.key === "Enter") {
      event.preventDefault();
      const inner = event.currentTarget.querySelector<HTMLElement>(".cal-card, .cal-more");
      if (inner) inner.focus();
      else if (quickAddAllowed) setQuickAddDay(date);
    }
  };

  // ───── quick add ─────
  const quickAddAllowed = ctx.canEdit && ctx.canAdd;
  const [quickAddDay, setQuickAddDay] = useState<string | null>(null);

  // ───── month rows: as many cards as the cell's height holds ─────
  const [rows, setRows] = useState(3);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a month of 4, 5 or 6 weeks changes the rows' height
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid || mode !== "month" || narrow) return;
    const measure = () => {
      const row = grid.querySelector<HTMLElement>(".cal-row");
      if (!row) return;
      const fit = Math.floor((row.clientHeight - CELL_HEAD - CELL_PAD) / CARD_ROW);
      setRows(Math.max(1, fit));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(grid);
    return () => observer.disconnect();
  }, [mode, narrow, weeks.length]);

  // ───── drag a card to another day ─────
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const [dragged, setDragged] = useState<WorkItem | null>(null);
  const canDrag = ctx.canEdit && !narrow;
  const onDragStart = (event: DragStartEvent) => {
    const item = event.active.data.current?.item as WorkItem | undefined;
    if (item) setDragged(item);
  };
  const onDragEnd = (event: DragEndEvent) => {
    setDragged(null);
    const item = event.active.data.current?.item as WorkItem | undefined;
    const date = event.over?.data.current?.date as string | undefined;
    if (!item || !date || item.target_date?.slice(0, 10) === date) return;
    const start = item.start_date?.slice(0, 10);
    if (start && start > date) {
      // The server refuses a due date before the start date; say why instead of a failed request.
      toast.info(t("calendar.beforeStart.title"), { description: t("calendar.beforeStart.description") });
      return;
    }
    void moveWorkItem(ctx.slug, item.project_id, item.id, { patch: { target_date: date } });
  };

  // A phone's header has room for the week's days only, not its year.
  const title = periodTitle(anchor, mode, undefined, narrow);

  const header = (
    <div className="cal-head">
      <div className="cal-nav">
        <button
          type="button"
          className="wi-icon-btn"
          aria-label={t(mode === "month" ? "calendar.previousMonth" : "calendar.previousWeek")}
          title={t(mode === "month" ? "calendar.previousMonth" : "calendar.previousWeek")}
          onClick={() => setAnchor(shiftAnchor(anchor, mode, -1))}
        >
          <ChevronLeft size={16} aria-hidden />
        </button>
        <button
          type="button"
          className="wi-icon-btn"
          aria-label={t(mode === "month" ? "calendar.nextMonth" : "calendar.nextWeek")}
          title={t(mode === "month" ? "calendar.nextMonth" : "calendar.nextWeek")}
          onClick={() => setAnchor(shiftAnchor(anchor, mode, 1))}
        >
          <ChevronRight size={16} aria-hidden />
        </button>
        <button
          type="button"
          className="cal-today-btn"
          onClick={() => {
            setAnchor(ctx.today);
            setFocusDay(ctx.today);
          }}
        >
          {t("calendar.today")}
        </button>
        <h2 className="cal-title" aria-live="polite">
          {title}
        </h2>
      </div>
      <div className="cal-head-end">
        {undated > 0 ? (
          <span className="cal-undated" title={t("calendar.undatedHint")}>
            <CalendarX2 size={13} aria-hidden />
            {t(narrow ? "calendar.undatedShort" : "calendar.undated", { count: undated })}
          </span>
        ) : null}
        {narrow ? null : (
          <fieldset className="cal-modes" aria-label={t("calendar.mode")}>
            {(["month", "week"] as const).map((m) => (
              <button
                key={m}
                type="button"
                className={clsx("cal-mode-btn", mode === m && "is-on")}
                aria-pressed={mode === m}
                onClick={() => setMode(m)}
              >
                {t(`calendar.modes.${m}`)}
              </button>
            ))}
          </fieldset>
        )}
      </div>
    </div>
  );

  const cell = (day: CalendarDay) => (
    <DayCell
      key={day.date}
      day={day}
      items={byDate.get(day.date) ?? NO_ITEMS}
      rows={mode === "month" && !narrow ? rows : null}
      variant={narrow ? "agenda" : mode}
      today={ctx.today}
      focusable={day.date === tabDay}
      canDrag={canDrag}
      quickAdd={quickAddAllowed ? quickAddDay === day.date : null}
      onQuickAdd={setQuickAddDay}
      onFocusDay={setFocusDay}
      onKeyDown={onCellKey}
    />
  );

  return (
    <section className={clsx("cal", `cal-${narrow ? "agenda" : mode}`)} aria-label={t("calendar.label")}>
      {header}
      <DndContext
        sensors={sensors}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragged(null)}
      >
        {narrow ? (
          // biome-ignore lint/a11y: an ARIA grid of divs (arrows move the focus between days, as a grid promises)
          <div className="cal-agenda" ref={gridRef} role="grid" aria-label={title} aria-rowcount={shownDays.size}>
            {weeks
              .flatMap((w) => w.days)
              .map((day) => (
                // biome-ignore lint/a11y: a row of the ARIA grid; its day cell takes the focus
                <div key={day.date} role="row" className="cal-agenda-row">
                  {cell(day)}
                </div>
              ))}
          </div>
        ) : (
          // biome-ignore lint/a11y: an ARIA grid of divs — a <table> can't lay out these flexible rows
          <div
            className="cal-grid"
            ref={gridRef}
            role="grid"
            aria-label={title}
            style={{ "--cal-cols": columns } as React.CSSProperties}
          >
            {/* biome-ignore lint/a11y: the grid's header row */}
            <div role="row" className="cal-weekdays">
              {weekdayColumns(showWeekends).map((wd) => (
                // biome-ignore lint/a11y: a column header of the ARIA grid (not focusable, as in a table)
                <div key={wd} role="columnheader" className="cal-weekday" aria-label={weekdayName(wd, "short")}>
                  {weekdayName(wd)}
                </div>
              ))}
            </div>
            {/* biome-ignore lint/a11y: the grid's body rows */}
            <div className="cal-rows" role="rowgroup">
              {weeks.map((week) => (
                // biome-ignore lint/a11y: a week of the ARIA grid; its day cells take the focus
                <div key={week.key} role="row" className="cal-row">
                  {week.days.map(cell)}
                </div>
              ))}
            </div>
          </div>
        )}
        <DragOverlay dropAnimation={null}>{dragged ? <CardBody item={dragged} overlay /> : null}</DragOverlay>
      </DndContext>
    </section>
  );
}

type DayCellProps = {
  day: CalendarDay;
  items: readonly WorkItem[];
  /** How many card rows the month cell holds; null shows them all (week, agenda). */
  rows: number | null;
  variant: CalendarMode | "agenda";
  today: string;
  focusable: boolean;
  canDrag: boolean;
  /** null: this board takes no quick adds; true: the field is open on this day. */
  quickAdd: boolean | null;
  onQuickAdd: (date: string | null) => void;
  onFocusDay: (date: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, date: string) => void;
};

const DayCell = memo(function DayCell({
  day,
  items,
  rows,
  variant,
  today,
  focusable,
  canDrag,
  quickAdd,
  onQuickAdd,
  onFocusDay,
  onKeyDown,
}: DayCellProps) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: day.date, data: { date: day.date }, disabled: !canDrag });
  // The open quick-add field takes the cell's last row.
  const limit = rows === null ? null : Math.max(1, rows - (quickAdd ? 1 : 0));
  const { shown, more } = limit === null ? { shown: items, more: 0 } : splitOverflow(items, limit);
  const isToday = day.date === today;
  const label = `${longDay(day.date)}${isToday ? `, ${t("calendar.today")}` : ""} — ${t("calendar.itemCount", {
    count: items.length,
  })}`;
  const first = day.dayOfMonth === 1 && variant !== "agenda";
  const dayDate = parseDay(day.date) ?? new Date();

  return (
    // biome-ignore lint/a11y: a day of the ARIA grid, focusable by the grid's roving tab stop
    <div
      ref={setNodeRef}
      role="gridcell"
      tabIndex={focusable ? 0 : -1}
      data-date={day.date}
      aria-label={label}
      className={clsx(
        "cal-day",
        !day.inPeriod && "is-outside",
        isToday && "is-today",
        (day.weekday === 0 || day.weekday === 6) && "is-weekend",
        isOver && "is-over",
      )}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onFocusDay(day.date);
      }}
      onKeyDown={(event) => onKeyDown(event, day.date)}
    >
      <div className="cal-day-head">
        {/* The grid's column headers name a month's or week's weekdays; the agenda has none. */}
        {variant === "agenda" ? <span className="cal-day-weekday">{weekdayName(day.weekday)}</span> : null}
        <span className="cal-day-num">
          <span className="cal-day-n">
            {first ? `${dayDate.toLocaleDateString(undefined, { month: "short" })} ` : ""}
            {day.dayOfMonth}
          </span>
        </span>
        {quickAdd === false ? (
          <button
            type="button"
            className="cal-add-btn"
            // Reachable by Tab from the day that has the grid's focus stop only (one stop per grid).
            tabIndex={focusable ? 0 : -1}
            aria-label={t("calendar.addOn", { day: longDay(day.date) })}
            title={t("calendar.addOn", { day: longDay(day.date) })}
            onClick={() => onQuickAdd(day.date)}
          >
            <Plus size={13} aria-hidden />
          </button>
        ) : null}
      </div>
      <div className="cal-day-items">
        {shown.map((item) => (
          <CalendarCard key={item.id} item={item} canDrag={canDrag} />
        ))}
        {more > 0 ? <MoreItems date={day.date} items={items} more={more} /> : null}
        {quickAdd ? <DayQuickAdd date={day.date} onClose={() => onQuickAdd(null)} /> : null}
      </div>
    </div>
  );
});

/** A card: state, key, name, priority (as the display properties say), overdue marked. */
const CalendarCard = memo(function CalendarCard({ item, canDrag }: { item: WorkItem; canDrag: boolean }) {
  const ctx = useWorkItemsContext();
  const { openPeek, peekId } = ctx;
  // On a board of several projects, the caller's rights in the item's own project decide.
  const mayEdit = ctx.forProject ? ctx.forProject(item.project_id).canEdit : true;
  const pending = item.id.startsWith("temp-");
  const { setNodeRef, listeners, isDragging } = useDraggable({
    id: item.id,
    data: { item },
    disabled: !canDrag || !mayEdit || pending,
  });
  return (
    <button
      ref={setNodeRef}
      type="button"
      className={clsx(
        "cal-card",
        isDragging && "is-dragging",
        pending && "is-pending",
        peekId === item.id && "is-active",
      )}
      disabled={pending}
      onClick={() => openPeek(item.id)}
      {...listeners}
    >
      <CardBody item={item} />
    </button>
  );
});

/** A card's content, in the context of its own project (on a board of several projects). */
function CardBody({ item, overlay = false }: { item: WorkItem; overlay?: boolean }) {
  return (
    <ItemProject projectId={item.project_id}>
      <ProjectCardBody item={item} overlay={overlay} />
    </ItemProject>
  );
}

function ProjectCardBody({ item, overlay }: { item: WorkItem; overlay: boolean }) {
  const { t, identifier, lookups, props, today } = useWorkItemsContext();
  const state = item.state_id ? lookups.stateById.get(item.state_id) : undefined;
  const overdue = isOverdue(item, today);
  const key = item.sequence_id ? `${identifier}-${item.sequence_id}` : "";
  const body = (
    <>
      {props.state ? <StateIcon group={state?.group ?? item.state__group} color={state?.color} size={13} /> : null}
      {props.key && key ? <span className="cal-card-key">{key}</span> : null}
      <span className="cal-card-name">{item.name}</span>
      {props.priority && item.priority !== "none" ? (
        <span className="cal-card-priority" title={t(`workItems.priority.${item.priority}`)}>
          <PriorityIcon priority={item.priority} size={13} />
        </span>
      ) : null}
      {overdue ? <span className="cal-card-overdue">{t("calendar.overdue")}</span> : null}
    </>
  );
  if (overlay) return <div className={clsx("cal-card", "cal-card-overlay", overdue && "is-overdue")}>{body}</div>;
  return (
    <span
      className={clsx("cal-card-body", overdue && "is-overdue")}
      title={`${key ? `${key} ` : ""}${item.name}${overdue ? ` · ${t("calendar.overdue")}` : ""}`}
    >
      {body}
    </span>
  );
}

/** "+N more": every item of the day in a popover. */
function MoreItems({ date, items, more }: { date: string; items: readonly WorkItem[]; more: number }) {
  const { t } = useTranslation();
  const { openPeek } = useWorkItemsContext();
  const [open, setOpen] = useState(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button type="button" className="cal-more">
          {t("calendar.more", { count: more })}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="wi-menu-pop cal-more-pop"
          side="bottom"
          align="start"
          sideOffset={4}
          collisionPadding={8}
        >
          <div className="cal-more-title">{longDay(date)}</div>
          <div className="cal-more-list">
            {items.map((item) => (
              <button
                key={item.id}
                type="button"
                className="cal-card"
                disabled={item.id.startsWith("temp-")}
                onClick={() => {
                  setOpen(false);
                  openPeek(item.id);
                }}
              >
                <CardBody item={item} />
              </button>
            ))}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** The inline field of "+" on a day: Enter creates an item due that day and keeps the field open. */
function DayQuickAdd({ date, onClose }: { date: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { slug, projectId, scopeDefaults } = useWorkItemsContext();
  const [name, setName] = useState("");
  const submit = () => {
    const value = name.trim();
    if (!value) return;
    setName("");
    const input = withScopeDefaults(scopeDefaults, { name: value, target_date: date });
    createWorkItem(slug, projectId, input, { optimistic: true }).catch(() => undefined);
  };
  return (
    <input
      className="cal-quick-add"
      ref={(el) => el?.focus()}
      aria-label={t("calendar.quickAdd", { day: longDay(date) })}
      placeholder={t(scopeDefaults.is_epic ? "epics.quickAdd.placeholder" : "workItems.quickAdd.placeholder")}
      value={name}
      maxLength={255}
      onChange={(e) => setName(e.target.value)}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === "Enter") {
          event.preventDefault();
          submit();
        } else if (event.key === "Escape") {
          event.preventDefault();
          onClose();
        }
      }}
      onBlur={() => {
        if (!name.trim()) onClose();
      }}
    />
  );
}

/** The calendar's shape while the items load, so nothing jumps when they arrive. */
export function CalendarSkeleton() {
  return (
    <div className="cal" aria-busy>
      <div className="cal-head">
        <div className="cal-nav">
          <Skeleton width={160} height={20} />
        </div>
      </div>
      <div className="cal-grid" style={{ "--cal-cols": 5 } as React.CSSProperties}>
        <div className="cal-weekdays">
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className="cal-weekday">
              <Skeleton width={28} height={10} />
            </div>
          ))}
        </div>
        <div className="cal-rows">
          {[0, 1, 2, 3, 4].map((row) => (
            <div key={row} className="cal-row">
              {[0, 1, 2, 3, 4].map((col) => (
                <div key={col} className="cal-day">
                  <div className="cal-day-head">
                    <Skeleton width={16} height={12} />
                  </div>
                </div>
              ))}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
