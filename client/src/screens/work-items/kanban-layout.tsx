/**
 * The kanban layout: a column per group (state by default), swimlanes per sub-group, cards with
 * key, name and properties. Drag and drop (@dnd-kit): across columns sets the grouped property —
 * only for the groupings in KANBAN_DRAGGABLE_GROUP_KEYS, others show a not-allowed hint — and
 * within a column sets sort_order (−10000 first, +10000 last, midpoint between) when the order
 * is manual. Long columns are virtualised; swimlane cells show 50 cards, then "Show more".
 */
import {
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type GroupByKey, KANBAN_DRAGGABLE_GROUP_KEYS, NONE_GROUP, type OrderByKey } from "@tideline/shared";
import clsx from "clsx";
import { Ban, ChevronDown, ChevronRight, Plus } from "lucide-react";
import { createContext, memo, useCallback, useContext, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { measureFromObserver } from "../../lib/virtual-measure";
import { moveWorkItem, type WorkItem, type WorkItemPatch } from "../../stores/work-items";
import { ItemProject, type Lookups, useWorkItemsContext } from "./context";
import { useGroupInfo } from "./group-info";
import { columnFirstCollision } from "./kanban-collision";
import {
  dropSortOrder,
  type Group,
  type GroupPatch,
  groupCount,
  groupTakesItems,
  moveGroupPatch,
  prefillFor,
} from "./pipeline";
import { ItemProperties } from "./properties";
import { QuickAdd } from "./quick-add";

type CardData = { type: "card"; item: WorkItem; col: string; lane: string };
type ColumnData = { type: "column"; col: string; lane: string };
/**
 * The cell a dragged card is over. `before` is where it would land when it comes from another
 * cell under manual ordering: the id of the card it would go before, or null for the end (in
 * its own cell the sortable cards already make room; with another ordering the position is the
 * ordering's, so no line is drawn).
 */
type DropTarget = { col: string; lane: string; blocked: boolean; before?: string | null } | null;

const NO_LANE = "__all__";
const LANE_CAP = 50;

const DropContext = createContext<{ target: DropTarget; dragging: boolean }>({ target: null, dragging: false });

export function KanbanLayout({
  groups,
  groupBy,
  subGroupBy,
  orderBy,
}: {
  groups: Group<WorkItem>[];
  groupBy: GroupByKey | null;
  subGroupBy: GroupByKey | null;
  orderBy: OrderByKey;
}) {
  const { t } = useTranslation();
  const ctx = useWorkItemsContext();
  const groupInfo = useGroupInfo();
  const [active, setActive] = useState<CardData | null>(null);
  const [target, setTarget] = useState<DropTarget>(null);
  const [collapsedLanes, setCollapsedLanes] = useState<ReadonlySet<string>>(new Set());
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const colAllowed = groupBy !== null && KANBAN_DRAGGABLE_GROUP_KEYS.includes(groupBy);
  const laneAllowed = subGroupBy === null || KANBAN_DRAGGABLE_GROUP_KEYS.includes(subGroupBy);
  const manual = orderBy === "sort_order";

  /** Items of a cell (column × lane) in display order. */
  const cellItems = (col: string, lane: string): WorkItem[] => {
    const group = groups.find((g) => g.key === col);
    if (!group) return [];
    if (lane === NO_LANE || !group.subGroups) return group.items;
    return group.subGroups.find((s) => s.key === lane)?.items ?? [];
  };

  /** A completed (or archived) cycle's column or lane takes no items: the server would refuse them. */
  const isClosed = (from: CardData, col: string, lane: string) =>
    (col !== from.col && !groupTakesItems(groupBy, col, ctx.lookups)) ||
    (lane !== from.lane && lane !== NO_LANE && !groupTakesItems(subGroupBy, lane, ctx.lookups));
  /** On a board of several projects: a state, label, cycle or module of another project than the card's. */
  const isForeign = (from: CardData, col: string, lane: string) => {
    const own = ctx.forProject?.(from.item.project_id).lookups;
    if (!own) return false;
    return (
      (col !== from.col && !groupInProject(groupBy, col, own)) ||
      (lane !== from.lane && lane !== NO_LANE && !groupInProject(subGroupBy, lane, own))
    );
  };
  const isBlocked = (from: CardData, col: string, lane: string) =>
    (col !== from.col && !colAllowed) ||
    (lane !== from.lane && !laneAllowed) ||
    isClosed(from, col, lane) ||
    isForeign(from, col, lane);

  const readTarget = (data: unknown): { col: string; lane: string; overId: string | null } | null => {
    const d = data as CardData | ColumnData | undefined;
    if (!d) return null;
    if (d.type === "card") return { col: d.col, lane: d.lane, overId: d.item.id };
    return { col: d.col, lane: d.lane, overId: null };
  };

  const onDragStart = (event: DragStartEvent) => {
    const data = event.active.data.current as CardData | undefined;
    if (data) setActive(data);
  };

  const onDragOver = (event: DragOverEvent) => {
    if (!active) return;
    const over = readTarget(event.over?.data.current);
    if (!over) return setTarget(null);
    const blocked = isBlocked(active, over.col, over.lane);
    const foreign = over.col !== active.col || over.lane !== active.lane;
    const before = manual && foreign && !blocked ? over.overId : undefined;
    if (
      !target ||
      target.col !== over.col ||
      target.lane !== over.lane ||
      target.blocked !== blocked ||
      target.before !== before
    )
      setTarget({ col: over.col, lane: over.lane, blocked, before });
  };

  const onDragEnd = (event: DragEndEvent) => {
    const from = active;
    setActive(null);
    setTarget(null);
    if (!from) return;
    const over = readTarget(event.over?.data.current);
    if (!over) return;
    const item = from.item;
    const changesGroup = over.col !== from.col || over.lane !== from.lane;
    if (changesGroup && isBlocked(from, over.col, over.lane)) {
      const closed = isClosed(from, over.col, over.lane);
      const foreign = !closed && isForeign(from, over.col, over.lane);
      toast.info(t("workItems.kanban.notAllowed"), {
        description: t(
          closed
            ? "cycleModule.groups.closed"
            : foreign
              ? "workItems.kanban.otherProject"
              : "workItems.kanban.notAllowedHint",
        ),
      });
      return;
    }
    let patch: WorkItemPatch = {};
    if (over.col !== from.col && groupBy) {
      const p = moveGroupPatch(groupBy, item, from.col, over.col);
      if (!p) return;
      patch = { ...patch, ...(p as WorkItemPatch) };
    }
    if (over.lane !== from.lane && subGroupBy) {
      // Labels/assignees as both grouping and sub-grouping: apply the lane change on top of the column change.
      const base = { ...item, ...patch } as WorkItem;
      const p = moveGroupPatch(subGroupBy, base, from.lane, over.lane);
      if (!p) return;
      patch = { ...patch, ...(p as GroupPatch as WorkItemPatch) };
    }
    let sortOrder: number | undefined;
    if (manual) {
      const list = cellItems(over.col, over.lane);
      const others = list.filter((i) => i.id !== item.id);
      let index = others.length;
      if (over.overId && over.overId !== item.id) {
        const overIndex = list.findIndex((i) => i.id === over.overId);
        const fromIndex = list.findIndex((i) => i.id === item.id);
        // In the same cell, the card takes the hovered card's place (arrayMove semantics).
        index = fromIndex >= 0 ? overIndex : others.findIndex((i) => i.id === over.overId);
        if (index < 0) index = others.length;
      } else if (over.overId === item.id) {
        if (!changesGroup) return;
        index = list.findIndex((i) => i.id === item.id);
      }
      const next = dropSortOrder(
        others.map((i) => i.sort_order),
        index,
      );
      if (next !== item.sort_order || changesGroup) sortOrder = next;
    }
    if (!Object.keys(patch).length && sortOrder === undefined) return;
    void moveWorkItem(ctx.slug, item.project_id, item.id, { sortOrder, patch });
  };

  const lanes: { key: string }[] = groups[0]?.subGroups?.map((s) => ({ key: s.key })) ?? [];
  const swimlanes = subGroupBy !== null && lanes.length > 0;

  const dropValue = useMemo(() => ({ target, dragging: active !== null }), [target, active]);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={columnFirstCollision}
      // Scroll the board only near its very edges, so a drop on a column near the side stays there.
      autoScroll={{ threshold: { x: 0.08, y: 0.12 }, acceleration: 6 }}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        setActive(null);
        setTarget(null);
      }}
    >
      <DropContext.Provider value={dropValue}>
        {!swimlanes ? (
          <section className="wi-board" aria-label={t("workItems.layouts.kanban")}>
            {groups.map((group) => {
              const info = groupInfo(groupBy, group.key, ctx.lookups);
              const takes = groupTakesItems(groupBy, group.key, ctx.lookups);
              return (
                <section key={group.key} className="wi-column" aria-label={info.name}>
                  <ColumnHeader
                    name={info.name}
                    icon={info.icon}
                    hint={info.hint}
                    count={groupCount(group)}
                    onAdd={
                      ctx.canEdit && ctx.canAdd && takes
                        ? () => ctx.openCreate(prefillFor(groupBy, group.key, ctx.lookups))
                        : undefined
                    }
                  />
                  <VirtualColumn col={group.key} items={group.items} />
                  <div className="wi-column-foot">
                    {takes ? <QuickAdd variant="kanban" prefill={prefillFor(groupBy, group.key, ctx.lookups)} /> : null}
                  </div>
                </section>
              );
            })}
          </section>
        ) : (
          <section className="wi-board wi-board-lanes" aria-label={t("workItems.layouts.kanban")}>
            <div className="wi-lane-head-row">
              {groups.map((group) => {
                const info = groupInfo(groupBy, group.key, ctx.lookups);
                return (
                  <div key={group.key} className="wi-column wi-column-headonly">
                    <ColumnHeader name={info.name} icon={info.icon} hint={info.hint} count={groupCount(group)} />
                  </div>
                );
              })}
            </div>
            {lanes.map((lane) => {
              const info = groupInfo(subGroupBy, lane.key, ctx.lookups);
              const count = new Set(
                groups.flatMap((g) => g.subGroups?.find((s) => s.key === lane.key)?.items.map((i) => i.id) ?? []),
              ).size;
              const isCollapsed = collapsedLanes.has(lane.key);
              return (
                <section key={lane.key} className="wi-lane" aria-label={info.name}>
                  <button
                    type="button"
                    className="wi-lane-toggle"
                    aria-expanded={!isCollapsed}
                    onClick={() =>
                      setCollapsedLanes((current) => {
                        const next = new Set(current);
                        if (next.has(lane.key)) next.delete(lane.key);
                        else next.add(lane.key);
                        return next;
                      })
                    }
                  >
                    {isCollapsed ? <ChevronRight size={14} aria-hidden /> : <ChevronDown size={14} aria-hidden />}
                    <span className="wi-group-icon">{info.icon}</span>
                    <span className="wi-group-name">{info.name}</span>
                    <span className="wi-group-count">{count}</span>
                    {info.hint ? <span className="wi-group-hint">{info.hint}</span> : null}
                  </button>
                  {isCollapsed ? null : (
                    <div className="wi-lane-cells">
                      {groups.map((group) => {
                        const items = group.subGroups?.find((s) => s.key === lane.key)?.items ?? [];
                        return (
                          <div key={group.key} className="wi-column wi-cell">
                            <CappedCell col={group.key} lane={lane.key} items={items} />
                            <div className="wi-column-foot">
                              {groupTakesItems(groupBy, group.key, ctx.lookups) &&
                              groupTakesItems(subGroupBy, lane.key, ctx.lookups) ? (
                                <QuickAdd
                                  variant="kanban"
                                  prefill={{
                                    ...prefillFor(groupBy, group.key, ctx.lookups),
                                    ...prefillFor(subGroupBy, lane.key, ctx.lookups),
                                  }}
                                />
                              ) : null}
                            </div>
                          </div>
                        );
                      })}
                    </div>
                  )}
                </section>
              );
            })}
          </section>
        )}
      </DropContext.Provider>
      <DragOverlay dropAnimation={null}>
        {active ? (
          <div className="wi-card wi-card-overlay">
            <ItemProject projectId={active.item.project_id}>
              <CardBody item={active.item} />
            </ItemProject>
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

function ColumnHeader({
  name,
  icon,
  hint,
  count,
  onAdd,
}: {
  name: string;
  icon: React.ReactNode;
  hint?: string;
  count: number;
  onAdd?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <header className="wi-column-head" title={hint ? `${name} · ${hint}` : undefined}>
      <span className="wi-group-icon">{icon}</span>
      <h2 className="wi-group-name">{name}</h2>
      <span className="wi-group-count">{count}</span>
      {hint ? <span className="wi-group-hint">{hint}</span> : null}
      <span className="spacer" />
      {onAdd ? (
        <button
          type="button"
          className="wi-icon-btn"
          aria-label={t("workItems.groups.addTo", { name })}
          title={t("workItems.groups.addTo", { name })}
          onClick={onAdd}
        >
          <Plus size={14} aria-hidden />
        </button>
      ) : null}
    </header>
  );
}

/** The drop zone of a cell: highlighted while a card hovers it, or marked not allowed. */
function DropZone({
  col,
  lane,
  children,
  className,
  scrollRef,
}: {
  col: string;
  lane: string;
  children: React.ReactNode;
  className?: string;
  scrollRef?: React.Ref<HTMLDivElement>;
}) {
  const { t } = useTranslation();
  const { setNodeRef } = useDroppable({ id: `col|${lane}|${col}`, data: { type: "column", col, lane } });
  const { target, dragging } = useContext(DropContext);
  const here = dragging && target?.col === col && target.lane === lane;
  return (
    <div
      ref={(el) => {
        setNodeRef(el);
        if (typeof scrollRef === "function") scrollRef(el);
        else if (scrollRef) (scrollRef as React.RefObject<HTMLDivElement | null>).current = el;
      }}
      className={clsx(
        "wi-drop",
        className,
        here && !target?.blocked && "is-over",
        here && target?.blocked && "is-blocked",
      )}
    >
      {here && target?.blocked ? (
        <div className="wi-drop-blocked" role="status">
          <Ban size={14} aria-hidden />
          {t("workItems.kanban.notAllowed")}
        </div>
      ) : null}
      {children}
      {here && target?.before === null ? <div className="wi-drop-line wi-drop-line-end" aria-hidden /> : null}
    </div>
  );
}

const estimateCardSize = () => 96;

/** A column's cards, virtualised (only the visible ones are in the page). */
function VirtualColumn({ col, items }: { col: string; items: WorkItem[] }) {
  const { t } = useTranslation();
  // The epics board's columns hold epics.
  const epics = Boolean(useWorkItemsContext().scopeDefaults.is_epic);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  // Stable between renders of the same items: the virtualizer recomputes every card's position
  // whenever its key function changes, which an inline one does on each render.
  const getItemKey = useCallback((index: number) => items[index]?.id ?? index, [items]);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: estimateCardSize,
    getItemKey,
    // Heights from the resize observer, not read at mount (lib/virtual-measure.ts).
    measureElement: measureFromObserver,
    overscan: 2,
    gap: 8,
  });
  const virtualCards = virtualizer.getVirtualItems();
  // The sortable list: every card of the column only while a card is dragged (the sorting needs
  // each one's place). Otherwise the cards on screen: with thousands in a column, each card's
  // index lookup and the context's sorted rectangles made a filter change cost O(cards × column).
  const { dragging } = useContext(DropContext);
  const ids = useMemo(
    () =>
      dragging
        ? items.map((i) => cardId(NO_LANE, col, i.id))
        : virtualCards.flatMap((v) => {
            const item = items[v.index];
            return item ? [cardId(NO_LANE, col, item.id)] : [];
          }),
    [dragging, items, col, virtualCards],
  );
  return (
    <DropZone col={col} lane={NO_LANE} className="wi-column-body" scrollRef={scrollRef}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {items.length === 0 ? (
          <div className="wi-column-empty">{t(epics ? "epics.kanbanEmpty" : "workItems.kanban.empty")}</div>
        ) : null}
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualCards.map((v) => {
            const item = items[v.index];
            if (!item) return null;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className="wi-vcard"
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <Card item={item} col={col} lane={NO_LANE} />
              </div>
            );
          })}
        </div>
      </SortableContext>
    </DropZone>
  );
}

