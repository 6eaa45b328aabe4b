/**
 * Work-item properties: their icons and compact pickers (state, priority, assignees, labels,
 * dates, estimate; cycle and modules in cycle-module-pickers.tsx), shared by list rows, kanban cards, spreadsheet cells, the create modal and
 * the bulk bar. Pickers take a value and report changes; `ItemProperties` wires them to an item.
 */
import { isOverdue, NONE_GROUP, PRIORITIES, type Priority, type StateGroup } from "@tideline/shared";
import clsx from "clsx";
import { format, parseISO } from "date-fns";
import {
  CalendarCheck2,
  CalendarClock,
  CalendarDays,
  Clock3,
  Layers,
  Link2,
  Paperclip,
  SignalHigh,
  SignalLow,
  SignalMedium,
  Tag,
  Triangle,
  UserRound,
} from "lucide-react";
import {
  forwardRef,
  memo,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { WaitingToSyncMark } from "../../components/offline/waiting-to-sync";
import { Avatar, Combobox, type ComboOption, DatePopover } from "../../components/ui";
import { useWaitingToSync } from "../../lib/offline/app-outbox";
import type { ProjectState } from "../../stores/project-meta";
import { updateWorkItem, type WorkItem, type WorkItemPatch } from "../../stores/work-items";
import { EpicProgressChip } from "../epics/epic-progress-chip";
import { type Lookups, type Translate, useWorkItemsContext } from "./context";
import { CyclePicker, ModulePicker, useCycleList, useCycleModuleFeatures, useModuleList } from "./cycle-module-pickers";
import { type ShownProperty, shownProperties } from "./shown-properties";

const stop = (event: SyntheticEvent) => event.stopPropagation();

// The icons every row and card shows, made once: React skips an element it rendered before, so a
// row updated in place (row-slots.ts) re-renders none of them.
const ICONS = {
  noAssignee: <UserRound size={14} />,
  labels: <Tag size={13} />,
  estimate: <Triangle size={12} />,
  startDate: <CalendarClock size={13} />,
  dueDate: <CalendarCheck2 size={13} />,
  subIssues: <Layers size={13} aria-hidden />,
  attachments: <Paperclip size={13} aria-hidden />,
  links: <Link2 size={13} aria-hidden />,
  createdOn: <CalendarDays size={13} aria-hidden />,
  updatedOn: <Clock3 size={13} aria-hidden />,
};

// ───────────── icons ─────────────

/** A state's icon: its group's shape in its colour (memoised: a row updated in place keeps it). */
export const StateIcon = memo(function StateIcon({
  group,
  color,
  size = 14,
}: {
  group: string | null | undefined;
  color?: string;
  size?: number;
}) {
  const c = color || "var(--color-text-subtle)";
  const r = 5.5;
  let shape: ReactNode;
  switch (group as StateGroup | null | undefined) {
    case "backlog":
      shape = <circle cx="7" cy="7" r={r} fill="none" stroke={c} strokeWidth="1.5" strokeDasharray="2.2 1.8" />;
      break;
    case "unstarted":
      shape = <circle cx="7" cy="7" r={r} fill="none" stroke={c} strokeWidth="1.5" />;
      break;
    case "started":
      shape = (
        <>
          <circle cx="7" cy="7" r={r} fill="none" stroke={c} strokeWidth="1.5" />
          <path d="M7 3.5 A3.5 3.5 0 0 1 7 10.5 Z" fill={c} />
        </>
      );
      break;
    case "completed":
      shape = (
        <>
          <circle cx="7" cy="7" r="6.25" fill={c} />
          <path d="M4.4 7.2 6.2 9 9.7 5.3" fill="none" stroke="var(--color-surface)" strokeWidth="1.6" />
        </>
      );
      break;
    case "cancelled":
      shape = (
        <>
          <circle cx="7" cy="7" r="6.25" fill={c} />
          <path d="M4.8 4.8 9.2 9.2 M9.2 4.8 4.8 9.2" stroke="var(--color-surface)" strokeWidth="1.5" />
        </>
      );
      break;
    default:
      shape = <circle cx="7" cy="7" r={r} fill="none" stroke={c} strokeWidth="1.5" strokeDasharray="1 2" />;
  }
  return (
    <svg width={size} height={size} viewBox="0 0 14 14" aria-hidden="true" className="state-icon">
      {shape}
    </svg>
  );
});

export const PriorityIcon = memo(function PriorityIcon({ priority, size = 14 }: { priority: string; size?: number }) {
  switch (priority as Priority) {
    case "urgent":
      return (
        <span className="priority-urgent" aria-hidden>
          <Triangle size={size - 2} strokeWidth={2.5} />
        </span>
      );
    case "high":
      return <SignalHigh size={size} className="priority-icon priority-high" aria-hidden />;
    case "medium":
      return <SignalMedium size={size} className="priority-icon priority-medium" aria-hidden />;
    case "low":
      return <SignalLow size={size} className="priority-icon priority-low" aria-hidden />;
    default:
      return (
        <span className="priority-none" aria-hidden>
          ···
        </span>
      );
  }
});

export function LabelDot({ color }: { color: string }) {
  return <span className="label-dot" style={{ background: color || "var(--color-text-subtle)" }} aria-hidden />;
}

/**
 * Translated names by key, per translate function (one per language): every row and card names
 * its priority, and i18next with options is too slow to ask again for each of them.
 */
const labelTexts = new WeakMap<Translate, Map<string, string>>();

function labelText(t: Translate, key: string, options: Record<string, unknown>): string {
  let texts = labelTexts.get(t);
  if (!texts) {
    texts = new Map();
    labelTexts.set(t, texts);
  }
  const cacheKey = `${key}\u0000${JSON.stringify(options)}`;
  let text = texts.get(cacheKey);
  if (text === undefined) {
    text = t(key, options);
    texts.set(cacheKey, text);
  }
  return text;
}

export function useLabels() {
  const { t } = useWorkItemsContext();
  // The same object while the language is: what is built from it (the Filters menu's sections)
  // is then built once, not on every render of the board.
  return useMemo(
    () => ({
      priority: (p: string) => labelText(t, `workItems.priority.${p}`, { defaultValue: p }),
      stateGroup: (g: string) => labelText(t, `workItems.stateGroup.${g}`, { defaultValue: g }),
    }),
    [t],
  );
}

// ───────────── dates ─────────────

/** Formatted days: a board shows the same few hundred dates on thousands of rows and cards. */
const formattedDays = new Map<string, string>();

export function formatDate(value: string | null | undefined, short = false): string {
  if (!value) return "";
  const day = value.slice(0, 10);
  const key = short ? `s${day}` : day;
  let text = formattedDays.get(key);
  if (text === undefined) {
    // A calendar day at local midnight, as parseISO reads it (parseISO itself is slow for thousands).
    const [year, month, date] = day.split("-").map(Number);
    const at = new Date(year ?? Number.NaN, (month ?? Number.NaN) - 1, date ?? Number.NaN);
    const valid = at.getDate() === date && at.getMonth() === (month ?? 0) - 1;
    text = valid ? format(at, short ? "MMM dd" : "MMM dd, yyyy") : day;
    if (formattedDays.size > 5000) formattedDays.clear();
    formattedDays.set(key, text);
  }
  return text;
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "";
  try {
    return format(parseISO(value), "MMM dd, yyyy");
  } catch {
    return value;
  }
}

// ───────────── trigger button ─────────────

export type PickerVariant = "pill" | "cell" | "field";

type TriggerProps = {
  variant: PickerVariant;
  label: string;
  icon?: ReactNode;
  children?: ReactNode;
  empty?: boolean;
  danger?: boolean;
  disabled?: boolean;
  title?: string;
} & React.ButtonHTMLAttributes<HTMLButtonElement>;

/** The button a picker opens from: a small pill on rows and cards, a full cell, or a form button. */
export const PropertyButton = forwardRef<HTMLButtonElement, TriggerProps>(function PropertyButton(
  { variant, label, icon, children, empty, danger, disabled, title, className, ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type="button"
      className={clsx(
        "prop-btn",
        `prop-btn-${variant}`,
        empty && "prop-btn-empty",
        danger && "prop-btn-danger",
        className,
      )}
      aria-label={label}
      title={title ?? label}
      disabled={disabled}
      {...rest}
    >
      {icon}
      {children !== undefined && children !== null && children !== "" ? (
        <span className="prop-btn-text">{children}</span>
      ) : null}
    </button>
  );
});

type Controlled = {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  disabled?: boolean;
  variant: PickerVariant;
};

// ───────────── state ─────────────

export function stateOptions(states: readonly ProjectState[]): ComboOption[] {
  return states.map((s) => ({ value: s.id, label: s.name, icon: <StateIcon group={s.group} color={s.color} /> }));
}

export function StatePicker({
  value,
  onChange,
  showLabel = true,
  ...rest
}: Controlled & { value: string | null; onChange: (id: string) => void; showLabel?: boolean }) {
  const { t, lookups } = useWorkItemsContext();
  const state = value ? lookups.stateById.get(value) : undefined;
  return (
    <Combobox
      label={t("workItems.props.state")}
      options={() => stateOptions(lookups.states)}
      isSelected={(v) => v === value}
      onSelect={onChange}
      open={rest.open}
      onOpenChange={rest.onOpenChange}
      disabled={rest.disabled}
      searchPlaceholder={t("workItems.picker.search")}
      emptyText={t("workItems.picker.noMatch")}
    >
      <PropertyButton
        variant={rest.variant}
        label={`${t("workItems.props.state")}: ${state?.name ?? t("workItems.props.none")}`}
        icon={<StateIcon group={state?.group} color={state?.color} />}
        disabled={rest.disabled}
      >
        {showLabel ? (state?.name ?? t("workItems.props.state")) : null}
      </PropertyButton>
    </Combobox>
  );
}

// ───────────── priority ─────────────

export function PriorityPicker({
  value,
  onChange,
  showLabel = true,
  ...rest
}: Controlled & { value: Priority; onChange: (p: Priority) => void; showLabel?: boolean }) {
  const { t } = useWorkItemsContext();
  const names = useLabels();
  return (
    <Combobox
      label={t("workItems.props.priority")}
      options={() =>
        PRIORITIES.map((p) => ({ value: p, label: names.priority(p), icon: <PriorityIcon priority={p} /> }))
      }
      isSelected={(v) => v === value}
      onSelect={(v) => onChange(v as Priority)}
      open={rest.open}
      onOpenChange={rest.onOpenChange}
      disabled={rest.disabled}
      searchPlaceholder={t("workItems.picker.search")}
      emptyText={t("workItems.picker.noMatch")}
    >
      <PropertyButton
        variant={rest.variant}
        label={`${t("workItems.props.priority")}: ${names.priority(value)}`}
        icon={<PriorityIcon priority={value} />}
        className={clsx(value === "urgent" && rest.variant === "pill" && "prop-btn-urgent")}
        disabled={rest.disabled}
        empty={value === "none"}
      >
        {showLabel ? (value === "none" && rest.variant === "pill" ? null : names.priority(value)) : null}
      </PropertyButton>
    </Combobox>
  );
}

// ───────────── assignees ─────────────

export function AvatarStack({ ids, lookups, max = 3 }: { ids: readonly string[]; lookups: Lookups; max?: number }) {
  const shown = ids.slice(0, max);
  return (
    <span className="avatar-stack">
      {shown.map((id) => {
        const m = lookups.memberById.get(id);
        return <Avatar key={id} name={m?.name ?? "?"} src={m?.avatar} size={18} />;
      })}
      {ids.length > max ? <span className="avatar-more">+{ids.length - max}</span> : null}
    </span>
  );
}

export function AssigneesPicker({
  value,
  onChange,
  ...rest
}: Controlled & { value: readonly string[]; onChange: (ids: string[]) => void }) {
  const { t, lookups } = useWorkItemsContext();
  const names = value.map((id) => lookups.memberById.get(id)?.name ?? "?");
  return (
    <Combobox
      label={t("workItems.props.assignees")}
      options={() =>
        lookups.members.map((m) => ({
          value: m.id,
          label: m.name,
          keywords: m.email,
          icon: <Avatar name={m.name} src={m.avatar} size={18} />,
        }))
      }
      multiple
      isSelected={(v) => value.includes(v)}
      onSelect={(v) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v])}
      open={rest.open}
      onOpenChange={rest.onOpenChange}
      disabled={rest.disabled}
      searchPlaceholder={t("workItems.picker.search")}
      emptyText={t("workItems.picker.noMatch")}
    >
      <PropertyButton
        variant={rest.variant}
        label={`${t("workItems.props.assignees")}: ${names.length ? names.join(", ") : t("workItems.props.none")}`}
        icon={value.length ? <AvatarStack ids={value} lookups={lookups} /> : ICONS.noAssignee}
        empty={!value.length}
        disabled={rest.disabled}
      >
        {rest.variant !== "pill"
          ? value.length === 1
            ? names[0]
            : value.length
              ? null
              : t("workItems.props.assignees")
          : null}
      </PropertyButton>
    </Combobox>
  );
}

