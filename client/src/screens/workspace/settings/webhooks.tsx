import { ExternalLink, KeyRound, Trash2, Webhook as WebhookIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, Modal } from "../../../components/ui";
import { errorMessage } from "../../../lib/api";
import { watchWorkspaceLive } from "../../../stores/live-workspace";
import {
  applyWebhookEvent,
  createWebhook,
  deleteWebhook,
  loadWebhooks,
  regenerateSecret,
  setWebhookActive,
  type Webhook,
  type WebhookWithSecret,
  webhooksStore,
} from "../../../stores/webhooks";
import { ConfirmModal } from "../components/confirm-modal";
import { MenuItem, MenuSeparator } from "../components/menu";
import { AddButton, RowActionsMenu, SettingsHeading, SettingsList } from "../components/settings-parts";
import { Toggle } from "../components/toggle";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import { useEventSummary, WebhookForm, WebhookSecret, WebhookStatus } from "./webhook-parts";
import "./webhooks.css";

/** Workspace settings → Webhooks (admins): the list, create with the secret shown once, toggle, delete. */
export function WorkspaceWebhooksSettings() {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const snap = useSnapshot(webhooksStore);
  const isAdmin = can.manageWebhooks(role);
  const [creating, setCreating] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!isAdmin) return;
    setFailed(false);
    void loadWebhooks(slug).catch(() => setFailed(true));
  }, [slug, isAdmin]);

  // Other admins' changes arrive on the workspace channel; a reconnection reads the list again.
  const workspaceId = workspace?.id;
  useEffect(() => {
    if (!workspaceId || !isAdmin) return;
    return watchWorkspaceLive(slug, workspaceId, {
      onEvent: (event) => applyWebhookEvent(slug, event),
      onSynced: () => void loadWebhooks(slug).catch(() => undefined),
    });
  }, [slug, workspaceId, isAdmin]);

  if (workspace && !isAdmin) return <Navigate to={`/${slug}/settings/`} replace />;
  const list = snap.bySlug[slug] as readonly Webhook[] | undefined;

  return (
    <>
      <SettingsHeading title={t("settings.webhooks.title")} hint={t("settings.webhooks.hint")}>
        {list?.length ? <AddButton label={t("settings.webhooks.add")} onClick={() => setCreating(true)} /> : null}
      </SettingsHeading>
      <SettingsList
        items={list}
        failed={failed}
        label={t("settings.webhooks.title")}
        className="webhook-list"
        empty={{
          icon: WebhookIcon,
          title: t("settings.webhooks.empty"),
          description: t("settings.webhooks.emptyHint"),
          action: <AddButton label={t("settings.webhooks.add")} onClick={() => setCreating(true)} />,
        }}
        row={(hook) => <WebhookRow key={hook.id} slug={slug} hook={hook} />}
      />
      <CreateWebhookModal slug={slug} open={creating} onOpenChange={setCreating} />
    </>
  );
}

function WebhookRow({ slug, hook }: { slug: string; hook: Webhook }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const summary = useEventSummary();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const detail = `/${slug}/settings/webhooks/${hook.id}/`;
  return (
    <li className="webhook-row">
      <div className="webhook-row-main">
        <Link to={detail} className="webhook-url" title={hook.url}>
          {hook.url}
        </Link>
        <span className="webhook-row-meta">
          <WebhookStatus hook={hook} />
          <span className="webhook-row-events">{summary(hook)}</span>
        </span>
      </div>
      <Toggle
        checked={hook.is_active}
        label={t("settings.webhooks.toggle", { url: hook.url })}
        onCheckedChange={(on) => void setWebhookActive(slug, hook.id, on, t("settings.webhooks.toggleFailed"))}
      />
      <RowActionsMenu label={t("settings.webhooks.actionsFor", { url: hook.url })}>
        <MenuItem icon={<ExternalLink size={14} />} onSelect={() => navigate(detail)}>
          {t("settings.webhooks.open")}
        </MenuItem>
        <MenuItem icon={<KeyRound size={14} />} onSelect={() => setConfirmRegenerate(true)}>
          {t("settings.webhooks.regenerate")}
        </MenuItem>
        <MenuSeparator />
        <MenuItem danger icon={<Trash2 size={14} />} onSelect={() => setConfirmDelete(true)}>
          {t("settings.webhooks.delete")}
        </MenuItem>
      </RowActionsMenu>
      <ConfirmModal
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t("settings.webhooks.deleteTitle")}
        description={t("settings.webhooks.deleteDescription", { url: hook.url })}
        confirmLabel={t("settings.webhooks.delete")}
        onConfirm={async () => {
          if (await deleteWebhook(slug, hook.id, t("settings.webhooks.deleteFailed")))
            toast.success(t("settings.webhooks.deleted"));
        }}
      />
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
          } catch (error) {
            toast.error(await errorMessage(error));
          }
        }}
      />
      <SecretModal slug={slug} hook={secret} onClose={() => setSecret(null)} />
    </li>
  );
}

/** The secret of a new or regenerated webhook, in its own dialog. */
export function SecretModal({
  slug,
  hook,
  onClose,
}: {
  slug: string;
  hook: WebhookWithSecret | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={hook !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t("settings.webhooks.secretTitle")}
      width={560}
    >
      {hook ? <WebhookSecret slug={slug} hook={hook} /> : null}
      <div className="webhook-form-actions">
        <Button onClick={onClose}>{t("settings.webhooks.done")}</Button>
      </div>
    </Modal>
  );
}

function CreateWebhookModal({
  slug,
  open,
  onOpenChange,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  useEffect(() => {
    if (!open) setCreated(null);
  }, [open]);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={created ? t("settings.webhooks.created") : t("settings.webhooks.add")}
      width={560}
    >
      {created ? (
        <>
          <WebhookSecret slug={slug} hook={created} />
          <div className="webhook-form-actions">
            <Button onClick={() => onOpenChange(false)}>{t("settings.webhooks.done")}</Button>
          </div>
        </>
      ) : (
        <WebhookForm
          submitLabel={t("settings.webhooks.create")}
          onCancel={() => onOpenChange(false)}
          onSubmit={async (input) => setCreated(await createWebhook(slug, input))}
        />
      )}
    </Modal>
  );
}
