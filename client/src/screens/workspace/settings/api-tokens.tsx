import { BookOpen, KeyRound, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, DateInput, type Day, Field, Modal, Select, TextArea, TextInput, toDay } from "../../../components/ui";
import { errorMessage, fieldErrors } from "../../../lib/api";
import {
  type ApiToken,
  type ApiTokenWithSecret,
  apiTokensStore,
  createApiToken,
  deleteApiToken,
  loadApiTokens,
} from "../../../stores/api-tokens";
import { ConfirmModal } from "../components/confirm-modal";
import { MenuItem } from "../components/menu";
import { AddButton, RowActionsMenu, SecretOnce, SettingsHeading, SettingsList } from "../components/settings-parts";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import "./api-tokens.css";

/** The expiry choices of the reference's create form. */
const EXPIRY_CHOICES = ["never", "7", "30", "60", "90", "custom"] as const;
type Expiry = (typeof EXPIRY_CHOICES)[number];

/** Workspace settings → API tokens (admins): the caller's tokens, create (shown once), delete. */
export function WorkspaceApiTokensSettings() {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const snap = useSnapshot(apiTokensStore);
  const isAdmin = can.manageApiTokens(role);
  const [creating, setCreating] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!isAdmin) return;
    setFailed(false);
    void loadApiTokens(slug).catch(() => setFailed(true));
  }, [slug, isAdmin]);

  if (workspace && !isAdmin) return <Navigate to={`/${slug}/settings/`} replace />;
  const list = snap.bySlug[slug] as readonly ApiToken[] | undefined;

  return (
    <>
      <SettingsHeading
        title={t("settings.apiTokens.title")}
        hint={
          <>
            {t("settings.apiTokens.hint")}{" "}
            <Link to={`/${slug}/settings/api-tokens/reference/`} className="api-token-doc-link">
              <BookOpen size={13} aria-hidden />
              {t("settings.apiTokens.reference")}
            </Link>
          </>
        }
      >
        {list?.length ? <AddButton label={t("settings.apiTokens.add")} onClick={() => setCreating(true)} /> : null}
      </SettingsHeading>
      <SettingsList
        items={list}
        failed={failed}
        label={t("settings.apiTokens.title")}
        className="api-token-list"
        empty={{
          icon: KeyRound,
          title: t("settings.apiTokens.empty"),
          description: t("settings.apiTokens.emptyHint"),
          action: <AddButton label={t("settings.apiTokens.add")} onClick={() => setCreating(true)} />,
        }}
        row={(token) => <TokenRow key={token.id} slug={slug} token={token} />}
      />
      <CreateTokenModal slug={slug} open={creating} onOpenChange={setCreating} />
    </>
  );
}

function useDateFormat() {
  const { i18n } = useTranslation();
  return (iso: string, withTime = false) =>
    new Intl.DateTimeFormat(
      i18n.language,
      withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" },
    ).format(new Date(iso));
}

function TokenRow({ slug, token }: { slug: string; token: ApiToken }) {
  const { t } = useTranslation();
  const format = useDateFormat();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const expired = !token.is_active;
  return (
    <li className="api-token-row" data-testid="api-token-row">
      <div className="api-token-main">
        <span className="api-token-label">{token.label}</span>
        {token.description ? <span className="api-token-description">{token.description}</span> : null}
        <span className="api-token-meta">
          <span className={expired ? "badge api-token-badge" : "badge api-token-badge api-token-badge-active"}>
            {expired ? t("settings.apiTokens.expired") : t("settings.apiTokens.active")}
          </span>
          <span>
            {token.expired_at
              ? t(expired ? "settings.apiTokens.expiredOn" : "settings.apiTokens.expiresOn", {
                  date: format(token.expired_at),
                })
              : t("settings.apiTokens.neverExpires")}
          </span>
          <span aria-hidden>·</span>
          <span data-testid="api-token-last-used">
            {token.last_used
              ? t("settings.apiTokens.lastUsed", { date: format(token.last_used, true) })
              : t("settings.apiTokens.neverUsed")}
          </span>
        </span>
      </div>
      <RowActionsMenu label={t("settings.apiTokens.actionsFor", { label: token.label })}>
        <MenuItem danger icon={<Trash2 size={14} />} onSelect={() => setConfirmDelete(true)}>
          {t("settings.apiTokens.delete")}
        </MenuItem>
      </RowActionsMenu>
      <ConfirmModal
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t("settings.apiTokens.deleteTitle")}
        description={t("settings.apiTokens.deleteDescription", { label: token.label })}
        confirmLabel={t("settings.apiTokens.delete")}
        onConfirm={async () => {
          if (await deleteApiToken(slug, token.id, t("settings.apiTokens.deleteFailed")))
            toast.success(t("settings.apiTokens.deleted"));
        }}
      />
    </li>
  );
}

