import { PASSWORD_MESSAGES, type PasswordState } from "@tideline/shared";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import "./password.css";

const SEGMENTS = 4;

/**
 * The strength of a new password (product-domain §5): four bars and one line of advice. The
 * line always takes its space, so the form below does not move while the person types.
 */
export function PasswordStrengthMeter({ state, score, id }: { state: PasswordState; score: number; id?: string }) {
  const { t } = useTranslation();
  const filled = state === "empty" ? 0 : state === "length-not-valid" ? 1 : Math.max(1, Math.min(SEGMENTS, score));
  const tone = state === "strength-valid" ? "strong" : state === "strength-not-valid" && score >= 2 ? "fair" : "weak";
  const message =
    state === "empty"
      ? ""
      : state === "length-not-valid"
        ? t("auth.password.tooShort", { defaultValue: PASSWORD_MESSAGES.tooShort })
        : state === "strength-not-valid"
          ? `${t("auth.password.weak", { defaultValue: PASSWORD_MESSAGES.weak })}. ${t("auth.password.setStrong", {
              defaultValue: PASSWORD_MESSAGES.setStrong,
            })}`
          : t("auth.password.strong", { defaultValue: PASSWORD_MESSAGES.strong });
  return (
    <div className="password-meter" data-state={state}>
      <div className="password-meter-bars" aria-hidden>
        {Array.from({ length: SEGMENTS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed, positional segments
          <span key={i} className={clsx("password-meter-bar", i < filled && `is-${tone}`)} />
        ))}
      </div>
      <p id={id} className={clsx("password-meter-message", `is-${tone}`)} aria-live="polite">
        {message}
      </p>
    </div>
  );
}