// ───────────── labels ─────────────

export function LabelsPicker({
  value,
  onChange,
  ...rest
}: Controlled & { value: readonly string[]; onChange: (ids: string[]) => void }) {
  const { t, lookups } = useWorkItemsContext();
  const labels = value.map((id) => lookups.labelById.get(id)).filter((l) => l !== undefined);
  const title = labels.map((l) => l.name).join(", ");
  let content: ReactNode = null;
  if (labels.length === 1 && labels[0]) content = labels[0].name;
  else if (labels.length > 1) content = labelText(t, "workItems.props.labelCount", { count: labels.length });
  else if (rest.variant !== "pill") content = t("workItems.props.labels");
  return (
    <Combobox
      label={t("workItems.props.labels")}
      options={() => lookups.labels.map((l) => ({ value: l.id, label: l.name, icon: <LabelDot color={l.color} /> }))}
      multiple
      isSelected={(v) => value.includes(v)}
      onSelect={(v) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v])}
      open={rest.open}
      onOpenChange={rest.onOpenChange}
      disabled={rest.disabled}
      searchPlaceholder={t("workItems.picker.search")}
      emptyText={lookups.labels.length ? t("workItems.picker.noMatch") : t("workItems.picker.noLabels")}
    >
      <PropertyButton
        variant={rest.variant}
        label={`${t("workItems.props.labels")}: ${title || t("workItems.props.none")}`}
        title={title || t("workItems.props.labels")}
        icon={
          labels.length ? (
            <span className="label-dots">
              {labels.slice(0, 3).map((l) => (
                <LabelDot key={l.id} color={l.color} />
              ))}
            </span>
          ) : (
            ICONS.labels
          )
        }
        empty={!labels.length}
        disabled={rest.disabled}
      >
        {content}
      </PropertyButton>
    </Combobox>
  );
}

