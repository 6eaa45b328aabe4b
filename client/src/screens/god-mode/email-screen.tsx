/**
 * "/god-mode/email/": SMTP delivery for sign-in codes, reset links and notifications, and a
 * test e-mail to check it. Without SMTP, mails are written to the server log instead.
 */
import { Send } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { PasswordInput } from "../../components/password/password-input";
import { Banner, Button, Field, ScreenLoader, Select, TextInput } from "../../components/ui";
import {
  type InstanceConfiguration,
  instanceAdmin,
  type SmtpSettings,
  saveSmtpSettings,
  sendTestEmail,
  type TestEmailResult,
} from "../../stores/instance-admin";
import { session } from "../../stores/session";
import { emailProblem } from "../auth/steps";
import { PageHeader } from "./page-header";

type Security = "none" | "tls" | "ssl";

type FormValues = {
  host: string;
  port: string;
  user: string;
  password: string;
  from: string;
  security: Security;
};

function initialValues(config: InstanceConfiguration): FormValues {
  return {
    host: config.smtp_host ?? "",
    port: String(config.smtp_port ?? 587),
    user: config.smtp_user ?? "",
    password: "",
    from: config.smtp_from ?? "",
    security: config.smtp_use_ssl ? "ssl" : config.smtp_use_tls === false ? "none" : "tls",
  };
}

export function EmailScreen() {
  const { t } = useTranslation();
  const { configuration, configurationError } = useSnapshot(instanceAdmin);
  const header = <PageHeader title={t("godMode.email.title")} description={t("godMode.email.description")} />;
  if (configurationError && !configuration) {
    return (
      <div className="gm-page">
        {header}
        <Banner>{configurationError}</Banner>
      </div>
    );
  }
  if (!configuration) return <ScreenLoader />;
  return (
    <div className="gm-page">
      {header}
      <SmtpForm configuration={configuration as InstanceConfiguration} />
    </div>
  );
}

