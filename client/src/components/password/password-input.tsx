import { Eye, EyeOff } from "lucide-react";
import { forwardRef, type InputHTMLAttributes, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../ui";
import "./password.css";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
};

/**
 * A password field with a show/hide toggle. The toggle's name is text content, not an
 * aria-label, so it is not mistaken for the field when looked up by label.
 */
export const PasswordInput = forwardRef<HTMLInputElement, Props>(function PasswordInput(
  { label, error, hint, className, ...rest },
  ref,
) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <Field label={label} error={error} hint={hint}>
      {(id, describedBy) => (
        <div className="password-input">
          <input
            ref={ref}
            id={id}
            type={visible ? "text" : "password"}
            className={className ? `input ${className}` : "input"}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            spellCheck={false}
            autoCapitalize="off"
            {...rest}
          />
          <button
            type="button"
            className="password-input-toggle"
            onClick={() => setVisible((v) => !v)}
            aria-pressed={visible}
            aria-controls={id}
          >
            {visible ? <EyeOff size={16} aria-hidden /> : <Eye size={16} aria-hidden />}
            <span className="visually-hidden">
              {visible
                ? t("auth.password.hide", { defaultValue: "Hide password" })
                : t("auth.password.show", { defaultValue: "Show password" })}
            </span>
          </button>
        </div>
      )}
    </Field>
  );
});
