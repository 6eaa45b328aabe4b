/**
 * The workspace list's Filters menu (project, priority, state group, assignees, created by), its
 * Order menu, and the applied filters as removable chips. A built-in view's own filter (assigned
 * → assignees = me …) is not offered: it is the view, not a filter the user can widen.
 */
import { type IssueFilterKey, NONE_VALUE, PRIORITIES, STATE_GROUPS } from "@tideline/shared";
import { ArrowDownWideNarrow, Check, X } from "lucide-react";
import { type ReactNode, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Avatar, Button } from "../../components/ui";
import type { WorkspaceMember } from "../../stores/members";
import { memberName } from "../../stores/members";
import type { Project } from "../../stores/projects";
import type { StoredFilters } from "../../stores/work-item-view";
import { WORKSPACE_FILTER_KEYS, WORKSPACE_ORDERS } from "../../stores/workspace-views";
import { type FilterOption, FilterPopover } from "../work-items/filters";
import { PriorityIcon, StateIcon } from "../work-items/properties";
import { ProjectLogo } from "../workspace/components/logos";
import { Menu, MenuItem } from "../workspace/components/menu";

type Section = { key: IssueFilterKey; title: string; options: FilterOption[] };

type Props = {
  filters: StoredFilters;
  onChange: (filters: StoredFilters) => void;
  /** The key the built-in view fixes (not offered). */
  fixedKey: IssueFilterKey | null;
  projects: readonly Project[];
  people: readonly WorkspaceMember[];
  disabled?: boolean;
};

function useSections(
  projects: readonly Project[],
  people: readonly WorkspaceMember[],
  fixedKey: IssueFilterKey | null,
) {
  const { t } = useTranslation();
  return useMemo<Section[]>(() => {
    const persons = (none: string): FilterOption[] => [
      ...people.map((m) => ({
        value: m.member.id,
        label: memberName(m.member),
        icon: <Avatar name={memberName(m.member)} src={m.member.avatar_url} size={16} />,
      })),
      { value: NONE_VALUE, label: none },
    ];
    const all: Section[] = [
      {
        key: "project",
        title: t("workspaceViews.filters.project"),
        options: projects.map((p) => ({
          value: p.id,
          label: p.name,
          icon: <ProjectLogo name={p.name} logo={p.logo_props} size={16} />,
        })),
      },
      {
        key: "priority",
        title: t("workspaceViews.filters.priority"),
        options: PRIORITIES.map((p) => ({
          value: p,
          label: t(`workItems.priority.${p}`),
          icon: <PriorityIcon priority={p} />,
        })),
      },
      {
        key: "state_group",
        title: t("workspaceViews.filters.stateGroup"),
        options: STATE_GROUPS.map((g) => ({
          value: g,
          label: t(`workItems.stateGroup.${g}`),
          icon: <StateIcon group={g} />,
        })),
      },
      {
        key: "assignees",
        title: t("workspaceViews.filters.assignees"),
        options: persons(t("workspaceViews.noAssignee")),
      },
      {
        key: "created_by",
        title: t("workspaceViews.filters.createdBy"),
        options: persons(t("workspaceViews.filters.formerMember")).slice(0, -1),
      },
    ];
    return all.filter((s) => s.key !== fixedKey && (WORKSPACE_FILTER_KEYS as readonly string[]).includes(s.key));
  }, [projects, people, fixedKey, t]);
}

function toggle(filters: StoredFilters, key: IssueFilterKey, value: string): StoredFilters {
  const current = filters[key] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  const out = { ...filters };
  if (next.length) out[key] = next;
  else delete out[key];
  return out;
}

export function FiltersButton({ filters, onChange, fixedKey, projects, people, disabled }: Props) {
  const { t } = useTranslation();
  const sections = useSections(projects, people, fixedKey);
  return (
    <FilterPopover
      filters={filters}
      sections={sections}
      label={t("workspaceViews.filters.button")}
      searchLabel={t("workspaceViews.filters.search")}
      title={disabled ? t("workspaceViews.lockedHint") : t("workspaceViews.filters.button")}
      disabled={disabled}
      onPick={(section, value) => onChange(toggle(filters, section.key, value))}
    />
  );
}

