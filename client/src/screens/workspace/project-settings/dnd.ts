/**
 * Drag-and-drop set-up shared by the states and labels settings (@dnd-kit): a pointer that must
 * move a few pixels before a drag starts (so clicks stay clicks), the keyboard (Space to pick
 * up, arrows to move, Space to drop, Escape to cancel), and announcements that name the row
 * instead of reading out its id.
 */
import {
  type Announcements,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  type ScreenReaderInstructions,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import type { TFunction } from "i18next";

export function useSettingsSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

/** Rows only move up and down. */
export const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

export function dragInstructions(t: TFunction): ScreenReaderInstructions {
  return { draggable: t("stateSettings.drag.instructions") };
}

export function dragAnnouncements(t: TFunction, nameOf: (id: string) => string): Announcements {
  return {
    onDragStart: ({ active }) => t("stateSettings.drag.picked", { name: nameOf(String(active.id)) }),
    onDragOver: ({ active, over }) =>
      over
        ? t("stateSettings.drag.over", { name: nameOf(String(active.id)), target: nameOf(String(over.id)) })
        : undefined,
    onDragEnd: ({ active }) => t("stateSettings.drag.dropped", { name: nameOf(String(active.id)) }),
    onDragCancel: ({ active }) => t("stateSettings.drag.cancelled", { name: nameOf(String(active.id)) }),
  };
}
