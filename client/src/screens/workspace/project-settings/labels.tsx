import { DndContext, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ROLE } from "@tideline/shared";
import clsx from "clsx";
import { CornerDownRight, Pencil, Plus, Tag, Trash2 } from "lucide-react";
import { type CSSProperties, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState, Select } from "../../../components/ui";
import {
  type FlatLabel,
  flattenLabels,
  labelDescendants,
  labelDropPatch,
  labelParentChoices,
  projectLabelDrop,
} from "../../../lib/settings-order";
import { loadProjectMeta, type ProjectLabel, projectMeta } from "../../../stores/project-meta";
import {
  createLabel,
  deleteLabel,
  isTempId,
  type LabelInput,
  type LabelPatch,
  moveLabel,
  updateLabel,
} from "../../../stores/project-settings";
import { ConfirmModal } from "../components/confirm-modal";
import { MenuItem } from "../components/menu";
import { RowActionsMenu, RowEditButton, SettingsHeading } from "../components/settings-parts";
import { SkeletonRows } from "../components/skeleton";
import { useCurrentWorkspace } from "../use-workspace";
import { ColorDot, randomPaletteColor } from "./color-picker";
import { dragAnnouncements, dragInstructions, useSettingsSensors } from "./dnd";
import { useProjectSettings } from "./layout";
import { ColorNameForm, DragHandle, MetaLoadFailed } from "./settings-rows";
import "./settings-lists.css";

/** Pixels of indentation per level; dragging sideways by this much nests or un-nests. */
const INDENT = 24;

type Draft = LabelInput;
type Drag = { activeId: string; overId: string; offsetX: number };

/**
 * Project settings → Labels (project admins and members): the label tree; add, edit, delete;
 * drag to reorder, and sideways to nest under the label above or move out of a parent.
 */