export function OrderButton({
  orderBy,
  onChange,
  disabled,
}: {
  orderBy: string;
  onChange: (order: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const label = (o: string) => t(`workspaceViews.order.${o.replace("-", "desc_")}`);
  return (
    <Menu
      align="end"
      width={200}
      trigger={
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled}
          title={disabled ? t("workspaceViews.lockedHint") : t("workspaceViews.order.label")}
          aria-label={`${t("workspaceViews.order.label")}: ${label(orderBy)}`}
        >
          <ArrowDownWideNarrow size={14} aria-hidden />
          <span className="wi-btn-text">{label(orderBy)}</span>
        </Button>
      }
    >
      {WORKSPACE_ORDERS.map((o) => (
        <MenuItem key={o} onSelect={() => onChange(o)} icon={o === orderBy ? <Check size={14} /> : <span />}>
          {label(o)}
        </MenuItem>
      ))}
    </Menu>
  );
}

/** Applied filters as chips, each removable, and "Clear all". */
export function FilterChips({
  filters,
  onChange,
  projects,
  people,
  readOnly,
}: {
  filters: StoredFilters;
  onChange: (filters: StoredFilters) => void;
  projects: readonly Project[];
  people: readonly WorkspaceMember[];
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const entries = Object.entries(filters).filter(([, v]) => v && v.length > 0) as [IssueFilterKey, string[]][];
  if (!entries.length) return null;
  const title = (key: IssueFilterKey) =>
    t(`workspaceViews.filters.${key === "state_group" ? "stateGroup" : key === "created_by" ? "createdBy" : key}`, {
      defaultValue: key,
    });
  const valueLabel = (key: IssueFilterKey, value: string): { label: string; icon?: ReactNode } => {
    switch (key) {
      case "project": {
        const p = projects.find((x) => x.id === value);
        return {
          label: p?.name ?? t("workspaceViews.filters.unknownProject"),
          icon: p ? <ProjectLogo name={p.name} logo={p.logo_props} size={14} /> : undefined,
        };
      }
      case "priority":
        return { label: t(`workItems.priority.${value}`), icon: <PriorityIcon priority={value} size={12} /> };
      case "state_group":
        return { label: t(`workItems.stateGroup.${value}`), icon: <StateIcon group={value} size={12} /> };
      case "assignees":
      case "created_by":
      case "subscriber": {
        if (value === NONE_VALUE) return { label: t("workspaceViews.noAssignee") };
        const m = people.find((x) => x.member.id === value);
        const name = m ? memberName(m.member) : t("workspaceViews.filters.formerMember");
        return { label: name, icon: <Avatar name={name} src={m?.member.avatar_url} size={14} /> };
      }
      default:
        return { label: value };
    }
  };
  return (
    <section className="wi-chips wsv-chips" aria-label={t("workspaceViews.filters.applied")}>
      {entries.map(([key, values]) => (
        <div key={key} className="wi-chip-group">
          <span className="wi-chip-title">{title(key)}</span>
          {values.map((value) => {
            const v = valueLabel(key, value);
            return (
              <span key={value} className="wi-chip">
                {v.icon}
                <span>{v.label}</span>
                {readOnly ? null : (
                  <button
                    type="button"
                    className="wi-chip-x"
                    aria-label={t("workspaceViews.filters.remove", { name: `${title(key)}: ${v.label}` })}
                    onClick={() => onChange(toggle(filters, key, value))}
                  >
                    <X size={12} aria-hidden />
                  </button>
                )}
              </span>
            );
          })}
        </div>
      ))}
      {readOnly ? null : (
        <button type="button" className="wi-clear-all" onClick={() => onChange({})}>
          {t("workspaceViews.filters.clearAll")}
        </button>
      )}
    </section>
  );
}
