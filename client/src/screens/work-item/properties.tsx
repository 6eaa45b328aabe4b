/**
 * The properties column: state, priority, assignees, labels, start and target date (overdue in
 * red), estimate (only with an active estimate), modules and cycle (only with the project's
 * feature on) and parent. Each change goes through the shared
 * work-item cache, optimistic, and the history refreshes after it.
 */
import { isOverdue, PRIORITIES, type Priority, personName } from "@tideline/shared";
import { CalendarDays, Tag, Triangle, User, X } from "lucide-react";
import { Popover } from "radix-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Avatar, DatePopover } from "../../components/ui";
import { activeEstimate } from "../../stores/project-meta";
import { patchWorkItem } from "../../stores/work-item-detail";
import { useWorkItem, type WorkItem, type WorkItemPatch } from "../../stores/work-items";
import { CyclePicker, ModulePicker, useCycleModuleFeatures } from "../work-items/cycle-module-pickers";
import { formatDay, workItemKey } from "./format";
import { ItemSearch } from "./item-search";
import { OptionPicker } from "./option-picker";
import { PriorityIcon, StateIcon } from "./state-icon";
import { browsePath, useDetailContext, useProjectMeta } from "./use-detail";

function PropRow({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="wid-prop-row">
      <span className="wid-prop-label">{label}</span>
      <div className="wid-prop-value">{children}</div>
    </div>
  );
}

export function Properties({ item }: { item: WorkItem }) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const meta = useProjectMeta(ctx.projectId);
  const estimate = activeEstimate(meta);
  const change = (patch: WorkItemPatch) => void patchWorkItem(ctx.slug, ctx.projectId, item.id, patch);
  const disabled = !ctx.canEdit;
  const features = useCycleModuleFeatures(ctx.slug, ctx.projectId);

  const state = meta?.states.find((s) => s.id === item.state_id);
  const assignees = (meta?.members ?? []).filter((m) => item.assignee_ids.includes(m.member));
  const labels = (meta?.labels ?? []).filter((l) => item.label_ids.includes(l.id));
  const overdue = isOverdue(item, new Date());
  const point = estimate?.points.find((p) => p.id === item.estimate_point);
  const name = personName;

  return (
    <section className="wid-props" aria-label={t("workItem.properties.heading")}>
      <h3 className="wid-props-heading">{t("workItem.properties.heading")}</h3>
      <PropRow label={t("workItem.properties.state")}>
        <OptionPicker
          label={`${t("workItem.properties.state")}: ${state?.name ?? t("workItem.properties.none")}`}
          disabled={disabled}
          options={(meta?.states ?? []).map((s) => ({
            value: s.id,
            label: s.name,
            icon: <StateIcon group={s.group} color={s.color} />,
          }))}
          selected={item.state_id ? [item.state_id] : []}
          onChange={([value]) => value && change({ state_id: value })}
          trigger={
            <>
              <StateIcon group={state?.group ?? item.state__group} color={state?.color} />
              <span>{state?.name ?? t("workItem.properties.none")}</span>
            </>
          }
        />
      </PropRow>

      <PropRow label={t("workItem.properties.priority")}>
        <OptionPicker
          label={`${t("workItem.properties.priority")}: ${t(`workItem.priority.${item.priority}`)}`}
          disabled={disabled}
          options={PRIORITIES.map((p) => ({
            value: p,
            label: t(`workItem.priority.${p}`),
            icon: <PriorityIcon priority={p} />,
          }))}
          selected={[item.priority]}
          onChange={([value]) => value && change({ priority: value as Priority })}
          trigger={
            <>
              <PriorityIcon priority={item.priority} />
              <span>{t(`workItem.priority.${item.priority}`)}</span>
            </>
          }
        />
      </PropRow>

      <PropRow label={t("workItem.properties.assignees")}>
        <OptionPicker
          multiple
          label={`${t("workItem.properties.assignees")}: ${
            assignees.map((a) => name(a.member_details)).join(", ") || t("workItem.properties.noAssignees")
          }`}
          disabled={disabled}
          options={(meta?.members ?? []).map((m) => ({
            value: m.member,
            label: name(m.member_details),
            icon: <Avatar name={name(m.member_details)} src={m.member_details.avatar_url} size={18} />,
          }))}
          selected={item.assignee_ids}
          onChange={(values) => change({ assignee_ids: values })}
          trigger={
            assignees.length ? (
              <span className="wid-prop-people">
                {assignees.map((a) => (
                  <span key={a.member} className="wid-prop-person">
                    <Avatar name={name(a.member_details)} src={a.member_details.avatar_url} size={18} />
                    {assignees.length === 1 ? name(a.member_details) : null}
                  </span>
                ))}
              </span>
            ) : (
              <>
                <User size={14} aria-hidden className="subtle" />
                <span className="subtle">{t("workItem.properties.noAssignees")}</span>
              </>
            )
          }
        />
      </PropRow>

      <PropRow label={t("workItem.properties.labels")}>
        <OptionPicker
          multiple
          label={`${t("workItem.properties.labels")}: ${
            labels.map((l) => l.name).join(", ") || t("workItem.properties.noLabels")
          }`}
          disabled={disabled}
          options={(meta?.labels ?? []).map((l) => ({
            value: l.id,
            label: l.name,
            icon: <span className="wid-label-dot" style={{ background: l.color }} />,
          }))}
          selected={item.label_ids}
          onChange={(values) => change({ label_ids: values })}
          trigger={
            labels.length ? (
              <span className="wid-prop-chips">
                {labels.map((l) => (
                  <span key={l.id} className="wid-label-chip">
                    <span className="wid-label-dot" style={{ background: l.color }} />
                    {l.name}
                  </span>
                ))}
              </span>
            ) : (
              <>
                <Tag size={14} aria-hidden className="subtle" />
                <span className="subtle">{t("workItem.properties.noLabels")}</span>
              </>
            )
          }
        />
      </PropRow>

      <PropRow label={t("workItem.properties.startDate")}>
        <DateField
          label={t("workItem.properties.startDate")}
          value={item.start_date}
          max={item.target_date}
          disabled={disabled}
          onChange={(value) => change({ start_date: value })}
        />
      </PropRow>

      <PropRow label={t("workItem.properties.targetDate")}>
        <DateField
          label={t("workItem.properties.targetDate")}
          value={item.target_date}
          min={item.start_date}
          overdue={overdue}
          disabled={disabled}
          onChange={(value) => change({ target_date: value })}
        />
      </PropRow>

      {estimate ? (
        <PropRow label={t("workItem.properties.estimate")}>
          <OptionPicker
            label={`${t("workItem.properties.estimate")}: ${point?.value ?? t("workItem.properties.none")}`}
            disabled={disabled}
            noneLabel={t("workItem.properties.none")}
            options={estimate.points.map((p) => ({ value: p.id, label: p.value }))}
            selected={item.estimate_point ? [item.estimate_point] : []}
            onChange={([value]) => change({ estimate_point: value ?? null })}
            trigger={
              <>
                <Triangle size={14} aria-hidden className="subtle" />
                <span className={point ? undefined : "subtle"}>{point?.value ?? t("workItem.properties.none")}</span>
              </>
            }
          />
        </PropRow>
      ) : null}

      {features.modules ? (
        <PropRow label={t("cycleModuleProps.modules")}>
          <ModulePicker
            slug={ctx.slug}
            projectId={ctx.projectId}
            variant="detail"
            value={item.module_ids}
            disabled={disabled}
            onChange={(module_ids) => change({ module_ids })}
          />
        </PropRow>
      ) : null}

      {features.cycles ? (
        <PropRow label={t("cycleModuleProps.cycle")}>
          <CyclePicker
            slug={ctx.slug}
            projectId={ctx.projectId}
            variant="detail"
            value={item.cycle_id}
            disabled={disabled}
            onChange={(cycle_id) => change({ cycle_id })}
          />
        </PropRow>
      ) : null}

      <PropRow label={t("workItem.properties.parent")}>
        <ParentField item={item} disabled={disabled} onChange={(parent_id) => change({ parent_id })} />
      </PropRow>
    </section>
  );
}

