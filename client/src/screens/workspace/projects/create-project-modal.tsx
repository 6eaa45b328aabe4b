import { identifierFromName, NETWORK, PROJECT_IDENTIFIER_MAX, personName, sanitizeIdentifier } from "@tideline/shared";
import { CircleCheck, Globe, Lock, TriangleAlert } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, Modal, ModalFooter, Spinner, TextArea, TextInput } from "../../../components/ui";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { fetchWorkspaceMembers, members } from "../../../stores/members";
import { createProject } from "../../../stores/projects";
import { session } from "../../../stores/session";
import { focusOnMount } from "../components/focus";
import { CoverPicker, coverBackground, EmojiPicker, randomCover, randomEmoji } from "../components/pickers";
import { SelectField } from "../components/select-field";
import { useCurrentWorkspace } from "../use-workspace";
import { type IdentifierStatus, useIdentifierCheck } from "./use-identifier-check";

type Props = { open: boolean; onOpenChange: (open: boolean) => void };

type Errors = Partial<Record<"name" | "identifier" | "description" | "project_lead" | "form", string>>;

/** The create-project modal: name, identifier (derived), description, visibility, lead, emoji and cover. */
export function CreateProjectModal({ open, onOpenChange }: Props) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("projects.create.title")} width={620}>
      {open ? <CreateProjectForm onDone={() => onOpenChange(false)} /> : null}
    </Modal>
  );
}

function CreateProjectForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { slug } = useCurrentWorkspace();
  const membersSnap = useSnapshot(members);
  const me = useSnapshot(session).user;
  const [name, setName] = useState("");
  const [identifier, setIdentifier] = useState("");
  const identifierTouched = useRef(false);
  const [description, setDescription] = useState("");
  const [network, setNetwork] = useState<number>(NETWORK.public);
  const [lead, setLead] = useState("");
  const [emoji, setEmoji] = useState(randomEmoji);
  const [cover, setCover] = useState(randomCover);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const status = useIdentifierCheck(slug, identifier);

  useEffect(() => {
    void fetchWorkspaceMembers(slug).catch(() => undefined);
  }, [slug]);

  const people = membersSnap.bySlug[slug] ?? [];

  function changeName(value: string) {
    setName(value);
    setErrors((e) => ({ ...e, name: undefined, form: undefined }));
    if (!identifierTouched.current) setIdentifier(identifierFromName(value));
  }

  function changeIdentifier(value: string) {
    identifierTouched.current = true;
    setIdentifier(sanitizeIdentifier(value));
    setErrors((e) => ({ ...e, identifier: undefined, form: undefined }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const next: Errors = {};
    if (!name.trim()) next.name = t("projects.form.nameRequired");
    if (!identifier) next.identifier = t("projects.form.identifierRequired");
    else if (status.kind === "invalid") next.identifier = status.message;
    else if (status.kind === "taken") next.identifier = t("projects.form.identifierTaken");
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      const project = await createProject(slug, {
        name: name.trim(),
        identifier,
        description: description.trim(),
        network,
        project_lead: lead || null,
        cover_image: cover,
        logo_props: { in_use: "emoji", emoji: { value: emoji } },
      });
      toast.success(t("projects.create.created", { name: project.name }), {
        action: {
          label: t("projects.create.openSettings"),
          onClick: () => navigate(`/${slug}/projects/${project.id}/settings/`),
        },
      });
      onDone();
    } catch (error) {
      const fields = await fieldErrors(error);
      const known = ["name", "identifier", "description", "project_lead"].filter((k) => fields[k]);
      setErrors({
        name: fields.name,
        identifier: fields.identifier,
        description: fields.description,
        project_lead: fields.project_lead,
        form: known.length === 0 ? await errorMessage(error) : undefined,
      });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <div className="cover-preview" style={{ background: coverBackground(cover) }}>
        <div className="cover-preview-actions">
          <CoverPicker value={cover} onChange={setCover} />
        </div>
      </div>
      <div className="logo-anchor">
        <EmojiPicker value={emoji} onChange={setEmoji} />
      </div>
      <div className="stack" style={{ "--gap": "14px" } as React.CSSProperties}>
        {errors.form ? <Banner>{errors.form}</Banner> : null}
        <div className="form-grid">
          <TextInput
            label={t("projects.form.name")}
            placeholder={t("projects.form.namePlaceholder")}
            value={name}
            onChange={(e) => changeName(e.target.value)}
            error={errors.name}
            maxLength={255}
            ref={focusOnMount}
            required
          />
          <TextInput
            label={t("projects.form.identifier")}
            className="input input-identifier"
            placeholder="PRJ"
            value={identifier}
            onChange={(e) => changeIdentifier(e.target.value)}
            error={errors.identifier}
            hint={<IdentifierHint status={status} />}
            maxLength={PROJECT_IDENTIFIER_MAX}
            required
          />
        </div>
        <TextArea
          label={t("projects.form.description")}
          placeholder={t("projects.form.descriptionPlaceholder")}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description}
          rows={2}
          className="textarea textarea-compact"
        />
        <NetworkChoice value={network} onChange={setNetwork} />
        <SelectField
          label={t("projects.form.lead")}
          value={lead}
          onValueChange={(v) => {
            setLead(v);
            setErrors((e) => ({ ...e, project_lead: undefined }));
          }}
          error={errors.project_lead}
          options={[
            { value: "", label: t("projects.form.noLead") },
            ...people.map((m) => ({
              value: m.member.id,
              label:
                m.member.id === me?.id
                  ? t("projects.form.leadYou", { name: personName(m.member) })
                  : personName(m.member),
            })),
          ]}
        />
      </div>
      <ModalFooter>
        <Button variant="secondary" onClick={onDone}>
          {t("workspace.common.cancel")}
        </Button>
        <Button type="submit" loading={busy}>
          {t("projects.create.submit")}
        </Button>
      </ModalFooter>
    </form>
  );
}

