/**
 * "Create intake request": a title, a description and a priority (what a guest may set; the
 * planning fields are the triager's). Enter in the title or Ctrl/Cmd+Enter submits.
 */
import type { Priority } from "@tideline/shared";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RichTextEditor } from "../../components/editor";
import { Button, Field, Modal, ModalFooter, Select, TextInput } from "../../components/ui";
import { INTAKE_PRIORITIES, type IntakeRequest, submitIntake } from "../../stores/intake";
import { PriorityIcon } from "../work-item/state-icon";

export function CreateIntakeModal({
  slug,
  projectId,
  open,
  onOpenChange,
  onCreated,
}: {
  slug: string;
  projectId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (request: IntakeRequest) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [priority, setPriority] = useState<Priority>("none");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close(next: boolean) {
    if (!next) {
      setName("");
      setDescription("");
      setPriority("none");
      setError(null);
    }
    onOpenChange(next);
  }

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      setError(t("intake.nameRequired"));
      return;
    }
    setBusy(true);
    const created = await submitIntake(
      slug,
      projectId,
      { name: name.trim(), description_html: description || "<p></p>", priority },
      t("intake.errors.submit"),
    );
    setBusy(false);
    if (created) {
      close(false);
      onCreated(created);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={t("intake.create.title")}
      description={t("intake.create.hint")}
      className="intake-create-modal"
    >
      <form className="intake-create-form" onSubmit={(e) => void submit(e)}>
        <TextInput
          label={t("intake.name")}
          error={error ?? undefined}
          placeholder={t("intake.namePlaceholder")}
          value={name}
          maxLength={255}
          autoFocus
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
        />
        <div className="field">
          <span className="field-label">{t("intake.description")}</span>
          <RichTextEditor
            variant="compact"
            ariaLabel={t("intake.description")}
            placeholder={t("intake.descriptionPlaceholder")}
            value={description}
            onChange={setDescription}
            onSubmit={() => void submit()}
            className="intake-create-editor"
          />
        </div>
        <Field label={t("intake.priority")}>
          {(id) => (
            <Select
              id={id}
              labelled
              label={t("intake.priority")}
              value={priority}
              searchable={false}
              icon={<PriorityIcon priority={priority} />}
              onValueChange={(v) => setPriority(v as Priority)}
              options={INTAKE_PRIORITIES.map((p) => ({
                value: p,
                label: t(`workItems.priority.${p}`),
                icon: <PriorityIcon priority={p} />,
              }))}
            />
          )}
        </Field>
        <ModalFooter>
          <Button variant="secondary" onClick={() => close(false)}>
            {t("intake.create.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {t("intake.create.submit")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