/** A date (yyyy-MM-dd), shown as "MMM dd, yyyy", picked in the app's calendar; a clear button. */
function DateField({
  label,
  value,
  min,
  max,
  overdue,
  disabled,
  onChange,
}: {
  label: string;
  value: string | null;
  min?: string | null;
  max?: string | null;
  overdue?: boolean;
  disabled: boolean;
  onChange: (value: string | null) => void;
}) {
  const { t } = useTranslation();
  const shown = value ? formatDay(value) : t("workItem.properties.none");
  return (
    <div className={overdue ? "wid-prop-date is-overdue" : "wid-prop-date"}>
      <DatePopover value={value} onChange={onChange} label={label} min={min} max={max} disabled={disabled}>
        <button
          type="button"
          className="wid-prop-date-btn"
          aria-label={`${label}: ${shown}${overdue ? ` (${t("workItem.properties.overdue")})` : ""}`}
          title={overdue ? t("workItem.properties.overdue") : undefined}
          disabled={disabled}
        >
          <CalendarDays size={14} aria-hidden />
          <span className="wid-prop-date-text">{shown}</span>
        </button>
      </DatePopover>
      {value && !disabled ? (
        <button
          type="button"
          className="wid-prop-clear"
          aria-label={`${t("workItem.properties.clear")} ${label}`}
          onClick={() => onChange(null)}
        >
          <X size={12} aria-hidden />
        </button>
      ) : null}
    </div>
  );
}

function ParentField({
  item,
  disabled,
  onChange,
}: {
  item: WorkItem;
  disabled: boolean;
  onChange: (id: string | null) => void;
}) {
  const { t } = useTranslation();
  const ctx = useDetailContext();
  const parent = useWorkItem(item.parent_id);
  const [open, setOpen] = useState(false);
  const key = parent ? workItemKey(ctx.identifier, parent.sequence_id) : null;
  return (
    <div className="wid-prop-parent">
      <Popover.Root open={open} onOpenChange={setOpen}>
        <Popover.Trigger asChild disabled={disabled}>
          <button
            type="button"
            className="wid-prop-trigger"
            aria-label={`${t("workItem.properties.parent")}: ${
              parent ? `${key} ${parent.name}` : t("workItem.properties.noParent")
            }`}
            disabled={disabled}
          >
            {parent ? (
              <>
                <span className="wid-key">{key}</span>
                <span className="wid-prop-parent-name">{parent.name}</span>
              </>
            ) : (
              <span className="subtle">{t("workItem.properties.noParent")}</span>
            )}
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="picker-pop wid-picker" sideOffset={4} align="start">
            <ItemSearch
              slug={ctx.slug}
              projectId={ctx.projectId}
              workItemId={item.id}
              mode="parent"
              label={t("workItem.properties.parent")}
              onPick={(picked) => {
                setOpen(false);
                onChange(picked.id);
              }}
            />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {parent && key ? (
        <Link className="wid-prop-parent-open" to={browsePath(ctx.slug, key)} aria-label={key}>
          ↗
        </Link>
      ) : null}
      {parent && !disabled ? (
        <button
          type="button"
          className="wid-prop-clear"
          aria-label={t("workItem.properties.removeParent")}
          onClick={() => onChange(null)}
        >
          <X size={12} aria-hidden />
        </button>
      ) : null}
    </div>
  );
}
