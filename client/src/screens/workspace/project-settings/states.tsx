import { DndContext, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { DEFAULT_STATES, ROLE, STATE_GROUPS, type StateGroup } from "@tideline/shared";
import clsx from "clsx";
import { Pencil, Plus, Star, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router";
import { useSnapshot } from "valtio";
import { Button } from "../../../components/ui";
import { stateDropSequence } from "../../../lib/settings-order";
import { loadProjectMeta, type ProjectState, projectMeta } from "../../../stores/project-meta";
import {
  createState,
  deleteState,
  isTempId,
  markDefaultState,
  moveState,
  type StateInput,
  updateState,
} from "../../../stores/project-settings";
import { ConfirmModal } from "../components/confirm-modal";
import { MenuItem } from "../components/menu";
import { RowActionsMenu, RowEditButton, SettingsHeading } from "../components/settings-parts";
import { SkeletonRows } from "../components/skeleton";
import { useCurrentWorkspace } from "../use-workspace";
import { dragAnnouncements, dragInstructions, useSettingsSensors, verticalOnly } from "./dnd";
import { useProjectSettings } from "./layout";
import { ColorNameForm, DragHandle, MetaLoadFailed } from "./settings-rows";
import { StateGroupIcon } from "./state-group-icon";
import "./settings-lists.css";

/** The colour a new state of each group starts with (the group's default state's colour). */
const GROUP_COLOR: Record<StateGroup, string> = Object.fromEntries(
  DEFAULT_STATES.map((s) => [s.group, s.color]),
) as Record<StateGroup, string>;

type Draft = { name: string; color: string; description: string };

/**
 * Project settings → States (project admins and members): the five groups in their fixed
 * order, each with its states; add, edit inline, make default, delete, drag to reorder within
 * a group.
 */
export function ProjectStatesSettings() {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const { project, projectRole } = useProjectSettings();
  const snap = useSnapshot(projectMeta);
  const [deleting, setDeleting] = useState<ProjectState | null>(null);

  useEffect(() => {
    void loadProjectMeta(slug, project.id, true).catch(() => undefined);
  }, [slug, project.id]);

  if ((projectRole ?? 0) < ROLE.member) return <Navigate to={`/${slug}/projects/${project.id}/settings/`} replace />;

  const meta = snap.byProject[project.id];
  const editable = !project.archived_at;
  const states = (meta?.states ?? []) as ProjectState[];

  return (
    <>
      <SettingsHeading title={t("stateSettings.title")} hint={t("stateSettings.hint")} />
      {meta === undefined || (meta.status === "loading" && states.length === 0) ? (
        <SkeletonRows count={6} height={40} />
      ) : meta.status === "error" && states.length === 0 ? (
        <MetaLoadFailed slug={slug} projectId={project.id} message={t("stateSettings.loadFailed")} />
      ) : (
        <div className="state-groups">
          {STATE_GROUPS.map((group) => (
            <StateGroupSection
              key={group}
              group={group}
              states={states.filter((s) => s.group === group)}
              allStates={states}
              editable={editable}
              onDelete={setDeleting}
            />
          ))}
        </div>
      )}
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("stateSettings.deleteTitle", { name: deleting?.name ?? "" })}
        description={t("stateSettings.deleteDescription")}
        confirmLabel={t("stateSettings.delete")}
        onConfirm={async () => {
          const target = deleting;
          setDeleting(null);
          if (target) await deleteState(slug, project.id, target.id);
        }}
      />
    </>
  );
}

function StateGroupSection({
  group,
  states,
  allStates,
  editable,
  onDelete,
}: {
  group: StateGroup;
  states: ProjectState[];
  allStates: ProjectState[];
  editable: boolean;
  onDelete: (state: ProjectState) => void;
}) {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const { project } = useProjectSettings();
  const sensors = useSettingsSensors();
  /** The add form's values; kept after a refusal so nothing typed is lost. */
  const [adding, setAdding] = useState<Draft | null>(null);
  const [editing, setEditing] = useState<{ id: string; draft: Draft } | null>(null);
  const nameOf = (id: string) => allStates.find((s) => s.id === id)?.name ?? "";

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over) return;
    const sequence = stateDropSequence(states, String(active.id), String(over.id));
    if (sequence !== null) void moveState(slug, project.id, String(active.id), sequence);
  }

  async function add(draft: Draft) {
    setAdding(null);
    const input: StateInput = { ...draft, name: draft.name.trim(), description: draft.description.trim(), group };
    if (!(await createState(slug, project.id, input))) setAdding(draft);
  }

  async function save(state: ProjectState, draft: Draft) {
    setEditing(null);
    const patch: Partial<StateInput> = {};
    if (draft.name.trim() !== state.name) patch.name = draft.name.trim();
    if (draft.color !== state.color) patch.color = draft.color;
    if (draft.description.trim() !== state.description) patch.description = draft.description.trim();
    if (Object.keys(patch).length === 0) return;
    if (!(await updateState(slug, project.id, state.id, patch))) setEditing({ id: state.id, draft });
  }

  const taken = (name: string, exceptId?: string) =>
    allStates.some((s) => s.id !== exceptId && s.name.trim().toLowerCase() === name.trim().toLowerCase());

  return (
    <section className="state-group" aria-labelledby={`state-group-${group}`}>
      <header className="state-group-head">
        <StateGroupIcon group={group} color={GROUP_COLOR[group]} size={15} />
        <h2 id={`state-group-${group}`}>{t(`stateSettings.groups.${group}`)}</h2>
        <span className="state-group-count">{states.length}</span>
        <span className="spacer" />
        {editable ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setAdding(adding ?? { name: "", color: GROUP_COLOR[group], description: "" })}
            aria-label={t("stateSettings.addTo", { group: t(`stateSettings.groups.${group}`) })}
          >
            <Plus size={14} aria-hidden />
            {t("stateSettings.add")}
          </Button>
        ) : null}
      </header>
      {states.length === 0 && !adding ? <p className="settings-list-empty">{t("stateSettings.emptyGroup")}</p> : null}
      {states.length > 0 ? (
        <DndContext
          sensors={sensors}
          modifiers={[verticalOnly]}
          onDragEnd={onDragEnd}
          accessibility={{
            announcements: dragAnnouncements(t, nameOf),
            screenReaderInstructions: dragInstructions(t),
          }}
        >
          <SortableContext items={states.map((s) => s.id)} strategy={verticalListSortingStrategy}>
            <ul className="settings-list">
              {states.map((state) =>
                editing?.id === state.id ? (
                  <li key={state.id} className="settings-row settings-row-editing">
                    <StateForm
                      initial={editing.draft}
                      submitLabel={t("stateSettings.save")}
                      nameTaken={(name) => taken(name, state.id)}
                      onCancel={() => setEditing(null)}
                      onSubmit={(draft) => void save(state, draft)}
                    />
                  </li>
                ) : (
                  <StateRow
                    key={state.id}
                    state={state}
                    editable={editable}
                    onEdit={() =>
                      setEditing({
                        id: state.id,
                        draft: { name: state.name, color: state.color, description: state.description },
                      })
                    }
                    onMarkDefault={() => void markDefaultState(slug, project.id, state.id)}
                    onDelete={() => onDelete(state)}
                  />
                ),
              )}
            </ul>
          </SortableContext>
        </DndContext>
      ) : null}
      {adding ? (
        <div className="settings-row settings-row-editing settings-row-new">
          <StateForm
            initial={adding}
            submitLabel={t("stateSettings.addSubmit")}
            nameTaken={(name) => taken(name)}
            onCancel={() => setAdding(null)}
            onSubmit={(draft) => void add(draft)}
          />
        </div>
      ) : null}
    </section>
  );
}

