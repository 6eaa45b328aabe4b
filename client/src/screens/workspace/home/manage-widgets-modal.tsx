/**
 * "Manage widgets": every home widget with a switch to show or hide it and its place in the
 * order — dragged by its handle (dnd-kit: pointer, or Space / arrows / Space on the handle) or
 * moved one place with the arrow buttons. Each change is saved at once (stores/home.ts) and
 * undone with a toast if refused.
 */
import { DndContext, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import clsx from "clsx";
import {
  ArrowDown,
  ArrowUp,
  GripVertical,
  History,
  Link2,
  type LucideIcon,
  SquareCheckBig,
  StickyNote,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Button, Modal, ModalFooter } from "../../../components/ui";
import {
  type HomeWidget,
  type HomeWidgetKey,
  home,
  isHomeWidgetKey,
  moveHomeWidget,
  setHomeWidgetEnabled,
} from "../../../stores/home";
import { Toggle } from "../components/toggle";
import { dragAnnouncements, dragInstructions, useSettingsSensors, verticalOnly } from "../project-settings/dnd";

const ICONS: Record<HomeWidgetKey, LucideIcon> = {
  quick_links: Link2,
  recents: History,
  my_stickies: StickyNote,
  my_work_items: SquareCheckBig,
};

export function ManageWidgetsModal({
  slug,
  open,
  onOpenChange,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const widgets = useSnapshot(home).bySlug[slug]?.widgets;
  const sensors = useSettingsSensors();
  // The server keeps the order: the store's list is already in it.
  const items = (widgets?.items ?? []).filter((w) => isHomeWidgetKey(w.key)) as HomeWidget[];
  const nameOf = (key: string) => (isHomeWidgetKey(key) ? t(`home.widgets.${key}`) : key);

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const toIndex = items.findIndex((w) => w.key === over.id);
    if (toIndex >= 0) void moveHomeWidget(slug, String(active.id), toIndex);
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("home.manage.title")}
      description={t("home.manage.description")}
      width={460}
      className="manage-widgets-modal"
    >
      <DndContext
        sensors={sensors}
        modifiers={[verticalOnly]}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements: dragAnnouncements(t, nameOf),
          screenReaderInstructions: dragInstructions(t),
        }}
      >
        <SortableContext items={items.map((w) => w.key)} strategy={verticalListSortingStrategy}>
          <ul className="manage-widgets-list">
            {items.map((widget, index) => (
              <WidgetRow
                key={widget.key}
                widget={widget}
                name={nameOf(widget.key)}
                first={index === 0}
                last={index === items.length - 1}
                onToggle={(on) => void setHomeWidgetEnabled(slug, widget.key, on)}
                onMove={(step) => void moveHomeWidget(slug, widget.key, index + step)}
              />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      <ModalFooter>
        <Button onClick={() => onOpenChange(false)}>{t("home.manage.done")}</Button>
      </ModalFooter>
    </Modal>
  );
}

function WidgetRow({
  widget,
  name,
  first,
  last,
  onToggle,
  onMove,
}: {
  widget: HomeWidget;
  name: string;
  first: boolean;
  last: boolean;
  onToggle: (on: boolean) => void;
  onMove: (step: -1 | 1) => void;
}) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: widget.key,
  });
  const Icon = ICONS[widget.key as HomeWidgetKey];
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={clsx("manage-widget-row", isDragging && "is-dragging", !widget.is_enabled && "is-off")}
      data-widget={widget.key}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="manage-widget-handle"
        aria-label={t("home.manage.reorder", { name })}
        {...attributes}
        {...listeners}
      >
        <GripVertical size={14} aria-hidden />
      </button>
      <span className="manage-widget-icon" aria-hidden>
        <Icon size={15} />
      </span>
      <span className="manage-widget-name">{name}</span>
      <span className="manage-widget-moves">
        <Button
          variant="ghost"
          size="sm"
          className="icon-btn"
          aria-label={t("home.manage.moveUp", { name })}
          disabled={first}
          onClick={() => onMove(-1)}
        >
          <ArrowUp size={14} aria-hidden />
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="icon-btn"
          aria-label={t("home.manage.moveDown", { name })}
          disabled={last}
          onClick={() => onMove(1)}
        >
          <ArrowDown size={14} aria-hidden />
        </Button>
      </span>
      <Toggle checked={widget.is_enabled} onCheckedChange={onToggle} label={t("home.manage.show", { name })} />
    </li>
  );
}
