import { personName, sanitizeIdentifier } from "@tideline/shared";
import { Archive, ArchiveRestore, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, TextArea, TextInput } from "../../../components/ui";
import { errorMessage } from "../../../lib/api";
import { forgetFavorite } from "../../../stores/favorites";
import { fetchProjectMembers, members } from "../../../stores/members";
import {
  archiveProject,
  deleteProject,
  type ProjectPatch,
  restoreProject,
  saveProjectSettings,
} from "../../../stores/projects";
import { ConfirmModal } from "../components/confirm-modal";
import { CoverPicker, coverBackground, EmojiPicker } from "../components/pickers";
import { SelectField } from "../components/select-field";
import { DangerRow, SettingsHeading, saveErrors } from "../components/settings-parts";
import { can } from "../permissions";
import { IdentifierHint, NetworkChoice } from "../projects/create-project-modal";
import { useIdentifierCheck } from "../projects/use-identifier-check";
import { useCurrentWorkspace } from "../use-workspace";
import { useProjectSettings } from "./layout";

type Errors = Partial<Record<"name" | "identifier" | "description" | "project_lead" | "form", string>>;

/** Project settings → General: identity, visibility, lead, cover; archive and delete. */
export function ProjectGeneralSettings() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { slug } = useCurrentWorkspace();
  const { project, projectRole } = useProjectSettings();
  const editable = can.editProject(projectRole) && !project.archived_at;
  const membersSnap = useSnapshot(members);

  const [name, setName] = useState(project.name);
  const [identifier, setIdentifier] = useState(project.identifier);
  const [description, setDescription] = useState(project.description);
  const [network, setNetwork] = useState(project.network);
  const [lead, setLead] = useState(project.project_lead ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState<"archive" | "delete" | null>(null);
  const status = useIdentifierCheck(slug, identifier, project.identifier);

  // Another tab or person changed the project: show the new values when nothing is being edited.
  useEffect(() => {
    setName(project.name);
    setIdentifier(project.identifier);
    setDescription(project.description);
    setNetwork(project.network);
    setLead(project.project_lead ?? "");
  }, [project.name, project.identifier, project.description, project.network, project.project_lead]);

  useEffect(() => {
    void fetchProjectMembers(slug, project.id).catch(() => undefined);
  }, [slug, project.id]);

  const people = membersSnap.byProject[project.id] ?? [];
  const emoji = project.logo_props?.emoji?.value ?? "📦";

  const dirty =
    name !== project.name ||
    identifier !== project.identifier ||
    description !== project.description ||
    network !== project.network ||
    (lead || null) !== (project.project_lead ?? null);

  async function quickSave(patch: ProjectPatch) {
    try {
      await saveProjectSettings(slug, project.id, patch);
    } catch (error) {
      toast.error(t("projects.settings.saveFailed"), { description: await errorMessage(error) });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!editable || saving) return;
    const next: Errors = {};
    if (!name.trim()) next.name = t("projects.form.nameRequired");
    if (!identifier) next.identifier = t("projects.form.identifierRequired");
    else if (status.kind === "taken") next.identifier = t("projects.form.identifierTaken");
    else if (status.kind === "invalid") next.identifier = status.message;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const patch: ProjectPatch = {};
    if (name.trim() !== project.name) patch.name = name.trim();
    if (identifier !== project.identifier) patch.identifier = identifier;
    if (description !== project.description) patch.description = description;
    if (network !== project.network) patch.network = network;
    if ((lead || null) !== (project.project_lead ?? null)) patch.project_lead = lead || null;
    setSaving(true);
    try {
      await saveProjectSettings(slug, project.id, patch);
      toast.success(t("projects.settings.saved"));
    } catch (error) {
      setErrors(await saveErrors(error, ["name", "identifier", "description", "project_lead"]));
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      <SettingsHeading title={t("projects.settings.general")} hint={t("projects.settings.generalHint")} />

      {project.archived_at ? (
        <div className="readonly-note">
          <Banner kind="warning">{t("projects.settings.archivedNote")}</Banner>
        </div>
      ) : !editable ? (
        <div className="readonly-note">
          <Banner kind="info">{t("projects.settings.readOnly")}</Banner>
        </div>
      ) : null}

      <div className="settings-cover" style={{ background: coverBackground(project.cover_image) }}>
        <EmojiPicker
          value={emoji}
          disabled={!editable}
          onChange={(value) => void quickSave({ logo_props: { in_use: "emoji", emoji: { value } } })}
        />
        <div className="cover-preview-actions">
          <CoverPicker
            value={project.cover_image}
            disabled={!editable}
            onChange={(cover) => void quickSave({ cover_image: cover })}
          />
        </div>
      </div>

      <form className="settings-section" onSubmit={submit} noValidate>
        {errors.form ? <Banner>{errors.form}</Banner> : null}
        <div className="form-grid">
          <TextInput
            label={t("projects.form.name")}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            error={errors.name}
            disabled={!editable}
            maxLength={255}
          />
          <TextInput
            label={t("projects.form.identifier")}
            className="input input-identifier"
            value={identifier}
            onChange={(e) => {
              setIdentifier(sanitizeIdentifier(e.target.value));
              setErrors((x) => ({ ...x, identifier: undefined }));
            }}
            error={errors.identifier}
            hint={<IdentifierHint status={status} />}
            disabled={!editable}
          />
        </div>
        <TextArea
          label={t("projects.form.description")}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description}
          disabled={!editable}
          rows={4}
        />
        <NetworkChoice value={network} onChange={setNetwork} disabled={!editable} />
        <SelectField
          label={t("projects.form.lead")}
          value={lead}
          onValueChange={setLead}
          error={errors.project_lead}
          disabled={!editable}
          options={[
            { value: "", label: t("projects.form.noLead") },
            ...people.map((m) => ({ value: m.member, label: personName(m.member_details) })),
          ]}
          hint={t("projects.settings.leadHint")}
        />
        {editable ? (
          <div className="settings-actions">
            <Button type="submit" loading={saving} disabled={!dirty}>
              {t("projects.settings.save")}
            </Button>
            {dirty ? (
              <Button
                variant="ghost"
                onClick={() => {
                  setName(project.name);
                  setIdentifier(project.identifier);
                  setDescription(project.description);
                  setNetwork(project.network);
                  setLead(project.project_lead ?? "");
                  setErrors({});
                }}
              >
                {t("projects.settings.discard")}
              </Button>
            ) : null}
          </div>
        ) : null}
      </form>

      {can.editProject(projectRole) ? (
        <section className="settings-section" aria-labelledby="danger-title">
          <h2 id="danger-title" className="section-title">
            {t("projects.settings.dangerZone")}
          </h2>
          <div className="danger-zone">
            <DangerRow
              title={project.archived_at ? t("projects.settings.restore") : t("projects.settings.archive")}
              hint={project.archived_at ? t("projects.settings.restoreHint") : t("projects.settings.archiveHint")}
            >
              {project.archived_at ? (
                <Button variant="secondary" onClick={() => void restoreProject(slug, project.id)}>
                  <ArchiveRestore size={14} aria-hidden />
                  {t("projects.settings.restore")}
                </Button>
              ) : (
                <Button variant="secondary" onClick={() => setConfirm("archive")}>
                  <Archive size={14} aria-hidden />
                  {t("projects.settings.archive")}
                </Button>
              )}
            </DangerRow>
            <DangerRow title={t("projects.settings.delete")} hint={t("projects.settings.deleteHint")}>
              <Button variant="danger" onClick={() => setConfirm("delete")}>
                <Trash2 size={14} aria-hidden />
                {t("projects.settings.delete")}
              </Button>
            </DangerRow>
          </div>
        </section>
      ) : null}

      <ConfirmModal
        open={confirm === "archive"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t("projects.archive.title", { name: project.name })}
        description={t("projects.archive.description")}
        confirmLabel={t("projects.settings.archive")}
        danger={false}
        onConfirm={async () => {
          if (await archiveProject(slug, project.id)) {
            forgetFavorite(slug, project.id);
            setConfirm(null);
          }
        }}
      />
      <ConfirmModal
        open={confirm === "delete"}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={t("projects.delete.title", { name: project.name })}
        description={t("projects.delete.description")}
        typeToConfirm={project.name}
        confirmLabel={t("projects.delete.confirm")}
        onConfirm={async () => {
          const target = `/${slug}/projects/`;
          if (await deleteProject(slug, project.id)) {
            forgetFavorite(slug, project.id);
            setConfirm(null);
            navigate(target);
          }
        }}
      />
    </>
  );
}
