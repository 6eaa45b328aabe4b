/**
 * The list layout: collapsible group headers and 36px rows, flattened into one virtual list
 * (@tanstack/react-virtual) so 10,000 rows scroll smoothly — only what is on screen is rendered.
 * On a phone (< 768 px) an item's row shows its whole title (wrapping) with its properties on a
 * line under it, so rows are measured as they render instead of having a fixed height.
 */

import { useVirtualizer } from "@tanstack/react-virtual";
import type { GroupByKey } from "@tideline/shared";
import clsx from "clsx";
import { ChevronDown, ChevronRight, Plus } from "lucide-react";
import { type MouseEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useIsNarrow } from "../../lib/use-media";
import { measureFromObserver } from "../../lib/virtual-measure";
import type { WorkItem } from "../../stores/work-items";
import { ItemProject, type Translate, useSelection, useWorkItemsContext } from "./context";
import { useGroupInfo } from "./group-info";
import { type Group, groupCount, groupTakesItems, prefillFor } from "./pipeline";
import { ItemProperties } from "./properties";
import { QuickAdd } from "./quick-add";
import { assignRowSlots, busySlots, NO_SLOTS, type RowSlots } from "./row-slots";

type Row =
  | { kind: "group"; id: string; group: Group<WorkItem> }
  | { kind: "item"; id: string; groupKey: string; item: WorkItem }
  | { kind: "add"; id: string; groupKey: string };

const HEIGHT = { group: 40, item: 36, add: 36 } as const;

/**
 * A row checkbox's label ("Select WEB-12"): translated once per language with a placeholder for
 * the key — i18next with options costs too much to ask again for every row that mounts.
 */
const selectLabels = new WeakMap<Translate, string>();
const KEY_SLOT = "\u0000key\u0000";

function selectLabel(t: Translate, key: string): string {
  let template = selectLabels.get(t);
  if (template === undefined) {
    template = t("workItems.select.item", { key: KEY_SLOT });
    selectLabels.set(t, template);
  }
  return template.replace(KEY_SLOT, key);
}

export function ListLayout({ groups, groupBy }: { groups: Group<WorkItem>[]; groupBy: GroupByKey | null }) {
  const { t } = useTranslation();
  const ctx = useWorkItemsContext();
  const selection = useSelection();
  const groupInfo = useGroupInfo();
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const scrollRef = useRef<HTMLDivElement>(null);
  const narrow = useIsNarrow();

  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const group of groups) {
      if (groupBy) out.push({ kind: "group", id: `g:${group.key}`, group });
      if (groupBy && collapsed.has(group.key)) continue;
      for (const item of group.items)
        out.push({ kind: "item", id: `${group.key}:${item.id}`, groupKey: group.key, item });
      // A completed cycle's group takes no new items (the server refuses them).
      if (ctx.canEdit && ctx.canAdd && groupTakesItems(groupBy, group.key, ctx.lookups))
        out.push({ kind: "add", id: `a:${group.key}`, groupKey: group.key });
    }
    return out;
  }, [groups, groupBy, collapsed, ctx.canEdit, ctx.canAdd, ctx.lookups]);

  /** Where each group header starts (rows have fixed heights), for the sticky header. */
  const headerStarts = useMemo(() => {
    const out: { start: number; group: Group<WorkItem> }[] = [];
    let y = 0;
    for (const row of rows) {
      if (row.kind === "group") out.push({ start: y, group: row.group });
      y += HEIGHT[row.kind];
    }
    return out;
  }, [rows]);

  /**
   * Display order of item ids (each once), for shift-click ranges: computed on a click, through a
   * getter that stays the same, so a new list doesn't re-render every row whose item is unchanged.
   */
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const order = useCallback(() => {
    const seen = new Set<string>();
    for (const row of rowsRef.current) if (row.kind === "item") seen.add(row.item.id);
    return [...seen];
  }, []);

  // Stable between renders of the same rows: the virtualizer recomputes every row's position
  // (10,000 of them) whenever its key function changes, which an inline one does on each render.
  const estimateSize = useCallback((index: number) => HEIGHT[rows[index]?.kind ?? "item"], [rows]);
  const getItemKey = useCallback((index: number) => rows[index]?.id ?? index, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    // A phone's rows are as tall as their title: heights from the resize observer, not read at
    // mount (lib/virtual-measure.ts).
    measureElement: measureFromObserver,
    overscan: 5,
  });
  // Fixed heights become measured ones (and back) when the width crosses the phone breakpoint.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure only on that change
  useEffect(() => {
    virtualizer.measure();
  }, [narrow]);

  // A new grouping or order starts at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the grouping changes
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [groupBy]);

  const virtualRows = virtualizer.getVirtualItems();
  // Item rows render in slots (row-slots.ts): a row that arrives takes over the element of one
  // that left. Not on a phone, where a row's height is measured when its element mounts.
  const slotsRef = useRef<RowSlots>(NO_SLOTS);
  let slotOf: ((rowId: string) => string) | null = null;
  if (!narrow) {
    const onScreen: string[] = [];
    for (const v of virtualRows) if (rows[v.index]?.kind === "item") onScreen.push(rows[v.index]?.id as string);
    const slots = assignRowSlots(slotsRef.current, onScreen, busySlots(scrollRef.current));
    slotsRef.current = slots;
    slotOf = (rowId) => slots.byRow.get(rowId) ?? rowId;
  } else slotsRef.current = NO_SLOTS;

  const offset = virtualizer.scrollOffset ?? 0;
  let current: Group<WorkItem> | null = null;
  if (narrow) {
    // Measured rows: the group of the first row on screen.
    const first = virtualizer.getVirtualItems().find((v) => v.end > offset);
    for (let i = first?.index ?? -1; i >= 0; i--) {
      const row = rows[i];
      if (row?.kind === "group") {
        current = row.group;
        break;
      }
    }
  } else {
    for (const h of headerStarts) {
      if (h.start <= offset) current = h.group;
      else break;
    }
  }

  const groupHeader = (group: Group<WorkItem>, className: string, style?: React.CSSProperties, key?: string) => {
    const info = groupInfo(groupBy, group.key, ctx.lookups);
    const isCollapsed = collapsed.has(group.key);
    return (
      <div key={key} className={className} style={style}>
        <button
          type="button"
          className="wi-group-toggle"
          aria-expanded={!isCollapsed}
          onClick={() => toggleGroup(group.key)}
        >
          {isCollapsed ? <ChevronRight size={14} aria-hidden /> : <ChevronDown size={14} aria-hidden />}
          <span className="wi-group-icon">{info.icon}</span>
          <span className="wi-group-name">{info.name}</span>
          <span className="wi-group-count">{groupCount(group)}</span>
          {info.hint ? <span className="wi-group-hint">{info.hint}</span> : null}
        </button>
        {ctx.canEdit && ctx.canAdd && groupTakesItems(groupBy, group.key, ctx.lookups) ? (
          <button
            type="button"
            className="wi-icon-btn"
            aria-label={t("workItems.groups.addTo", { name: info.name })}
            title={t("workItems.groups.addTo", { name: info.name })}
            onClick={() => ctx.openCreate(prefillFor(groupBy, group.key, ctx.lookups))}
          >
            <Plus size={14} aria-hidden />
          </button>
        ) : null}
      </div>
    );
  };

  const toggleGroup = (key: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <section className="wi-list" ref={scrollRef} aria-label={t("workItems.layouts.list")}>
      {groupBy && current && offset > 0 ? (
        // The current group's header stays on top while its rows scroll (hidden from readers: a copy).
        <div className="wi-sticky-group" aria-hidden>
          {groupHeader(current, "wi-group-row wi-group-row-sticky")}
        </div>
      ) : null}
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        {virtualRows.map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          const style = { transform: `translateY(${v.start}px)`, height: v.size } as const;
          if (row.kind === "group") return groupHeader(row.group, "wi-vrow wi-group-row", style, row.id);
          if (row.kind === "add") {
            return (
              <div key={row.id} className="wi-vrow wi-add-row" style={style}>
                <QuickAdd variant="list" prefill={prefillFor(groupBy, row.groupKey, ctx.lookups)} />
              </div>
            );
          }
          return (
            <ItemProject key={slotOf ? slotOf(row.id) : row.id} projectId={row.item.project_id}>
              <ListRow
                item={row.item}
                slot={slotOf?.(row.id)}
                top={v.start}
                index={narrow ? v.index : undefined}
                measure={narrow ? virtualizer.measureElement : undefined}
                selected={selection.selected.has(row.item.id)}
                selecting={selection.selected.size > 0}
                active={ctx.peekId === row.item.id}
                order={order}
              />
            </ItemProject>
          );
        })}
      </div>
    </section>
  );
}

