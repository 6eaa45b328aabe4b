/**
 * Cycle and module pickers (issue 10), on the app's one searchable list (components/ui/combobox)
 * and the board's property buttons (properties.tsx), so they look and answer the keyboard like
 * the state, label and assignee pickers: type to search, ↑/↓, Enter, Escape.
 *
 * - CyclePicker: one cycle or "No cycle"; offers current, upcoming and draft cycles (the server
 *   refuses new items in completed or archived ones); the item's own completed cycle still shows,
 *   greyed, so the picker says where the item is.
 * - ModulePicker: any of the project's unarchived modules, with checkboxes.
 *
 * They take the project (slug + id) rather than the board's context, so the work-item detail
 * uses them too. The lists load when a picker opens, or when a chip needs a name (deduped by the
 * stores). Only shown when the project has the feature on (useCycleModuleFeatures).
 */
import { type CycleStatus, NONE_GROUP } from "@tideline/shared";
import clsx from "clsx";
import { Boxes, CircleSlash, Contrast } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Combobox, type ComboOption } from "../../components/ui";
import { type Cycle, cycles, loadCycles } from "../../stores/cycles";
import { loadModules, type Module, modules } from "../../stores/modules";
import { projects } from "../../stores/projects";
import { cyclePickerEntries, moduleChip, toggleId } from "./cycle-module-options";
import { type PickerVariant, PropertyButton } from "./properties";
import "./cycle-module-pickers.css";

/** Whether the project has cycles and modules switched on (project settings → features). */
export function useCycleModuleFeatures(slug: string, projectId: string): { cycles: boolean; modules: boolean } {
  const snap = useSnapshot(projects);
  const project = snap.bySlug[slug]?.find((p) => p.id === projectId) ?? snap.details[projectId];
  return { cycles: project?.cycle_view ?? false, modules: project?.module_view ?? false };
}

// A failed load shows in the picker ("Couldn't load the list"); opening it again retries.
const quiet = () => undefined;

/** A project's cycles and their load state; with `load`, fetched once if not there yet. */
export function useCycleList(slug: string, projectId: string, load: boolean) {
  const snap = useSnapshot(cycles);
  const entry = snap.byProject[projectId];
  useEffect(() => {
    if (load && !cycles.byProject[projectId]) loadCycles(slug, projectId).catch(quiet);
  }, [load, slug, projectId]);
  return { list: (entry?.list ?? []) as readonly Cycle[], status: entry?.status };
}

/** A project's modules and their load state; with `load`, fetched once if not there yet. */
export function useModuleList(slug: string, projectId: string, load: boolean) {
  const snap = useSnapshot(modules);
  const entry = snap.byProject[projectId];
  useEffect(() => {
    if (load && !modules.byProject[projectId]) loadModules(slug, projectId).catch(quiet);
  }, [load, slug, projectId]);
  return { list: (entry?.list ?? []) as readonly Module[], status: entry?.status };
}

/** A cycle's icon, coloured by its status (amber current, blue upcoming, green completed, grey draft). */
export function CycleIcon({ status, size = 13 }: { status?: CycleStatus; size?: number }) {
  return <Contrast size={size} aria-hidden className={clsx("cm-cycle-icon", status && `cm-cycle-${status}`)} />;
}

export function ModuleIcon({ size = 13 }: { size?: number }) {
  return <Boxes size={size} aria-hidden className="cm-module-icon" />;
}

/** The variants of the board's pickers, plus the work-item detail's property rows. */
export type CycleModuleVariant = PickerVariant | "detail";