// ───────────── dates ─────────────

export function DatePicker({
  value,
  onChange,
  kind,
  overdue,
  min,
  max,
  ...rest
}: Controlled & {
  value: string | null;
  onChange: (date: string | null) => void;
  kind: "start" | "due";
  overdue?: boolean;
  min?: string | null;
  max?: string | null;
}) {
  const { t } = useWorkItemsContext();
  const [openState, setOpenState] = useState(false);
  const open = rest.open ?? openState;
  const setOpen = (next: boolean) => {
    if (rest.open === undefined) setOpenState(next);
    rest.onOpenChange?.(next);
  };
  // Only the button until first opened (see Combobox): rows mount cheaply while scrolling.
  const [armed, setArmed] = useState(false);
  const name = kind === "start" ? t("workItems.props.startDate") : t("workItems.props.dueDate");
  const button = (
    <PropertyButton
      variant={rest.variant}
      label={`${name}: ${value ? formatDate(value) : t("workItems.props.none")}`}
      icon={kind === "start" ? ICONS.startDate : ICONS.dueDate}
      empty={!value}
      danger={overdue}
      disabled={rest.disabled}
      onClick={
        armed
          ? undefined
          : () => {
              setArmed(true);
              setOpen(true);
            }
      }
    >
      {value ? formatDate(value, rest.variant === "pill") : rest.variant === "pill" ? null : name}
    </PropertyButton>
  );
  if (!armed && !open) return button;
  return (
    <DatePopover
      value={value}
      onChange={onChange}
      label={name}
      min={min}
      max={max}
      open={open}
      onOpenChange={setOpen}
      disabled={rest.disabled}
    >
      {button}
    </DatePopover>
  );
}