function CreateTokenModal({
  slug,
  open,
  onOpenChange,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<ApiTokenWithSecret | null>(null);
  useEffect(() => {
    if (!open) setCreated(null);
  }, [open]);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={created ? t("settings.apiTokens.created") : t("settings.apiTokens.add")}
      width={560}
    >
      {created ? (
        <>
          <TokenOnce token={created} />
          <div className="api-token-form-actions">
            <Button onClick={() => onOpenChange(false)}>{t("settings.apiTokens.done")}</Button>
          </div>
        </>
      ) : (
        <TokenForm
          onCancel={() => onOpenChange(false)}
          onSubmit={async (input) => setCreated(await createApiToken(slug, input))}
        />
      )}
    </Modal>
  );
}

/** ISO end of the chosen expiry: N days from now, or the chosen day (its end, on the server). */
function expiryOf(choice: Expiry, custom: Day | null): string | null {
  if (choice === "never") return null;
  if (choice === "custom") return custom;
  return new Date(Date.now() + Number(choice) * 86_400_000).toISOString();
}

function TokenForm({
  onSubmit,
  onCancel,
}: {
  onSubmit: (input: { label: string; description: string; expired_at: string | null }) => Promise<unknown>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [label, setLabel] = useState("");
  const [description, setDescription] = useState("");
  const [expiry, setExpiry] = useState<Expiry>("30");
  const [custom, setCustom] = useState<Day | null>(null);
  const [labelError, setLabelError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tomorrow = toDay(new Date(Date.now() + 86_400_000));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLabelError(null);
    setFormError(null);
    if (!label.trim()) {
      setLabelError(t("settings.apiTokens.titleRequired"));
      return;
    }
    if (expiry === "custom" && !custom) {
      setFormError(t("settings.apiTokens.pickDate"));
      return;
    }
    setBusy(true);
    try {
      await onSubmit({ label: label.trim(), description, expired_at: expiryOf(expiry, custom) });
    } catch (error) {
      const fields = await fieldErrors(error);
      if (fields.label) setLabelError(fields.label);
      else setFormError(await errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const options = EXPIRY_CHOICES.map((value) => ({
    value,
    label:
      value === "never"
        ? t("settings.apiTokens.expiry.never")
        : value === "custom"
          ? t("settings.apiTokens.expiry.custom")
          : t("settings.apiTokens.expiry.days", { count: Number(value) }),
  }));

  return (
    <form className="api-token-form" onSubmit={(e) => void submit(e)} noValidate>
      <TextInput
        label={t("settings.apiTokens.titleLabel")}
        placeholder={t("settings.apiTokens.titlePlaceholder")}
        value={label}
        maxLength={255}
        onChange={(e) => setLabel(e.target.value)}
        error={labelError}
        autoFocus
      />
      <TextArea
        label={t("settings.apiTokens.descriptionLabel")}
        placeholder={t("settings.apiTokens.descriptionPlaceholder")}
        value={description}
        rows={3}
        maxLength={5000}
        onChange={(e) => setDescription(e.target.value)}
      />
      <div className="api-token-expiry">
        <Field label={t("settings.apiTokens.expiry.label")}>
          {(id, describedBy) => (
            <Select
              id={id}
              labelled
              aria-describedby={describedBy}
              label={t("settings.apiTokens.expiry.label")}
              value={expiry}
              options={options}
              onValueChange={(v) => setExpiry(v as Expiry)}
            />
          )}
        </Field>
        {expiry === "custom" ? (
          <Field label={t("settings.apiTokens.expiry.date")}>
            {(id, describedBy) => (
              <DateInput
                id={id}
                labelled
                aria-describedby={describedBy}
                label={t("settings.apiTokens.expiry.date")}
                value={custom}
                min={tomorrow}
                onChange={setCustom}
              />
            )}
          </Field>
        ) : null}
      </div>
      <p className="muted api-token-expiry-note">
        {expiry === "never" ? t("settings.apiTokens.expiry.noteNever") : t("settings.apiTokens.expiry.note")}
      </p>
      {formError ? (
        <p className="field-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="api-token-form-actions">
        <Button variant="secondary" onClick={onCancel}>
          {t("settings.apiTokens.cancel")}
        </Button>
        <Button type="submit" loading={busy}>
          {t("settings.apiTokens.create")}
        </Button>
      </div>
    </form>
  );
}

/** The new token's secret, shown this once, with a copy button. */
function TokenOnce({ token }: { token: ApiTokenWithSecret }) {
  const { t } = useTranslation();
  return (
    <SecretOnce
      value={token.token}
      hint={t("settings.apiTokens.secretHint")}
      testId="api-token-secret"
      labels={{
        copy: t("settings.apiTokens.copy"),
        copied: t("settings.apiTokens.copied"),
        copyFailed: t("settings.apiTokens.copyFailed"),
        copiedShort: t("settings.apiTokens.copiedShort"),
      }}
    />
  );
}