export function ProjectLabelsSettings() {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const { project, projectRole } = useProjectSettings();
  const snap = useSnapshot(projectMeta);
  const sensors = useSettingsSensors();
  const [adding, setAdding] = useState<Draft | null>(null);
  const [editing, setEditing] = useState<{ id: string; draft: Draft } | null>(null);
  const [deleting, setDeleting] = useState<ProjectLabel | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);

  useEffect(() => {
    void loadProjectMeta(slug, project.id, true).catch(() => undefined);
  }, [slug, project.id]);

  const meta = snap.byProject[project.id];
  const labels = (meta?.labels ?? []) as ProjectLabel[];
  const flat = useMemo(() => flattenLabels(labels), [labels]);
  const draggedId = drag?.activeId ?? null;
  const hidden = useMemo(
    () => (draggedId ? labelDescendants(labels, draggedId) : new Set<string>()),
    [draggedId, labels],
  );

  if ((projectRole ?? 0) < ROLE.member) return <Navigate to={`/${slug}/projects/${project.id}/settings/`} replace />;

  const editable = !project.archived_at;
  // While dragging, a label's descendants travel with it (and can't become its parent).
  const visible = flat.filter((i) => !hidden.has(i.id));
  const projected = drag
    ? projectLabelDrop(visible, drag.activeId, drag.overId, Math.round(drag.offsetX / INDENT))
    : null;
  const nameOf = (id: string) => labels.find((l) => l.id === id)?.name ?? "";
  const taken = (name: string, exceptId?: string) =>
    labels.some((l) => l.id !== exceptId && l.name.trim().toLowerCase() === name.trim().toLowerCase());

  function onDragEnd({ active, over, delta }: DragEndEvent) {
    setDrag(null);
    if (!over) return;
    const activeId = String(active.id);
    const overId = String(over.id);
    const drop = projectLabelDrop(visible, activeId, overId, Math.round(delta.x / INDENT));
    if (!drop) return;
    const patch = labelDropPatch(visible, activeId, overId, drop.parentId);
    if (patch) void moveLabel(slug, project.id, activeId, patch);
  }

  async function add(draft: Draft) {
    setAdding(null);
    if (!(await createLabel(slug, project.id, { ...draft, name: draft.name.trim() }))) setAdding(draft);
  }

  async function save(label: ProjectLabel, draft: Draft) {
    setEditing(null);
    const patch: LabelPatch = {};
    if (draft.name.trim() !== label.name) patch.name = draft.name.trim();
    if (draft.color !== label.color) patch.color = draft.color;
    if (draft.parent !== label.parent) patch.parent = draft.parent;
    if (Object.keys(patch).length === 0) return;
    if (!(await updateLabel(slug, project.id, label.id, patch))) setEditing({ id: label.id, draft });
  }

  const newDraft = (parent: string | null = null): Draft => ({ name: "", color: randomPaletteColor(), parent });

  return (
    <>
      <SettingsHeading title={t("labelSettings.title")} hint={t("labelSettings.hint")}>
        {editable && labels.length > 0 ? (
          <Button size="sm" onClick={() => setAdding(adding ?? newDraft())}>
            <Plus size={14} aria-hidden />
            {t("labelSettings.add")}
          </Button>
        ) : null}
      </SettingsHeading>

      {adding ? (
        <div className="settings-list settings-list-standalone">
          <div className="settings-row settings-row-editing settings-row-new">
            <LabelForm
              initial={adding}
              labels={labels}
              labelId={null}
              submitLabel={t("labelSettings.addSubmit")}
              nameTaken={(name) => taken(name)}
              onCancel={() => setAdding(null)}
              onSubmit={(draft) => void add(draft)}
            />
          </div>
        </div>
      ) : null}

      {meta === undefined || (meta.status === "loading" && labels.length === 0) ? (
        <SkeletonRows count={5} height={40} />
      ) : meta.status === "error" && labels.length === 0 ? (
        <MetaLoadFailed slug={slug} projectId={project.id} message={t("labelSettings.loadFailed")} />
      ) : labels.length === 0 ? (
        adding ? null : (
          <EmptyState
            icon={Tag}
            title={t("labelSettings.emptyTitle")}
            description={t("labelSettings.emptyHint")}
            action={
              editable ? (
                <Button onClick={() => setAdding(newDraft())}>
                  <Plus size={14} aria-hidden />
                  {t("labelSettings.add")}
                </Button>
              ) : null
            }
          />
        )
      ) : (
        <>
          {editable ? <p className="settings-tip">{t("labelSettings.dragTip")}</p> : null}
          <DndContext
            sensors={sensors}
            onDragStart={({ active }) =>
              setDrag({ activeId: String(active.id), overId: String(active.id), offsetX: 0 })
            }
            onDragMove={({ delta }) => setDrag((d) => (d ? { ...d, offsetX: delta.x } : d))}
            onDragOver={({ over }) => setDrag((d) => (d ? { ...d, overId: over ? String(over.id) : d.activeId } : d))}
            onDragEnd={onDragEnd}
            onDragCancel={() => setDrag(null)}
            accessibility={{
              announcements: dragAnnouncements(t, nameOf),
              screenReaderInstructions: dragInstructions(t),
            }}
          >
            <SortableContext items={visible.map((i) => i.id)} strategy={verticalListSortingStrategy}>
              <ul className="settings-list label-tree">
                {visible.map((item) =>
                  editing?.id === item.id ? (
                    <li
                      key={item.id}
                      className="settings-row settings-row-editing"
                      style={{ paddingLeft: 10 + item.depth * INDENT }}
                    >
                      <LabelForm
                        initial={editing.draft}
                        labels={labels}
                        labelId={item.id}
                        submitLabel={t("labelSettings.save")}
                        nameTaken={(name) => taken(name, item.id)}
                        onCancel={() => setEditing(null)}
                        onSubmit={(draft) => void save(item.label, draft)}
                      />
                    </li>
                  ) : (
                    <LabelRow
                      key={item.id}
                      item={item}
                      depth={item.id === drag?.activeId && projected ? projected.depth : item.depth}
                      carried={item.id === drag?.activeId ? hidden.size : 0}
                      editable={editable}
                      onEdit={() =>
                        setEditing({
                          id: item.id,
                          draft: { name: item.label.name, color: item.label.color, parent: item.label.parent },
                        })
                      }
                      onAddChild={() => setAdding(newDraft(item.id))}
                      onDelete={() => setDeleting(item.label)}
                    />
                  ),
                )}
              </ul>
            </SortableContext>
          </DndContext>
        </>
      )}

      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("labelSettings.deleteTitle", { name: deleting?.name ?? "" })}
        description={
          deleting && labels.some((l) => l.parent === deleting.id)
            ? t("labelSettings.deleteWithChildren")
            : t("labelSettings.deleteDescription")
        }
        confirmLabel={t("labelSettings.delete")}
        onConfirm={async () => {
          const target = deleting;
          setDeleting(null);
          if (target) await deleteLabel(slug, project.id, target.id);
        }}
      />
    </>
  );
}

