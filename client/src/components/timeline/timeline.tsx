/**
 * A generic timeline (gantt): rows with a name in a side list and a bar from start to end on the
 * chart. Scales week (60 px a day), month (20) and quarter (5); a header of months and days; a
 * line at today. Drag a bar to move it, drag either end to resize (whole days; start ≤ end);
 * ←/→ on a focused bar move it a day, Shift+←/→ change its end. Rows without dates say so in the
 * side list (or, with `undatedApart`, are listed after the dated ones): drag their chip onto the
 * chart, or pick a start in the date picker. The side list and the chart are one scroller (the
 * side list sticks to the left), so they always scroll together. Rows are virtualised (only the
 * visible ones are in the DOM; rows have one fixed height), so thousands of rows scroll smoothly.
 * Optional arrows (blocker's end → blocked's start) are drawn for the rows on screen.
 * Nothing here knows about modules or work items: rows are {id, name, start, end, progress?}.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import clsx from "clsx";
import { addDays, format, isSameMonth } from "date-fns";
import { CalendarPlus, GripVertical } from "lucide-react";
import {
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type PointerEvent as ReactPointerEvent,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { DatePopover, parseDay, showDay, toDay } from "../ui";
import {
  arrowEnds,
  arrowPath,
  barGeometry,
  type DragMode,
  dayToX,
  deltaDays,
  draggedDates,
  monthCells,
  scheduledDates,
  TIMELINE_SCALES,
  type TimelineEntry,
  type TimelineRange,
  type TimelineScale,
  timelineEntries,
  timelineRange,
  xToDay,
} from "./timeline-geometry";
import "../ui/controls.css";
import "./timeline.css";

export type TimelineRow = {
  id: string;
  name: string;
  start: string | null;
  end: string | null;
  /** 0–1: the share of the bar filled. */
  progress?: number;
  /** Shown before the name in the side list (an icon, a status). */
  icon?: ReactNode;
  /**
   * This row alone may (true) or may not (false) be dragged and scheduled, whatever the timeline's
   * `editable` says (rows of several owners with different rights); unset, it follows `editable`.
   */
  editable?: boolean;
};

/** `from` blocks `to`: drawn from the end of `from`'s bar to the start of `to`'s. */
export type TimelineArrow = { from: string; to: string };

/** How the dates changed: a bar moved or resized by one end, or an undated row scheduled. */
export type TimelineChangeMode = DragMode | "schedule";

type Props = {
  rows: readonly TimelineRow[];
  onChange: (id: string, dates: { start: string; end: string }, mode: TimelineChangeMode) => void;
  /** A row's name or bar clicked (open it). */
  onOpen?: (id: string) => void;
  /** False: bars can't be dragged and undated rows can't be scheduled (a row's own `editable` wins). */
  editable?: boolean;
  scale?: TimelineScale;
  onScaleChange?: (scale: TimelineScale) => void;
  /** Days a newly scheduled row spans. */
  newSpan?: number;
  /** Names the side list's column. */
  title: string;
  /** Replaces the icon and name in the side list (the dates or the undated chip follow it). */
  renderSide?: (row: TimelineRow) => ReactNode;
  /** Every row's height (px); rows are virtualised with it. */
  rowHeight?: number;
  /** Rows without dates after the dated ones, under their own heading (else in place). */
  undatedApart?: boolean;
  /** A row with only one date shows a one-day marker on it (else it counts as undated). */
  singleDayMarkers?: boolean;
  arrows?: readonly TimelineArrow[];
  className?: string;
};

type Drag = { id: string; mode: DragMode; x0: number; start: string; end: string; moved: boolean };

type Entry = TimelineEntry<TimelineRow>;

const OVERSCAN = 10;
/** Narrower bars (px) show their name beside them instead of inside. */
const LABEL_INSIDE_MIN = 90;