function StateRow({
  state,
  editable,
  onEdit,
  onMarkDefault,
  onDelete,
}: {
  state: ProjectState;
  editable: boolean;
  onEdit: () => void;
  onMarkDefault: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const pending = isTempId(state.id);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: state.id,
    disabled: !editable || pending,
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={clsx("settings-row", isDragging && "is-dragging", pending && "is-pending")}
    >
      {editable ? (
        <DragHandle
          label={t("stateSettings.reorder", { name: state.name })}
          disabled={pending}
          activatorRef={setActivatorNodeRef}
          attributes={attributes}
          listeners={listeners}
        />
      ) : null}
      <StateGroupIcon group={state.group} color={state.color} />
      <div className="settings-row-text">
        <span className="settings-row-name">{state.name}</span>
        {state.description ? <span className="settings-row-desc">{state.description}</span> : null}
      </div>
      {state.default ? <span className="badge badge-default">{t("stateSettings.default")}</span> : null}
      {editable && !pending ? (
        <div className="settings-row-actions">
          {!state.default ? (
            <Button variant="ghost" size="sm" className="row-hover-action" onClick={onMarkDefault}>
              {t("stateSettings.markDefault")}
            </Button>
          ) : null}
          <RowEditButton
            label={t("stateSettings.edit", { name: state.name })}
            title={t("stateSettings.editShort")}
            onClick={onEdit}
          />
          <RowActionsMenu label={t("stateSettings.actions", { name: state.name })}>
            <MenuItem icon={<Star size={14} />} disabled={state.default} onSelect={onMarkDefault}>
              {t("stateSettings.markDefault")}
            </MenuItem>
            <MenuItem icon={<Pencil size={14} />} onSelect={onEdit}>
              {t("stateSettings.editShort")}
            </MenuItem>
            <MenuItem icon={<Trash2 size={14} />} danger disabled={state.default} onSelect={onDelete}>
              {state.default ? t("stateSettings.cantDeleteDefault") : t("stateSettings.delete")}
            </MenuItem>
          </RowActionsMenu>
        </div>
      ) : null}
    </li>
  );
}

/** Name, colour and description of a state; Enter saves, Escape cancels. */
function StateForm(props: {
  initial: Draft;
  submitLabel: string;
  nameTaken: (name: string) => boolean;
  onCancel: () => void;
  onSubmit: (draft: Draft) => void;
}) {
  const { t } = useTranslation();
  return (
    <ColorNameForm {...props} i18nPrefix="stateSettings">
      {(draft, setDraft) => (
        <input
          className="input input-compact inline-form-desc"
          placeholder={t("stateSettings.descriptionPlaceholder")}
          aria-label={t("stateSettings.description")}
          value={draft.description}
          onChange={(e) => setDraft((d) => ({ ...d, description: e.target.value }))}
        />
      )}
    </ColorNameForm>
  );
}
