/**
 * Pieces of the webhook screens: the form (URL, then every event or chosen ones, as the
 * reference's form offers them), the secret shown once with copy and download, and the status
 * badge.
 */
import { Download } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, TextInput } from "../../../components/ui";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { WEBHOOK_EVENTS, type Webhook, type WebhookEvent, type WebhookInput } from "../../../stores/webhooks";
import { SecretOnce } from "../components/settings-parts";

const allOn = () => Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, true])) as Record<WebhookEvent, boolean>;

/** "all" when every event is on (the reference's "Send me everything"), else "individual". */
export function eventChoiceOf(hook: Pick<Webhook, WebhookEvent>): "all" | "individual" {
  return WEBHOOK_EVENTS.every((e) => hook[e]) ? "all" : "individual";
}

/** The events a webhook listens to, for a list row. */
export function useEventSummary() {
  const { t } = useTranslation();
  return (hook: Pick<Webhook, WebhookEvent>) =>
    eventChoiceOf(hook) === "all"
      ? t("settings.webhooks.allEventsShort")
      : WEBHOOK_EVENTS.filter((e) => hook[e])
          .map((e) => t(`settings.webhooks.event.${e}`))
          .join(", ") || t("settings.webhooks.noEvents");
}

export function WebhookForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Webhook;
  submitLabel: string;
  /** Resolves when saved; throws the server's refusal, shown on the form. */
  onSubmit: (input: WebhookInput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const groupId = useId();
  const [url, setUrl] = useState(initial?.url ?? "");
  const [choice, setChoice] = useState<"all" | "individual">(initial ? eventChoiceOf(initial) : "all");
  const [events, setEvents] = useState<Record<WebhookEvent, boolean>>(() =>
    initial
      ? (Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, initial[e]])) as Record<WebhookEvent, boolean>)
      : allOn(),
  );
  const [urlError, setUrlError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = choice === "all" ? allOn() : events;
  const noneChosen = WEBHOOK_EVENTS.every((e) => !chosen[e]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setUrlError(null);
    setFormError(null);
    if (!url.trim()) {
      setUrlError(t("settings.webhooks.urlHint"));
      return;
    }
    if (noneChosen) {
      setFormError(t("settings.webhooks.noEvents"));
      return;
    }
    setBusy(true);
    try {
      await onSubmit({ url: url.trim(), ...chosen });
    } catch (error) {
      const fields = await fieldErrors(error);
      const message = await errorMessage(error);
      if (fields.url?.[0]) setUrlError(fields.url[0]);
      else setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="webhook-form" onSubmit={(e) => void submit(e)} noValidate>
      <TextInput
        label={t("settings.webhooks.url")}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={t("settings.webhooks.urlPlaceholder")}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={urlError}
        hint={t("settings.webhooks.urlHint")}
        autoFocus={!initial}
      />
      <fieldset className="webhook-events">
        <legend className="field-label">{t("settings.webhooks.events")}</legend>
        <div className="webhook-choice" role="radiogroup">
          {(["all", "individual"] as const).map((value) => (
            <label key={value} className="webhook-radio">
              <input
                type="radio"
                name={`${groupId}-choice`}
                value={value}
                checked={choice === value}
                onChange={() => setChoice(value)}
              />
              {value === "all" ? t("settings.webhooks.allEvents") : t("settings.webhooks.individualEvents")}
            </label>
          ))}
        </div>
        {choice === "individual" ? (
          <div className="webhook-event-grid">
            {WEBHOOK_EVENTS.map((e) => (
              <label key={e} className="webhook-check">
                <input
                  type="checkbox"
                  checked={events[e]}
                  onChange={(ev) => setEvents((prev) => ({ ...prev, [e]: ev.target.checked }))}
                />
                <span>
                  <span className="webhook-check-title">{t(`settings.webhooks.event.${e}`)}</span>
                  <span className="webhook-check-hint">{t(`settings.webhooks.eventHint.${e}`)}</span>
                </span>
              </label>
            ))}
          </div>
        ) : null}
      </fieldset>
      {formError ? (
        <p className="field-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="webhook-form-actions">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            {t("workspace.common.cancel")}
          </Button>
        ) : null}
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** The webhook as a CSV with its secret, downloaded as the reference's "Download" does. */
function downloadSecret(slug: string, hook: Webhook & { secret_key: string }) {
  const row: Record<string, string> = {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    updated_at: hook.updated_at,
    is_active: String(hook.is_active),
    secret_key: hook.secret_key,
    ...Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, String(hook[e])])),
    workspace: slug,
  };
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const csv = `${Object.keys(row).map(quote).join(",")}\n${Object.values(row).map(quote).join(",")}\n`;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
  link.download = `webhook-secret-key-${slug}-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** The secret, shown this once: copy and download. */
export function WebhookSecret({ slug, hook }: { slug: string; hook: Webhook & { secret_key: string } }) {
  const { t } = useTranslation();
  return (
    <SecretOnce
      value={hook.secret_key}
      hint={t("settings.webhooks.secretHint")}
      testId="webhook-secret"
      labels={{
        copy: t("settings.webhooks.copy"),
        copied: t("settings.webhooks.copied"),
        copyFailed: t("settings.webhooks.copyFailed"),
      }}
    >
      <Button variant="secondary" size="sm" onClick={() => downloadSecret(slug, hook)}>
        <Download size={14} aria-hidden />
        {t("settings.webhooks.download")}
      </Button>
    </SecretOnce>
  );
}

/** Active, off or failing. */
export function WebhookStatus({ hook }: { hook: Pick<Webhook, "is_active" | "failing"> }) {
  const { t } = useTranslation();
  if (hook.failing)
    return <span className="badge webhook-badge webhook-badge-failing">{t("settings.webhooks.failing")}</span>;
  return hook.is_active ? (
    <span className="badge webhook-badge webhook-badge-active">{t("settings.webhooks.active")}</span>
  ) : (
    <span className="badge webhook-badge">{t("settings.webhooks.inactive")}</span>
  );
}
