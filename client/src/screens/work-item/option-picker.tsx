/**
 * A property picker: a button showing the current value that opens a searchable list
 * (single choice closes on pick, multiple choice toggles). Arrow keys move, Enter picks, Escape
 * closes; options are role="option" with aria-selected.
 */
import clsx from "clsx";
import { Check } from "lucide-react";
import { Popover } from "radix-ui";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

export type PickerOption = { value: string; label: string; icon?: ReactNode; hint?: string };

type Props = {
  /** Accessible name of the trigger ("State: In Progress"). */
  label: string;
  options: readonly PickerOption[];
  selected: readonly string[];
  multiple?: boolean;
  onChange: (values: string[]) => void;
  trigger: ReactNode;
  disabled?: boolean;
  /** Offer a "None" entry (single choice) that clears the value. */
  noneLabel?: string;
  triggerClassName?: string;
};

export function OptionPicker({
  label,
  options,
  selected,
  multiple,
  onChange,
  trigger,
  disabled,
  noneLabel,
  triggerClassName,
}: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();

  const all = useMemo(
    () => (noneLabel && !multiple ? [{ value: "", label: noneLabel }, ...options] : [...options]),
    [options, noneLabel, multiple],
  );
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? all.filter((o) => o.label.toLowerCase().includes(q)) : all;
  }, [all, query]);

  // Only when opening: later moves are the keyboard's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on open only
  useEffect(() => {
    if (!open) {
      setQuery("");
      return;
    }
    const index = shown.findIndex((o) => selected.includes(o.value));
    setActive(Math.max(index, 0));
  }, [open]);

  function pick(option: PickerOption) {
    if (multiple) {
      const next = selected.includes(option.value)
        ? selected.filter((v) => v !== option.value)
        : [...selected, option.value];
      onChange(next);
      return;
    }
    setOpen(false);
    if (!selected.includes(option.value) || option.value === "") onChange(option.value ? [option.value] : []);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((i) => Math.min(shown.length - 1, i + 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === "Enter") {
      event.preventDefault();
      const option = shown[active];
      if (option) pick(option);
    }
  }

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <button
          type="button"
          className={clsx("wid-prop-trigger", triggerClassName)}
          aria-label={label}
          disabled={disabled}
        >
          {trigger}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="picker-pop wid-picker" sideOffset={4} align="start" onKeyDown={onKeyDown}>
          <input
            className="input input-compact"
            placeholder={t("workItem.properties.search")}
            aria-label={t("workItem.properties.search")}
            aria-controls={listId}
            aria-activedescendant={shown[active] ? `${listId}-${active}` : undefined}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(0);
            }}
          />
          <div
            className="wid-picker-list"
            role="listbox"
            id={listId}
            aria-label={label}
            aria-multiselectable={multiple}
          >
            {shown.length === 0 ? <p className="wid-picker-empty">{t("workItem.properties.noResults")}</p> : null}
            {shown.map((option, index) => {
              const isSelected = option.value === "" ? selected.length === 0 : selected.includes(option.value);
              return (
                <div
                  key={option.value || "none"}
                  id={`${listId}-${index}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={isSelected}
                  className={clsx("wid-picker-option", index === active && "is-active")}
                  onMouseEnter={() => setActive(index)}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(option)}
                  onKeyDown={() => undefined}
                >
                  {option.icon ? <span className="wid-picker-icon">{option.icon}</span> : null}
                  <span className="wid-picker-label">{option.label}</span>
                  {option.hint ? <span className="subtle">{option.hint}</span> : null}
                  {isSelected ? <Check size={14} className="wid-picker-check" aria-hidden /> : null}
                </div>
              );
            })}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
