import { ArrowLeft, CheckCircle2, ChevronRight, RefreshCw, Send, Webhook as WebhookIcon, XCircle } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, EmptyState } from "../../../components/ui";
import { errorMessage } from "../../../lib/api";
import { watchWorkspaceLive } from "../../../stores/live-workspace";
import {
  applyWebhookEvent,
  deleteWebhook,
  loadMoreWebhookLogs,
  loadWebhook,
  loadWebhookLogs,
  redeliverWebhookLog,
  regenerateSecret,
  setWebhookActive,
  updateWebhook,
  type Webhook,
  type WebhookLog,
  type WebhookWithSecret,
  webhooksStore,
} from "../../../stores/webhooks";
import { ConfirmModal } from "../components/confirm-modal";
import { DangerRow, SettingsHeading } from "../components/settings-parts";
import { SkeletonRows } from "../components/skeleton";
import { Toggle } from "../components/toggle";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import { WebhookForm, WebhookStatus } from "./webhook-parts";
import { SecretModal } from "./webhooks";
import "./webhooks.css";

/** /:ws/settings/webhooks/:webhookId: edit a webhook, its secret, its delivery log with redeliver, delete. */
export function WorkspaceWebhookDetail() {
  const { t, i18n } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const { webhookId = "" } = useParams();
  const navigate = useNavigate();
  const snap = useSnapshot(webhooksStore);
  const isAdmin = can.manageWebhooks(role);
  const [missing, setMissing] = useState(false);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    if (!isAdmin) return;
    setMissing(false);
    void loadWebhook(slug, webhookId).catch(() => setMissing(true));
    void loadWebhookLogs(slug, webhookId).catch(() => undefined);
  }, [slug, webhookId, isAdmin]);

  // Another admin's edit shows at once; their deletion turns the page into "not found".
  const workspaceId = workspace?.id;
  useEffect(() => {
    if (!workspaceId || !isAdmin) return;
    return watchWorkspaceLive(slug, workspaceId, {
      onEvent: (event) => {
        applyWebhookEvent(slug, event);
        if (event.type === "webhook.deleted" && event.entity_id === webhookId) setMissing(true);
      },
      onSynced: () => void loadWebhook(slug, webhookId).catch(() => setMissing(true)),
    });
  }, [slug, workspaceId, webhookId, isAdmin]);

  if (workspace && !isAdmin) return <Navigate to={`/${slug}/settings/`} replace />;
  const hook = snap.bySlug[slug]?.find((h) => h.id === webhookId) as Webhook | undefined;
  const logs = snap.logsById[webhookId] as readonly WebhookLog[] | undefined;
  const back = (
    <Link to={`/${slug}/settings/webhooks/`} className="webhook-back">
      <ArrowLeft size={14} aria-hidden />
      {t("settings.webhooks.back")}
    </Link>
  );

  if (missing && !hook) {
    return (
      <>
        {back}
        <EmptyState icon={WebhookIcon} title={t("settings.webhooks.notFound")} />
      </>
    );
  }
  if (!hook) {
    return (
      <>
        {back}
        <SkeletonRows count={3} height={48} />
      </>
    );
  }

  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "medium" }).format(new Date(iso));

  async function refresh() {
    setRefreshing(true);
    try {
      await Promise.all([loadWebhookLogs(slug, webhookId), loadWebhook(slug, webhookId)]);
    } catch (error) {
      toast.error(await errorMessage(error));
    } finally {
      setRefreshing(false);
    }
  }

  return (
    <>
      {back}
      <SettingsHeading title={hook.url} hint={t("settings.webhooks.hint")}>
        <div className="webhook-heading-status">
          <WebhookStatus hook={hook} />
          <Toggle
            checked={hook.is_active}
            label={t("settings.webhooks.toggle", { url: hook.url })}
            onCheckedChange={(on) => void setWebhookActive(slug, hook.id, on, t("settings.webhooks.toggleFailed"))}
          />
        </div>
      </SettingsHeading>
      {hook.failing ? (
        <Banner kind="warning">
          {t("settings.webhooks.failingSince", {
            when: hook.last_failure_at ? when(hook.last_failure_at) : "",
            reason: hook.last_failure_reason ?? "",
          })}
        </Banner>
      ) : null}

      <section className="settings-section">
        <WebhookForm
          key={hook.updated_at}
          initial={hook}
          submitLabel={t("settings.webhooks.save")}
          onSubmit={async (input) => {
            await updateWebhook(slug, hook.id, input);
            toast.success(t("settings.webhooks.saved"));
          }}
        />
      </section>

      <section className="settings-section" aria-labelledby="webhook-secret-title">
        <h2 id="webhook-secret-title" className="webhook-subtitle">
          {t("settings.webhooks.secret")}
        </h2>
        <div className="webhook-secret-section">
          <p className="muted">{t("settings.webhooks.secretSection")}</p>
          <Button variant="secondary" onClick={() => setConfirmRegenerate(true)}>
            {t("settings.webhooks.regenerate")}
          </Button>
        </div>
      </section>

      <section className="settings-section" aria-labelledby="webhook-deliveries-title">
        <div className="webhook-log-heading">
          <div>
            <h2 id="webhook-deliveries-title" className="webhook-subtitle">
              {t("settings.webhooks.deliveries")}
            </h2>
            <p className="muted">{t("settings.webhooks.deliveriesHint")}</p>
          </div>
          <Button variant="secondary" size="sm" onClick={() => void refresh()} loading={refreshing}>
            <RefreshCw size={14} aria-hidden />
            {t("settings.webhooks.refresh")}
          </Button>
        </div>
        <div className="member-list">
          {logs === undefined ? (
            <SkeletonRows count={3} height={48} />
          ) : logs.length === 0 ? (
            <EmptyState
              icon={Send}
              title={t("settings.webhooks.noDeliveries")}
              description={t("settings.webhooks.noDeliveriesHint")}
            />
          ) : (
            <ul className="webhook-log-list" aria-label={t("settings.webhooks.deliveries")}>
              {logs.map((log) => (
                <LogRow key={log.id} slug={slug} hook={hook} log={log} when={when} />
              ))}
            </ul>
          )}
        </div>
        {snap.moreLogsById[webhookId] ? (
          <div>
            <Button
              variant="secondary"
              size="sm"
              loading={loadingMore}
              onClick={() => {
                setLoadingMore(true);
                void loadMoreWebhookLogs(slug, webhookId)
                  .catch(async (error) => toast.error(await errorMessage(error)))
                  .finally(() => setLoadingMore(false));
              }}
            >
              {t("settings.webhooks.more")}
            </Button>
          </div>
        ) : null}
      </section>

      <section className="settings-section" aria-labelledby="webhook-danger-title">
        <h2 id="webhook-danger-title" className="webhook-subtitle">
          {t("settings.webhooks.danger")}
        </h2>
        <div className="danger-zone">
          <DangerRow title={t("settings.webhooks.delete")} hint={t("settings.webhooks.deleteHint")}>
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              {t("settings.webhooks.delete")}
            </Button>
          </DangerRow>
        </div>
      </section>

      <ConfirmModal
        open={confirmRegenerate}
        onOpenChange={setConfirmRegenerate}
        title={t("settings.webhooks.regenerateTitle")}
        description={t("settings.webhooks.regenerateDescription")}
        confirmLabel={t("settings.webhooks.regenerate")}
        danger={false}
        onConfirm={async () => {
          try {
            setSecret(await regenerateSecret(slug, hook.id));
            toast.success(t("settings.webhooks.regenerated"));
          } catch (error) {
            toast.error(await errorMessage(error));
          }
        }}
      />
      <ConfirmModal
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t("settings.webhooks.deleteTitle")}
        description={t("settings.webhooks.deleteDescription", { url: hook.url })}
        confirmLabel={t("settings.webhooks.delete")}
        onConfirm={async () => {
          if (await deleteWebhook(slug, hook.id, t("settings.webhooks.deleteFailed"))) {
            toast.success(t("settings.webhooks.deleted"));
            navigate(`/${slug}/settings/webhooks/`, { replace: true });
          }
        }}
      />
      <SecretModal slug={slug} hook={secret} onClose={() => setSecret(null)} />
    </>
  );
}