/** A swimlane cell: the first 50 cards, then "Show more". */
function CappedCell({ col, lane, items }: { col: string; lane: string; items: WorkItem[] }) {
  const { t } = useTranslation();
  const [cap, setCap] = useState(LANE_CAP);
  const shown = items.slice(0, cap);
  const ids = useMemo(() => shown.map((i) => cardId(lane, col, i.id)), [shown, lane, col]);
  return (
    <DropZone col={col} lane={lane} className="wi-cell-body">
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {shown.map((item) => (
          <Card key={item.id} item={item} col={col} lane={lane} />
        ))}
      </SortableContext>
      {items.length > cap ? (
        <button type="button" className="quick-add-btn" onClick={() => setCap((c) => c + LANE_CAP)}>
          {t("workItems.kanban.showMore", { count: items.length - cap })}
        </button>
      ) : null}
    </DropZone>
  );
}

const cardId = (lane: string, col: string, id: string) => `${lane}|${col}|${id}`;

/** A card, in the context of its own project (on a board of several projects). */
const Card = memo(function Card({ item, col, lane }: { item: WorkItem; col: string; lane: string }) {
  return (
    <ItemProject projectId={item.project_id}>
      <ProjectCard item={item} col={col} lane={lane} />
    </ItemProject>
  );
});

