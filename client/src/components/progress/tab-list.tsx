/**
 * A row of tabs that is a real ARIA tablist: one tab in the Tab order (the selected one), arrow
 * keys (and Home/End) move between tabs and select as they go, the way the WAI-ARIA tabs pattern
 * with automatic activation works. Styled with the app's `.tabs`/`.tab` classes; screens add
 * their own class for size. Shared by the cycles page tabs, the burndown's unit toggle and the
 * assignee/label breakdowns of cycles and modules.
 */
import clsx from "clsx";
import type { KeyboardEvent, ReactNode } from "react";
import { useRef } from "react";

export type TabItem<K extends string> = { key: K; label: ReactNode };

type Props<K extends string> = {
  items: readonly TabItem<K>[];
  value: K;
  onChange: (key: K) => void;
  /** The accessible name of the tablist. */
  label: string;
  className?: string;
  tabClassName?: string;
};

const STEP: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

export function TabList<K extends string>({ items, value, onChange, label, className, tabClassName }: Props<K>) {
  const ref = useRef<HTMLDivElement>(null);
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Arrows move from the tab that has the focus. `value` can lag behind it: the screen's
    // selection lives in the address, and a router navigation renders in a transition, so a
    // second arrow pressed before that render would otherwise step from the old tab again.
    const tabs = [...(ref.current?.querySelectorAll<HTMLButtonElement>("[role=tab]") ?? [])];
    const focused = tabs.indexOf(event.target as HTMLButtonElement);
    const index = focused >= 0 ? focused : items.findIndex((i) => i.key === value);
    let next: number | null = null;
    const step = STEP[event.key];
    if (step !== undefined) next = (index + step + items.length) % items.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = items.length - 1;
    if (next === null) return;
    event.preventDefault();
    const item = items[next];
    if (!item) return;
    onChange(item.key);
    tabs[next]?.focus();
  }
  return (
    <div ref={ref} className={clsx("tabs", className)} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          role="tab"
          aria-selected={item.key === value}
          tabIndex={item.key === value ? 0 : -1}
          className={clsx("tab", tabClassName, item.key === value && "active")}
          onClick={() => onChange(item.key)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
