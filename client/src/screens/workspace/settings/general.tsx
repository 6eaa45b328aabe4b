import { ORGANIZATION_SIZES } from "@tideline/shared";
import { DoorOpen, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Banner, Button, TextInput } from "../../../components/ui";
import { deleteWorkspace, leaveWorkspace, saveWorkspaceSettings } from "../../../stores/workspaces";
import { ConfirmModal } from "../components/confirm-modal";
import { WorkspaceLogo } from "../components/logos";
import { SelectField } from "../components/select-field";
import { DangerRow, SettingsHeading, saveErrors } from "../components/settings-parts";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";

type Errors = Partial<Record<"name" | "logo_url" | "organization_size" | "form", string>>;

/** Workspace settings → General: name, logo, size (admins change them); delete or leave. */
export function WorkspaceGeneralSettings() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { slug, workspace, role } = useCurrentWorkspace();
  const editable = can.editWorkspace(role);
  const [name, setName] = useState(workspace?.name ?? "");
  const [logoUrl, setLogoUrl] = useState(workspace?.logo_url ?? "");
  const [size, setSize] = useState(workspace?.organization_size ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState<"delete" | "leave" | null>(null);

  useEffect(() => {
    setName(workspace?.name ?? "");
    setLogoUrl(workspace?.logo_url ?? "");
    setSize(workspace?.organization_size ?? "");
  }, [workspace?.name, workspace?.logo_url, workspace?.organization_size]);

  if (!workspace) return null;

  const dirty =
    name !== workspace.name ||
    (logoUrl || null) !== (workspace.logo_url ?? null) ||
    size !== workspace.organization_size;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!editable || saving || !workspace) return;
    const next: Errors = {};
    if (!name.trim()) next.name = t("settings.general.nameRequired");
    const url = logoUrl.trim();
    if (url && !/^https?:\/\/\S+$/i.test(url) && !url.startsWith("/"))
      next.logo_url = t("settings.general.logoInvalid");
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setSaving(true);
    try {
      await saveWorkspaceSettings(slug, {
        name: name.trim(),
        logo_url: url || null,
        ...(size ? { organization_size: size } : {}),
      });
      toast.success(t("settings.general.saved"));
    } catch (error) {
      setErrors(await saveErrors(error, ["name", "logo_url", "organization_size"]));
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <SettingsHeading title={t("settings.general.title")} hint={t("settings.general.hint")} />
      {!editable ? (
        <div className="readonly-note">
          <Banner kind="info">{t("settings.general.readOnly")}</Banner>
        </div>
      ) : null}

      <form className="settings-section" onSubmit={submit} noValidate>
        {errors.form ? <Banner>{errors.form}</Banner> : null}
        <div className="row" style={{ "--gap": "14px" } as React.CSSProperties}>
          <WorkspaceLogo name={name || workspace.name} url={logoUrl || null} size={56} />
          <div className="stack" style={{ "--gap": "2px" } as React.CSSProperties}>
            <strong>{workspace.name}</strong>
            <span className="muted">
              {window.location.host}/{workspace.slug}
            </span>
          </div>
        </div>
        <div className="form-row-2">
          <TextInput
            label={t("settings.general.name")}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            error={errors.name}
            disabled={!editable}
            maxLength={80}
          />
          <TextInput
            label={t("settings.general.url")}
            value={`${window.location.host}/${workspace.slug}`}
            readOnly
            disabled
            hint={t("settings.general.urlHint")}
          />
        </div>
        <div className="form-row-2">
          <TextInput
            label={t("settings.general.logo")}
            placeholder="https://…/logo.png"
            value={logoUrl}
            onChange={(e) => {
              setLogoUrl(e.target.value);
              setErrors((x) => ({ ...x, logo_url: undefined }));
            }}
            error={errors.logo_url}
            hint={t("settings.general.logoHint")}
            disabled={!editable}
          />
          <SelectField
            label={t("onboarding.workspace.size")}
            value={size}
            onValueChange={setSize}
            error={errors.organization_size}
            placeholder={t("onboarding.workspace.sizePlaceholder")}
            options={ORGANIZATION_SIZES.map((s) => ({ value: s, label: s }))}
            disabled={!editable}
          />
        </div>
        {editable ? (
          <div className="settings-actions">
            <Button type="submit" loading={saving} disabled={!dirty}>
              {t("settings.general.save")}
            </Button>
          </div>
        ) : null}
      </form>

      <section className="settings-section" aria-labelledby="ws-danger">
        <h2 id="ws-danger" className="section-title">
          {t("projects.settings.dangerZone")}
        </h2>
        <div className="danger-zone">
          <DangerRow title={t("settings.general.leave")} hint={t("settings.general.leaveHint")}>
            <Button variant="secondary" onClick={() => setConfirm("leave")}>
              <DoorOpen size={14} aria-hidden />
              {t("settings.general.leave")}
            </Button>
          </DangerRow>
          {editable ? (
            <DangerRow title={t("settings.general.delete")} hint={t("settings.general.deleteHint")}>
              <Button variant="danger" onClick={() => setConfirm("delete")}>
                <Trash2 size={14} aria-hidden />
                {t("settings.general.delete")}
              </Button>
            </DangerRow>
          ) : null}
        </div>
      </section>

      <ConfirmModal
        open={confirm === "delete"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t("settings.general.deleteTitle", { name: workspace.name })}
        description={t("settings.general.deleteDescription")}
        typeToConfirm={workspace.name}
        confirmLabel={t("settings.general.delete")}
        onConfirm={async () => {
          if (await deleteWorkspace(slug)) {
            toast.success(t("settings.general.deleted"));
            navigate("/", { replace: true });
          }
        }}
      />
      <ConfirmModal
        open={confirm === "leave"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t("settings.general.leaveTitle", { name: workspace.name })}
        description={t("settings.general.leaveDescription")}
        confirmLabel={t("settings.general.leave")}
        onConfirm={async () => {
          if (await leaveWorkspace(slug)) navigate("/", { replace: true });
        }}
      />
    </>
  );
}