export function Timeline({
  rows,
  onChange,
  onOpen,
  editable = true,
  scale: scaleProp,
  onScaleChange,
  newSpan = 14,
  title,
  renderSide,
  rowHeight = 40,
  undatedApart = false,
  singleDayMarkers = false,
  arrows,
  className,
}: Props) {
  const { t } = useTranslation();
  const [scaleState, setScaleState] = useState<TimelineScale>("week");
  const scale = scaleProp ?? scaleState;
  const setScale = (next: TimelineScale) => {
    if (scaleProp === undefined) setScaleState(next);
    onScaleChange?.(next);
  };
  const todayDate = useMemo(() => {
    const d = new Date();
    return new Date(d.getFullYear(), d.getMonth(), d.getDate());
  }, []);
  const today = toDay(todayDate);
  const canEdit = (row: TimelineRow) => row.editable ?? editable;
  const range = useMemo(() => timelineRange(scale, todayDate, rows), [scale, todayDate, rows]);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const [previewDays, setPreviewDays] = useState(0);
  const [ghost, setGhost] = useState<{ id: string; x: number; y: number; day: string | null } | null>(null);
  const width = range.days * range.dayWidth;

  // The rows in display order: dated (and markers) first when undated rows are listed apart.
  const entries = useMemo(
    () => timelineEntries(rows, { undatedApart, markers: singleDayMarkers }),
    [rows, undatedApart, singleDayMarkers],
  );
  const indexById = useMemo(() => {
    const map = new Map<string, number>();
    entries.forEach((e, i) => {
      if (e.kind === "row") map.set(e.row.id, i);
    });
    return map;
  }, [entries]);

  // The rows start below the sticky header: the virtualizer counts from there.
  const [headHeight, setHeadHeight] = useState(53);
  useLayoutEffect(() => {
    const head = headRef.current;
    if (head) setHeadHeight(head.offsetHeight);
  }, []);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollMargin: headHeight,
    getItemKey: (i) => {
      const e = entries[i];
      return e?.kind === "row" ? e.row.id : "section";
    },
  });
  const virtualRows = virtualizer.getVirtualItems();
  const firstIndex = virtualRows[0]?.index ?? 0;
  const lastIndex = virtualRows[virtualRows.length - 1]?.index ?? -1;

  const scrollToDay = (day: string, smooth: boolean) => {
    const scroller = scrollerRef.current;
    const chart = chartRef.current;
    if (!scroller || !chart) return;
    const side = chart.offsetLeft;
    const x = dayToX(range, day);
    scroller.scrollTo({
      left: Math.max(0, x - (scroller.clientWidth - side) / 2 + side / 2),
      behavior: smooth ? "smooth" : "auto",
    });
  };
  // Opening (and changing the scale) centres today.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the scale changes
  useLayoutEffect(() => scrollToDay(today, false), [scale]);

  // Dragging a bar: the window follows the pointer, so leaving the bar doesn't end the drag. The
  // listeners go on at the press itself (not in an effect after the next render), so a quick
  // press-move-release is never missed.
  const handlers = useRef({ onChange, onOpen, range });
  handlers.current = { onChange, onOpen, range };
  const stopDrag = useRef<(() => void) | null>(null);
  useEffect(() => () => stopDrag.current?.(), []);

  const startDrag =
    (row: TimelineRow, dates: { start: string; end: string }, mode: DragMode) => (e: ReactPointerEvent) => {
      if (!canEdit(row) || e.button !== 0) return;
      e.preventDefault();
      e.stopPropagation();
      stopDrag.current?.();
      const first: Drag = { id: row.id, mode, x0: e.clientX, start: dates.start, end: dates.end, moved: false };
      dragRef.current = first;
      setDrag(first);
      const move = (ev: PointerEvent) => {
        const current = dragRef.current;
        if (!current) return;
        if (!current.moved && Math.abs(ev.clientX - current.x0) > 3) {
          const next = { ...current, moved: true };
          dragRef.current = next;
          setDrag(next);
        }
        // Only whole days repaint: a pointer move within a day changes nothing.
        setPreviewDays(deltaDays(handlers.current.range, ev.clientX - current.x0));
      };
      const up = (ev: PointerEvent) => {
        stop();
        const current = dragRef.current;
        dragRef.current = null;
        setDrag(null);
        setPreviewDays(0);
        if (!current) return;
        const days = ev.type === "pointerup" ? deltaDays(handlers.current.range, ev.clientX - current.x0) : 0;
        if (!current.moved && days === 0) {
          if (current.mode === "move" && ev.type === "pointerup") handlers.current.onOpen?.(current.id);
          return;
        }
        if (days === 0) return;
        handlers.current.onChange(
          current.id,
          draggedDates(current.mode, current.start, current.end, days),
          current.mode,
        );
      };
      const stop = () => {
        window.removeEventListener("pointermove", move);
        window.removeEventListener("pointerup", up);
        window.removeEventListener("pointercancel", up);
        stopDrag.current = null;
      };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up);
      window.addEventListener("pointercancel", up);
      stopDrag.current = stop;
    };

  const dayAt = (clientX: number, clientY: number): string | null => {
    const chart = chartRef.current;
    const scroller = scrollerRef.current;
    if (!chart || !scroller) return null;
    const box = chart.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    // Over the chart part of the scroller (not the side list, not the header).
    if (clientX < Math.max(box.left, view.left) || clientX > Math.min(box.right, view.right)) return null;
    if (clientY < view.top + headHeight || clientY > view.bottom) return null;
    return xToDay(range, clientX - box.left);
  };

  const schedule = (id: string, start: string) => {
    if (!parseDay(start)) return;
    onChange(id, scheduledDates(start, newSpan), "schedule");
  };

  // Dragging an undated row's chip onto the chart schedules it from the day it is dropped on.
  const startChipDrag = (row: TimelineRow) => (e: ReactPointerEvent) => {
    if (!canEdit(row) || e.button !== 0) return;
    e.preventDefault();
    const move = (ev: PointerEvent) =>
      setGhost({ id: row.id, x: ev.clientX, y: ev.clientY, day: dayAt(ev.clientX, ev.clientY) });
    const up = (ev: PointerEvent) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      setGhost(null);
      const day = ev.type === "pointerup" ? dayAt(ev.clientX, ev.clientY) : null;
      if (day) schedule(row.id, day);
    };
    setGhost({ id: row.id, x: e.clientX, y: e.clientY, day: null });
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  };

  const onBarKey = (row: TimelineRow, dates: { start: string; end: string }) => (e: ReactKeyboardEvent) => {
    if (e.key === "Enter") {
      onOpen?.(row.id);
      return;
    }
    if (!canEdit(row) || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    e.preventDefault();
    const by = e.key === "ArrowLeft" ? -1 : 1;
    const mode: DragMode = e.shiftKey ? "end" : "move";
    onChange(row.id, draggedDates(mode, dates.start, dates.end, by), mode);
  };

  // The header and the grid are the same whatever is scrolled or dragged: built once per range,
  // so a scroll or a drag repaints only the rows.
  const header = useMemo(() => {
    const upper = scale === "quarter" ? yearCells(range) : monthCells(range, (d) => format(d, "MMMM yyyy"));
    const lower = lowerCells(range, scale);
    return {
      upper: upper.map((c) => (
        <div key={c.key} className="tl-head-cell" style={{ left: c.left, width: c.width }}>
          <span className="tl-head-label">{c.label}</span>
        </div>
      )),
      lower: lower.map((c) => (
        <div
          key={c.key}
          className={clsx("tl-head-cell", c.today && "is-today", c.weekend && "is-weekend")}
          style={{ left: c.left, width: c.width }}
        >
          <span className="tl-head-label">{c.label}</span>
        </div>
      )),
      grid: lower.map((c) => (
        <div
          key={c.key}
          className={clsx("tl-gridline", c.weekend && "is-weekend")}
          style={{ left: c.left, width: c.width }}
          aria-hidden
        />
      )),
    };
  }, [range, scale]);
  const todayX = dayToX(range, today);

  // Arrows with at least one end on screen; their other end may be off screen (clipped).
  const arrowPaths = useMemo(() => {
    if (!arrows?.length || lastIndex < 0) return [];
    const out: { key: string; d: string }[] = [];
    for (const arrow of arrows) {
      const i = indexById.get(arrow.from);
      const j = indexById.get(arrow.to);
      if (i === undefined || j === undefined) continue;
      if ((i < firstIndex || i > lastIndex) && (j < firstIndex || j > lastIndex)) continue;
      const a = entries[i];
      const b = entries[j];
      if (a?.kind !== "row" || b?.kind !== "row") continue;
      const da = shownDates(a, drag, previewDays);
      const db = shownDates(b, drag, previewDays);
      if (!da || !db) continue;
      const ends = arrowEnds(range, { ...da, index: i }, { ...db, index: j }, rowHeight);
      out.push({ key: `${arrow.from}>${arrow.to}`, d: arrowPath(ends) });
    }
    return out;
  }, [arrows, indexById, entries, firstIndex, lastIndex, range, rowHeight, drag, previewDays]);

  const total = virtualizer.getTotalSize();

  return (
    <div
      className={clsx("tl", className)}
      data-scale={scale}
      style={{ "--tl-row-h": `${rowHeight}px` } as CSSProperties}
    >
      <div className="tl-toolbar">
        <fieldset className="ui-segmented tl-segmented">
          <legend className="visually-hidden">{t("timeline.scale")}</legend>
          {TIMELINE_SCALES.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={scale === s}
              className={clsx("ui-segment tl-segment", scale === s && "is-on")}
              onClick={() => setScale(s)}
            >
              {t(`timeline.scales.${s}`)}
            </button>
          ))}
        </fieldset>
        <button type="button" className="ui-tool-btn tl-tool-btn" onClick={() => scrollToDay(today, true)}>
          {t("timeline.today")}
        </button>
      </div>
      <div className="tl-scroller" ref={scrollerRef}>
        <div className="tl-grid" style={{ width: `calc(var(--tl-side) + ${width}px)` }}>
          <div className="tl-head" ref={headRef}>
            <div className="tl-side tl-head-side">{title}</div>
            <div className="tl-head-chart" style={{ width }}>
              <div className="tl-head-row">{header.upper}</div>
              <div className="tl-head-row tl-head-lower">{header.lower}</div>
            </div>
          </div>
          <div className="tl-body" style={{ height: total }}>
            <div className="tl-chart" ref={chartRef} style={{ width }}>
              {header.grid}
              {todayX >= 0 && todayX <= width ? (
                <div className="tl-today" style={{ left: todayX + range.dayWidth / 2 }} aria-hidden />
              ) : null}
            </div>
            {virtualRows.map((v) => {
              const entry = entries[v.index];
              if (!entry) return null;
              const top = v.start - headHeight;
              if (entry.kind === "section") {
                return (
                  <div key={v.key} className="tl-row tl-vrow tl-section" style={{ top }}>
                    <div className="tl-side tl-section-side">
                      <span className="tl-section-title">{t("timeline.undated", { count: entry.count })}</span>
                      {editable ? <span className="tl-section-hint">{t("timeline.undatedHint")}</span> : null}
                    </div>
                    <div className="tl-track" style={{ width }} />
                  </div>
                );
              }
              const { row } = entry;
              const rowEditable = canEdit(row);
              const dates = shownDates(entry, drag, previewDays);
              const active = drag?.id === row.id;
              const geometry = dates ? barGeometry(range, dates.start, dates.end) : null;
              // A marker, or a bar too short to hold a few letters, names itself to its right.
              const labelOutside = Boolean(dates?.marker || (geometry && geometry.width < LABEL_INSIDE_MIN));
              const label = dates
                ? dates.marker
                  ? t("timeline.markerLabel", { name: row.name, day: showDay(dates.start) })
                  : t("timeline.barLabel", { name: row.name, start: showDay(dates.start), end: showDay(dates.end) })
                : "";
              return (
                <div
                  key={v.key}
                  className={clsx("tl-row tl-vrow", active && "is-active")}
                  style={{ top }}
                  data-row-id={row.id}
                >
                  <div className="tl-side tl-row-side">
                    {renderSide ? (
                      renderSide(row)
                    ) : (
                      <>
                        {row.icon}
                        <button type="button" className="tl-row-name" onClick={() => onOpen?.(row.id)} title={row.name}>
                          {row.name}
                        </button>
                      </>
                    )}
                    {dates ? (
                      <span className="tl-row-dates">
                        {dates.marker
                          ? format(parseDay(dates.start) as Date, "MMM d")
                          : `${format(parseDay(dates.start) as Date, "MMM d")} – ${format(parseDay(dates.end) as Date, "MMM d")}`}
                      </span>
                    ) : (
                      <span className="tl-nodates">
                        {rowEditable ? (
                          <span
                            className="tl-chip"
                            onPointerDown={startChipDrag(row)}
                            title={t("timeline.dragToSchedule")}
                            aria-hidden
                          >
                            <GripVertical size={12} />
                            {t("timeline.noDates")}
                          </span>
                        ) : (
                          <span className="tl-chip is-static">{t("timeline.noDates")}</span>
                        )}
                        {rowEditable ? (
                          <DatePopover
                            value={null}
                            clearable={false}
                            label={t("timeline.pickStart", { name: row.name })}
                            onChange={(day) => (day ? schedule(row.id, day) : undefined)}
                          >
                            <button
                              type="button"
                              className="ui-icon-btn tl-icon-btn"
                              aria-label={t("timeline.pickStart", { name: row.name })}
                              title={t("timeline.pickStart", { name: row.name })}
                            >
                              <CalendarPlus size={14} aria-hidden />
                            </button>
                          </DatePopover>
                        ) : null}
                      </span>
                    )}
                  </div>
                  <div className="tl-track" style={{ width }}>
                    {ghost?.id === row.id && ghost.day ? (
                      <div
                        className="tl-drop-preview"
                        style={barGeometry(range, ghost.day, scheduledDates(ghost.day, newSpan).end)}
                        aria-hidden
                      />
                    ) : null}
                    {geometry && dates ? (
                      // biome-ignore lint/a11y/useSemanticElements: a draggable bar, moved with the arrow keys
                      <div
                        role="button"
                        tabIndex={0}
                        className={clsx(
                          "tl-bar",
                          dates.marker && "is-marker",
                          active && "is-dragging",
                          !rowEditable && "is-static",
                        )}
                        style={{ left: geometry.left, width: geometry.width }}
                        aria-label={label}
                        title={label}
                        onPointerDown={startDrag(row, dates, "move")}
                        onKeyDown={onBarKey(row, dates)}
                      >
                        {row.progress !== undefined ? (
                          <span className="tl-bar-fill" style={{ width: `${Math.round(row.progress * 100)}%` }} />
                        ) : null}
                        {labelOutside ? null : <span className="tl-bar-label">{row.name}</span>}
                        {rowEditable ? (
                          <>
                            <span
                              className="tl-handle tl-handle-start"
                              onPointerDown={startDrag(row, dates, "start")}
                              aria-hidden
                            />
                            <span
                              className="tl-handle tl-handle-end"
                              onPointerDown={startDrag(row, dates, "end")}
                              aria-hidden
                            />
                          </>
                        ) : null}
                      </div>
                    ) : null}
                    {labelOutside && geometry ? (
                      <span className="tl-marker-label" style={{ left: geometry.left + geometry.width + 6 }}>
                        {row.name}
                      </span>
                    ) : null}
                  </div>
                </div>
              );
            })}
            {arrowPaths.length ? (
              <svg className="tl-arrows" width={width} height={total} aria-hidden>
                <defs>
                  <marker
                    id="tl-arrow-head"
                    viewBox="0 0 8 8"
                    refX="7"
                    refY="4"
                    markerWidth="7"
                    markerHeight="7"
                    orient="auto"
                  >
                    <path d="M0 0L8 4L0 8z" className="tl-arrow-head" />
                  </marker>
                </defs>
                {arrowPaths.map((p) => (
                  <path key={p.key} d={p.d} className="tl-arrow" markerEnd="url(#tl-arrow-head)" />
                ))}
              </svg>
            ) : null}
          </div>
        </div>
      </div>
      {ghost ? (
        <div className="tl-ghost" style={{ left: ghost.x + 12, top: ghost.y + 8 }} aria-hidden>
          {ghost.day ? showDay(ghost.day) : rows.find((r) => r.id === ghost.id)?.name}
        </div>
      ) : null}
    </div>
  );
}