type Common = {
  slug: string;
  projectId: string;
  variant: CycleModuleVariant;
  disabled?: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** yyyy-MM-dd; breaks ties in the cycle order (the server's status decides the rest). */
  today?: string;
};

/** The trigger: the board's property button, or the detail's full-width row button. */
function Trigger({
  variant,
  label,
  title,
  icon,
  empty,
  disabled,
  children,
  ...rest
}: {
  variant: CycleModuleVariant;
  label: string;
  title?: string;
  icon: ReactNode | null;
  empty: boolean;
  disabled?: boolean;
  children: ReactNode;
} & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  if (variant === "detail") {
    return (
      <button type="button" className="wid-prop-trigger" aria-label={label} title={title} disabled={disabled} {...rest}>
        {icon}
        {typeof children === "string" ? <span className={empty ? "subtle" : undefined}>{children}</span> : children}
      </button>
    );
  }
  return (
    <PropertyButton
      variant={variant}
      label={label}
      title={title}
      icon={icon}
      empty={empty}
      disabled={disabled}
      className="cm-prop"
      {...rest}
    >
      {children}
    </PropertyButton>
  );
}

/** What a list says instead of (or under) its options while loading, after a failure, or when empty. */
function listNote(
  t: (key: string) => string,
  status: string | undefined,
  empty: boolean,
  emptyText: string,
): string | null {
  if (status === "loading" || status === undefined) return t("cycleModuleProps.loading");
  if (status === "error") return t("cycleModuleProps.loadFailed");
  return empty ? emptyText : null;
}

// ───────────── cycle ─────────────

/** A cycle picker's entries: "No cycle" (value NONE_GROUP), then cyclePickerEntries with their status. */
export function cycleOptions(
  t: (key: string) => string,
  list: readonly Cycle[],
  value: string | null,
  today: string,
): ComboOption[] {
  return [
    {
      value: NONE_GROUP,
      label: t("cycleModuleProps.noCycle"),
      icon: <CircleSlash size={13} aria-hidden className="cm-none-icon" />,
    },
    ...cyclePickerEntries(list, value, today).map(({ cycle: c, pickable }) => ({
      value: c.id,
      label: c.name,
      icon: <CycleIcon status={c.status} />,
      // The item's own completed cycle: listed (greyed, not pickable) so the picker shows where it is.
      hint: t(`cycleModuleProps.status.${c.status}`),
      disabled: !pickable,
    })),
  ];
}

/** The note under a cycle list ("No cycle" is always listed, so loading / empty goes under it). */
export function cycleListNote(t: (key: string) => string, list: readonly Cycle[], status: string | undefined) {
  const open = list.some((c) => c.status !== "completed" && !c.archived_at);
  const note = listNote(t, status, !open, t("cycleModuleProps.noCycles"));
  return note ? <span className="cm-note">{note}</span> : null;
}

/** A module picker's entries. */
export function moduleOptions(list: readonly Module[]): ComboOption[] {
  return list.map((m) => ({ value: m.id, label: m.name, icon: <ModuleIcon /> }));
}

/** What a module list says when it has nothing to show (loading, failed, none yet, no match). */
export function moduleEmptyText(t: (key: string) => string, list: readonly Module[], status: string | undefined) {
  return listNote(t, status, list.length === 0, t("cycleModuleProps.noModulesYet")) ?? t("cycleModuleProps.noMatch");
}

export function CyclePicker({
  slug,
  projectId,
  value,
  onChange,
  variant,
  disabled,
  open,
  onOpenChange,
  today = new Date().toISOString().slice(0, 10),
}: Common & { value: string | null; onChange: (cycleId: string | null) => void }) {
  const { t } = useTranslation();
  // Names are needed at once when the item has a cycle; otherwise the list loads on open.
  const { list, status } = useCycleList(slug, projectId, Boolean(value));
  const cycle = value ? list.find((c) => c.id === value) : undefined;
  const known = status === "ready";
  const name = cycle?.name ?? (value && known ? t("cycleModuleProps.unknownCycle") : "");

  const options = () => cycleOptions(t, list, value, today);
  const note = cycleListNote(t, list, status);

  const label = `${t("cycleModuleProps.cycle")}: ${value ? name || t("cycleModuleProps.loading") : t("cycleModuleProps.noCycle")}`;
  let text: ReactNode;
  if (value) text = name || <span className="skeleton cm-name-skeleton" aria-hidden />;
  else if (variant === "pill") text = null;
  else text = variant === "detail" ? t("cycleModuleProps.noCycle") : t("cycleModuleProps.cycle");

  return (
    <Combobox
      label={t("cycleModuleProps.cycle")}
      options={options}
      isSelected={(v) => (v === NONE_GROUP ? !value : v === value)}
      onSelect={(v) => {
        const next = v === NONE_GROUP ? null : v;
        if (next !== value) onChange(next);
      }}
      open={open}
      onOpenChange={(next) => {
        if (next) loadCycles(slug, projectId).catch(quiet);
        onOpenChange?.(next);
      }}
      disabled={disabled}
      searchPlaceholder={t("cycleModuleProps.searchCycles")}
      emptyText={t("cycleModuleProps.noMatch")}
      footer={note}
      popoverClassName="cm-pop"
    >
      <Trigger
        variant={variant}
        label={label}
        title={label}
        icon={<CycleIcon status={cycle?.status} />}
        empty={!value}
        disabled={disabled}
      >
        {text}
      </Trigger>
    </Combobox>
  );
}

// ───────────── modules ─────────────

export function ModulePicker({
  slug,
  projectId,
  value,
  onChange,
  variant,
  disabled,
  open,
  onOpenChange,
  except,
}: Common & {
  value: readonly string[];
  onChange: (moduleIds: string[]) => void;
  /**
   * A module the chip's text leaves out: a module's board says which module already (the label and
   * the picker still list every module of the item).
   */
  except?: string;
}) {
  const { t } = useTranslation();
  const { list, status } = useModuleList(slug, projectId, value.length > 0);
  const byId = new Map(list.map((m) => [m.id, m]));
  const shownIds = except ? value.filter((id) => id !== except) : value;
  const loading = shownIds.length > 0 && status !== "ready" && status !== "error";
  const nameOf = (id: string) => byId.get(id)?.name;
  const countText = (count: number) => t("cycleModuleProps.moduleCount", { count });
  const all = moduleChip(value, nameOf, countText);
  const chip = except ? moduleChip(shownIds, nameOf, countText) : all;
  const label = `${t("cycleModuleProps.modules")}: ${all.title || (loading ? t("cycleModuleProps.loading") : t("cycleModuleProps.noModules"))}`;

  const names = value.map((id) => byId.get(id)).filter((m): m is Module => m !== undefined);
  // The detail has room for every module, as chips (like its labels); rows and cells show one chip.
  const chips = variant === "detail" && names.length > 0;
  let text: ReactNode;
  if (chips)
    text = (
      <span className="wid-prop-chips">
        {names.map((m) => (
          <span key={m.id} className="wid-label-chip">
            <ModuleIcon size={12} />
            {m.name}
          </span>
        ))}
      </span>
    );
  else if (chip.text) text = chip.text;
  else if (loading) text = <span className="skeleton cm-name-skeleton" aria-hidden />;
  else if (variant === "pill") text = null;
  else text = variant === "detail" ? t("cycleModuleProps.noModules") : t("cycleModuleProps.modules");

  return (
    <Combobox
      label={t("cycleModuleProps.modules")}
      options={() => moduleOptions(list)}
      multiple
      isSelected={(v) => value.includes(v)}
      onSelect={(v) => onChange(toggleId(value, v))}
      open={open}
      onOpenChange={(next) => {
        if (next) loadModules(slug, projectId).catch(quiet);
        onOpenChange?.(next);
      }}
      disabled={disabled}
      searchPlaceholder={t("cycleModuleProps.searchModules")}
      emptyText={moduleEmptyText(t, list, status)}
      popoverClassName="cm-pop"
    >
      <Trigger
        variant={variant}
        label={label}
        title={all.title || label}
        icon={chips ? null : <ModuleIcon />}
        empty={!chip.text && !loading}
        disabled={disabled}
      >
        {text}
      </Trigger>
    </Combobox>
  );
}
