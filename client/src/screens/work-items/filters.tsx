/**
 * The Filters menu (priority, state group, state, assignees, created by, labels, cycle and module
 * where the project has them, start and due dates with the spec's presets or a custom range) and
 * the applied filters as removable chips. Changes apply at once; the view store saves them.
 */
import { type IssueFilterKey, NONE_VALUE, PRIORITIES, parseDateTerm, STATE_GROUPS } from "@tideline/shared";
import clsx from "clsx";
import { Check, ListFilter, X } from "lucide-react";
import { Popover } from "radix-ui";
import { memo, type ReactNode, useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar, Button, DateInput } from "../../components/ui";
import { clearFilters, type StoredFilters, setFilter, toggleFilterValue } from "../../stores/work-item-view";
import { ProjectLogo } from "../workspace/components/logos";
import type { BoardScope } from "./board-scope";
import { type Lookups, useWorkItemsContext } from "./context";
import { CycleIcon, ModuleIcon, useCycleList, useCycleModuleFeatures, useModuleList } from "./cycle-module-pickers";
import { formatDate, LabelDot, PriorityIcon, StateIcon, useLabels } from "./properties";

type Section = { key: IssueFilterKey; title: string; options: FilterOption[]; kind: "multi" | "date" };

const DATE_PRESETS = [
  "1_weeks;after;fromnow",
  "2_weeks;after;fromnow",
  "1_months;after;fromnow",
  "2_months;after;fromnow",
  "1_weeks;before;ago",
  "2_weeks;before;ago",
  "1_months;before;ago",
  "2_months;before;ago",
] as const;

type Features = { cycles: boolean; modules: boolean };

/** The menu's sections; built once the menu is first opened (`wanted`): a board mounts without them. */
function useSections(lookups: Lookups, features: Features, scope: BoardScope, wanted: boolean): Section[] {
  const { t } = useTranslation();
  const names = useLabels();
  return useMemo(() => {
    if (!wanted) return [];
    // Completed cycles too: filtering to what a finished cycle held is useful. On a cycle's own
    // board the cycle is the scope, so there is no Cycle section; a module's board keeps its
    // Module section (its items may be in other modules too).
    const cycleSection: Section[] =
      features.cycles && scope.kind !== "cycle"
        ? [
            {
              key: "cycle",
              title: t("cycleModule.filters.cycle"),
              kind: "multi",
              options: [
                ...lookups.cycles.map((c) => ({ value: c.id, label: c.name, icon: <CycleIcon status={c.status} /> })),
                { value: NONE_VALUE, label: t("cycleModule.filters.noCycle") },
              ],
            },
          ]
        : [];
    const moduleSection: Section[] = features.modules
      ? [
          {
            key: "module",
            title: t("cycleModule.filters.module"),
            kind: "multi",
            options: [
              ...lookups.modules.map((m) => ({ value: m.id, label: m.name, icon: <ModuleIcon /> })),
              { value: NONE_VALUE, label: t("cycleModule.filters.noModule") },
            ],
          },
        ]
      : [];
    const people = (none: string | null): FilterOption[] => [
      ...lookups.members.map((m) => ({
        value: m.id,
        label: m.name,
        icon: <Avatar name={m.name} src={m.avatar} size={16} />,
      })),
      ...(none ? [{ value: NONE_VALUE, label: none }] : []),
    ];
    const datePresets = DATE_PRESETS.map((value) => ({ value, label: t(`workItems.filters.preset.${value}`) }));
    // A board of several projects: a Project section, and no State one (each project has its own
    // states — the state groups filter across them). A label names its project there.
    const multi = lookups.projects.length > 0;
    const projectSection: Section[] = multi
      ? [
          {
            key: "project",
            title: t("workItems.props.project"),
            kind: "multi",
            options: lookups.projects.map((p) => ({
              value: p.id,
              label: p.name,
              icon: <ProjectLogo name={p.name} logo={p.logo_props} size={16} />,
            })),
          },
        ]
      : [];
    const labelText = (l: { name: string; project_id?: string }) => {
      const project = multi && l.project_id ? lookups.projectById.get(l.project_id) : undefined;
      return project ? `${l.name} · ${project.identifier}` : l.name;
    };
    return [
      ...projectSection,
      {
        key: "priority",
        title: t("workItems.props.priority"),
        kind: "multi",
        options: PRIORITIES.map((p) => ({ value: p, label: names.priority(p), icon: <PriorityIcon priority={p} /> })),
      },
      {
        key: "state_group",
        title: t("workItems.filters.stateGroup"),
        kind: "multi",
        options: STATE_GROUPS.map((g) => ({
          value: g,
          label: names.stateGroup(g),
          icon: <StateIcon group={g} color={lookups.states.find((s) => s.group === g)?.color} />,
        })),
      },
      ...(multi
        ? []
        : [
            {
              key: "state",
              title: t("workItems.props.state"),
              kind: "multi",
              options: lookups.states.map((s) => ({
                value: s.id,
                label: s.name,
                icon: <StateIcon group={s.group} color={s.color} />,
              })),
            } satisfies Section,
          ]),
      {
        key: "assignees",
        title: t("workItems.props.assignees"),
        kind: "multi",
        options: people(t("workItems.groups.noAssignee")),
      },
      { key: "created_by", title: t("workItems.filters.createdBy"), kind: "multi", options: people(null) },
      {
        key: "labels",
        title: t("workItems.props.labels"),
        kind: "multi",
        options: [
          ...lookups.labels.map((l) => ({ value: l.id, label: labelText(l), icon: <LabelDot color={l.color} /> })),
          { value: NONE_VALUE, label: t("workItems.groups.noLabels") },
        ],
      },
      ...cycleSection,
      ...moduleSection,
      { key: "start_date", title: t("workItems.props.startDate"), kind: "date", options: datePresets },
      { key: "target_date", title: t("workItems.props.dueDate"), kind: "date", options: datePresets },
    ] satisfies Section[];
  }, [wanted, lookups, t, names, features.cycles, features.modules, scope.kind]);
}

