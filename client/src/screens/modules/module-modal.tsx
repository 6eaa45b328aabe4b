/**
 * Create or edit a module: name (required), description, start and target dates, status, lead
 * and members. The server's answer decides: a 400 or a 409 (name taken) shows on its field and
 * the form stays open with what was typed.
 */
import { DEFAULT_MODULE_STATUS, MODULE_DESCRIPTION_MAX, MODULE_NAME_MAX, type ModuleStatus } from "@tideline/shared";
import { ChevronDown, Users } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  Banner,
  Button,
  Combobox,
  DateInput,
  Field,
  Modal,
  ModalFooter,
  Select,
  TextArea,
  TextInput,
} from "../../components/ui";
import { createModule, type Module, type ModuleInput, saveModule } from "../../stores/modules";
import type { ProjectMember } from "../../stores/project-meta";
import { focusOnMount } from "../workspace/components/focus";
import { AvatarStack, memberOptions, type Person, personOf, useStatusOptions } from "./module-bits";

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  slug: string;
  projectId: string;
  members: readonly ProjectMember[];
  /** Edit this module; create when absent. */
  module?: Module | null;
  /** Start a new module in this status (the board's column "+"). */
  initialStatus?: ModuleStatus;
  onSaved?: (module: Module) => void;
};

type Form = {
  name: string;
  description: string;
  start_date: string | null;
  target_date: string | null;
  status: ModuleStatus;
  lead_id: string | null;
  member_ids: string[];
};

const NO_LEAD = "__none__";

function initialForm(module: Module | null | undefined, status: ModuleStatus | undefined): Form {
  return {
    name: module?.name ?? "",
    description: module?.description ?? "",
    start_date: module?.start_date ?? null,
    target_date: module?.target_date ?? null,
    status: module?.status ?? status ?? DEFAULT_MODULE_STATUS,
    lead_id: module?.lead_id ?? null,
    member_ids: [...(module?.member_ids ?? [])],
  };
}

export function ModuleModal({ open, onOpenChange, slug, projectId, members, module, initialStatus, onSaved }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>(() => initialForm(module, initialStatus));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const statusOptions = useStatusOptions();

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (!open) return;
    setForm(initialForm(module, initialStatus));
    setErrors({});
    setMessage(null);
    setBusy(false);
  }, [open]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => {
      if (!e[key]) return e;
      const { [key]: _gone, ...rest } = e;
      return rest;
    });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const local: Record<string, string> = {};
    if (!form.name.trim()) local.name = t("modules.form.nameRequired");
    if (form.start_date && form.target_date && form.target_date < form.start_date)
      local.target_date = t("modules.form.targetBeforeStart");
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    setBusy(true);
    const input: ModuleInput = {
      name: form.name.trim(),
      description: form.description,
      start_date: form.start_date,
      target_date: form.target_date,
      status: form.status,
      lead_id: form.lead_id,
      member_ids: form.member_ids,
    };
    const result = module
      ? await saveModule(slug, projectId, module.id, input)
      : await createModule(slug, projectId, input);
    setBusy(false);
    if (!result.ok) {
      setErrors(result.fields);
      setMessage(Object.keys(result.fields).length ? null : result.message);
      return;
    }
    onOpenChange(false);
    onSaved?.(result.module);
  }

  const leadOptions = [{ value: NO_LEAD, label: t("modules.form.noLead") }, ...memberOptions(members)];
  const people = form.member_ids.map((id) => personOf(members, id)).filter((p): p is Person => Boolean(p));

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={module ? t("modules.form.editTitle") : t("modules.form.createTitle")}
      width={560}
    >
      <form className="stack mo-form" onSubmit={submit} noValidate>
        {message ? <Banner>{message}</Banner> : null}
        <TextInput
          label={t("modules.form.name")}
          placeholder={t("modules.form.namePlaceholder")}
          value={form.name}
          maxLength={MODULE_NAME_MAX}
          onChange={(e) => set("name", e.target.value)}
          error={errors.name}
          autoComplete="off"
          ref={focusOnMount}
          required
        />
        <TextArea
          label={t("modules.form.description")}
          placeholder={t("modules.form.descriptionPlaceholder")}
          value={form.description}
          maxLength={MODULE_DESCRIPTION_MAX}
          rows={3}
          onChange={(e) => set("description", e.target.value)}
          error={errors.description ?? errors.description_html}
        />
        <div className="mo-form-row">
          <Field label={t("modules.form.startDate")} error={errors.start_date}>
            {(id, describedBy) => (
              <DateInput
                id={id}
                labelled
                label={t("modules.form.startDate")}
                value={form.start_date}
                max={form.target_date}
                onChange={(v) => set("start_date", v)}
                placeholder={t("modules.form.noDate")}
                clearable
                aria-describedby={describedBy}
              />
            )}
          </Field>
          <Field label={t("modules.form.targetDate")} error={errors.target_date}>
            {(id, describedBy) => (
              <DateInput
                id={id}
                labelled
                label={t("modules.form.targetDate")}
                value={form.target_date}
                min={form.start_date}
                onChange={(v) => set("target_date", v)}
                placeholder={t("modules.form.noDate")}
                clearable
                aria-describedby={describedBy}
              />
            )}
          </Field>
        </div>
        <div className="mo-form-row mo-form-row-3">
          <Field label={t("modules.form.status")} error={errors.status}>
            {(id, describedBy) => (
              <Select
                id={id}
                labelled
                label={t("modules.form.status")}
                value={form.status}
                options={statusOptions}
                onValueChange={(v) => set("status", v as ModuleStatus)}
                aria-describedby={describedBy}
              />
            )}
          </Field>
          <Field label={t("modules.form.lead")} error={errors.lead_id}>
            {(id, describedBy) => (
              <Select
                id={id}
                labelled
                label={t("modules.form.lead")}
                value={form.lead_id ?? NO_LEAD}
                options={leadOptions}
                searchable
                onValueChange={(v) => set("lead_id", v === NO_LEAD ? null : v)}
                aria-describedby={describedBy}
              />
            )}
          </Field>
          <Field label={t("modules.form.members")} error={errors.member_ids}>
            {(id, describedBy) => (
              <Combobox
                label={t("modules.form.members")}
                options={memberOptions(members)}
                multiple
                isSelected={(v) => form.member_ids.includes(v)}
                onSelect={(v) =>
                  set(
                    "member_ids",
                    form.member_ids.includes(v) ? form.member_ids.filter((m) => m !== v) : [...form.member_ids, v],
                  )
                }
                searchPlaceholder={t("modules.form.searchMembers")}
                emptyText={t("modules.form.noMembersFound")}
              >
                <button type="button" id={id} className="input select-trigger" aria-describedby={describedBy}>
                  {people.length ? (
                    <AvatarStack people={people} size={18} />
                  ) : (
                    <Users size={14} className="select-trigger-chevron" aria-hidden />
                  )}
                  <span
                    className={
                      people.length ? "select-trigger-value" : "select-trigger-value select-trigger-placeholder"
                    }
                  >
                    {people.length
                      ? people.length === 1
                        ? people[0]?.name
                        : t("modules.form.membersCount", { count: people.length })
                      : t("modules.form.noMembers")}
                  </span>
                  <ChevronDown size={14} className="select-trigger-chevron" aria-hidden />
                </button>
              </Combobox>
            )}
          </Field>
        </div>
        <ModalFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("modules.form.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {module ? t("modules.form.save") : t("modules.form.create")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}