// ───────────── estimate ─────────────

export function EstimatePicker({
  value,
  onChange,
  ...rest
}: Controlled & { value: string | null; onChange: (id: string | null) => void }) {
  const { t, lookups } = useWorkItemsContext();
  const point = value ? lookups.pointById.get(value) : undefined;
  return (
    <Combobox
      label={t("workItems.props.estimate")}
      options={(): ComboOption[] => [
        { value: NONE_GROUP, label: t("workItems.props.noEstimate"), icon: <Triangle size={13} aria-hidden /> },
        ...lookups.points.map((p) => ({ value: p.id, label: p.value, icon: <Triangle size={13} aria-hidden /> })),
      ]}
      isSelected={(v) => (v === NONE_GROUP ? !value : v === value)}
      onSelect={(v) => onChange(v === NONE_GROUP ? null : v)}
      open={rest.open}
      onOpenChange={rest.onOpenChange}
      disabled={rest.disabled}
      searchPlaceholder={t("workItems.picker.search")}
      emptyText={t("workItems.picker.noMatch")}
    >
      <PropertyButton
        variant={rest.variant}
        label={`${t("workItems.props.estimate")}: ${point?.value ?? t("workItems.props.none")}`}
        icon={ICONS.estimate}
        empty={!point}
        disabled={rest.disabled}
      >
        {point?.value ?? (rest.variant === "pill" ? null : t("workItems.props.estimate"))}
      </PropertyButton>
    </Combobox>
  );
}