export function IdentifierHint({ status }: { status: IdentifierStatus }) {
  const { t } = useTranslation();
  switch (status.kind) {
    case "checking":
      return (
        <span className="identifier-status">
          <Spinner label={t("projects.form.checking")} /> {t("projects.form.checking")}
        </span>
      );
    case "available":
      return (
        <span className="identifier-status text-success">
          <CircleCheck size={12} aria-hidden /> {t("projects.form.identifierAvailable")}
        </span>
      );
    case "taken":
      return (
        <span className="identifier-status text-danger">
          <TriangleAlert size={12} aria-hidden /> {t("projects.form.identifierTaken")}
        </span>
      );
    case "invalid":
      return <span className="identifier-status text-danger">{status.message}</span>;
    default:
      return <span>{t("projects.form.identifierHint")}</span>;
  }
}

/** Public / private as two radio cards (arrow keys move between them). */
export function NetworkChoice({
  value,
  onChange,
  disabled,
}: {
  value: number;
  onChange: (network: number) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const options = [
    {
      value: NETWORK.public,
      icon: <Globe size={14} aria-hidden />,
      title: t("projects.network.public"),
      hint: t("projects.network.publicHint"),
    },
    {
      value: NETWORK.private,
      icon: <Lock size={14} aria-hidden />,
      title: t("projects.network.private"),
      hint: t("projects.network.privateHint"),
    },
  ];
  return (
    <fieldset className="field" style={{ border: "none", margin: 0, padding: 0 }} disabled={disabled}>
      <legend className="field-label" style={{ marginBottom: 6, padding: 0 }}>
        {t("projects.form.visibility")}
      </legend>
      <div className="network-options">
        {options.map((o) => (
          <label key={o.value} className="network-option">
            <input
              type="radio"
              name="network"
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
            />
            <div className="stack" style={{ "--gap": "2px" } as React.CSSProperties}>
              <span className="network-option-title">
                {o.icon}
                {o.title}
              </span>
              <span className="network-option-hint">{o.hint}</span>
            </div>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
