import {
  AVAILABLE_ESTIMATE_TYPES,
  ESTIMATE_NAME_MAX,
  ESTIMATE_POINT_VALUE_MAX,
  ESTIMATE_POINTS_MAX,
  ESTIMATE_POINTS_MIN,
  ESTIMATE_TEMPLATES,
  ESTIMATE_TIME_UNAVAILABLE,
  estimatePointsProblem,
} from "@tideline/shared";
import clsx from "clsx";
import { Pencil, Plus, Power, PowerOff, Ruler, Trash2, X } from "lucide-react";
import { type CSSProperties, type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router";
import { useSnapshot } from "valtio";
import { Banner, Button, EmptyState, Modal, ModalFooter, TextInput } from "../../../components/ui";
import type { PointRow } from "../../../lib/settings-order";
import {
  activeEstimate,
  type Estimate,
  loadProjectMeta,
  type ProjectMeta,
  projectMeta,
} from "../../../stores/project-meta";
import {
  createEstimate,
  deleteEstimate,
  isTempId,
  saveEstimate,
  setEstimateActive,
} from "../../../stores/project-settings";
import { ConfirmModal } from "../components/confirm-modal";
import { MenuItem } from "../components/menu";
import { RowActionsMenu, RowEditButton, SettingsHeading } from "../components/settings-parts";
import { SkeletonRows } from "../components/skeleton";
import { Toggle } from "../components/toggle";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";
import { useProjectSettings } from "./layout";
import { MetaLoadFailed } from "./settings-rows";
import "./settings-lists.css";

type ScaleType = (typeof AVAILABLE_ESTIMATE_TYPES)[number];

/**
 * Project settings → Estimates (project admins only): whether estimates are on and with which
 * scale; create one from a template or custom points (2–6), edit its points, switch, delete.
 */
export function ProjectEstimatesSettings() {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const { project, projectRole } = useProjectSettings();
  const snap = useSnapshot(projectMeta);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Estimate | null>(null);

  useEffect(() => {
    void loadProjectMeta(slug, project.id, true).catch(() => undefined);
  }, [slug, project.id]);

  if (!can.seeProjectFeatures(projectRole))
    return <Navigate to={`/${slug}/projects/${project.id}/settings/`} replace />;

  const meta = snap.byProject[project.id];
  const estimates = (meta?.estimates ?? []) as Estimate[];
  const active = activeEstimate(meta as ProjectMeta | undefined);
  const editable = !project.archived_at;
  const onOff = (on: boolean) => {
    if (!on && active) void setEstimateActive(slug, project.id, active.id, false);
    else if (on) {
      const first = estimates.find((e) => !isTempId(e.id));
      if (first) void setEstimateActive(slug, project.id, first.id, true);
      else setCreating(true);
    }
  };

  return (
    <>
      <SettingsHeading title={t("estimateSettings.title")} hint={t("estimateSettings.hint")}>
        {editable && estimates.length > 0 ? (
          <Button size="sm" onClick={() => setCreating(true)}>
            <Plus size={14} aria-hidden />
            {t("estimateSettings.create")}
          </Button>
        ) : null}
      </SettingsHeading>

      {meta === undefined || (meta.status === "loading" && estimates.length === 0) ? (
        <SkeletonRows count={3} height={56} />
      ) : meta.status === "error" && estimates.length === 0 ? (
        <MetaLoadFailed slug={slug} projectId={project.id} message={t("estimateSettings.loadFailed")} />
      ) : (
        <>
          <section className="settings-section">
            <div className="feature-list">
              <div className="feature-row">
                <span className="feature-icon">
                  <Ruler size={16} aria-hidden />
                </span>
                <div className="feature-text">
                  <span className="feature-title">{t("estimateSettings.enabled")}</span>
                  <span className="feature-hint">
                    {active ? t("estimateSettings.onWith", { name: active.name }) : t("estimateSettings.off")}
                  </span>
                </div>
                <Toggle
                  label={t("estimateSettings.enabled")}
                  checked={Boolean(active)}
                  disabled={!editable}
                  onCheckedChange={onOff}
                />
              </div>
            </div>
          </section>

          {estimates.length === 0 ? (
            <EmptyState
              icon={Ruler}
              title={t("estimateSettings.emptyTitle")}
              description={t("estimateSettings.emptyHint")}
              action={
                editable ? (
                  <Button onClick={() => setCreating(true)}>
                    <Plus size={14} aria-hidden />
                    {t("estimateSettings.create")}
                  </Button>
                ) : null
              }
            />
          ) : (
            <section className="settings-section estimate-section">
              <h2 className="section-title">{t("estimateSettings.list")}</h2>
              <div className="estimate-list">
                {estimates.map((estimate) =>
                  editing === estimate.id ? (
                    <EstimateEditor
                      key={estimate.id}
                      estimate={estimate}
                      onDone={() => setEditing(null)}
                      onSave={(edit) => {
                        setEditing(null);
                        void saveEstimate(slug, project.id, estimate.id, edit);
                      }}
                    />
                  ) : (
                    <EstimateCard
                      key={estimate.id}
                      estimate={estimate}
                      editable={editable}
                      onEdit={() => setEditing(estimate.id)}
                      onActivate={(on) => void setEstimateActive(slug, project.id, estimate.id, on)}
                      onDelete={() => setDeleting(estimate)}
                    />
                  ),
                )}
              </div>
            </section>
          )}
        </>
      )}

      {creating ? <CreateEstimateModal onClose={() => setCreating(false)} /> : null}
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("estimateSettings.deleteTitle", { name: deleting?.name ?? "" })}
        description={deleting?.is_active ? t("estimateSettings.deleteActive") : t("estimateSettings.deleteDescription")}
        confirmLabel={t("estimateSettings.delete")}
        onConfirm={async () => {
          const target = deleting;
          setDeleting(null);
          if (target) await deleteEstimate(slug, project.id, target.id);
        }}
      />
    </>
  );
}

