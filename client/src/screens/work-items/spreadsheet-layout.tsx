/**
 * The spreadsheet layout: a grid with a sticky first column (key + name) and one column per
 * enabled property. Every editable cell edits inline; the keyboard moves an active cell (arrow
 * keys, Home/End), Enter edits, Escape cancels. Rows are virtualised.
 */

import { useVirtualizer } from "@tanstack/react-virtual";
import { type DisplayProperty, isOverdue } from "@tideline/shared";
import clsx from "clsx";
import { PanelRightOpen } from "lucide-react";
import { type KeyboardEvent, type MouseEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { updateWorkItem, type WorkItem } from "../../stores/work-items";
import { EpicProgressChip } from "../epics/epic-progress-chip";
import { ProjectLogo } from "../workspace/components/logos";
import { ItemProject, useSelection, useWorkItemsContext } from "./context";
import { CyclePicker, ModulePicker, useCycleModuleFeatures } from "./cycle-module-pickers";
import {
  AssigneesPicker,
  DatePicker,
  EstimatePicker,
  formatDateTime,
  LabelsPicker,
  PriorityPicker,
  StatePicker,
} from "./properties";
import { scopeHidesProperty } from "./shown-properties";

type ColumnKey =
  | "name"
  | "state"
  | "priority"
  | "assignee"
  | "labels"
  | "modules"
  | "cycle"
  | "start_date"
  | "due_date"
  | "estimate"
  | "created_on"
  | "updated_on"
  | "sub_issue_count"
  | "attachment_count"
  | "link"
  | "project";

type Column = { key: ColumnKey; prop: DisplayProperty | null; width: number; editable: boolean };

const ALL_COLUMNS: Column[] = [
  { key: "name", prop: null, width: 420, editable: true },
  // Only on a board of several projects.
  { key: "project", prop: null, width: 170, editable: false },
  { key: "state", prop: "state", width: 160, editable: true },
  { key: "priority", prop: "priority", width: 130, editable: true },
  { key: "assignee", prop: "assignee", width: 170, editable: true },
  { key: "labels", prop: "labels", width: 170, editable: true },
  { key: "modules", prop: "modules", width: 170, editable: true },
  { key: "cycle", prop: "cycle", width: 170, editable: true },
  { key: "start_date", prop: "start_date", width: 156, editable: true },
  { key: "due_date", prop: "due_date", width: 156, editable: true },
  { key: "estimate", prop: "estimate", width: 120, editable: true },
  { key: "created_on", prop: "created_on", width: 130, editable: false },
  { key: "updated_on", prop: "updated_on", width: 130, editable: false },
  { key: "sub_issue_count", prop: "sub_issue_count", width: 110, editable: false },
  { key: "attachment_count", prop: "attachment_count", width: 120, editable: false },
  { key: "link", prop: "link", width: 90, editable: false },
];

const ROW = 36;
type Cell = { row: number; col: number };

export function SpreadsheetLayout({ items }: { items: WorkItem[] }) {
  const { t } = useTranslation();
  const ctx = useWorkItemsContext();
  const selection = useSelection();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<Cell | null>(null);
  const [editing, setEditing] = useState(false);
  // Read by deferred focus moves: a cell must not take the focus back from a picker opened since.
  const editingRef = useRef(false);
  editingRef.current = editing;

  const features = useCycleModuleFeatures(ctx.slug, ctx.projectId);
  const columns = useMemo(
    () =>
      ALL_COLUMNS.filter((c) => {
        if (c.key === "project") return ctx.lookups.projects.length > 0;
        return (
          !c.prop ||
          (ctx.props[c.prop] &&
            (c.key !== "estimate" || ctx.lookups.points.length > 0) &&
            // Cycle and module columns only where the project has the feature on.
            (c.key !== "cycle" || features.cycles) &&
            (c.key !== "modules" || features.modules) &&
            // A cycle's board: every row is in that cycle, so its column says nothing.
            !scopeHidesProperty(ctx.scope, c.prop))
        );
      }),
    [ctx.props, ctx.lookups.points.length, ctx.lookups.projects.length, features.cycles, features.modules, ctx.scope],
  );
  const width = columns.reduce((sum, c) => sum + c.width, 0) + 40;
  const order = useMemo(() => items.map((i) => i.id), [items]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    getItemKey: (index) => items[index]?.id ?? index,
    overscan: 14,
    scrollPaddingStart: ROW,
  });

  // Keep the active cell inside the grid when rows or columns change.
  useEffect(() => {
    setActive((cell) =>
      cell && (cell.row >= items.length || cell.col >= columns.length)
        ? items.length
          ? { row: Math.min(cell.row, items.length - 1), col: Math.min(cell.col, columns.length - 1) }
          : null
        : cell,
    );
  }, [items.length, columns.length]);

  // The active cell has the focus (so screen readers follow it) unless a field is being edited.
  useEffect(() => {
    if (!active || editing) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.col}"]`);
    if (el && document.activeElement !== el && scrollRef.current?.contains(document.activeElement)) el.focus();
  }, [active, editing]);

  const move = (cell: Cell) => {
    const row = Math.max(0, Math.min(items.length - 1, cell.row));
    const col = Math.max(0, Math.min(columns.length - 1, cell.col));
    setActive({ row, col });
    setEditing(false);
    virtualizer.scrollToIndex(row, { align: "auto" });
    const colLeft = columns.slice(0, col).reduce((s, c) => s + c.width, 0);
    const el = scrollRef.current;
    if (el && col > 0) {
      const first = columns[0]?.width ?? 0;
      const w = columns[col]?.width ?? 0;
      if (colLeft + 40 < el.scrollLeft + first) el.scrollLeft = colLeft + 40 - first;
      else if (colLeft + 40 + w > el.scrollLeft + el.clientWidth) el.scrollLeft = colLeft + 40 + w - el.clientWidth;
    }
    requestAnimationFrame(() => {
      if (editingRef.current) return;
      scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${row}:${col}"]`)?.focus();
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (editing || !active) return;
    const target = event.target as HTMLElement;
    if (target.tagName === "INPUT" && target.getAttribute("type") !== "checkbox") return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW) - 1);
    const moves: Record<string, Cell> = {
      ArrowDown: { row: active.row + 1, col: active.col },
      ArrowUp: { row: active.row - 1, col: active.col },
      ArrowRight: { row: active.row, col: active.col + 1 },
      ArrowLeft: { row: active.row, col: active.col - 1 },
      PageDown: { row: active.row + page, col: active.col },
      PageUp: { row: active.row - page, col: active.col },
      Home: event.ctrlKey ? { row: 0, col: 0 } : { row: active.row, col: 0 },
      End: event.ctrlKey
        ? { row: items.length - 1, col: columns.length - 1 }
        : { row: active.row, col: columns.length - 1 },
    };
    const next = moves[event.key];
    if (next) {
      event.preventDefault();
      move(next);
    } else if (event.key === "Enter" || event.key === "F2") {
      event.preventDefault();
      const column = columns[active.col];
      if (column?.editable && ctx.canEdit) setEditing(true);
      else if (column?.key === "name") {
        const item = items[active.row];
        if (item) ctx.openPeek(item.id);
      }
    } else if (event.key === " " && ctx.canEdit && !ctx.noSelection) {
      const item = items[active.row];
      if (item && target.dataset.cell) {
        event.preventDefault();
        selection.toggle(item.id, event.shiftKey ? { order } : undefined);
      }
    }
  };

  const stopEditing = (refocus = true) => {
    setEditing(false);
    if (refocus && active)
      requestAnimationFrame(() => {
        if (editingRef.current) return;
        scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.col}"]`)?.focus();
      });
  };

  // Stable callbacks, so scrolling re-renders only the rows that come into view.
  const latest = useRef({ stopEditing });
  latest.current = { stopEditing };
  const onActivate = useCallback((row: number, col: number) => {
    setActive({ row, col });
    setEditing(false);
  }, []);
  const onEdit = useCallback((row: number, col: number) => {
    setActive({ row, col });
    setEditing(true);
  }, []);
  const onStopEditing = useCallback((refocus?: boolean) => latest.current.stopEditing(refocus), []);

  const allSelected = items.length > 0 && items.every((i) => selection.selected.has(i.id));

  return (
    // biome-ignore lint/a11y/useSemanticElements: a virtualised grid positions its rows absolutely; table layout can't
    <div
      className="wi-sheet"
      ref={scrollRef}
      role="grid"
      aria-label={t("workItems.layouts.spreadsheet")}
      aria-rowcount={items.length + 1}
      aria-colcount={columns.length}
      onKeyDown={onKeyDown}
    >
      <div style={{ width, minWidth: "100%" }}>
        {/* biome-ignore lint/a11y/useSemanticElements: virtualised grid (see above) */}
        <div className="wi-sheet-head" role="row" aria-rowindex={1} tabIndex={-1}>
          {/* biome-ignore lint/a11y/useSemanticElements: virtualised grid (see above) */}
          <div className="wi-sheet-check wi-sheet-sticky" role="columnheader" tabIndex={-1}>
            {ctx.canEdit && !ctx.noSelection ? (
              <input
                type="checkbox"
                checked={allSelected}
                aria-label={t("workItems.select.all")}
                onChange={() => selection.setAll(order, !allSelected)}
              />
            ) : null}
          </div>
          {columns.map((c, index) => (
            // biome-ignore lint/a11y/useSemanticElements: virtualised grid (see above)
            <div
              key={c.key}
              role="columnheader"
              tabIndex={-1}
              className={clsx("wi-sheet-th", index === 0 && "wi-sheet-sticky wi-sheet-first")}
              style={{ width: c.width }}
            >
              {c.key === "cycle" || c.key === "modules"
                ? t(`cycleModuleProps.${c.key}`)
                : c.key === "name" && ctx.scope.kind === "epics"
                  ? t("epics.title")
                  : t(`workItems.columns.${c.key}`)}
            </div>
          ))}
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index];
            if (!item) return null;
            return (
              <ItemProject key={v.key} projectId={item.project_id}>
                <SheetRow
                  item={item}
                  rowIndex={v.index}
                  top={v.start}
                  columns={columns}
                  activeCol={active?.row === v.index ? active.col : -1}
                  editing={editing && active?.row === v.index}
                  selected={selection.selected.has(item.id)}
                  peek={ctx.peekId === item.id}
                  order={order}
                  onActivate={onActivate}
                  onEdit={onEdit}
                  onStopEditing={onStopEditing}
                />
              </ItemProject>
            );
          })}
        </div>
      </div>
    </div>
  );
}