function LabelRow({
  item,
  depth,
  carried,
  editable,
  onEdit,
  onAddChild,
  onDelete,
}: {
  item: FlatLabel<ProjectLabel>;
  depth: number;
  /** Descendants hidden while this label is dragged (they move with it). */
  carried: number;
  editable: boolean;
  onEdit: () => void;
  onAddChild: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { label } = item;
  const pending = isTempId(label.id);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: label.id,
    disabled: !editable || pending,
  });
  // The dragged row follows the pointer up and down only; sideways movement shows as indentation.
  const style: CSSProperties = {
    transform: CSS.Translate.toString(transform ? { ...transform, x: 0 } : null),
    transition,
    paddingLeft: 10 + depth * INDENT,
  };
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={clsx("settings-row label-row", isDragging && "is-dragging", pending && "is-pending")}
    >
      {editable ? (
        <DragHandle
          label={t("labelSettings.reorder", { name: label.name })}
          disabled={pending}
          activatorRef={setActivatorNodeRef}
          attributes={attributes}
          listeners={listeners}
        />
      ) : null}
      {depth > 0 ? <CornerDownRight size={13} className="label-branch" aria-hidden /> : null}
      <ColorDot color={label.color} size={10} />
      <div className="settings-row-text">
        <span className="settings-row-name">{label.name}</span>
      </div>
      {carried > 0 ? <span className="badge">{t("labelSettings.carried", { count: carried })}</span> : null}
      {editable && !pending ? (
        <div className="settings-row-actions">
          <RowEditButton
            label={t("labelSettings.edit", { name: label.name })}
            title={t("labelSettings.editShort")}
            onClick={onEdit}
          />
          <RowActionsMenu label={t("labelSettings.actions", { name: label.name })}>
            <MenuItem icon={<Plus size={14} />} onSelect={onAddChild}>
              {t("labelSettings.addChild")}
            </MenuItem>
            <MenuItem icon={<Pencil size={14} />} onSelect={onEdit}>
              {t("labelSettings.editShort")}
            </MenuItem>
            <MenuItem icon={<Trash2 size={14} />} danger onSelect={onDelete}>
              {t("labelSettings.delete")}
            </MenuItem>
          </RowActionsMenu>
        </div>
      ) : null}
    </li>
  );
}

/** Name, colour and parent of a label; Enter saves, Escape cancels. */
function LabelForm({
  initial,
  labels,
  labelId,
  submitLabel,
  nameTaken,
  onCancel,
  onSubmit,
}: {
  initial: Draft;
  labels: ProjectLabel[];
  /** The label being edited (null when adding): it and its descendants can't be its parent. */
  labelId: string | null;
  submitLabel: string;
  nameTaken: (name: string) => boolean;
  onCancel: () => void;
  onSubmit: (draft: Draft) => void;
}) {
  const { t } = useTranslation();
  const choices = useMemo(() => {
    const allowed = new Set(labelParentChoices(labels, labelId).map((l) => l.id));
    return flattenLabels(labels).filter((i) => allowed.has(i.id) && !isTempId(i.id));
  }, [labels, labelId]);

  return (
    <ColorNameForm
      initial={initial}
      i18nPrefix="labelSettings"
      submitLabel={submitLabel}
      nameTaken={nameTaken}
      onCancel={onCancel}
      onSubmit={onSubmit}
    >
      {(draft, setDraft) => (
        <Select
          className="inline-form-parent"
          compact
          label={t("labelSettings.parent")}
          value={draft.parent ?? ""}
          onValueChange={(v) => setDraft((d) => ({ ...d, parent: v || null }))}
          options={[
            { value: "", label: t("labelSettings.noParent") },
            ...choices.map((c) => ({ value: c.id, label: `${"\u00A0\u00A0\u00A0".repeat(c.depth)}${c.label.name}` })),
          ]}
        />
      )}
    </ColorNameForm>
  );
}
