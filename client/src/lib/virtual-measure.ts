/**
 * How the virtual lists with rows of their own height (kanban cards, phone-size list rows) learn
 * each height: from the ResizeObserver the virtualizer already attaches, never by reading the
 * element's size when it mounts.
 *
 * @tanstack/virtual's default reads `offsetHeight` of every element as React attaches it, in
 * the commit: the first read lays the page out at once, and each height that differs from the
 * estimate re-renders the list, which mounts and reads again. A filter change on a kanban board
 * spent 10–30 ms of its click in those forced layouts (bench browser-board, `--trace-dir`).
 * Here an element starts at the height known for its item (measured before, or the estimate);
 * the observer's first report, delivered after the browser's own layout of that frame, gives
 * the real one, and the list re-renders once with all of them before the frame is painted.
 */
import type { Virtualizer } from "@tanstack/react-virtual";

export function measureFromObserver<TScroll extends Element, TItem extends Element>(
  element: TItem,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<TScroll, TItem>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(instance.options.horizontal ? box.inlineSize : box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}
