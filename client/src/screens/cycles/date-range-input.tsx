/**
 * One range calendar for a cycle's dates (both or neither): the first click picks the start, the
 * second the end; "Clear" removes both. Two months side by side on wide screens.
 */
import clsx from "clsx";
import { CalendarDays, X } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { type DateRange, DayPicker } from "react-day-picker";
import { useTranslation } from "react-i18next";
import { parseDay, showDay, toDay } from "../../components/ui";
import { useIsNarrow } from "../../lib/use-media";
import "../../components/ui/date-picker.css";

type Props = {
  start: string | null;
  end: string | null;
  onChange: (start: string | null, end: string | null) => void;
  id?: string;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
};

export function DateRangeInput({ start, end, onChange, id, invalid, describedBy, disabled }: Props) {
  const { t } = useTranslation();
  const narrow = useIsNarrow();
  const [open, setOpen] = useState(false);
  const from = parseDay(start) ?? undefined;
  const to = parseDay(end) ?? undefined;
  const selected: DateRange | undefined = from ? { from, to } : undefined;
  const label =
    start && end ? `${showDay(start)} → ${showDay(end)}` : start ? `${showDay(start)} → …` : t("cycles.modal.noDates");
  return (
    <div className="cy-range">
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild disabled={disabled}>
          <button
            type="button"
            id={id}
            className={clsx("input select-trigger cy-range-trigger")}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            aria-label={`${t("cycles.modal.dates")}: ${label}`}
            disabled={disabled}
            data-testid="cycle-dates"
          >
            <CalendarDays size={14} aria-hidden />
            <span className={clsx("select-trigger-value", !start && "select-trigger-placeholder")}>{label}</span>
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            className="combo-pop date-picker-pop"
            align="start"
            sideOffset={4}
            collisionPadding={8}
            aria-label={t("cycles.modal.dates")}
          >
            <DayPicker
              mode="range"
              className="calendar cy-range-calendar"
              selected={selected}
              defaultMonth={from}
              numberOfMonths={narrow ? 1 : 2}
              onSelect={(_range, day) => {
                // Our own rule, not the picker's extend-the-range one: a first click (or one
                // after a complete range) starts over; the next sets the end (the same day makes
                // a one-day cycle; an earlier day moves the start instead).
                const picked = toDay(day);
                if (!start || end) onChange(picked, null);
                else if (picked < start) onChange(picked, null);
                else {
                  onChange(start, picked);
                  setOpen(false);
                }
              }}
              autoFocus
              showOutsideDays
              fixedWeeks
            />
            <div className="date-picker-footer">
              <span className="cy-range-hint">
                {start && !end ? t("cycles.modal.pickEnd") : t("cycles.modal.pickStart")}
              </span>
              {start || end ? (
                <button type="button" className="date-picker-action" onClick={() => onChange(null, null)}>
                  <X size={13} aria-hidden />
                  {t("cycles.modal.clearDates")}
                </button>
              ) : null}
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {start || end ? (
        <button
          type="button"
          className="cy-icon-btn cy-range-clear"
          aria-label={t("cycles.modal.clearDates")}
          title={t("cycles.modal.clearDates")}
          onClick={() => onChange(null, null)}
          disabled={disabled}
        >
          <X size={14} aria-hidden />
        </button>
      ) : null}
    </div>
  );
}