export type FilterOption = { value: string; label: string; icon?: ReactNode };

/**
 * A Filters button and its popover: a search box over checkbox sections (a section's title
 * matching keeps all its options). Shared by the board and the workspace views; each says what
 * a pick does and may add a footer under a section's options while nothing is searched.
 */
export function FilterPopover<S extends { key: IssueFilterKey; title: string; options: FilterOption[] }>({
  filters,
  sections,
  label,
  searchLabel,
  title,
  disabled,
  onPick,
  footer,
  onOpen,
}: {
  filters: StoredFilters;
  sections: readonly S[];
  label: string;
  searchLabel: string;
  /** The trigger's tooltip: it names the button where the header shows the icon alone. */
  title: string;
  disabled?: boolean;
  onPick: (section: S, value: string, on: boolean) => void;
  footer?: (section: S, current: readonly string[]) => ReactNode;
  /** The menu opens (in the same render: the caller may build its sections then). */
  onOpen?: () => void;
}) {
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const count = Object.values(filters).reduce((n, v) => n + (v?.length ?? 0), 0);
  const q = query.trim().toLowerCase();

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) onOpen?.();
        else setQuery("");
      }}
    >
      <Popover.Trigger asChild>
        <Button
          variant="secondary"
          size="sm"
          className={clsx(count > 0 && "btn-active")}
          title={title}
          disabled={disabled}
        >
          <ListFilter size={14} aria-hidden />
          <span className="wi-btn-text">{label}</span>
          {count > 0 ? <span className="wi-count-badge">{count}</span> : null}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="wi-menu-pop wi-filters-pop" align="end" sideOffset={6} collisionPadding={8}>
          <input
            className="combo-search"
            placeholder={searchLabel}
            aria-label={searchLabel}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <div className="wi-filter-sections">
            {sections.map((section) => (
              <FilterSection
                key={section.key}
                section={section}
                current={filters[section.key] ?? NO_VALUES}
                query={q}
                onPick={onPick}
                footer={footer}
              />
            ))}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

const NO_VALUES: readonly string[] = [];

/**
 * One section of the popover. Its own component, kept while its values, the search and the
 * callbacks stay the same: a pick re-renders the section it changed, not every option and date
 * range of the others (bench browser-board: filter change → painted).
 */
