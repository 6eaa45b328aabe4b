/**
 * "/god-mode/setup/": the first run. Creates the instance administrator (who is signed in
 * straight away) and names the instance after the company. A refusal comes back as a
 * redirect with ?error_code and the email; the other non-secret fields are kept in
 * sessionStorage across that round trip so nobody types them twice.
 */
import { type FormEvent, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router";
import { useSnapshot } from "valtio";
import { Banner, Button, TextInput } from "../../components/ui";
import type { AuthError } from "../../lib/auth-errors";
import { adminSetup } from "../../stores/instance-admin";
import { session } from "../../stores/session";
import { AuthShell } from "../auth/auth-shell";
import { useAuthQuery, useFocusOnMount } from "../auth/hooks";
import { emailProblem, NewPasswordFields, useNewPassword } from "../auth/steps";
import "./god-mode.css";
import { type Draft, readDraft, writeDraft } from "./setup-draft";

export function SetupScreen() {
  const snap = useSnapshot(session);
  if (snap.instance?.instance.is_setup_done) return <Navigate to="/god-mode/" replace />;
  return <SetupForm />;
}

function SetupForm() {
  const { t } = useTranslation();
  const query = useAuthQuery();
  const [draft, setDraft] = useState<Draft>(() =>
    query.error ? readDraft() : { first_name: "", last_name: "", company_name: "" },
  );
  const [email, setEmail] = useState(query.email);
  const [errors, setErrors] = useState<{ first_name?: string | null; email?: string | null }>({});
  const [banner, setBanner] = useState<AuthError | null>(query.error);
  const [busy, setBusy] = useState(false);
  const firstNameInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const inputs = useMemo(
    () => [email, draft.first_name, draft.last_name, draft.company_name],
    [email, draft.first_name, draft.last_name, draft.company_name],
  );
  const form = useNewPassword(inputs, false);
  useFocusOnMount(firstNameInput);

  const edit = (key: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft((d) => ({ ...d, [key]: event.target.value }));
    if (key === "first_name" && errors.first_name) setErrors((e) => ({ ...e, first_name: null }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      first_name: draft.first_name.trim() ? null : t("godMode.setup.firstNameRequired"),
      email: emailProblem(email, t),
    };
    setErrors(found);
    if (found.first_name) return firstNameInput.current?.focus();
    if (found.email) return emailInput.current?.focus();
    if (!form.validate()) return;
    setBusy(true);
    setBanner(null);
    writeDraft(draft);
    const result = await adminSetup({
      first_name: draft.first_name.trim(),
      last_name: draft.last_name.trim(),
      company_name: draft.company_name.trim(),
      email: email.trim().toLowerCase(),
      password: form.password,
    });
    if (!result.ok) {
      setBusy(false);
      setBanner(result.error);
    }
  }

  return (
    <AuthShell
      wide
      title={t("godMode.setup.title")}
      documentTitle={t("godMode.setup.title")}
      description={t("godMode.setup.description")}
    >
      <form className="auth-form" noValidate onSubmit={submit}>
        {banner ? <Banner>{banner.message}</Banner> : null}
        <div className="gm-grid-2">
          <TextInput
            ref={firstNameInput}
            label={t("godMode.setup.firstName")}
            name="first_name"
            autoComplete="given-name"
            value={draft.first_name}
            error={errors.first_name}
            onChange={edit("first_name")}
          />
          <TextInput
            label={t("godMode.setup.lastName")}
            name="last_name"
            autoComplete="family-name"
            value={draft.last_name}
            onChange={edit("last_name")}
          />
        </div>
        <TextInput
          label={t("godMode.setup.companyName")}
          name="company_name"
          autoComplete="organization"
          hint={t("godMode.setup.companyHint")}
          maxLength={80}
          value={draft.company_name}
          onChange={edit("company_name")}
        />
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
        <NewPasswordFields email={email} extraInputs={inputs} {...form.fields} />
        <div className="auth-actions">
          <Button type="submit" size="lg" block loading={busy}>
            {t("godMode.setup.submit")}
          </Button>
        </div>
      </form>
    </AuthShell>
  );
}
