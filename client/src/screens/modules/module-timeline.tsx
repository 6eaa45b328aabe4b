/**
 * A generic timeline (gantt): rows with a name in a side list and a bar from start to end on the
 * chart. Scales week (60 px a day), month (20) and quarter (5); a header of months and days; a
 * line at today. Drag a bar to move it, drag either end to resize (whole days; start ≤ end);
 * ←/→ on a focused bar move it a day, Shift+←/→ change its end. Rows without dates say so in the
 * side list: drag their chip onto the chart, or pick a start in the date picker. The side list and
 * the chart are one scroller (the side list sticks to the left), so they always scroll together.
 * Nothing here knows about modules: rows are {id, name, start, end, progress?}.
 */
import clsx from "clsx";
import { addDays, format, isSameMonth } from "date-fns";
import { CalendarPlus, GripVertical } from "lucide-react";
import {
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
import { DatePopover, parseDay, showDay, toDay } from "../../components/ui";
import {
  barGeometry,
  type DragMode,
  dayToX,
  deltaDays,
  draggedDates,
  monthCells,
  TIMELINE_SCALES,
  type TimelineRange,
  type TimelineScale,
  timelineRange,
  xToDay,
} from "./timeline-geometry";

export type TimelineRow = {
  id: string;
  name: string;
  start: string | null;
  end: string | null;
  /** 0–1: the share of the bar filled. */
  progress?: number;
  /** Shown before the name in the side list (an icon, a status). */
  icon?: ReactNode;
};

type Props = {
  rows: readonly TimelineRow[];
  onChange: (id: string, dates: { start: string; end: string }) => void;
  /** A row's name or bar clicked (open it). */
  onOpen?: (id: string) => void;
  /** False: bars can't be dragged and undated rows can't be scheduled. */
  editable?: boolean;
  scale?: TimelineScale;
  onScaleChange?: (scale: TimelineScale) => void;
  /** Days a newly scheduled row spans. */
  newSpan?: number;
  /** Names the side list's column. */
  title: string;
};

type Drag = { id: string; mode: DragMode; x0: number; start: string; end: string; moved: boolean };

export function Timeline({
  rows,
  onChange,
  onOpen,
  editable = true,
  scale: scaleProp,
  onScaleChange,
  newSpan = 14,
  title,
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
  const range = useMemo(() => timelineRange(scale, todayDate, rows), [scale, todayDate, rows]);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const [ghost, setGhost] = useState<{ id: string; x: number; y: number; day: string | null } | null>(null);
  const width = range.days * range.dayWidth;

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

  // Dragging a bar: the window follows the pointer, so leaving the bar doesn't end the drag.
  const dragKey = drag ? `${drag.id}:${drag.mode}` : null;
  const handlers = useRef({ onChange, onOpen });
  handlers.current = { onChange, onOpen };
  useEffect(() => {
    if (!dragKey) return;
    const move = (e: PointerEvent) => {
      const current = dragRef.current;
      if (!current) return;
      const days = deltaDays(range, e.clientX - current.x0);
      if (days !== 0 || current.moved) {
        const next = { ...current, moved: current.moved || Math.abs(e.clientX - current.x0) > 3 };
        dragRef.current = next;
        setDrag(next);
      }
      setPreviewDays(days);
    };
    const up = (e: PointerEvent) => {
      const current = dragRef.current;
      dragRef.current = null;
      setDrag(null);
      setPreviewDays(0);
      if (!current) return;
      const days = deltaDays(range, e.clientX - current.x0);
      if (!current.moved && days === 0) {
        if (current.mode === "move") handlers.current.onOpen?.(current.id);
        return;
      }
      if (days === 0) return;
      handlers.current.onChange(current.id, draggedDates(current.mode, current.start, current.end, days));
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    return () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
    };
  }, [dragKey, range]);
  const [previewDays, setPreviewDays] = useState(0);

  const startDrag = (row: TimelineRow, mode: DragMode) => (e: ReactPointerEvent) => {
    if (!editable || !row.start || !row.end || e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    const next: Drag = { id: row.id, mode, x0: e.clientX, start: row.start, end: row.end, moved: false };
    dragRef.current = next;
    setDrag(next);
  };

  const dayAt = (clientX: number, clientY: number): string | null => {
    const chart = chartRef.current;
    if (!chart) return null;
    const box = chart.getBoundingClientRect();
    if (clientX < box.left || clientX > box.right || clientY < box.top || clientY > box.bottom) return null;
    return xToDay(range, clientX - box.left);
  };

  // Dragging an undated row's chip onto the chart schedules it from the day it is dropped on.
  const startChipDrag = (row: TimelineRow) => (e: ReactPointerEvent) => {
    if (!editable || e.button !== 0) return;
    e.preventDefault();
    const move = (ev: PointerEvent) =>
      setGhost({ id: row.id, x: ev.clientX, y: ev.clientY, day: dayAt(ev.clientX, ev.clientY) });
    const up = (ev: PointerEvent) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      setGhost(null);
      const day = dayAt(ev.clientX, ev.clientY);
      if (day) schedule(row.id, day);
    };
    setGhost({ id: row.id, x: e.clientX, y: e.clientY, day: null });
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };

  const schedule = (id: string, start: string) => {
    const from = parseDay(start);
    if (!from) return;
    onChange(id, { start, end: toDay(addDays(from, newSpan - 1)) });
  };

  const onBarKey = (row: TimelineRow) => (e: ReactKeyboardEvent) => {
    if (!row.start || !row.end) return;
    if (e.key === "Enter") {
      onOpen?.(row.id);
      return;
    }
    if (!editable || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    e.preventDefault();
    const by = e.key === "ArrowLeft" ? -1 : 1;
    onChange(row.id, draggedDates(e.shiftKey ? "end" : "move", row.start, row.end, by));
  };

  const upper = useMemo(
    () => (scale === "quarter" ? yearCells(range) : monthCells(range, (d) => format(d, "MMMM yyyy"))),
    [range, scale],
  );
  const lower = useMemo(() => lowerCells(range, scale), [range, scale]);
  const todayX = dayToX(range, today);

  return (
    <div className="tl" data-scale={scale}>
      <div className="tl-toolbar">
        <fieldset className="mo-segmented">
          <legend className="visually-hidden">{t("modules.timeline.scale")}</legend>
          {TIMELINE_SCALES.map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={scale === s}
              className={clsx("mo-segment", scale === s && "is-on")}
              onClick={() => setScale(s)}
            >
              {t(`modules.timeline.scales.${s}`)}
            </button>
          ))}
        </fieldset>
        <button type="button" className="mo-tool-btn" onClick={() => scrollToDay(today, true)}>
          {t("modules.timeline.today")}
        </button>
      </div>
      <div className="tl-scroller" ref={scrollerRef}>
        <div className="tl-grid" style={{ width: `calc(var(--tl-side) + ${width}px)` }}>
          <div className="tl-head">
            <div className="tl-side tl-head-side">{title}</div>
            <div className="tl-head-chart" style={{ width }}>
              <div className="tl-head-row">
                {upper.map((c) => (
                  <div key={c.key} className="tl-head-cell" style={{ left: c.left, width: c.width }}>
                    <span className="tl-head-label">{c.label}</span>
                  </div>
                ))}
              </div>
              <div className="tl-head-row tl-head-lower">
                {lower.map((c) => (
                  <div
                    key={c.key}
                    className={clsx("tl-head-cell", c.today && "is-today", c.weekend && "is-weekend")}
                    style={{ left: c.left, width: c.width }}
                  >
                    <span className="tl-head-label">{c.label}</span>
                  </div>
                ))}
              </div>
            </div>
          </div>
          <div className="tl-body">
            <div className="tl-chart" ref={chartRef} style={{ width }}>
              {lower.map((c) => (
                <div
                  key={c.key}
                  className={clsx("tl-gridline", c.weekend && "is-weekend")}
                  style={{ left: c.left, width: c.width }}
                  aria-hidden
                />
              ))}
              {todayX >= 0 && todayX <= width ? (
                <div className="tl-today" style={{ left: todayX + range.dayWidth / 2 }} aria-hidden />
              ) : null}
            </div>
            {rows.map((row) => {
              const dated = row.start && row.end;
              const active = drag?.id === row.id;
              const dates =
                dated && active && drag
                  ? draggedDates(drag.mode, drag.start, drag.end, previewDays)
                  : dated
                    ? { start: row.start as string, end: row.end as string }
                    : null;
              const geometry = dates ? barGeometry(range, dates.start, dates.end) : null;
              return (
                <div key={row.id} className="tl-row">
                  <div className="tl-side tl-row-side">
                    {row.icon}
                    <button type="button" className="tl-row-name" onClick={() => onOpen?.(row.id)} title={row.name}>
                      {row.name}
                    </button>
                    {dated ? (
                      <span className="tl-row-dates">
                        {format(parseDay(dates?.start) as Date, "MMM d")} –{" "}
                        {format(parseDay(dates?.end) as Date, "MMM d")}
                      </span>
                    ) : (
                      <span className="tl-nodates">
                        {editable ? (
                          <span
                            className="tl-chip"
                            onPointerDown={startChipDrag(row)}
                            title={t("modules.timeline.dragToSchedule")}
                            aria-hidden
                          >
                            <GripVertical size={12} />
                            {t("modules.timeline.noDates")}
                          </span>
                        ) : (
                          <span className="tl-chip is-static">{t("modules.timeline.noDates")}</span>
                        )}
                        {editable ? (
                          <DatePopover
                            value={null}
                            clearable={false}
                            label={t("modules.timeline.pickStart", { name: row.name })}
                            onChange={(day) => (day ? schedule(row.id, day) : undefined)}
                          >
                            <button
                              type="button"
                              className="mo-icon-btn mo-icon-btn-sm"
                              aria-label={t("modules.timeline.pickStart", { name: row.name })}
                              title={t("modules.timeline.pickStart", { name: row.name })}
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
                        style={barGeometry(range, ghost.day, toDay(addDays(parseDay(ghost.day) as Date, newSpan - 1)))}
                        aria-hidden
                      />
                    ) : null}
                    {geometry && dates ? (
                      // biome-ignore lint/a11y/useSemanticElements: a draggable bar, moved with the arrow keys
                      <div
                        role="button"
                        tabIndex={0}
                        className={clsx("tl-bar", active && "is-dragging", !editable && "is-static")}
                        style={{ left: geometry.left, width: geometry.width }}
                        aria-label={t("modules.timeline.barLabel", {
                          name: row.name,
                          start: showDay(dates.start),
                          end: showDay(dates.end),
                        })}
                        title={`${row.name} · ${showDay(dates.start)} – ${showDay(dates.end)}`}
                        onPointerDown={startDrag(row, "move")}
                        onKeyDown={onBarKey(row)}
                      >
                        {row.progress !== undefined ? (
                          <span className="tl-bar-fill" style={{ width: `${Math.round(row.progress * 100)}%` }} />
                        ) : null}
                        <span className="tl-bar-label">{row.name}</span>
                        {editable ? (
                          <>
                            <span
                              className="tl-handle tl-handle-start"
                              onPointerDown={startDrag(row, "start")}
                              aria-hidden
                            />
                            <span
                              className="tl-handle tl-handle-end"
                              onPointerDown={startDrag(row, "end")}
                              aria-hidden
                            />
                          </>
                        ) : null}
                      </div>
                    ) : null}
                  </div>
                </div>
              );
            })}
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