const FilterSection = memo(function FilterSection<
  S extends { key: IssueFilterKey; title: string; options: FilterOption[] },
>({
  section,
  current,
  query,
  onPick,
  footer,
}: {
  section: S;
  current: readonly string[];
  query: string;
  onPick: (section: S, value: string, on: boolean) => void;
  footer?: (section: S, current: readonly string[]) => ReactNode;
}) {
  const options = query
    ? section.options.filter(
        (o) => o.label.toLowerCase().includes(query) || section.title.toLowerCase().includes(query),
      )
    : section.options;
  if (!options.length) return null;
  return (
    <fieldset className="wi-filter-section">
      <legend className="wi-filter-title">{section.title}</legend>
      {options.map((o) => {
        const on = current.includes(o.value);
        return (
          <button
            key={o.value}
            type="button"
            className="wi-filter-option"
            aria-pressed={on}
            onClick={() => onPick(section, o.value, on)}
          >
            <span className={clsx("combo-check", on && "combo-check-on")} aria-hidden>
              {on ? <Check size={11} strokeWidth={3} /> : null}
            </span>
            {o.icon ? <span className="combo-icon">{o.icon}</span> : null}
            <span className="combo-label">{o.label}</span>
          </button>
        );
      })}
      {!query && footer ? footer(section, current) : null}
    </fieldset>
  );
}) as <S extends { key: IssueFilterKey; title: string; options: FilterOption[] }>(props: {
  section: S;
  current: readonly string[];
  query: string;
  onPick: (section: S, value: string, on: boolean) => void;
  footer?: (section: S, current: readonly string[]) => ReactNode;
}) => ReactNode;

export function FiltersMenu({ filters }: { filters: StoredFilters }) {
  const { t } = useTranslation();
  const { slug, projectId, viewKey, lookups, scope } = useWorkItemsContext();
  const features = useCycleModuleFeatures(slug, projectId);
  // Its options (every member with an avatar, label, state, cycle and module) are built when the
  // menu is first opened, not with the board (bench browser-board: the board's mount is a long task).
  const [opened, setOpened] = useState(false);
  const sections = useSections(lookups, features, scope, opened);
  // A date section holds one term (a preset or a custom range); the others add and remove values.
  // Both stay the same while the board does, so the sections a pick leaves alone keep their render.
  const onPick = useCallback(
    (section: Section, value: string, on: boolean) =>
      section.kind === "date"
        ? setFilter(slug, viewKey, section.key, on ? [] : [value])
        : toggleFilterValue(slug, viewKey, section.key, value),
    [slug, viewKey],
  );
  const footer = useCallback(
    (section: Section, current: readonly string[]) =>
      section.kind === "date" ? (
        <CustomRange value={current} onApply={(terms) => setFilter(slug, viewKey, section.key, terms)} />
      ) : null,
    [slug, viewKey],
  );
  return (
    <FilterPopover
      filters={filters}
      sections={sections}
      label={t("workItems.filters.button")}
      searchLabel={t("workItems.filters.search")}
      title={t("workItems.filters.button")}
      onPick={onPick}
      footer={footer}
      onOpen={() => setOpened(true)}
    />
  );
}

/** A custom date range: on or after / on or before (either may be left empty). */
function CustomRange({ value, onApply }: { value: readonly string[]; onApply: (terms: string[]) => void }) {
  const { t } = useTranslation();
  const read = (op: "after" | "before") => {
    for (const raw of value) {
      const term = parseDateTerm(raw);
      if (term?.kind === "absolute" && term.op === op) return term.date;
    }
    return "";
  };
  const [after, setAfter] = useState(read("after"));
  const [before, setBefore] = useState(read("before"));
  const invalid = Boolean(after && before && after > before);
  return (
    <div className="wi-custom-range">
      <span className="wi-filter-subtitle">{t("workItems.filters.custom")}</span>
      <div className="wi-custom-range-row">
        <DateInput
          compact
          label={t("workItems.filters.from")}
          placeholder={t("workItems.filters.from")}
          value={after || null}
          max={before || null}
          onChange={(day) => setAfter(day ?? "")}
        />
        <span className="subtle">–</span>
        <DateInput
          compact
          label={t("workItems.filters.to")}
          placeholder={t("workItems.filters.to")}
          value={before || null}
          min={after || null}
          onChange={(day) => setBefore(day ?? "")}
        />
        <Button
          size="sm"
          variant="secondary"
          disabled={(!after && !before) || invalid}
          onClick={() => onApply([...(after ? [`${after};after`] : []), ...(before ? [`${before};before`] : [])])}
        >
          {t("workItems.filters.apply")}
        </Button>
      </div>
    </div>
  );
}

