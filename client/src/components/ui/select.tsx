import clsx from "clsx";
import { ChevronDown } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Combobox, type ComboOption } from "./combobox";

export type SelectOption = ComboOption;

type Props = {
  value: string;
  options: readonly SelectOption[];
  onValueChange: (value: string) => void;
  /** Names the list for screen readers; also the trigger's name when no <label> points at it. */
  label: string;
  /** The trigger's id (for a <label htmlFor>). */
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  /** Smaller trigger (28 px) for rows and toolbars. */
  compact?: boolean;
  className?: string;
  /** Adds a search box; by default only lists longer than 8 have one. */
  searchable?: boolean;
  /** Set when a <label> names the trigger (so aria-label does not override it). */
  labelled?: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  align?: "start" | "center" | "end";
  /** Shown before the chosen label in the trigger. */
  icon?: ReactNode;
};

/**
 * The app's one single-choice picker (no native <select>): a trigger styled like the text
 * inputs that opens the same popover list as the work-item property pickers — ↑/↓, Enter,
 * Escape and type-ahead, tap-sized rows on touch screens.
 */
export function Select({
  value,
  options,
  onValueChange,
  label,
  id,
  placeholder,
  disabled,
  compact,
  className,
  searchable,
  labelled,
  align,
  icon,
  ...aria
}: Props) {
  const [open, setOpen] = useState(false);
  const chosen = options.find((o) => o.value === value);
  const shownIcon = icon ?? chosen?.icon;
  return (
    <Combobox
      label={label}
      options={options}
      isSelected={(v) => v === value}
      onSelect={(v) => {
        if (v !== value) onValueChange(v);
      }}
      searchable={searchable ?? options.length > 8}
      disabled={disabled}
      align={align}
      popoverClassName="select-pop"
      open={open}
      onOpenChange={setOpen}
    >
      <button
        type="button"
        id={id}
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={labelled ? undefined : label}
        aria-describedby={aria["aria-describedby"]}
        aria-invalid={aria["aria-invalid"] || undefined}
        className={clsx("input select-trigger", compact && "input-compact", className)}
        disabled={disabled}
      >
        {shownIcon ? <span className="select-trigger-icon">{shownIcon}</span> : null}
        <span className={clsx("select-trigger-value", !chosen && "select-trigger-placeholder")}>
          {chosen?.label ?? placeholder ?? ""}
        </span>
        <ChevronDown size={14} className="select-trigger-chevron" aria-hidden />
      </button>
    </Combobox>
  );
}