function SmtpForm({ configuration }: { configuration: InstanceConfiguration }) {
  const { t } = useTranslation();
  const smtpConfigured = useSnapshot(session).instance?.config.is_smtp_configured ?? false;
  const adminEmail = useSnapshot(instanceAdmin).admin?.email ?? "";
  const [values, setValues] = useState<FormValues>(() => initialValues(configuration));
  const [saved, setSaved] = useState<FormValues>(() => initialValues(configuration));
  const [errors, setErrors] = useState<Partial<Record<keyof FormValues, string>>>({});
  const [busy, setBusy] = useState(false);
  const [receiver, setReceiver] = useState(adminEmail);
  const [receiverError, setReceiverError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [testResult, setTestResult] = useState<TestEmailResult | null>(null);
  const dirty = (Object.keys(values) as (keyof FormValues)[]).some((key) => values[key] !== saved[key]);

  const set = (key: keyof FormValues) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      setErrors({ port: t("godMode.email.portInvalid") });
      return;
    }
    const settings: SmtpSettings = {
      smtp_host: values.host.trim(),
      smtp_port: port,
      smtp_user: values.user.trim(),
      smtp_password: values.password,
      smtp_from: values.from.trim(),
      smtp_use_tls: values.security === "tls",
      smtp_use_ssl: values.security === "ssl",
    };
    setBusy(true);
    const fieldErrors = await saveSmtpSettings(settings);
    setBusy(false);
    if (fieldErrors) {
      setErrors({
        host: fieldErrors.smtp_host,
        port: fieldErrors.smtp_port,
        user: fieldErrors.smtp_user,
        password: fieldErrors.smtp_password,
        from: fieldErrors.smtp_from,
      });
      return;
    }
    const next = { ...values, password: "" };
    setValues(next);
    setSaved(next);
    setTestResult(null);
    toast.success(t("godMode.email.saved"));
  }

  async function test(event: FormEvent) {
    event.preventDefault();
    const problem = emailProblem(receiver, t);
    setReceiverError(problem);
    if (problem) return;
    setTesting(true);
    setTestResult(null);
    setTestResult(await sendTestEmail(receiver.trim()));
    setTesting(false);
  }

  return (
    <>
      <form className="gm-section" noValidate onSubmit={save} aria-labelledby="gm-smtp-title">
        <div className="row">
          <h2 id="gm-smtp-title">{t("godMode.email.smtpSection")}</h2>
          <span className="spacer" />
          <span className={smtpConfigured ? "gm-status-pill is-on" : "gm-status-pill"}>
            <span className="gm-status-dot" aria-hidden />
            {smtpConfigured ? t("godMode.email.configured") : t("godMode.email.notConfigured")}
          </span>
        </div>
        {!smtpConfigured ? <Banner kind="info">{t("godMode.email.logNotice")}</Banner> : null}
        <div className="gm-grid-host">
          <TextInput
            label={t("godMode.email.host")}
            name="smtp_host"
            placeholder="smtp.example.com"
            autoComplete="off"
            spellCheck={false}
            value={values.host}
            error={errors.host}
            onChange={(e) => set("host")(e.target.value)}
          />
          <TextInput
            label={t("godMode.email.port")}
            name="smtp_port"
            inputMode="numeric"
            value={values.port}
            error={errors.port}
            onChange={(e) => set("port")(e.target.value.replace(/\D/g, "").slice(0, 5))}
          />
        </div>
        <div className="gm-grid-2">
          <TextInput
            label={t("godMode.email.user")}
            name="smtp_user"
            autoComplete="off"
            spellCheck={false}
            value={values.user}
            error={errors.user}
            onChange={(e) => set("user")(e.target.value)}
          />
          <PasswordInput
            label={t("godMode.email.password")}
            name="smtp_password"
            autoComplete="new-password"
            placeholder={configuration.smtp_password_set ? t("godMode.email.passwordKept") : ""}
            value={values.password}
            error={errors.password}
            onChange={(e) => set("password")(e.target.value)}
          />
        </div>
        <TextInput
          label={t("godMode.email.from")}
          name="smtp_from"
          placeholder={t("godMode.email.fromPlaceholder")}
          hint={t("godMode.email.fromHint")}
          value={values.from}
          error={errors.from}
          onChange={(e) => set("from")(e.target.value)}
        />
        <Field label={t("godMode.email.security")} hint={t("godMode.email.securityHint")}>
          {(id, describedBy) => (
            <Select
              id={id}
              labelled
              label={t("godMode.email.security")}
              aria-describedby={describedBy}
              value={values.security}
              onValueChange={(v) => set("security")(v as Security)}
              options={[
                { value: "tls", label: t("godMode.email.securityTls") },
                { value: "ssl", label: t("godMode.email.securitySsl") },
                { value: "none", label: t("godMode.email.securityNone") },
              ]}
            />
          )}
        </Field>
        <div className="gm-form-actions">
          <Button type="submit" loading={busy} disabled={!dirty}>
            {t("godMode.saveChanges")}
          </Button>
          {dirty ? (
            <Button variant="ghost" disabled={busy} onClick={() => setValues(saved)}>
              {t("godMode.discard")}
            </Button>
          ) : null}
        </div>
      </form>
      <form className="gm-card" noValidate onSubmit={test} aria-labelledby="gm-test-title">
        <div className="stack" style={{ gap: 4 }}>
          <h2 id="gm-test-title">{t("godMode.email.testSection")}</h2>
          <p className="muted">{t("godMode.email.testDescription")}</p>
        </div>
        <div className="gm-test-row">
          <TextInput
            label={t("godMode.email.recipient")}
            type="email"
            name="receiver_email"
            value={receiver}
            error={receiverError}
            onChange={(e) => {
              setReceiver(e.target.value);
              if (receiverError) setReceiverError(null);
            }}
          />
          <Button type="submit" variant="secondary" loading={testing} disabled={dirty}>
            {testing ? null : <Send size={14} aria-hidden />}
            {t("godMode.email.sendTest")}
          </Button>
        </div>
        {dirty ? <p className="subtle">{t("godMode.email.saveFirst")}</p> : null}
        {testResult ? (
          <Banner kind={testResult.ok ? "success" : "error"}>
            {testResult.ok ? t("godMode.email.testSent", { email: receiver.trim() }) : testResult.message}
          </Banner>
        ) : null}
      </form>
    </>
  );
}