/** Applied filters as chips, each removable, and "Clear all". */
export function FilterChips({ filters }: { filters: StoredFilters }) {
  const { t } = useTranslation();
  const { slug, projectId, viewKey, lookups } = useWorkItemsContext();
  const names = useLabels();
  // A chip's cycle or module is "unknown" only once the list is in (before that it is a placeholder).
  const cyclesReady = useCycleList(slug, projectId, false).status !== "loading";
  const modulesReady = useModuleList(slug, projectId, false).status !== "loading";
  const entries = Object.entries(filters).filter(([, v]) => v && v.length > 0) as [IssueFilterKey, string[]][];
  if (!entries.length) return null;

  const title = (key: IssueFilterKey) =>
    ({
      priority: t("workItems.props.priority"),
      state: t("workItems.props.state"),
      state_group: t("workItems.filters.stateGroup"),
      assignees: t("workItems.props.assignees"),
      created_by: t("workItems.filters.createdBy"),
      labels: t("workItems.props.labels"),
      cycle: t("cycleModule.filters.cycle"),
      module: t("cycleModule.filters.module"),
      start_date: t("workItems.props.startDate"),
      target_date: t("workItems.props.dueDate"),
      project: t("workItems.props.project"),
    })[key as string] ?? key;

  const valueLabel = (key: IssueFilterKey, value: string): { label: string; icon?: ReactNode; pending?: boolean } => {
    switch (key) {
      case "priority":
        return { label: names.priority(value), icon: <PriorityIcon priority={value} size={12} /> };
      case "state_group":
        return { label: names.stateGroup(value), icon: <StateIcon group={value} size={12} /> };
      case "project": {
        const p = lookups.projectById.get(value);
        return {
          label: p?.name ?? t("workItems.groups.unknown"),
          icon: <ProjectLogo name={p?.name ?? "?"} logo={p?.logo_props} size={14} />,
        };
      }
      case "state": {
        const s = lookups.stateById.get(value);
        return {
          label: s?.name ?? t("workItems.groups.unknown"),
          icon: <StateIcon group={s?.group} color={s?.color} size={12} />,
        };
      }
      case "assignees":
      case "created_by": {
        if (value === NONE_VALUE) return { label: t("workItems.groups.noAssignee") };
        const m = lookups.memberById.get(value);
        return {
          label: m?.name ?? t("workItems.groups.formerMember"),
          icon: <Avatar name={m?.name ?? "?"} src={m?.avatar} size={14} />,
        };
      }
      case "labels": {
        if (value === NONE_VALUE) return { label: t("workItems.groups.noLabels") };
        const l = lookups.labelById.get(value);
        return { label: l?.name ?? t("workItems.groups.unknown"), icon: <LabelDot color={l?.color ?? ""} /> };
      }
      case "cycle": {
        if (value === NONE_VALUE) return { label: t("cycleModule.filters.noCycle") };
        const c = lookups.cycleById.get(value);
        if (!c && !cyclesReady) return { label: t("cycleModuleProps.loading"), icon: <CycleIcon />, pending: true };
        return { label: c?.name ?? t("cycleModule.filters.unknownCycle"), icon: <CycleIcon status={c?.status} /> };
      }
      case "module": {
        if (value === NONE_VALUE) return { label: t("cycleModule.filters.noModule") };
        const m = lookups.moduleById.get(value);
        if (!m && !modulesReady) return { label: t("cycleModuleProps.loading"), icon: <ModuleIcon />, pending: true };
        return { label: m?.name ?? t("cycleModule.filters.unknownModule"), icon: <ModuleIcon /> };
      }
      case "start_date":
      case "target_date": {
        if ((DATE_PRESETS as readonly string[]).includes(value))
          return { label: t(`workItems.filters.preset.${value}`) };
        const term = parseDateTerm(value);
        if (term?.kind === "absolute") {
          const d = formatDate(term.date);
          if (term.op === "after") return { label: t("workItems.filters.onOrAfter", { date: d }) };
          if (term.op === "before") return { label: t("workItems.filters.onOrBefore", { date: d }) };
          return { label: d };
        }
        return { label: value };
      }
      default:
        return { label: value };
    }
  };

  return (
    <section className="wi-chips" aria-label={t("workItems.filters.applied")}>
      {entries.map(([key, values]) => (
        <div key={key} className="wi-chip-group">
          <span className="wi-chip-title">{title(key)}</span>
          {values.map((value) => {
            const v = valueLabel(key, value);
            return (
              <span key={value} className="wi-chip">
                {v.icon}
                {v.pending ? <span className="cm-name-skeleton" aria-hidden /> : <span>{v.label}</span>}
                <button
                  type="button"
                  className="wi-chip-x"
                  aria-label={t("workItems.filters.remove", { name: `${title(key)}: ${v.label}` })}
                  onClick={() =>
                    setFilter(
                      slug,
                      viewKey,
                      key,
                      values.filter((x) => x !== value),
                    )
                  }
                >
                  <X size={12} aria-hidden />
                </button>
              </span>
            );
          })}
        </div>
      ))}
      <button type="button" className="wi-clear-all" onClick={() => clearFilters(slug, viewKey)}>
        {t("workItems.filters.clearAll")}
      </button>
    </section>
  );
}