// ───────────── an item's properties ─────────────

/** Change one item from a picker (optimistic, undone with a toast if refused). */
export function useItemUpdater() {
  const { slug, projectId } = useWorkItemsContext();
  return (item: WorkItem, patch: WorkItemPatch) => void updateWorkItem(slug, projectId, item.id, patch);
}

function Count({ icon, value, label }: { icon: ReactNode; value: number; label: string }) {
  return (
    <span className="prop-count" title={label} role="img" aria-label={label}>
      {icon}
      {value}
    </span>
  );
}

/**
 * Does a cycle or module list know `id`? While it loads, yes — the chip keeps its place with a
 * placeholder name, so the row doesn't move when the names arrive; after a failed load, no.
 */
function inList(list: { list: readonly { id: string }[]; status: string | undefined }): (id: string) => boolean {
  if (list.status === "ready") return (id) => list.list.some((entry) => entry.id === id);
  if (list.status === "error") return () => false;
  return () => true;
}

/**
 * A one-line list row shows only the chips that fit (work-items.css wraps the others onto a
 * clipped second line); those are made inert, so Tab and screen readers skip what can't be seen.
 * Kanban cards and phone rows wrap their chips in view and keep them all. Re-checked on every
 * render (chips come and go) and when the row's width changes (the details panel, the window).
 */
function useDroppedChips(): RefObject<HTMLDivElement | null> {
  const ref = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Observing again reports the element once more, after the next layout: that is the re-check.
    chipsObserver ??= new ResizeObserver(markDroppedChips);
    chipsObserver.observe(el);
    return () => chipsObserver?.unobserve(el);
  });
  return ref;
}

/**
 * One observer for every row: its callback runs after the browser's own layout and reads every
 * row's chip positions before it changes any, so a board of rows costs no forced layout (reading
 * offsetTop in each row's effect laid the page out again for every row).
 */
let chipsObserver: ResizeObserver | null = null;

function markDroppedChips(entries: ResizeObserverEntry[]): void {
  const changes: [HTMLElement, boolean][] = [];
  for (const { target } of entries) {
    const oneLine = target.closest(".wi-item-row:not(.wi-item-row-wrap)") !== null;
    const chips = Array.from(target.children) as HTMLElement[];
    const top = oneLine ? (chips[0]?.offsetTop ?? 0) : 0;
    for (const chip of chips) {
      const dropped = oneLine && chip.offsetTop > top;
      if (chip.inert !== dropped) changes.push([chip, dropped]);
    }
  }
  for (const [chip, dropped] of changes) chip.inert = dropped;
}

/**
 * The enabled display properties of an item that have a value, as compact pickers (list rows,
 * kanban cards), in display-property order — shown-properties.ts decides which.
 */
