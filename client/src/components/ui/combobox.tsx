import clsx from "clsx";
import { Check } from "lucide-react";
import { Popover } from "radix-ui";
import {
  cloneElement,
  isValidElement,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import "./combobox.css";

export type ComboOption = {
  value: string;
  label: string;
  icon?: ReactNode;
  /** Extra text the search matches (e.g. an email). */
  keywords?: string;
  hint?: ReactNode;
  /** Shown but not pickable (e.g. a role above the caller's own). */
  disabled?: boolean;
};

type Props = {
  /** Names the list for screen readers ("State", "Assignees", …). */
  label: string;
  /** The choices, or a function building them (called only once the picker opens). */
  options: readonly ComboOption[] | (() => readonly ComboOption[]);
  isSelected: (value: string) => boolean;
  onSelect: (value: string) => void;
  /** Several values: picking toggles and keeps the list open. */
  multiple?: boolean;
  /** The trigger: one button element (rendered as the popover's anchor). */
  children: ReactElement<{ onClick?: (event: MouseEvent) => void }>;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  searchPlaceholder?: string;
  emptyText?: string;
  align?: "start" | "center" | "end";
  disabled?: boolean;
  /** Shown under the list (e.g. "Clear"). */
  footer?: ReactNode;
  /**
   * A search box above the list (default). Short fixed lists (roles, sizes) leave it out: the
   * list itself takes the focus, ↑/↓/Home/End move, a letter jumps to the next option
   * starting with it.
   */
  searchable?: boolean;
  /** A class for the popover (e.g. to widen it). */
  popoverClassName?: string;
};

/** Clicks, keys and pointer presses inside the list must not reach a row or card behind it (React bubbles through portals). */
const stop = (event: SyntheticEvent) => event.stopPropagation();

/**
 * A searchable picker in a popover: type to filter, ↑/↓ to move, Enter to pick, Escape to close.
 * Single choice closes on pick; `multiple` toggles and stays open.
 */
export function Combobox({
  label,
  options,
  isSelected,
  onSelect,
  multiple,
  children,
  open: openProp,
  onOpenChange,
  searchPlaceholder = "Search…",
  emptyText = "No matches",
  align = "start",
  disabled,
  footer,
  searchable = true,
  popoverClassName,
}: Props) {
  const [openState, setOpenState] = useState(false);
  const open = openProp ?? openState;
  const setOpen = (next: boolean) => {
    if (openProp === undefined) setOpenState(next);
    onOpenChange?.(next);
    if (!next) {
      setQuery("");
      setActive(0);
    }
  };
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  // Lists of thousands of rows show many pickers: until one is first opened it is only its
  // button (no popover machinery), which keeps mounting a row cheap while scrolling.
  const [armed, setArmed] = useState(false);

  const live = armed || open;
  const all = useMemo(() => (typeof options === "function" ? (live ? options() : []) : options), [options, live]);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return all;
    return all.filter((o) => `${o.label} ${o.keywords ?? ""}`.toLowerCase().includes(q));
  }, [all, query]);

  // Opening starts on the chosen option, so ↑/↓ move from where the value is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the popover opens
  useEffect(() => {
    if (!open) return;
    const index = shown.findIndex((o) => isSelected(o.value));
    if (index > 0) {
      setActive(index);
      requestAnimationFrame(() =>
        listRef.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: "nearest" }),
      );
    }
  }, [open]);

  const pick = (value: string) => {
    if (all.find((o) => o.value === value)?.disabled) return;
    onSelect(value);
    if (!multiple) setOpen(false);
  };

  const moveTo = (next: number) => {
    setActive(next);
    listRef.current?.querySelector(`[data-index="${next}"]`)?.scrollIntoView({ block: "nearest" });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    event.stopPropagation();
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const delta = event.key === "ArrowDown" ? 1 : -1;
      moveTo(shown.length ? (active + delta + shown.length) % shown.length : 0);
    } else if (!searchable && (event.key === "Home" || event.key === "End")) {
      event.preventDefault();
      moveTo(event.key === "Home" ? 0 : Math.max(0, shown.length - 1));
    } else if (!searchable && event.key.length === 1 && /\S/.test(event.key)) {
      // Type-ahead: the next option whose label starts with the letter.
      const letter = event.key.toLowerCase();
      for (let step = 1; step <= shown.length; step++) {
        const index = (active + step) % shown.length;
        if (shown[index]?.label.toLowerCase().startsWith(letter)) {
          moveTo(index);
          break;
        }
      }
    } else if (!searchable && event.key === " ") {
      event.preventDefault();
      const option = shown[active];
      if (option) pick(option.value);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const option = shown[active];
      if (option) pick(option.value);
    } else if (event.key === "Escape") {
      event.preventDefault();
      setOpen(false);
    }
  };

  if (!armed && !open && isValidElement(children)) {
    return cloneElement(children, {
      onClick: (event: MouseEvent) => {
        children.props.onClick?.(event);
        if (disabled || event.defaultPrevented) return;
        setArmed(true);
        setOpen(true);
      },
    });
  }

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        {children}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className={clsx("combo-pop", popoverClassName)}
          align={align}
          sideOffset={4}
          collisionPadding={8}
          onClick={stop}
          onPointerDown={stop}
          onKeyDown={stop}
          onDoubleClick={stop}
        >
          {searchable ? (
            <input
              className="combo-search"
              role="combobox"
              aria-label={label}
              aria-expanded
              aria-controls={listId}
              aria-activedescendant={shown[active] ? `${listId}-${active}` : undefined}
              placeholder={searchPlaceholder}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
            />
          ) : null}
          <div
            className="combo-list"
            id={listId}
            role="listbox"
            aria-label={label}
            aria-multiselectable={multiple || undefined}
            aria-activedescendant={!searchable && shown[active] ? `${listId}-${active}` : undefined}
            // Without a search box the list itself holds the focus and the keys.
            tabIndex={searchable ? undefined : 0}
            onKeyDown={searchable ? undefined : onKeyDown}
            ref={listRef}
          >
            {shown.length === 0 ? <div className="combo-empty">{emptyText}</div> : null}
            {shown.map((option, index) => {
              const selected = isSelected(option.value);
              return (
                <div
                  key={option.value}
                  id={`${listId}-${index}`}
                  data-index={index}
                  role="option"
                  aria-selected={selected}
                  aria-disabled={option.disabled || undefined}
                  tabIndex={-1}
                  className={clsx(
                    "combo-option",
                    index === active && "combo-option-active",
                    option.disabled && "combo-option-disabled",
                  )}
                  onMouseEnter={() => setActive(index)}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(option.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" || e.key === " ") pick(option.value);
                  }}
                >
                  {multiple ? (
                    <span className={clsx("combo-check", selected && "combo-check-on")} aria-hidden>
                      {selected ? <Check size={11} strokeWidth={3} /> : null}
                    </span>
                  ) : null}
                  {option.icon ? <span className="combo-icon">{option.icon}</span> : null}
                  <span className="combo-label">{option.label}</span>
                  {option.hint ? <span className="combo-hint">{option.hint}</span> : null}
                  {!multiple && selected ? <Check size={14} className="combo-selected" aria-hidden /> : null}
                </div>
              );
            })}
          </div>
          {footer ? <div className="combo-footer">{footer}</div> : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
