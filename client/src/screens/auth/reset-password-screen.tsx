/**
 * "/accounts/reset-password/?uidb64=…&token=…&email=…": choose a new password from the link
 * in the reset e-mail. A bad or expired link says so and offers a new one.
 */
import { AUTH_ERROR } from "@tideline/shared";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { Banner, Button } from "../../components/ui";
import { type AuthError, authErrorMessage } from "../../lib/auth-errors";
import { resetPassword } from "../../stores/auth";
import { AuthShell } from "./auth-shell";
import { authLink, useFocusOnMount } from "./hooks";
import { EmailChip, NewPasswordFields, useNewPassword } from "./steps";

const LINK_CODES = new Set<number>([AUTH_ERROR.INVALID_PASSWORD_TOKEN, AUTH_ERROR.EXPIRED_PASSWORD_TOKEN]);

export function ResetPasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uid = params.get("uidb64") ?? "";
  const token = params.get("token") ?? "";
  const email = (params.get("email") ?? "").trim().toLowerCase();
  const linkMissing = !uid || !token;
  const inputs = useMemo(() => [email], [email]);
  const form = useNewPassword(inputs);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AuthError | null>(() =>
    linkMissing
      ? { code: AUTH_ERROR.INVALID_PASSWORD_TOKEN, message: authErrorMessage(AUTH_ERROR.INVALID_PASSWORD_TOKEN) }
      : null,
  );
  useFocusOnMount(form.passwordRef);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (linkMissing || !form.validate()) return;
    setBusy(true);
    setError(null);
    const result = await resetPassword(uid, token, form.password);
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    toast.success(t("auth.reset.doneToast"));
    navigate(authLink("/", email, null), { replace: true });
  }

  const linkBroken = error?.code != null && LINK_CODES.has(error.code);
  return (
    <AuthShell
      title={t("auth.reset.title")}
      documentTitle={t("auth.reset.title")}
      description={t("auth.reset.description")}
      footer={<Link to={authLink("/", email, null)}>{t("auth.actions.backToSignIn")}</Link>}
    >
      <form className="auth-form" noValidate onSubmit={submit}>
        {error ? (
          <Banner>
            {error.message}
            {linkBroken ? (
              <div>
                <Link className="auth-banner-action" to={authLink("/accounts/forgot-password/", email, null)}>
                  {t("auth.reset.requestNew")}
                </Link>
              </div>
            ) : null}
          </Banner>
        ) : null}
        {email ? <EmailChip email={email} /> : null}
        <input
          className="auth-hidden-username"
          type="email"
          autoComplete="username"
          value={email}
          readOnly
          tabIndex={-1}
          aria-hidden
        />
        <NewPasswordFields email={email} {...form.fields} />
        <div className="auth-actions">
          <Button type="submit" size="lg" block loading={busy} disabled={linkMissing}>
            {t("auth.reset.submit")}
          </Button>
        </div>
      </form>
    </AuthShell>
  );
}
