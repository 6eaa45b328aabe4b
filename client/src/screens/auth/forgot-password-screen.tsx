/**
 * "/accounts/forgot-password/": send a reset link. Needs mail delivery on the instance; when
 * the server answers 5025 the banner says so (product-domain §5).
 */
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";
import { Banner, Button } from "../../components/ui";
import type { AuthError } from "../../lib/auth-errors";
import { forgotPassword } from "../../stores/auth";
import { AuthShell } from "./auth-shell";
import { authLink, useAuthQuery, useFocusOnMount, useSecondsLeft } from "./hooks";
import { EmailField, emailProblem } from "./steps";

const RESEND_AFTER_MS = 30_000;

export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const query = useAuthQuery();
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(query.email);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<AuthError | null>(query.error);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<{ email: string; at: number } | null>(null);
  const wait = useSecondsLeft(sentTo ? sentTo.at + RESEND_AFTER_MS : null);
  useFocusOnMount(input, true);

  const normalized = email.trim().toLowerCase();
  const alreadySent = sentTo !== null && sentTo.email === normalized;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = emailProblem(email, t);
    setFieldError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await forgotPassword(normalized);
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setSentTo({ email: normalized, at: Date.now() });
    toast.success(t("auth.forgot.sentToast"));
  }

  return (
    <AuthShell
      title={t("auth.forgot.title")}
      documentTitle={t("auth.forgot.title")}
      description={t("auth.forgot.description")}
      footer={<Link to={authLink("/", normalized, query.nextPath)}>{t("auth.actions.backToSignIn")}</Link>}
    >
      <form className="auth-form" noValidate onSubmit={submit}>
        {error ? <Banner>{error.message}</Banner> : null}
        {alreadySent ? <Banner kind="success">{t("auth.forgot.sentBanner", { email: sentTo.email })}</Banner> : null}
        <EmailField
          ref={input}
          value={email}
          error={fieldError}
          onChange={(value) => {
            setEmail(value);
            if (fieldError) setFieldError(null);
          }}
        />
        <div className="auth-actions">
          <Button type="submit" size="lg" block loading={busy} disabled={alreadySent && wait > 0}>
            {alreadySent
              ? wait > 0
                ? t("auth.forgot.resendIn", { seconds: wait })
                : t("auth.forgot.resend")
              : t("auth.forgot.submit")}
          </Button>
        </div>
      </form>
    </AuthShell>
  );
}