const SheetRow = memo(function SheetRow({
  item,
  rowIndex,
  top,
  columns,
  activeCol,
  editing,
  selected,
  peek,
  order,
  onActivate,
  onEdit,
  onStopEditing,
}: {
  item: WorkItem;
  rowIndex: number;
  top: number;
  columns: Column[];
  activeCol: number;
  editing: boolean;
  selected: boolean;
  peek: boolean;
  order: readonly string[];
  onActivate: (row: number, col: number) => void;
  onEdit: (row: number, col: number) => void;
  onStopEditing: (refocus?: boolean) => void;
}) {
  const ctx = useWorkItemsContext();
  const { t } = ctx;
  const selection = useSelection();
  const key = item.id.startsWith("temp-") ? `${ctx.identifier}-…` : `${ctx.identifier}-${item.sequence_id}`;
  return (
    // biome-ignore lint/a11y/useSemanticElements: virtualised grid rows are absolutely positioned
    <div
      className={clsx("wi-sheet-row", selected && "is-selected", peek && "is-active")}
      role="row"
      tabIndex={-1}
      aria-rowindex={rowIndex + 2}
      aria-selected={selected}
      style={{ transform: `translateY(${top}px)` }}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: virtualised grid (see above) */}
      <div className="wi-sheet-check wi-sheet-sticky" role="gridcell" tabIndex={-1}>
        {ctx.canEdit && !ctx.noSelection ? (
          <input
            type="checkbox"
            checked={selected}
            onChange={() => undefined}
            onClick={(event: MouseEvent) => selection.toggle(item.id, event.shiftKey ? { order } : undefined)}
            aria-label={t("workItems.select.item", { key })}
          />
        ) : null}
      </div>
      {columns.map((column, col) => (
        <SheetCell
          key={column.key}
          item={item}
          itemKey={key}
          column={column}
          cellId={`${rowIndex}:${col}`}
          first={col === 0}
          active={activeCol === col}
          editing={editing && activeCol === col}
          onActivate={() => onActivate(rowIndex, col)}
          onEdit={() => onEdit(rowIndex, col)}
          onStopEditing={onStopEditing}
        />
      ))}
    </div>
  );
});