function LogRow({
  slug,
  hook,
  log,
  when,
}: {
  slug: string;
  hook: Webhook;
  log: WebhookLog;
  when: (iso: string) => string;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const ok = log.status === "success";
  async function redeliver() {
    setBusy(true);
    try {
      await redeliverWebhookLog(slug, hook.id, log.id);
      toast.success(t("settings.webhooks.redelivered"));
    } catch (error) {
      toast.error(await errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="webhook-log">
      <details>
        <summary>
          <ChevronRight size={14} aria-hidden className="webhook-log-chevron" />
          {ok ? (
            <CheckCircle2 size={16} aria-hidden className="webhook-log-ok" />
          ) : (
            <XCircle size={16} aria-hidden className="webhook-log-failed" />
          )}
          <span className="webhook-log-event">
            {log.event}.{log.action}
          </span>
          <span
            className={ok ? "badge webhook-badge webhook-badge-active" : "badge webhook-badge webhook-badge-failing"}
          >
            {ok ? t("settings.webhooks.success") : t("settings.webhooks.failed")}
            {" · "}
            {log.response_status ?? t("settings.webhooks.noResponse")}
          </span>
          <span className="webhook-log-meta">
            {when(log.created_at)} · {log.duration_ms} ms · {t("settings.webhooks.attempt", { n: log.attempt })}
          </span>
        </summary>
        <div className="webhook-log-body">
          {log.error ? (
            <p>
              <strong>{t("settings.webhooks.error")}: </strong>
              {log.error}
            </p>
          ) : null}
          <p className="webhook-log-label">{t("settings.webhooks.request")}</p>
          <pre>{prettyJson(log.request_body)}</pre>
          {log.response_body ? (
            <>
              <p className="webhook-log-label">{t("settings.webhooks.response")}</p>
              <pre>{log.response_body}</pre>
            </>
          ) : null}
          <div>
            <Button
              variant="secondary"
              size="sm"
              loading={busy}
              disabled={!hook.is_active}
              onClick={() => void redeliver()}
            >
              <Send size={14} aria-hidden />
              {t("settings.webhooks.redeliver")}
            </Button>
          </div>
        </div>
      </details>
    </li>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
