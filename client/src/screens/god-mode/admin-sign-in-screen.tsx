/**
 * "/god-mode/": the instance administrator signs in. Before the first set-up there is no
 * admin, so the visitor is sent to the set-up form; an admin who is already signed in goes
 * straight to the settings.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate } from "react-router";
import { useSnapshot } from "valtio";
import { PasswordInput } from "../../components/password/password-input";
import { Banner, Button, ScreenLoader, TextInput } from "../../components/ui";
import type { AuthError } from "../../lib/auth-errors";
import { adminSignIn, instanceAdmin, loadAdmin } from "../../stores/instance-admin";
import { session } from "../../stores/session";
import { AuthShell } from "../auth/auth-shell";
import { useAuthQuery, useFocusOnMount } from "../auth/hooks";
import { emailProblem } from "../auth/steps";
import "./god-mode.css";

export function AdminSignInScreen() {
  const snap = useSnapshot(session);
  const admin = useSnapshot(instanceAdmin);
  const setupDone = snap.instance?.instance.is_setup_done ?? true;
  useEffect(() => {
    if (setupDone) void loadAdmin();
  }, [setupDone]);

  if (!setupDone) return <Navigate to="/god-mode/setup/" replace />;
  if (admin.status === "admin") return <Navigate to="/god-mode/general/" replace />;
  if (admin.status === "unknown" || admin.status === "loading") return <ScreenLoader />;
  return <AdminSignInForm notAdminEmail={admin.status === "not-admin" ? (snap.user?.email ?? null) : null} />;
}

function AdminSignInForm({ notAdminEmail }: { notAdminEmail: string | null }) {
  const { t } = useTranslation();
  const query = useAuthQuery();
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(query.email);
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const [banner, setBanner] = useState<AuthError | null>(query.error);
  const [busy, setBusy] = useState(false);
  useFocusOnMount(query.email ? passwordInput : emailInput);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      email: emailProblem(email, t),
      password: password ? null : t("auth.validation.enterPassword", { defaultValue: "Please enter your password" }),
    };
    setErrors(found);
    if (found.email) return emailInput.current?.focus();
    if (found.password) return passwordInput.current?.focus();
    setBusy(true);
    setBanner(null);
    const result = await adminSignIn({ email: email.trim().toLowerCase(), password });
    if (!result.ok) {
      setBusy(false);
      setBanner(result.error);
    }
  }

  return (
    <AuthShell
      title={t("godMode.signIn.title")}
      documentTitle={t("godMode.signIn.title")}
      description={t("godMode.signIn.description")}
      footer={<Link to="/">{t("godMode.backToApp")}</Link>}
    >
      <form className="auth-form" noValidate onSubmit={submit}>
        {banner ? <Banner>{banner.message}</Banner> : null}
        {notAdminEmail ? <Banner kind="info">{t("godMode.signIn.notAdmin", { email: notAdminEmail })}</Banner> : null}
        <TextInput
          ref={emailInput}
          label={t("auth.fields.email")}
          type="email"
          name="email"
          autoComplete="username email"
          value={email}
          error={errors.email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (errors.email) setErrors((e) => ({ ...e, email: null }));
          }}
        />
        <PasswordInput
          ref={passwordInput}
          label={t("auth.fields.password")}
          name="password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(event) => {
            setPassword(event.target.value);
            if (errors.password) setErrors((e) => ({ ...e, password: null }));
          }}
        />
        <div className="auth-actions">
          <Button type="submit" size="lg" block loading={busy}>
            {t("godMode.signIn.submit")}
          </Button>
        </div>
      </form>
    </AuthShell>
  );
}