function ProjectCard({ item, col, lane }: { item: WorkItem; col: string; lane: string }) {
  const ctx = useWorkItemsContext();
  const { target } = useContext(DropContext);
  const temp = item.id.startsWith("temp-");
  // A card from another cell would land just above this one.
  const landsBefore = target?.before === item.id && target.col === col && target.lane === lane;
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: cardId(lane, col, item.id),
    data: { type: "card", item, col, lane } satisfies CardData,
    disabled: !ctx.canEdit || temp,
  });
  return (
    // useSortable's attributes make the card a focusable role=button.
    // biome-ignore lint/a11y/noStaticElementInteractions: role and tabIndex come from the spread attributes
    <div
      ref={setNodeRef}
      className={clsx(
        "wi-card",
        isDragging && "is-dragging",
        ctx.peekId === item.id && "is-active",
        temp && "is-pending",
        landsBefore && "is-drop-before",
      )}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      // What opens the item's peek (a click on the prepainted board is replayed on it: lib/prepaint.ts).
      data-item-id={temp ? undefined : item.id}
      {...attributes}
      {...listeners}
      // The card is a button for keyboards: Enter opens the peek; Space picks it up to move.
      onKeyDown={(event) => {
        if (event.key === "Enter" && event.target === event.currentTarget && !temp) {
          event.preventDefault();
          ctx.openPeek(item.id);
          return;
        }
        listeners?.onKeyDown?.(event);
      }}
      onClick={() => {
        if (!temp) ctx.openPeek(item.id);
      }}
    >
      <CardBody item={item} />
    </div>
  );
}

