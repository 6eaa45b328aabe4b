import clsx from "clsx";
import { CalendarDays, X } from "lucide-react";
import { Popover } from "radix-ui";
import { type ReactElement, type SyntheticEvent, useState } from "react";
import { DayPicker, type Matcher } from "react-day-picker";
import { useTranslation } from "react-i18next";
import { type Day, parseDay, showDay, toDay } from "./days";
import "./date-picker.css";

type CalendarProps = {
  value: Day | null;
  onSelect: (value: Day) => void;
  min?: Day | null;
  max?: Day | null;
  label?: string;
};

/**
 * A month grid (react-day-picker): ←/→/↑/↓ move by day and week, PageUp/PageDown by month,
 * Home/End to the week's ends, Enter or Space picks; the chosen day (else today) takes the
 * focus when it opens.
 */
export function Calendar({ value, onSelect, min, max, label }: CalendarProps) {
  const selected = parseDay(value) ?? undefined;
  const from = parseDay(min);
  const to = parseDay(max);
  const disabled: Matcher[] = [];
  if (from) disabled.push({ before: from });
  if (to) disabled.push({ after: to });
  return (
    <DayPicker
      mode="single"
      className="calendar"
      aria-label={label}
      required={false}
      selected={selected}
      defaultMonth={selected ?? from ?? undefined}
      disabled={disabled}
      onSelect={(date) => {
        if (date) onSelect(toDay(date));
      }}
      autoFocus
      showOutsideDays
      fixedWeeks
    />
  );
}

/** Clicks and keys inside the popover must not reach a row or card behind it (React bubbles through portals). */
const stop = (event: SyntheticEvent) => event.stopPropagation();

type PopoverProps = {
  value: Day | null;
  onChange: (value: Day | null) => void;
  /** Names the calendar for screen readers. */
  label: string;
  min?: Day | null;
  max?: Day | null;
  /** The trigger: one button element. */
  children: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Offers "Clear" when a value is set (default true). */
  clearable?: boolean;
  align?: "start" | "center" | "end";
  disabled?: boolean;
};

/** The app's date picker: a calendar in a popover, with "Today" and "Clear". */
export function DatePopover({
  value,
  onChange,
  label,
  min,
  max,
  children,
  open: openProp,
  onOpenChange,
  clearable = true,
  align = "start",
  disabled,
}: PopoverProps) {
  const { t } = useTranslation();
  const [openState, setOpenState] = useState(false);
  const open = openProp ?? openState;
  const setOpen = (next: boolean) => {
    if (openProp === undefined) setOpenState(next);
    onOpenChange?.(next);
  };
  const today = toDay(new Date());
  const todayAllowed = (!min || today >= min) && (!max || today <= max);
  const pick = (day: Day | null) => {
    onChange(day);
    setOpen(false);
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        {children}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="combo-pop date-picker-pop"
          align={align}
          sideOffset={4}
          collisionPadding={8}
          aria-label={label}
          onClick={stop}
          onPointerDown={stop}
          onDoubleClick={stop}
          onKeyDown={stop}
        >
          <Calendar value={value} onSelect={pick} min={min} max={max} label={label} />
          <div className="date-picker-footer">
            <button type="button" className="date-picker-action" disabled={!todayAllowed} onClick={() => pick(today)}>
              {t("ui.datePicker.today")}
            </button>
            {clearable && value ? (
              <button type="button" className="date-picker-action" onClick={() => pick(null)}>
                <X size={13} aria-hidden />
                {t("ui.datePicker.clear")}
              </button>
            ) : null}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

type InputProps = {
  value: Day | null;
  onChange: (value: Day | null) => void;
  /** Names the trigger (unless a <label> does: `labelled`) and the calendar. */
  label: string;
  labelled?: boolean;
  id?: string;
  min?: Day | null;
  max?: Day | null;
  placeholder?: string;
  compact?: boolean;
  clearable?: boolean;
  disabled?: boolean;
  className?: string;
  "aria-describedby"?: string;
};

/** A form field for a day, styled like the text inputs, opening the calendar. */
export function DateInput({
  value,
  onChange,
  label,
  labelled,
  id,
  min,
  max,
  placeholder,
  compact,
  clearable,
  disabled,
  className,
  ...aria
}: InputProps) {
  const { t } = useTranslation();
  const shown = showDay(value);
  return (
    <DatePopover
      value={value}
      onChange={onChange}
      label={label}
      min={min}
      max={max}
      clearable={clearable}
      disabled={disabled}
    >
      <button
        type="button"
        id={id}
        className={clsx("input select-trigger date-input", compact && "input-compact", className)}
        aria-label={labelled ? undefined : shown ? `${label}: ${shown}` : label}
        aria-describedby={aria["aria-describedby"]}
        disabled={disabled}
      >
        <CalendarDays size={14} className="select-trigger-chevron" aria-hidden />
        <span className={clsx("select-trigger-value", !shown && "select-trigger-placeholder")}>
          {shown || placeholder || t("ui.datePicker.placeholder")}
        </span>
      </button>
    </DatePopover>
  );
}
