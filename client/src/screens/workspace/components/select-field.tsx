import { ChevronDown } from "lucide-react";
import type { ReactNode, SelectHTMLAttributes } from "react";
import { Field } from "../../../components/ui";
import "./components.css";

export type SelectOption = { value: string; label: string; disabled?: boolean };

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, "onChange"> & {
  label?: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  options: readonly SelectOption[];
  placeholder?: string;
  onValueChange: (value: string) => void;
};

/**
 * A labelled native select: the platform's own keyboard handling and screen-reader support,
 * styled like the text inputs.
 */
export function SelectField({ label, error, hint, options, placeholder, onValueChange, value, ...rest }: Props) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(id, describedBy) => (
        <div className="select-wrap">
          <select
            id={id}
            className="input select-native"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            value={value}
            onChange={(e) => onValueChange(e.target.value)}
            {...rest}
          >
            {placeholder !== undefined ? (
              <option value="" disabled>
                {placeholder}
              </option>
            ) : null}
            {options.map((o) => (
              <option key={o.value} value={o.value} disabled={o.disabled}>
                {o.label}
              </option>
            ))}
          </select>
          <ChevronDown size={14} className="select-chevron" aria-hidden />
        </div>
      )}
    </Field>
  );
}
