import { PASSWORD_MESSAGES } from "@tideline/shared";
import { KeyRound } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { PasswordInput } from "../../components/password/password-input";
import { PasswordStrengthMeter } from "../../components/password/password-strength-meter";
import { Banner, Button, EmptyState } from "../../components/ui";
import { passwordStrength } from "../../lib/password-strength";
import { changePassword } from "../../stores/profile";
import { session } from "../../stores/session";

/** /profile/security/: change the password (or set one first when it was generated). */
export function ProfileSecurity() {
  const { t } = useTranslation();
  const user = useSnapshot(session).user;
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ current?: string; next?: string; confirm?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const currentRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = `${t("profile.security.title")} · Tideline`;
  }, [t]);

  const inputs = useMemo(
    () => [user?.email ?? "", user?.first_name ?? "", user?.last_name ?? "", user?.display_name ?? ""],
    [user?.email, user?.first_name, user?.last_name, user?.display_name],
  );
  const strength = useMemo(() => passwordStrength(next, inputs), [next, inputs]);

  if (!user) return null;

  const heading = (
    <div className="settings-heading">
      <div>
        <h1>{t("profile.security.title")}</h1>
        <p className="muted">{t("profile.security.hint")}</p>
      </div>
    </div>
  );

  if (user.is_password_autoset) {
    return (
      <>
        {heading}
        <EmptyState
          icon={KeyRound}
          title={t("profile.security.noPassword")}
          description={t("profile.security.noPasswordHint")}
          action={
            <Link className="btn btn-primary" to="/accounts/set-password/">
              {t("profile.security.setPassword")}
            </Link>
          }
        />
      </>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found: typeof errors = {};
    if (!current) found.current = t("profile.security.currentRequired");
    if (strength.state === "empty") found.next = PASSWORD_MESSAGES.enterPassword;
    else if (strength.state === "length-not-valid") found.next = PASSWORD_MESSAGES.tooShort;
    else if (strength.state === "strength-not-valid") found.next = PASSWORD_MESSAGES.setStrong;
    if (!found.next && confirm !== next) found.confirm = PASSWORD_MESSAGES.mismatch;
    setErrors(found);
    setDone(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await changePassword(current, next);
    setBusy(false);
    if (result.ok) {
      setDone(result.message);
      toast.success(result.message);
      setCurrent("");
      setNext("");
      setConfirm("");
    } else if (result.field === "current") {
      setErrors({ current: result.message });
      currentRef.current?.focus();
    } else if (result.field === "new") setErrors({ next: result.message });
    else setErrors({ form: result.message });
  }

  return (
    <>
      {heading}
      <form className="settings-section" style={{ maxWidth: 420 }} onSubmit={submit} noValidate>
        {done ? <Banner kind="success">{done}</Banner> : null}
        {errors.form ? <Banner>{errors.form}</Banner> : null}
        <PasswordInput
          ref={currentRef}
          label={t("profile.security.current")}
          autoComplete="current-password"
          value={current}
          error={errors.current}
          onChange={(e) => {
            setCurrent(e.target.value);
            setErrors((x) => ({ ...x, current: undefined }));
          }}
        />
        <div className="stack" style={{ "--gap": "6px" } as React.CSSProperties}>
          <PasswordInput
            label={t("profile.security.new")}
            autoComplete="new-password"
            value={next}
            error={errors.next}
            aria-invalid={errors.next ? true : undefined}
            onChange={(e) => {
              setNext(e.target.value);
              setErrors((x) => ({ ...x, next: undefined, confirm: undefined }));
            }}
          />
          <PasswordStrengthMeter state={strength.state} score={strength.score} />
        </div>
        <PasswordInput
          label={t("profile.security.confirm")}
          autoComplete="new-password"
          value={confirm}
          error={errors.confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            setErrors((x) => ({ ...x, confirm: undefined }));
          }}
        />
        <div className="settings-actions">
          <Button type="submit" loading={busy}>
            {t("profile.security.submit")}
          </Button>
        </div>
      </form>
    </>
  );
}
