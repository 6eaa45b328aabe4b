/**
 * Create or edit a saved view: name (may stay empty: the view then reads "Untitled"),
 * description and who sees it (public to the project, or private to its owner). "Save as view"
 * opens it with a board's filters and display, which travel with the new view. The server's
 * answer decides: a refused field shows on the field and the form stays open.
 */
import { Globe2, Lock } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Banner, Button, Field, Modal, ModalFooter, Select, TextArea, TextInput } from "../../components/ui";
import { createView, type SavedView, updateView, type ViewAccess } from "../../stores/views";
import { focusOnMount } from "../workspace/components/focus";
import { settingsBody, type ViewSettings } from "./view-logic";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  projectId: string;
  /** Edit this view; create when absent. */
  view?: SavedView | null;
  /** A new view starts with these filters and display (Save as view). */
  settings?: ViewSettings;
  onSaved?: (view: SavedView) => void;
};

const NAME_MAX = 255;
const DESCRIPTION_MAX = 10_000;

export function ViewModal({ open, onOpenChange, slug, projectId, view, settings, onSaved }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [access, setAccess] = useState<ViewAccess>(1);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (!open) return;
    setName(view?.name ?? "");
    setDescription(view?.description ?? "");
    setAccess(view?.access ?? 1);
    setErrors({});
    setMessage(null);
    setBusy(false);
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const fields = { name: name.trim(), description, access };
    const result = view
      ? await updateView(slug, projectId, view.id, fields)
      : await createView(slug, projectId, { ...fields, ...(settings ? settingsBody(settings) : {}) });
    setBusy(false);
    if (!result.ok) {
      setErrors(result.fields);
      setMessage(result.fields.name || result.fields.description ? null : result.message);
      return;
    }
    onOpenChange(false);
    onSaved?.(result.view);
  }

  const accessOptions = [
    { value: "1", label: t("views.access.public"), icon: <Globe2 size={14} aria-hidden /> },
    { value: "0", label: t("views.access.private"), icon: <Lock size={14} aria-hidden /> },
  ];

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={view ? t("views.form.editTitle") : t("views.form.createTitle")}
      description={settings && !view ? t("views.form.fromBoard") : undefined}
      width={520}
    >
      <form className="stack vw-form" onSubmit={submit} noValidate>
        {message ? <Banner>{message}</Banner> : null}
        {view?.is_locked ? <Banner>{t("views.form.lockedHint")}</Banner> : null}
        <TextInput
          label={t("views.form.name")}
          placeholder={t("views.untitled")}
          value={name}
          maxLength={NAME_MAX}
          onChange={(e) => {
            setName(e.target.value);
            setErrors(({ name: _gone, ...rest }) => rest);
          }}
          error={errors.name}
          autoComplete="off"
          ref={focusOnMount}
          disabled={Boolean(view?.is_locked)}
        />
        <TextArea
          label={t("views.form.description")}
          placeholder={t("views.form.descriptionPlaceholder")}
          value={description}
          maxLength={DESCRIPTION_MAX}
          rows={3}
          onChange={(e) => {
            setDescription(e.target.value);
            setErrors(({ description: _gone, ...rest }) => rest);
          }}
          error={errors.description}
          disabled={Boolean(view?.is_locked)}
        />
        <Field label={t("views.form.access")} error={errors.access} hint={t("views.form.accessHint")}>
          {(id, describedBy) => (
            <Select
              id={id}
              labelled
              label={t("views.form.access")}
              value={String(access)}
              options={accessOptions}
              onValueChange={(v) => setAccess(v === "0" ? 0 : 1)}
              aria-describedby={describedBy}
              disabled={Boolean(view?.is_locked)}
            />
          )}
        </Field>
        <ModalFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("views.form.cancel")}
          </Button>
          <Button type="submit" loading={busy} disabled={Boolean(view?.is_locked)}>
            {view ? t("views.form.save") : t("views.form.create")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
