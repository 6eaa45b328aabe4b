/**
 * A module's details beside its board: status, dates, lead and members (pickers for members and
 * above), description, progress by state group, the burndown, the assignee and label breakdown
 * and the links. Progress is counted from the local work-items cache once it is loaded (so a state
 * change on the board moves it at once) — except for restricted guests, who only hold their own
 * items: they see the server's counters.
 */
import { type ProgressCounters, ROLE, STATE_GROUPS } from "@tideline/shared";
import clsx from "clsx";
import { ExternalLink, Link2, Pencil, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { BurndownChart } from "../../components/charts/burndown-chart";
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
import type { ProjectDetail } from "../../stores/projects";
import { useProjectWorkItems, workItems } from "../../stores/work-items";
import { AvatarStack, type ModuleProjectContext, memberOptions, type Person, personOf } from "./module-bits";
import { StatusPicker } from "./module-list";

type Props = { ctx: ModuleProjectContext; module: ModuleDetail };

export function ModulePanel({ ctx, module }: Props) {
  const { t } = useTranslation();
  const { slug } = ctx;
  const projectId = module.project_id;
  const wiSnap = useSnapshot(workItems);
  const metaSnap = useSnapshot(projectMeta);
  const { items, version } = useProjectWorkItems(projectId);
  const estimate = activeEstimate(metaSnap.byProject[projectId] as Parameters<typeof activeEstimate>[0]);
  const project = ctx.project as Partial<ProjectDetail> | undefined;
  const guestView = project?.guest_view_all_features === true;
  const restricted = ctx.projectRole <= ROLE.guest && !guestView;
  const local = wiSnap.status[projectId] === "ready" && !restricted;

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
  const today = toDay(new Date());
  const pendingToday = counters.total_issues - counters.completed_issues - counters.cancelled_issues;

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
        <div className="mo-stack-bar" aria-hidden>
          {STATE_GROUPS.map((g) =>
            counters[`${g}_issues`] ? (
              <span
                key={g}
                className={`mo-stack-${g}`}
                style={{ width: `${(counters[`${g}_issues`] / Math.max(1, counters.total_issues)) * 100}%` }}
              />
            ) : null,
          )}
        </div>
        <ul className="mo-groups">
          {STATE_GROUPS.map((g) => (
            <li key={g}>
              <span className={clsx("mo-dot", `mo-stack-${g}`)} aria-hidden />
              <span>{t(`modules.panel.groups.${g}`)}</span>
              <span className="mo-groups-n">{counters[`${g}_issues`]}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="mo-panel-section">
        <h3 className="mo-panel-title">{t("modules.panel.burndown")}</h3>
        {module.start_date && module.target_date ? (
          <BurndownChart
            chart={module.distribution?.completion_chart ?? {}}
            start={module.start_date}
            end={module.target_date}
            total={counters.total_issues}
            unit="issues"
            today={today}
            todayPending={local ? pendingToday : undefined}
            height={180}
          />
        ) : (
          <p className="muted mo-panel-note">{t("modules.panel.burndownNoDates")}</p>
        )}
      </section>

      <Breakdown module={module} />

      <LinksSection ctx={ctx} module={module} />
    </div>
  );
}

function Breakdown({ module }: { module: ModuleDetail }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"assignees" | "labels">("assignees");
  const dist = module.distribution;
  if (!dist) return null;
  const rows =
    tab === "assignees"
      ? dist.assignees.map((a) => ({
          key: a.assignee_id ?? "none",
          name: a.assignee_id
            ? a.display_name || [a.first_name, a.last_name].filter(Boolean).join(" ") || "?"
            : t("modules.panel.noAssignee"),
          icon: a.assignee_id ? (
            <Avatar name={a.display_name ?? "?"} src={a.avatar_url} size={18} />
          ) : (
            <span className="mo-avatar-empty mo-avatar-empty-sm" aria-hidden />
          ),
          done: a.completed_issues,
          total: a.total_issues,
        }))
      : dist.labels.map((l) => ({
          key: l.label_id ?? "none",
          name: l.label_id ? (l.label_name ?? "?") : t("modules.panel.noLabel"),
          icon: <span className="mo-dot" style={{ background: l.color ?? "var(--color-text-subtle)" }} aria-hidden />,
          done: l.completed_issues,
          total: l.total_issues,
        }));
  return (
    <section className="mo-panel-section">
      <fieldset className="mo-segmented mo-panel-tabs">
        <legend className="visually-hidden">{t("modules.panel.breakdown")}</legend>
        {(["assignees", "labels"] as const).map((key) => (
          <button
            key={key}
            type="button"
            aria-pressed={tab === key}
            className={clsx("mo-segment", tab === key && "is-on")}
            onClick={() => setTab(key)}
          >
            {t(`modules.panel.${key}`)}
          </button>
        ))}
      </fieldset>
      {rows.length === 0 ? (
        <p className="muted mo-panel-note">{t("modules.panel.noItems")}</p>
      ) : (
        <ul className="mo-breakdown">
          {rows.map((r) => (
            <li key={r.key}>
              {r.icon}
              <span className="mo-breakdown-name">{r.name}</span>
              <span className="mo-breakdown-n">{t("modules.progressTitle", { done: r.done, total: r.total })}</span>
            </li>
          ))}
        </ul>
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
            className="mo-icon-btn mo-icon-btn-sm"
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
            className="mo-icon-btn mo-icon-btn-sm"
            aria-label={t("modules.links.edit", { name: label })}
            title={t("modules.links.editShort")}
            onClick={() => setEditing(true)}
          >
            <Pencil size={13} aria-hidden />
          </button>
          <button
            type="button"
            className="mo-icon-btn mo-icon-btn-sm"
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
