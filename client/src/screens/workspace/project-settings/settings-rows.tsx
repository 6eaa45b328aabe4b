/**
 * The parts the project's list settings (states, labels, estimates) share: the retry shown when
 * the project's metadata could not load, a row's drag handle, and the inline add/edit form of a
 * coloured, named thing (Enter saves, Escape cancels).
 */
import type { DraggableAttributes, DraggableSyntheticListeners } from "@dnd-kit/core";
import { GripVertical } from "lucide-react";
import { type Dispatch, type FormEvent, type ReactNode, type SetStateAction, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/ui";
import { loadProjectMeta } from "../../../stores/project-meta";
import { ColorPicker } from "./color-picker";

/** The metadata could not load and nothing is cached: say so, with a retry. */
export function MetaLoadFailed({ slug, projectId, message }: { slug: string; projectId: string; message: string }) {
  const { t } = useTranslation();
  return (
    <div className="stack" style={{ alignItems: "flex-start" }}>
      <p className="muted">{message}</p>
      <Button variant="secondary" onClick={() => void loadProjectMeta(slug, projectId, true).catch(() => undefined)}>
        {t("workspace.common.retry")}
      </Button>
    </div>
  );
}

/** The grip a sortable row is dragged by (also focusable: Space picks it up for the keyboard). */
export function DragHandle({
  label,
  disabled,
  activatorRef,
  attributes,
  listeners,
}: {
  label: string;
  disabled: boolean;
  activatorRef: (element: HTMLElement | null) => void;
  attributes: DraggableAttributes;
  listeners: DraggableSyntheticListeners;
}) {
  return (
    <button
      type="button"
      ref={activatorRef}
      className="drag-handle"
      aria-label={label}
      disabled={disabled}
      {...attributes}
      {...listeners}
    >
      <GripVertical size={14} aria-hidden />
    </button>
  );
}

/**
 * A row's inline add/edit form: its fields, Cancel and the submit button, and the error under
 * them. Escape cancels, except inside a popover of a field (a portal, so outside this form's DOM),
 * where it only closes the popover.
 */
function InlineForm({
  submitLabel,
  canSubmit,
  error,
  onSubmit,
  onCancel,
  children,
}: {
  submitLabel: string;
  canSubmit: boolean;
  error: string | null;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form
      className="inline-form"
      onSubmit={onSubmit}
      onKeyDown={(e) => {
        if (e.key === "Escape" && e.currentTarget.contains(e.target as Node)) {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <div className="inline-form-fields">
        {children}
        <Button variant="secondary" size="sm" onClick={onCancel}>
          {t("workspace.common.cancel")}
        </Button>
        <Button type="submit" size="sm" disabled={!canSubmit}>
          {submitLabel}
        </Button>
      </div>
      {error ? (
        <span className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}

/** The name field of an inline form, focused when the form opens. */
function InlineNameInput({
  label,
  placeholder,
  value,
  invalid,
  onChange,
}: {
  label: string;
  placeholder: string;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <input
      className="input input-compact inline-form-name"
      placeholder={placeholder}
      aria-label={label}
      aria-invalid={invalid ? true : undefined}
      value={value}
      maxLength={255}
      // biome-ignore lint/a11y/noAutofocus: the form opens because the person asked to type a name
      autoFocus
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/**
 * The inline add/edit form of a state or a label: colour, name (required, not taken by another;
 * messages under `i18nPrefix`, e.g. "stateSettings.nameRequired") and the fields `children`
 * renders from the draft.
 */
export function ColorNameForm<D extends { name: string; color: string }>({
  initial,
  i18nPrefix,
  submitLabel,
  nameTaken,
  onCancel,
  onSubmit,
  children,
}: {
  initial: D;
  i18nPrefix: string;
  submitLabel: string;
  nameTaken: (name: string) => boolean;
  onCancel: () => void;
  onSubmit: (draft: D) => void;
  children?: (draft: D, setDraft: Dispatch<SetStateAction<D>>) => ReactNode;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const name = draft.name.trim();
    if (!name) return setError(t(`${i18nPrefix}.nameRequired`));
    if (nameTaken(name)) return setError(t(`${i18nPrefix}.nameTaken`, { name }));
    onSubmit(draft);
  }

  return (
    <InlineForm
      submitLabel={submitLabel}
      canSubmit={Boolean(draft.name.trim())}
      error={error}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <ColorPicker value={draft.color} onChange={(color) => setDraft((d) => ({ ...d, color }))} />
      <InlineNameInput
        label={t(`${i18nPrefix}.name`)}
        placeholder={t(`${i18nPrefix}.namePlaceholder`)}
        value={draft.name}
        invalid={error !== null}
        onChange={(name) => {
          setDraft((d) => ({ ...d, name }));
          setError(null);
        }}
      />
      {children?.(draft, setDraft)}
    </InlineForm>
  );
}