/** A row's dates as shown now (a bar being dragged shows where it would land). */
function shownDates(entry: Entry & { kind: "row" }, drag: Drag | null, previewDays: number) {
  if (!entry.dates) return null;
  if (drag?.id !== entry.row.id) return entry.dates;
  return { ...draggedDates(drag.mode, drag.start, drag.end, previewDays), marker: entry.dates.marker };
}

type Cell = { key: string; label: string; left: number; width: number; today?: boolean; weekend?: boolean };

function yearCells(range: TimelineRange): Cell[] {
  const out: Cell[] = [];
  for (let i = 0; i < range.days; ) {
    const day = addDays(range.start, i);
    let n = 0;
    while (i + n < range.days && addDays(range.start, i + n).getFullYear() === day.getFullYear()) n++;
    out.push({
      key: String(day.getFullYear()),
      label: String(day.getFullYear()),
      left: i * range.dayWidth,
      width: n * range.dayWidth,
    });
    i += n;
  }
  return out;
}

/** Days (week scale), weeks starting Monday (month), months (quarter). */
function lowerCells(range: TimelineRange, scale: TimelineScale): Cell[] {
  const today = toDay(new Date());
  const out: Cell[] = [];
  if (scale === "week") {
    for (let i = 0; i < range.days; i++) {
      const day = addDays(range.start, i);
      const dow = day.getDay();
      out.push({
        key: toDay(day),
        label: format(day, "EEEEE d"),
        left: i * range.dayWidth,
        width: range.dayWidth,
        today: toDay(day) === today,
        weekend: dow === 0 || dow === 6,
      });
    }
    return out;
  }
  if (scale === "month") {
    let i = 0;
    while (i < range.days) {
      const day = addDays(range.start, i);
      const toMonday = (8 - day.getDay()) % 7 || 7;
      const n = Math.min(range.days - i, i === 0 && day.getDay() !== 1 ? toMonday : 7);
      out.push({ key: toDay(day), label: format(day, "d"), left: i * range.dayWidth, width: n * range.dayWidth });
      i += n;
    }
    return out;
  }
  let i = 0;
  while (i < range.days) {
    const day = addDays(range.start, i);
    let n = 0;
    while (i + n < range.days && isSameMonth(addDays(range.start, i + n), day)) n++;
    out.push({ key: toDay(day), label: format(day, "MMM"), left: i * range.dayWidth, width: n * range.dayWidth });
    i += n;
  }
  return out;
}