/**
 * What a card shows. Memoised: dnd-kit re-renders every sortable card when cards mount or leave
 * (each registers as a droppable in its context's state), which leaves the content alone.
 */
const CardBody = memo(function CardBody({ item }: { item: WorkItem }) {
  const ctx = useWorkItemsContext();
  return (
    <>
      {ctx.props.key ? (
        <div className="wi-card-key">
          {item.id.startsWith("temp-") ? `${ctx.identifier}-…` : `${ctx.identifier}-${item.sequence_id}`}
        </div>
      ) : null}
      <div className="wi-card-name">{item.name}</div>
      <ItemProperties item={item} />
    </>
  );
});

/**
 * Does a group's value exist in the item's own project? States, labels, estimate points, cycles
 * and modules belong to one project; priorities, people and None groups fit every project.
 */
function groupInProject(key: GroupByKey | null, groupKey: string, own: Lookups): boolean {
  if (!key || groupKey === NONE_GROUP) return true;
  switch (key) {
    case "state_id":
      return own.stateById.has(groupKey);
    case "labels__id":
      return own.labelById.has(groupKey);
    case "estimate_point":
      return own.pointById.has(groupKey);
    case "cycle_id":
      return own.cycleById.has(groupKey);
    case "module_id":
      return own.moduleById.has(groupKey);
    default:
      return true;
  }
}