function SheetCell({
  item,
  itemKey,
  column,
  cellId,
  first,
  active,
  editing,
  onActivate,
  onEdit,
  onStopEditing,
}: {
  item: WorkItem;
  itemKey: string;
  column: Column;
  cellId: string;
  first: boolean;
  active: boolean;
  editing: boolean;
  onActivate: () => void;
  onEdit: () => void;
  onStopEditing: (refocus?: boolean) => void;
}) {
  const ctx = useWorkItemsContext();
  const { t } = ctx;
  const disabled = !ctx.canEdit || item.id.startsWith("temp-");
  const save = (patch: Parameters<typeof updateWorkItem>[3]) =>
    void updateWorkItem(ctx.slug, ctx.projectId, item.id, patch);
  const picker = {
    variant: "cell" as const,
    disabled,
    open: editing,
    onOpenChange: (open: boolean) => (open ? onEdit() : onStopEditing()),
  };

  let content: React.ReactNode = null;
  switch (column.key) {
    case "name":
      content = editing ? (
        <NameEditor
          initial={item.name}
          onDone={(name) => {
            const next = name?.trim();
            if (next && next !== item.name) save({ name: next });
            onStopEditing();
          }}
        />
      ) : (
        <>
          {ctx.props.key ? <span className="wi-key">{itemKey}</span> : null}
          <span className="wi-name">{item.name}</span>
          <button
            type="button"
            className="wi-icon-btn wi-sheet-open"
            // What opens the item's peek (a click on the prepainted board is replayed on it: lib/prepaint.ts).
            data-item-id={item.id.startsWith("temp-") ? undefined : item.id}
            tabIndex={-1}
            aria-label={t("workItems.sheet.open", { key: itemKey })}
            title={t("workItems.sheet.open", { key: itemKey })}
            onClick={(e) => {
              e.stopPropagation();
              ctx.openPeek(item.id);
            }}
          >
            <PanelRightOpen size={14} aria-hidden />
          </button>
        </>
      );
      break;
    case "project":
      content = ctx.project ? (
        <span className="wi-sheet-project">
          <ProjectLogo name={ctx.project.name} logo={ctx.project.logo_props} size={16} />
          <span className="wi-sheet-project-name">{ctx.project.name}</span>
        </span>
      ) : null;
      break;
    case "state":
      content = <StatePicker {...picker} value={item.state_id} onChange={(state_id) => save({ state_id })} />;
      break;
    case "priority":
      content = <PriorityPicker {...picker} value={item.priority} onChange={(priority) => save({ priority })} />;
      break;
    case "assignee":
      content = (
        <AssigneesPicker {...picker} value={item.assignee_ids} onChange={(assignee_ids) => save({ assignee_ids })} />
      );
      break;
    case "labels":
      content = <LabelsPicker {...picker} value={item.label_ids} onChange={(label_ids) => save({ label_ids })} />;
      break;
    case "modules":
      content = (
        <ModulePicker
          {...picker}
          slug={ctx.slug}
          projectId={ctx.projectId}
          value={item.module_ids}
          except={ctx.scope.kind === "module" ? ctx.scope.moduleId : undefined}
          onChange={(module_ids) => save({ module_ids })}
        />
      );
      break;
    case "cycle":
      content = (
        <CyclePicker
          {...picker}
          slug={ctx.slug}
          projectId={ctx.projectId}
          value={item.cycle_id}
          today={ctx.today}
          onChange={(cycle_id) => save({ cycle_id })}
        />
      );
      break;
    case "start_date":
      content = (
        <DatePicker
          {...picker}
          kind="start"
          value={item.start_date}
          max={item.target_date}
          onChange={(start_date) => save({ start_date })}
        />
      );
      break;
    case "due_date":
      content = (
        <DatePicker
          {...picker}
          kind="due"
          value={item.target_date}
          min={item.start_date}
          overdue={isOverdue(item, ctx.today)}
          onChange={(target_date) => save({ target_date })}
        />
      );
      break;
    case "estimate":
      content = (
        <EstimatePicker
          {...picker}
          value={item.estimate_point}
          onChange={(estimate_point) => save({ estimate_point })}
        />
      );
      break;
    case "created_on":
      content = <span className="wi-sheet-text">{formatDateTime(item.created_at)}</span>;
      break;
    case "updated_on":
      content = <span className="wi-sheet-text">{formatDateTime(item.updated_at)}</span>;
      break;
    case "sub_issue_count":
      // An epic's children are its work items: their progress says more than their count.
      content = item.is_epic ? (
        <span className="wi-sheet-text">
          <EpicProgressChip item={item} />
        </span>
      ) : (
        <span className="wi-sheet-text">{item.sub_issues_count}</span>
      );
      break;
    case "attachment_count":
      content = <span className="wi-sheet-text">{item.attachment_count}</span>;
      break;
    case "link":
      content = <span className="wi-sheet-text">{item.link_count}</span>;
      break;
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: virtualised grid cells are flex items of positioned rows
    <div
      role="gridcell"
      data-cell={cellId}
      tabIndex={active ? 0 : -1}
      aria-selected={active}
      aria-readonly={!column.editable || disabled || undefined}
      className={clsx("wi-sheet-td", first && "wi-sheet-sticky wi-sheet-first", active && "is-cell-active")}
      style={{ width: column.width }}
      onMouseDown={() => {
        if (!active) onActivate();
      }}
      onDoubleClick={() => {
        if (column.key === "name" && !disabled) onEdit();
      }}
    >
      {content}
    </div>
  );
}

/** The name cell's inline editor: Enter saves, Escape cancels, leaving the cell saves. */
function NameEditor({ initial, onDone }: { initial: string; onDone: (value: string | null) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const finish = (result: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(result);
  };
  return (
    <input
      className="wi-sheet-input"
      aria-label={t("workItems.columns.name")}
      value={value}
      maxLength={255}
      ref={(el) => {
        if (el && document.activeElement !== el) {
          // Like a spreadsheet's F2: edit the text with the caret at its end.
          el.focus();
          el.setSelectionRange(el.value.length, el.value.length);
        }
      }}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === "Enter") finish(value);
        else if (e.key === "Escape") finish(null);
      }}
      onBlur={() => finish(value)}
    />
  );
}