function EstimateCard({
  estimate,
  editable,
  onEdit,
  onActivate,
  onDelete,
}: {
  estimate: Estimate;
  editable: boolean;
  onEdit: () => void;
  onActivate: (on: boolean) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const pending = isTempId(estimate.id);
  return (
    <article className={clsx("estimate-card", estimate.is_active && "is-active", pending && "is-pending")}>
      <header className="estimate-card-head">
        <div className="estimate-card-title">
          <h3>{estimate.name}</h3>
          <span className="badge">{t(`estimateSettings.types.${estimate.type}`)}</span>
          {estimate.is_active ? <span className="badge badge-default">{t("estimateSettings.inUse")}</span> : null}
        </div>
        {editable && !pending ? (
          <div className="settings-row-actions">
            <Button variant="secondary" size="sm" onClick={() => onActivate(!estimate.is_active)}>
              {estimate.is_active ? t("estimateSettings.deactivate") : t("estimateSettings.activate")}
            </Button>
            <RowEditButton
              label={t("estimateSettings.edit", { name: estimate.name })}
              title={t("estimateSettings.editShort")}
              onClick={onEdit}
            />
            <RowActionsMenu label={t("estimateSettings.actions", { name: estimate.name })}>
              <MenuItem
                icon={estimate.is_active ? <PowerOff size={14} /> : <Power size={14} />}
                onSelect={() => onActivate(!estimate.is_active)}
              >
                {estimate.is_active ? t("estimateSettings.deactivate") : t("estimateSettings.activate")}
              </MenuItem>
              <MenuItem icon={<Pencil size={14} />} onSelect={onEdit}>
                {t("estimateSettings.editShort")}
              </MenuItem>
              <MenuItem icon={<Trash2 size={14} />} danger onSelect={onDelete}>
                {t("estimateSettings.delete")}
              </MenuItem>
            </RowActionsMenu>
          </div>
        ) : null}
      </header>
      <ul className="point-chips" aria-label={t("estimateSettings.pointsOf", { name: estimate.name })}>
        {estimate.points.map((p) => (
          <li key={p.id} className="point-chip">
            {p.value}
          </li>
        ))}
      </ul>
    </article>
  );
}

/** Edit an estimate's name and points in place. */
function EstimateEditor({
  estimate,
  onDone,
  onSave,
}: {
  estimate: Estimate;
  onDone: () => void;
  onSave: (edit: { name: string; rows: PointRow[] }) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(estimate.name);
  const [rows, setRows] = useState<PointRow[]>(estimate.points.map((p) => ({ id: p.id, value: p.value })));
  const [problem, setProblem] = useState<{ message: string; index: number | null } | null>(null);
  const type = estimate.type === "time" ? "points" : estimate.type;
  const removed = estimate.points.filter((p) => !rows.some((r) => r.id === p.id)).length;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setProblem({ message: t("estimateSettings.nameRequired"), index: null });
    const found = estimatePointsProblem(
      type,
      rows.map((r) => r.value),
    );
    if (found) return setProblem(found);
    onSave({ name, rows });
  }

  return (
    <form className="estimate-card is-editing" onSubmit={submit} aria-label={t("estimateSettings.editing")}>
      <TextInput
        label={t("estimateSettings.name")}
        value={name}
        maxLength={ESTIMATE_NAME_MAX}
        onChange={(e) => {
          setName(e.target.value);
          setProblem(null);
        }}
      />
      <PointsEditor
        type={type}
        rows={rows}
        problemIndex={problem?.index ?? null}
        onChange={(next) => {
          setRows(next);
          setProblem(null);
        }}
      />
      {removed > 0 ? <Banner kind="warning">{t("estimateSettings.removedWarning", { count: removed })}</Banner> : null}
      {problem ? (
        <span className="field-error" role="alert">
          {problem.message}
        </span>
      ) : null}
      <div className="settings-actions">
        <Button type="submit" size="sm">
          {t("estimateSettings.save")}
        </Button>
        <Button variant="secondary" size="sm" onClick={onDone}>
          {t("workspace.common.cancel")}
        </Button>
      </div>
    </form>
  );
}

/** The list of point values, 2 to 6, each removable and a button to add one. */
function PointsEditor({
  type,
  rows,
  problemIndex,
  onChange,
}: {
  type: ScaleType;
  rows: PointRow[];
  problemIndex: number | null;
  onChange: (rows: PointRow[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="points-editor picker-fieldset">
      <legend className="field-label">
        {t("estimateSettings.points", { min: ESTIMATE_POINTS_MIN, max: ESTIMATE_POINTS_MAX })}
      </legend>
      <ol className="points-rows">
        {rows.map((row, index) => (
          // Unsaved rows have no id: their place in the list is what they are.
          <li key={row.id ?? `new-${index}`} className="points-row">
            <span className="points-index">{index + 1}</span>
            <input
              className="input input-compact"
              value={row.value}
              inputMode={type === "points" ? "decimal" : "text"}
              maxLength={ESTIMATE_POINT_VALUE_MAX}
              placeholder={
                type === "points" ? t("estimateSettings.pointPlaceholder") : t("estimateSettings.categoryPlaceholder")
              }
              aria-label={t("estimateSettings.pointN", { n: index + 1 })}
              aria-invalid={problemIndex === index ? true : undefined}
              onChange={(e) => onChange(rows.map((r, i) => (i === index ? { ...r, value: e.target.value } : r)))}
            />
            <Button
              variant="ghost"
              size="sm"
              className="icon-btn"
              aria-label={t("estimateSettings.removePoint", { n: index + 1 })}
              disabled={rows.length <= ESTIMATE_POINTS_MIN}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              <X size={14} aria-hidden />
            </Button>
          </li>
        ))}
      </ol>
      {rows.length < ESTIMATE_POINTS_MAX ? (
        <Button variant="ghost" size="sm" onClick={() => onChange([...rows, { value: "" }])}>
          <Plus size={14} aria-hidden />
          {t("estimateSettings.addPoint")}
        </Button>
      ) : (
        <span className="field-hint">{t("estimateSettings.maxPoints", { max: ESTIMATE_POINTS_MAX })}</span>
      )}
    </fieldset>
  );
}

const CUSTOM = "custom";

/** New estimate: pick a type, then a template or custom points; "time" is shown but unavailable. */
function CreateEstimateModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { slug } = useCurrentWorkspace();
  const { project } = useProjectSettings();
  const [type, setType] = useState<ScaleType>("points");
  const [template, setTemplate] = useState<string>("fibonacci");
  const [name, setName] = useState("Fibonacci");
  const [rows, setRows] = useState<PointRow[]>(() => valuesOf("fibonacci").map((value) => ({ value })));
  const [problem, setProblem] = useState<{ message: string; index: number | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const templates = ESTIMATE_TEMPLATES.filter((tpl) => tpl.type === type);

  function pick(nextType: ScaleType, key: string) {
    setType(nextType);
    setTemplate(key);
    setProblem(null);
    const tpl = ESTIMATE_TEMPLATES.find((x) => x.key === key);
    setName(tpl ? tpl.name : "");
    setRows(tpl ? tpl.values.map((value) => ({ value })) : [{ value: "" }, { value: "" }, { value: "" }]);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) return setProblem({ message: t("estimateSettings.nameRequired"), index: null });
    const values = rows.map((r) => r.value);
    const found = estimatePointsProblem(type, values);
    if (found) return setProblem(found);
    setBusy(true);
    const created = await createEstimate(slug, project.id, { name: name.trim(), type, values });
    setBusy(false);
    if (created) onClose();
  }

  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("estimateSettings.createTitle")}
      description={t("estimateSettings.createHint")}
      width={580}
    >
      <form onSubmit={submit} className="stack estimate-form">
        <fieldset className="picker-fieldset stack" style={{ "--gap": "8px" } as CSSProperties}>
          <legend className="field-label" style={{ marginBottom: 8 }}>
            {t("estimateSettings.type")}
          </legend>
          <div className="type-options">
            {AVAILABLE_ESTIMATE_TYPES.map((option) => (
              <label key={option} className={clsx("template-option", type === option && "is-selected")}>
                <input
                  type="radio"
                  name="estimate-type"
                  checked={type === option}
                  onChange={() => pick(option, ESTIMATE_TEMPLATES.find((x) => x.type === option)?.key ?? CUSTOM)}
                />
                <span className="template-name">{t(`estimateSettings.types.${option}`)}</span>
                <span className="template-values">{t(`estimateSettings.typeHints.${option}`)}</span>
              </label>
            ))}
            <label className="template-option is-disabled" title={ESTIMATE_TIME_UNAVAILABLE}>
              <input type="radio" name="estimate-type" disabled checked={false} onChange={() => undefined} />
              <span className="template-name">
                {t("estimateSettings.types.time")} <span className="badge">{t("estimateSettings.enterprise")}</span>
              </span>
              <span className="template-values">{t("estimateSettings.timeUnavailable")}</span>
            </label>
          </div>
        </fieldset>

        <fieldset className="picker-fieldset">
          <legend className="field-label" style={{ marginBottom: 8 }}>
            {t("estimateSettings.template")}
          </legend>
          <div className="template-options">
            {templates.map((tpl) => (
              <label key={tpl.key} className={clsx("template-option", template === tpl.key && "is-selected")}>
                <input
                  type="radio"
                  name="estimate-template"
                  checked={template === tpl.key}
                  onChange={() => pick(type, tpl.key)}
                />
                <span className="template-name">{tpl.name}</span>
                <span className="template-values">{tpl.values.join(", ")}</span>
              </label>
            ))}
            <label className={clsx("template-option", template === CUSTOM && "is-selected")}>
              <input
                type="radio"
                name="estimate-template"
                checked={template === CUSTOM}
                onChange={() => pick(type, CUSTOM)}
              />
              <span className="template-name">{t("estimateSettings.custom")}</span>
              <span className="template-values">
                {t("estimateSettings.customHint", { min: ESTIMATE_POINTS_MIN, max: ESTIMATE_POINTS_MAX })}
              </span>
            </label>
          </div>
        </fieldset>

        <TextInput
          label={t("estimateSettings.name")}
          value={name}
          maxLength={ESTIMATE_NAME_MAX}
          placeholder={t("estimateSettings.namePlaceholder")}
          onChange={(e) => {
            setName(e.target.value);
            setProblem(null);
          }}
        />
        <PointsEditor
          type={type}
          rows={rows}
          problemIndex={problem?.index ?? null}
          onChange={(next) => {
            setRows(next);
            setProblem(null);
          }}
        />
        {problem ? (
          <span className="field-error" role="alert">
            {problem.message}
          </span>
        ) : null}
        <ModalFooter>
          <Button variant="secondary" onClick={onClose}>
            {t("workspace.common.cancel")}
          </Button>
          <Button type="submit" loading={busy}>
            {t("estimateSettings.createSubmit")}
          </Button>
        </ModalFooter>
      </form>
    </Modal>
  );
}

function valuesOf(key: string): readonly string[] {
  return ESTIMATE_TEMPLATES.find((x) => x.key === key)?.values ?? [];
}
