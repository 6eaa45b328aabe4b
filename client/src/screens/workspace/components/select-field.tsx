import type { ReactNode } from "react";
import { Field, Select, type SelectOption } from "../../../components/ui";
import "./components.css";

export type { SelectOption };

type Props = {
  label?: ReactNode;
  /** Names the list when `label` is not plain text. */
  listLabel?: string;
  error?: string | null;
  hint?: ReactNode;
  options: readonly SelectOption[];
  placeholder?: string;
  value: string;
  disabled?: boolean;
  "aria-label"?: string;
  onValueChange: (value: string) => void;
};

/**
 * A labelled single-choice field: the app's own picker (components/ui/select), styled like the
 * text inputs; the <label> names the trigger.
 */
export function SelectField({
  label,
  listLabel,
  error,
  hint,
  options,
  placeholder,
  onValueChange,
  value,
  ...rest
}: Props) {
  const name = listLabel ?? rest["aria-label"] ?? (typeof label === "string" ? label : "");
  return (
    <Field label={label} error={error} hint={hint}>
      {(id, describedBy) => (
        <Select
          id={id}
          label={name}
          labelled={Boolean(label)}
          value={value}
          options={options}
          placeholder={placeholder}
          disabled={rest.disabled}
          onValueChange={onValueChange}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
        />
      )}
    </Field>
  );
}
