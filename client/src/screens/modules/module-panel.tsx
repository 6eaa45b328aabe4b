/**
 * A module's details beside its board: status, dates, lead and members (pickers for members and
 * above), description, progress by state group, the burndown, the assignee and label breakdown
 * and the links. Progress is counted from the local work-items cache once it is loaded (so a state
 * change on the board moves it at once); the cache holds what the caller may see, which is what the
 * server counts for them (a guest limited to their own items: only those).
 */
import type { ProgressCounters } from "@tideline/shared";
import { ExternalLink, Link2, Pencil, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { BurndownChart } from "../../components/charts/burndown-chart";
import { pendingOf } from "../../components/charts/burndown-data";
import { type BurndownUnit, BurndownUnitToggle } from "../../components/charts/burndown-unit-toggle";
import { Breakdown } from "../../components/progress/breakdown";
import { ProgressByGroup } from "../../components/progress/progress-by-group";
import { Avatar, Button, Combobox, DatePopover, showDay, TextInput, toDay } from "../../components/ui";
import { numericPoint, percentDone, progressFromItems } from "../../lib/progress";
import {
  createModuleLink,
  deleteModuleLink,
  type ModuleDetail,
  type ModuleLink,
  updateModule,
  updateModuleLink,
} from "../../stores/modules";
import { activeEstimate, projectMeta } from "../../stores/project-meta";
import { useProjectWorkItems, workItems } from "../../stores/work-items";
import { AvatarStack, type ModuleProjectContext, memberOptions, type Person, personOf } from "./module-bits";
import { StatusPicker } from "./module-list";
import "../../components/ui/controls.css";

type Props = { ctx: ModuleProjectContext; module: ModuleDetail };

export function ModulePanel({ ctx, module }: Props) {
  const { t } = useTranslation();
  const { slug } = ctx;
  const projectId = module.project_id;
  const wiSnap = useSnapshot(workItems);
  const metaSnap = useSnapshot(projectMeta);
  const { items, version } = useProjectWorkItems(projectId);
  const estimate = activeEstimate(metaSnap.byProject[projectId] as Parameters<typeof activeEstimate>[0]);
  const local = wiSnap.status[projectId] === "ready";

  // biome-ignore lint/correctness/useExhaustiveDependencies: the version marks a change of the items
  const counters: ProgressCounters = useMemo(() => {
    if (!local) return module;
    const points = new Map((estimate?.points ?? []).map((p) => [p.id, numericPoint(p.value)]));
    return progressFromItems(
      items,
      (i) => i.module_ids.includes(module.id),
      (id) => points.get(id) ?? 0,
    );
  }, [local, module, items, version, estimate]);

  const lead = personOf(ctx.members, module.lead_id);
  const people = module.member_ids.map((id) => personOf(ctx.members, id)).filter((p): p is Person => Boolean(p));
  const percent = percentDone(counters);
  const edit = (patch: Parameters<typeof updateModule>[3]) => void updateModule(slug, projectId, module.id, patch);
  const hasPoints = estimate?.type === "points";

  return (
    <div className="mo-panel" data-testid="module-panel">
      <section className="mo-panel-section">
        <dl className="mo-props">
          <dt>{t("modules.form.status")}</dt>
          <dd>
            <StatusPicker ctx={ctx} module={module} />
          </dd>
          <dt>{t("modules.panel.dates")}</dt>
          <dd className="mo-panel-dates">
            <DatePopover
              value={module.start_date}
              max={module.target_date}
              label={t("modules.form.startDate")}
              onChange={(v) => edit({ start_date: v })}
              disabled={!ctx.canEdit}
            >
              <button type="button" className="mo-prop-btn" disabled={!ctx.canEdit}>
                {showDay(module.start_date) || t("modules.form.startDate")}
              </button>
            </DatePopover>
            <span aria-hidden>→</span>
            <DatePopover
              value={module.target_date}
              min={module.start_date}
              label={t("modules.form.targetDate")}
              onChange={(v) => edit({ target_date: v })}
              disabled={!ctx.canEdit}
            >
              <button type="button" className="mo-prop-btn" disabled={!ctx.canEdit}>
                {showDay(module.target_date) || t("modules.form.targetDate")}
              </button>
            </DatePopover>
          </dd>
          <dt>{t("modules.form.lead")}</dt>
          <dd>
            <Combobox
              label={t("modules.form.lead")}
              options={memberOptions(ctx.members)}
              isSelected={(v) => v === module.lead_id}
              onSelect={(v) => edit({ lead_id: v === module.lead_id ? null : v })}
              disabled={!ctx.canEdit}
            >
              <button type="button" className="mo-prop-btn" disabled={!ctx.canEdit}>
                {lead ? (
                  <>
                    <Avatar name={lead.name} src={lead.avatarUrl} size={18} />
                    {lead.name}
                  </>
                ) : (
                  <span className="muted">{t("modules.noLead")}</span>
                )}
              </button>
            </Combobox>
          </dd>
          <dt>{t("modules.form.members")}</dt>
          <dd>
            <Combobox
              label={t("modules.form.members")}
              options={memberOptions(ctx.members)}
              multiple
              isSelected={(v) => module.member_ids.includes(v)}
              onSelect={(v) =>
                edit({
                  member_ids: module.member_ids.includes(v)
                    ? module.member_ids.filter((m) => m !== v)
                    : [...module.member_ids, v],
                })
              }
              disabled={!ctx.canEdit}
            >
              <button type="button" className="mo-prop-btn" disabled={!ctx.canEdit}>
                {people.length ? (
                  <AvatarStack people={people} size={18} max={5} />
                ) : (
                  <span className="muted">{t("modules.form.noMembers")}</span>
                )}
              </button>
            </Combobox>
          </dd>
        </dl>
        {module.description ? <p className="mo-panel-description">{module.description}</p> : null}
      </section>

      <section className="mo-panel-section">
        <h3 className="mo-panel-title">
          {t("modules.panel.progress")}
          <span className="mo-panel-title-aside">
            {t("modules.progressTitle", { done: counters.completed_issues, total: counters.total_issues })} · {percent}%
          </span>
        </h3>
        <ProgressByGroup counters={counters} />
      </section>

      <ModuleBurndown module={module} counters={counters} local={local} hasPoints={hasPoints} />

      <Breakdown
        className="mo-panel-section"
        assignees={module.distribution?.assignees ?? null}
        labels={module.distribution?.labels ?? null}
        emptyText={t("modules.panel.noItems")}
      />

      <LinksSection ctx={ctx} module={module} />
    </div>
  );
}

/**
 * The burndown, in work items or (when the project estimates in points) in points: the module
 * detail carries a chart of each (`distribution`, `estimate_distribution`). Today's point comes
 * from the local counts when they are local, so a change on the board moves it at once.
 */
function ModuleBurndown({
  module,
  counters,
  local,
  hasPoints,
}: {
  module: ModuleDetail;
  counters: ProgressCounters;
  local: boolean;
  hasPoints: boolean;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<BurndownUnit>("issues");
  const pointsChart = "completion_chart" in module.estimate_distribution ? module.estimate_distribution : null;
  const unit: BurndownUnit = hasPoints && pointsChart ? picked : "issues";
  const shown = unit === "points" ? pointsChart : module.distribution;
  const chart = shown?.completion_chart ?? {};
  return (
    <section className="mo-panel-section">
      {/* The toggle sits beside the heading, not in it (it would join the heading's name). */}
      <div className="mo-panel-title mo-panel-title-row">
        <h3>{t("modules.panel.burndown")}</h3>
        {hasPoints && pointsChart ? (
          <span className="mo-panel-title-aside">
            <BurndownUnitToggle value={unit} onChange={setPicked} />
          </span>
        ) : null}
      </div>
      {module.start_date && module.target_date ? (
        <BurndownChart
          chart={chart}
          points={shown?.progress}
          start={module.start_date}
          end={module.target_date}
          total={unit === "points" ? counters.total_estimate_points : counters.total_issues}
          unit={unit}
          today={toDay(new Date())}
          todayPending={local ? pendingOf(counters, unit) : undefined}
          height={180}
        />
      ) : (
        <p className="muted mo-panel-note">{t("modules.panel.burndownNoDates")}</p>
      )}
    </section>
  );
}

function LinksSection({ ctx, module }: Props) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const links = module.link_module ?? [];
  return (
    <section className="mo-panel-section">
      <h3 className="mo-panel-title">
        {t("modules.links.title")}
        {ctx.canEdit && !adding ? (
          <button
            type="button"
            className="ui-icon-btn mo-icon-btn mo-icon-btn-sm"
            onClick={() => setAdding(true)}
            aria-label={t("modules.links.add")}
            title={t("modules.links.add")}
          >
            <Plus size={14} aria-hidden />
          </button>
        ) : null}
      </h3>
      {adding ? (
        <LinkForm
          onCancel={() => setAdding(false)}
          onSubmit={async (input) => {
            const errors = await createModuleLink(ctx.slug, module.project_id, module.id, input);
            if (!Object.keys(errors).length) setAdding(false);
            return errors;
          }}
        />
      ) : null}
      {links.length === 0 && !adding ? <p className="muted mo-panel-note">{t("modules.links.none")}</p> : null}
      <ul className="mo-links">
        {links.map((link) => (
          <LinkRow key={link.id} ctx={ctx} module={module} link={link} />
        ))}
      </ul>
    </section>
  );
}

function LinkRow({ ctx, module, link }: Props & { link: ModuleLink }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const label = link.title || link.url;
  if (editing) {
    return (
      <li>
        <LinkForm
          initial={{ url: link.url, title: link.title ?? "" }}
          onCancel={() => setEditing(false)}
          onSubmit={async (input) => {
            const errors = await updateModuleLink(ctx.slug, module.project_id, module.id, link.id, input);
            if (!Object.keys(errors).length) setEditing(false);
            return errors;
          }}
        />
      </li>
    );
  }
  return (
    <li className="mo-link">
      <Link2 size={14} aria-hidden className="mo-link-icon" />
      <a href={link.url} target="_blank" rel="noopener noreferrer" className="mo-link-text" title={link.url}>
        {label}
        <ExternalLink size={12} aria-hidden />
      </a>
      {ctx.canEdit ? (
        <span className="mo-link-actions">
          <button
            type="button"
            className="ui-icon-btn mo-icon-btn mo-icon-btn-sm"
            aria-label={t("modules.links.edit", { name: label })}
            title={t("modules.links.editShort")}
            onClick={() => setEditing(true)}
          >
            <Pencil size={13} aria-hidden />
          </button>
          <button
            type="button"
            className="ui-icon-btn mo-icon-btn mo-icon-btn-sm"
            aria-label={t("modules.links.remove", { name: label })}
            title={t("modules.links.removeShort")}
            onClick={() => void deleteModuleLink(ctx.slug, module.project_id, module.id, link.id)}
          >
            <Trash2 size={13} aria-hidden />
          </button>
        </span>
      ) : null}
    </li>
  );
}

function LinkForm({
  initial,
  onSubmit,
  onCancel,
}: {
  initial?: { url: string; title: string };
  onSubmit: (input: { url: string; title: string }) => Promise<Record<string, string>>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(initial?.url ?? "");
  const [title, setTitle] = useState(initial?.title ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors(await onSubmit({ url, title }));
    setBusy(false);
  }
  return (
    <form
      className="mo-link-form"
      // Our own rule checks the URL (normalizeLinkUrl): it takes a bare host ("figma.com/…") that
      // the browser's type=url check refuses with its own bubble; type=url stays for the keyboard.
      noValidate
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <TextInput
        label={t("modules.links.url")}
        placeholder="https://"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={errors.url}
        autoFocus
        type="url"
        inputMode="url"
      />
      <TextInput
        label={t("modules.links.linkTitle")}
        placeholder={t("modules.links.titlePlaceholder")}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        error={errors.title}
      />
      <div className="mo-link-form-actions">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          {t("modules.form.cancel")}
        </Button>
        <Button type="submit" size="sm" loading={busy}>
          {initial ? t("modules.form.save") : t("modules.links.addShort")}
        </Button>
      </div>
    </form>
  );
}
