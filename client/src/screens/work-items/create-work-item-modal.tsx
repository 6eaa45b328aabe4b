/**
 * The create modal: every field of the default form that exists today — title, description,
 * state, priority, assignees, labels, start and due dates, estimate, parent. "Create more" keeps
 * the modal open (cleared, with the same properties) for the next item. Ctrl/⌘+Enter submits.
 * The description uses the shared rich-text editor (its chunk loads with the modal).
 */
import type { Priority } from "@tideline/shared";
import { Layers, X } from "lucide-react";
import { Popover } from "radix-ui";
import { type FormEvent, memo, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { RichTextEditor, type RichTextEditorHandle } from "../../components/editor";
import { Button, Modal, TextInput } from "../../components/ui";
import { errorMessage, fieldErrors } from "../../lib/api";
import { defaultState, projectMeta, useMentionables } from "../../stores/project-meta";
import {
  createWorkItem,
  getWorkItem,
  isTempWorkItem,
  searchWorkItems,
  type WorkItemInput,
  type WorkItemSearchResult,
} from "../../stores/work-items";
import { Toggle } from "../workspace/components/toggle";
import { useWorkItemsContext } from "./context";
import { CyclePicker, ModulePicker, useCycleModuleFeatures } from "./cycle-module-pickers";
import { AssigneesPicker, DatePicker, EstimatePicker, LabelsPicker, PriorityPicker, StatePicker } from "./properties";

type Form = {
  name: string;
  description: string;
  state_id: string | null;
  priority: Priority;
  assignee_ids: string[];
  label_ids: string[];
  start_date: string | null;
  target_date: string | null;
  estimate_point: string | null;
  cycle_id: string | null;
  module_ids: string[];
  parent: { id: string; label: string } | null;
};

function initialForm(projectId: string, prefill: Partial<WorkItemInput> | undefined): Form {
  const parent = prefill?.parent_id ? getWorkItem(prefill.parent_id) : undefined;
  return {
    name: prefill?.name ?? "",
    description: "",
    state_id: prefill?.state_id ?? defaultState(projectMeta.byProject[projectId])?.id ?? null,
    priority: prefill?.priority ?? "none",
    assignee_ids: prefill?.assignee_ids ?? [],
    label_ids: prefill?.label_ids ?? [],
    start_date: prefill?.start_date ?? null,
    target_date: prefill?.target_date ?? null,
    estimate_point: prefill?.estimate_point ?? null,
    // The board's cycle or module (openCreate puts them in the prefill), shown and changeable.
    cycle_id: prefill?.cycle_id ?? null,
    module_ids: prefill?.module_ids ?? [],
    parent: parent ? { id: parent.id, label: parent.name } : null,
  };
}

// Memoised: the board re-renders on every filter change, which leaves this alone.
export const CreateWorkItemModal = memo(function CreateWorkItemModal({
  open,
  onOpenChange,
  prefill,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  prefill?: Partial<WorkItemInput>;
}) {
  const { t } = useTranslation();
  const { slug, projectId, identifier, lookups, scopeDefaults, today } = useWorkItemsContext();
  const features = useCycleModuleFeatures(slug, projectId);
  const [form, setForm] = useState<Form>(() => initialForm(projectId, prefill));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [more, setMore] = useState(false);
  const titleRef = useRef<HTMLInputElement>(null);
  const editorRef = useRef<RichTextEditorHandle>(null);
  const mentionables = useMentionables(projectId);

  useEffect(() => {
    if (open) {
      setForm(initialForm(projectId, prefill));
      setErrors({});
    }
  }, [open, projectId, prefill]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const name = form.name.trim();
    if (!name) {
      setErrors({ name: t("workItems.create.titleRequired") });
      titleRef.current?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    const input: WorkItemInput = {
      // The board's cycle or module (the form's own values, where it has them, win).
      ...scopeDefaults,
      name,
      priority: form.priority,
      state_id: form.state_id,
      assignee_ids: form.assignee_ids,
      label_ids: form.label_ids,
      start_date: form.start_date,
      target_date: form.target_date,
      ...(form.estimate_point ? { estimate_point: form.estimate_point } : {}),
      // The form's cycle and modules, when set or when they clear the board's.
      ...(form.cycle_id || scopeDefaults.cycle_id ? { cycle_id: form.cycle_id } : {}),
      ...(form.module_ids.length || scopeDefaults.module_ids?.length ? { module_ids: form.module_ids } : {}),
      ...(form.parent ? { parent_id: form.parent.id } : {}),
      ...(form.description && !editorRef.current?.isEmpty() ? { description_html: form.description } : {}),
    };
    try {
      const created = await createWorkItem(slug, projectId, input);
      // Made offline (or its answer lost), it waits in the outbox without a number yet: the toast
      // names its title, and stores/offline-changes.ts says its number once it reaches the server.
      if (isTempWorkItem(created.id)) toast.success(t("offline.createdOffline", { name: created.name }));
      else toast.success(t("workItems.create.created", { key: `${identifier}-${created.sequence_id}` }));
      if (more) {
        // Keep the properties for the next item; clear what is specific to this one.
        setForm((f) => ({ ...f, name: "", description: "" }));
        editorRef.current?.clear();
        titleRef.current?.focus();
      } else onOpenChange(false);
    } catch (error) {
      const fields = await fieldErrors(error);
      if (Object.keys(fields).length) setErrors(fields);
      else toast.error(t("workItems.create.failed"), { description: await errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      // The epics board creates epics (its scope defaults carry is_epic).
      title={scopeDefaults.is_epic ? t("epics.create.title") : t("workItems.create.title")}
      width={680}
    >
      <form
        className="wi-create"
        onSubmit={submit}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            void submit();
          }
        }}
      >
        <TextInput
          ref={titleRef}
          label={t("workItems.create.titleField")}
          placeholder={t("workItems.create.titlePlaceholder")}
          value={form.name}
          maxLength={255}
          error={errors.name}
          onChange={(e) => set("name", e.target.value)}
        />
        <div className="field">
          <span className="field-label">{t("workItems.create.description")}</span>
          <RichTextEditor
            ariaLabel={t("workItems.create.description")}
            placeholder={t("workItems.create.descriptionPlaceholder")}
            value=""
            variant="full"
            className="wi-create-editor"
            handleRef={editorRef}
            onChange={(html) => set("description", html)}
            onSubmit={() => void submit()}
            mentionables={mentionables}
          />
          {errors.description_html ? (
            <span className="field-error" role="alert">
              {errors.description_html}
            </span>
          ) : null}
        </div>
        <fieldset className="wi-create-props" aria-label={t("workItems.create.properties")}>
          <StatePicker variant="field" value={form.state_id} onChange={(v) => set("state_id", v)} />
          <PriorityPicker variant="field" value={form.priority} onChange={(v) => set("priority", v)} />
          <AssigneesPicker variant="field" value={form.assignee_ids} onChange={(v) => set("assignee_ids", v)} />
          <LabelsPicker variant="field" value={form.label_ids} onChange={(v) => set("label_ids", v)} />
          <DatePicker
            variant="field"
            kind="start"
            value={form.start_date}
            max={form.target_date}
            onChange={(v) => set("start_date", v)}
          />
          <DatePicker
            variant="field"
            kind="due"
            value={form.target_date}
            min={form.start_date}
            onChange={(v) => set("target_date", v)}
          />
          {lookups.points.length ? (
            <EstimatePicker variant="field" value={form.estimate_point} onChange={(v) => set("estimate_point", v)} />
          ) : null}
          {features.modules ? (
            <ModulePicker
              slug={slug}
              projectId={projectId}
              variant="field"
              value={form.module_ids}
              onChange={(v) => set("module_ids", v)}
            />
          ) : null}
          {features.cycles ? (
            <CyclePicker
              slug={slug}
              projectId={projectId}
              variant="field"
              value={form.cycle_id}
              today={today}
              onChange={(v) => set("cycle_id", v)}
            />
          ) : null}
          <ParentPicker value={form.parent} onChange={(v) => set("parent", v)} />
        </fieldset>
        {Object.entries(errors)
          .filter(([k]) => k !== "name" && k !== "description_html")
          .map(([k, message]) => (
            <p key={k} className="field-error" role="alert">
              {message}
            </p>
          ))}
        <div className="dialog-footer wi-create-footer">
          <div className="wi-create-more">
            <Toggle label={t("workItems.create.more")} checked={more} onCheckedChange={setMore} />
            <span aria-hidden>{t("workItems.create.more")}</span>
          </div>
          <span className="spacer" />
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t("workItems.common.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {scopeDefaults.is_epic ? t("epics.create.submit") : t("workItems.create.submit")}
          </Button>
        </div>
      </form>
    </Modal>
  );
});

/** Parent: search the project's work items (GET search-issues/), debounced. */
function ParentPicker({
  value,
  onChange,
}: {
  value: { id: string; label: string } | null;
  onChange: (value: { id: string; label: string } | null) => void;
}) {
  const { t } = useTranslation();
  const { slug, projectId, identifier } = useWorkItemsContext();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<WorkItemSearchResult[] | null>(null);
  const [active, setActive] = useState(0);

  useEffect(() => {
    if (!open) return;
    let alive = true;
    const timer = setTimeout(() => {
      searchWorkItems(slug, projectId, { search: query.trim() })
        .then((list) => {
          if (alive) {
            setResults(list);
            setActive(0);
          }
        })
        .catch(() => alive && setResults([]));
    }, 200);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [open, query, slug, projectId]);

  const pick = (r: WorkItemSearchResult) => {
    onChange({ id: r.id, label: `${identifier}-${r.sequence_id} ${r.name}` });
    setOpen(false);
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery("");
      }}
    >
      <span className="wi-parent">
        <Popover.Trigger asChild>
          <button
            type="button"
            className="prop-btn prop-btn-field"
            aria-label={`${t("workItems.props.parent")}: ${value?.label ?? t("workItems.props.none")}`}
          >
            <Layers size={13} aria-hidden />
            <span className="prop-btn-text">{value?.label ?? t("workItems.props.parent")}</span>
          </button>
        </Popover.Trigger>
        {value ? (
          <button
            type="button"
            className="wi-icon-btn"
            aria-label={t("workItems.create.removeParent")}
            onClick={() => onChange(null)}
          >
            <X size={13} aria-hidden />
          </button>
        ) : null}
      </span>
      <Popover.Portal>
        <Popover.Content className="combo-pop wi-parent-pop" align="start" sideOffset={4} collisionPadding={8}>
          <input
            className="combo-search"
            role="combobox"
            aria-expanded
            aria-label={t("workItems.create.searchParent")}
            placeholder={t("workItems.create.searchParent")}
            value={query}
            // Focus on open so typing searches at once.
            ref={(el) => el?.focus()}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              const list = results ?? [];
              if (e.key === "ArrowDown") {
                e.preventDefault();
                setActive((a) => Math.min(list.length - 1, a + 1));
              } else if (e.key === "ArrowUp") {
                e.preventDefault();
                setActive((a) => Math.max(0, a - 1));
              } else if (e.key === "Enter") {
                e.preventDefault();
                const r = list[active];
                if (r) pick(r);
              }
            }}
          />
          <div className="combo-list" role="listbox" aria-label={t("workItems.props.parent")}>
            {results === null ? <div className="combo-empty">{t("workItems.common.loading")}</div> : null}
            {results?.length === 0 ? <div className="combo-empty">{t("workItems.picker.noMatch")}</div> : null}
            {results?.map((r, index) => (
              <div
                key={r.id}
                role="option"
                tabIndex={-1}
                aria-selected={value?.id === r.id}
                className={index === active ? "combo-option combo-option-active" : "combo-option"}
                onMouseEnter={() => setActive(index)}
                onClick={() => pick(r)}
                onKeyDown={(e) => e.key === "Enter" && pick(r)}
              >
                <span className="wi-key">
                  {identifier}-{r.sequence_id}
                </span>
                <span className="combo-label">{r.name}</span>
              </div>
            ))}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