export const ItemProperties = memo(function ItemProperties({ item }: { item: WorkItem }) {
  const { t, props, canEdit, lookups, today, slug, projectId, scope } = useWorkItemsContext();
  const update = useItemUpdater();
  const waiting = useWaitingToSync(item.id);
  // An item created offline can be changed before it is sent: its changes queue behind it.
  const disabled = !canEdit || (item.id.startsWith("temp-") && !waiting);
  const overdue = isOverdue(item, today);
  const features = useCycleModuleFeatures(slug, projectId);
  const cycleList = useCycleList(slug, projectId, features.cycles && props.cycle && Boolean(item.cycle_id));
  const moduleList = useModuleList(slug, projectId, features.modules && props.modules && item.module_ids.length > 0);
  const shown = shownProperties(item, props, {
    hasState: (id) => lookups.stateById.has(id),
    hasLabel: (id) => lookups.labelById.has(id),
    hasPoint: lookups.points.length ? (id) => lookups.pointById.has(id) : undefined,
    hasCycle: features.cycles ? inList(cycleList) : undefined,
    hasModule: features.modules ? inList(moduleList) : undefined,
    scope,
  });
  const propsRef = useDroppedChips();
  if (shown.length === 0 && !item.is_epic && !waiting) return null;
  const render = (prop: ShownProperty): ReactNode => {
    switch (prop) {
      case "state":
        return (
          <StatePicker
            key={prop}
            variant="pill"
            value={item.state_id}
            disabled={disabled}
            onChange={(state_id) => state_id !== item.state_id && update(item, { state_id })}
          />
        );
      case "priority":
        return (
          <PriorityPicker
            key={prop}
            variant="pill"
            value={item.priority}
            disabled={disabled}
            onChange={(priority) => priority !== item.priority && update(item, { priority })}
          />
        );
      case "assignee":
        return (
          <AssigneesPicker
            key={prop}
            variant="pill"
            value={item.assignee_ids}
            disabled={disabled}
            onChange={(assignee_ids) => update(item, { assignee_ids })}
          />
        );
      case "labels":
        return (
          <LabelsPicker
            key={prop}
            variant="pill"
            value={item.label_ids}
            disabled={disabled}
            onChange={(label_ids) => update(item, { label_ids })}
          />
        );
      case "start_date":
        return (
          <DatePicker
            key={prop}
            variant="pill"
            kind="start"
            value={item.start_date}
            max={item.target_date}
            disabled={disabled}
            onChange={(start_date) => update(item, { start_date })}
          />
        );
      case "due_date":
        return (
          <DatePicker
            key={prop}
            variant="pill"
            kind="due"
            value={item.target_date}
            min={item.start_date}
            overdue={overdue}
            disabled={disabled}
            onChange={(target_date) => update(item, { target_date })}
          />
        );
      case "estimate":
        return (
          <EstimatePicker
            key={prop}
            variant="pill"
            value={item.estimate_point}
            disabled={disabled}
            onChange={(estimate_point) => update(item, { estimate_point })}
          />
        );
      case "cycle":
        return (
          <CyclePicker
            key={prop}
            slug={slug}
            projectId={projectId}
            variant="pill"
            value={item.cycle_id}
            today={today}
            disabled={disabled}
            onChange={(cycle_id) => update(item, { cycle_id })}
          />
        );
      case "modules":
        return (
          <ModulePicker
            key={prop}
            slug={slug}
            projectId={projectId}
            variant="pill"
            value={item.module_ids}
            except={scope.kind === "module" ? scope.moduleId : undefined}
            disabled={disabled}
            onChange={(module_ids) => update(item, { module_ids })}
          />
        );
      case "sub_issue_count":
        return (
          <Count
            key={prop}
            icon={ICONS.subIssues}
            value={item.sub_issues_count}
            label={labelText(t, "workItems.props.subIssueCount", { count: item.sub_issues_count })}
          />
        );
      case "attachment_count":
        return (
          <Count
            key={prop}
            icon={ICONS.attachments}
            value={item.attachment_count}
            label={labelText(t, "workItems.props.attachmentCount", { count: item.attachment_count })}
          />
        );
      case "link":
        return (
          <Count
            key={prop}
            icon={ICONS.links}
            value={item.link_count}
            label={labelText(t, "workItems.props.linkCount", { count: item.link_count })}
          />
        );
      case "created_on":
        return (
          <span key={prop} className="prop-meta" title={t("workItems.props.createdOn")}>
            {ICONS.createdOn}
            {formatDate(item.created_at, true)}
          </span>
        );
      case "updated_on":
        return (
          <span key={prop} className="prop-meta" title={t("workItems.props.updatedOn")}>
            {ICONS.updatedOn}
            {formatDate(item.updated_at, true)}
          </span>
        );
    }
  };
  return (
    // Clicks on the pickers must not open the peek or start a drag.
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops propagation; the pickers inside are buttons
    <div ref={propsRef} className="item-props" onClick={stop} onPointerDown={stop} onKeyDown={stop}>
      {waiting ? <WaitingToSyncMark /> : null}
      {item.is_epic ? <EpicProgressChip item={item} /> : null}
      {shown.map(render)}
    </div>
  );
});
