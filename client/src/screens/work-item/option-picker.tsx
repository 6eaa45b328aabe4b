/**
 * A property picker of the work-item detail: a button showing the current value that opens the
 * app's one searchable list (components/ui/combobox — the same picker as the board's
 * properties): single choice closes on pick, multiple choice toggles. Arrow keys move, Enter
 * picks, Escape closes; options are role="option" with aria-selected.
 */
import clsx from "clsx";
import { type ReactNode, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Combobox } from "../../components/ui";

export type PickerOption = { value: string; label: string; icon?: ReactNode; hint?: string };

type Props = {
  /** Accessible name of the trigger ("State: In Progress"), and of the list. */
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

/** The "None" entry's value (an option's value is never empty). */
const NONE = "";

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
  const all = useMemo(
    () => (noneLabel && !multiple ? [{ value: NONE, label: noneLabel }, ...options] : options),
    [options, noneLabel, multiple],
  );

  function pick(value: string) {
    if (multiple) {
      onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value]);
      return;
    }
    if (!selected.includes(value) || value === NONE) onChange(value === NONE ? [] : [value]);
  }

  return (
    <Combobox
      label={label}
      options={all}
      isSelected={(value) => (value === NONE ? selected.length === 0 : selected.includes(value))}
      onSelect={pick}
      multiple={multiple}
      disabled={disabled}
      searchPlaceholder={t("workItem.properties.search")}
      emptyText={t("workItem.properties.noResults")}
    >
      <button
        type="button"
        className={clsx("wid-prop-trigger", triggerClassName)}
        aria-label={label}
        disabled={disabled}
      >
        {trigger}
      </button>
    </Combobox>
  );
}
