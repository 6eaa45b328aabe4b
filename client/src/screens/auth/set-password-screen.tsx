/**
 * "/accounts/set-password/" (signed in): choose a password after signing up with a code. Only
 * applies while the current password was auto-generated (calls-errors-sync §4); anyone else
 * is sent on.
 */
import { safeNextPath } from "@tideline/shared";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button } from "../../components/ui";
import type { AuthError } from "../../lib/auth-errors";
import { setPassword } from "../../stores/auth";
import { session } from "../../stores/session";
import { AuthShell } from "./auth-shell";
import { useFocusOnMount } from "./hooks";
import { AccountEmail, NewPasswordFields, useNewPassword } from "./steps";

export function SetPasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const nextPath = safeNextPath(params.get("next_path")) ?? "/";
  const user = useSnapshot(session).user;
  const email = user?.email ?? "";
  const inputs = useMemo(() => [email, user?.first_name ?? "", user?.last_name ?? ""], [email, user]);
  const form = useNewPassword(inputs);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<AuthError | null>(null);
  useFocusOnMount(form.passwordRef);

  if (user && !user.is_password_autoset && !done && !busy) return <Navigate to={nextPath} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate()) return;
    setBusy(true);
    setError(null);
    const result = await setPassword(form.password);
    if (!result.ok) {
      setBusy(false);
      setError(result.error);
      return;
    }
    setDone(true);
    toast.success(t("auth.setPassword.doneToast"));
    navigate(nextPath, { replace: true });
  }

  return (
    <AuthShell
      title={t("auth.setPassword.title")}
      documentTitle={t("auth.setPassword.title")}
      description={t("auth.setPassword.description")}
    >
      <form className="auth-form" noValidate onSubmit={submit}>
        {error ? <Banner>{error.message}</Banner> : null}
        <AccountEmail email={email} />
        <NewPasswordFields email={email} {...form.fields} />
        <div className="auth-actions">
          <Button type="submit" size="lg" block loading={busy}>
            {t("auth.setPassword.submit")}
          </Button>
          <Button variant="ghost" block disabled={busy} onClick={() => navigate(nextPath, { replace: true })}>
            {t("auth.setPassword.skip")}
          </Button>
        </div>
      </form>
    </AuthShell>
  );
}