const ListRow = memo(function ListRow({
  item,
  slot,
  top,
  selected,
  selecting,
  active,
  order,
  index,
  measure,
}: {
  item: WorkItem;
  /** The element slot the row renders in (row-slots.ts), named for busySlots. */
  slot?: string;
  top: number;
  /** Phone: the row's index, and the virtualizer's measuring ref (the row is as tall as its title). */
  index?: number;
  measure?: (element: Element | null) => void;
  selected: boolean;
  selecting: boolean;
  active: boolean;
  order: () => readonly string[];
}) {
  const ctx = useWorkItemsContext();
  const { t } = ctx;
  const selection = useSelection();
  const temp = item.id.startsWith("temp-");
  const key = temp ? `${ctx.identifier}-…` : `${ctx.identifier}-${item.sequence_id}`;
  const onCheck = (event: MouseEvent) => {
    event.stopPropagation();
    selection.toggle(item.id, event.shiftKey ? { order: order() } : undefined);
  };
  return (
    <div
      ref={measure}
      data-index={index}
      data-slot={slot}
      className={clsx(
        "wi-vrow wi-item-row",
        measure && "wi-item-row-wrap",
        selected && "is-selected",
        active && "is-active",
        temp && "is-pending",
      )}
      style={
        measure
          ? { transform: `translateY(${top}px)`, minHeight: HEIGHT.item }
          : { transform: `translateY(${top}px)`, height: HEIGHT.item }
      }
    >
      {ctx.canEdit && !ctx.noSelection ? (
        <label className={clsx("wi-check", (selecting || selected) && "wi-check-visible")}>
          <input
            type="checkbox"
            checked={selected}
            onChange={() => undefined}
            onClick={onCheck}
            aria-label={selectLabel(t, key)}
          />
        </label>
      ) : (
        <span className="wi-check-spacer" />
      )}
      <button
        type="button"
        className="wi-row-main"
        // What opens the item's peek (a click on the prepainted board is replayed on it: lib/prepaint.ts).
        data-item-id={temp ? undefined : item.id}
        onClick={(event) => {
          if (temp) return;
          if (event.shiftKey || event.metaKey || event.ctrlKey) {
            if (ctx.canEdit && !ctx.noSelection)
              selection.toggle(item.id, event.shiftKey ? { order: order() } : undefined);
            return;
          }
          ctx.openPeek(item.id);
        }}
      >
        {ctx.props.key ? <span className="wi-key">{key}</span> : null}
        <span className="wi-name">{item.name}</span>
      </button>
      <ItemProperties item={item} />
    </div>
  );
});
