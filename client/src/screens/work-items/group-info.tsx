/**
 * How a group looks in list headers, kanban columns and swimlanes: its name, icon and, for a
 * cycle, a status hint ("Current · 3 days left").
 */
import { type GroupByKey, NONE_GROUP } from "@tideline/shared";
import { CalendarDays, CircleSlash, Triangle, UserRound } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/ui";
import type { Cycle } from "../../stores/cycles";
import { ProjectLogo } from "../workspace/components/logos";
import type { Lookups } from "./context";
import { CycleIcon, ModuleIcon } from "./cycle-module-pickers";
import { formatDate, LabelDot, PriorityIcon, StateIcon, useLabels } from "./properties";
import "./group-info.css";

export type GroupInfo = {
  name: string;
  icon: ReactNode;
  /** A short line beside the name (a cycle's status and dates). */
  hint?: string;
};

const CM = "cycleModule.groups";

export function useGroupInfo(): (groupBy: GroupByKey | null, key: string, lookups: Lookups) => GroupInfo {
  const { t } = useTranslation();
  const names = useLabels();
  return (groupBy, key, lookups) => {
    if (!groupBy || key === "all") return { name: t("workItems.groups.all"), icon: null };
    switch (groupBy) {
      case "state_id": {
        const state = lookups.stateById.get(key);
        return {
          name: state?.name ?? t("workItems.groups.noState"),
          icon: <StateIcon group={state?.group} color={state?.color} />,
        };
      }
      case "state__group":
        return {
          name: key === NONE_GROUP ? t("workItems.groups.noState") : names.stateGroup(key),
          icon: <StateIcon group={key} color={groupColor(key, lookups)} />,
        };
      case "priority":
        return { name: names.priority(key), icon: <PriorityIcon priority={key} /> };
      case "labels__id": {
        if (key === NONE_GROUP) return { name: t("workItems.groups.noLabels"), icon: <LabelDot color="" /> };
        const label = lookups.labelById.get(key);
        return { name: label?.name ?? t("workItems.groups.unknown"), icon: <LabelDot color={label?.color ?? ""} /> };
      }
      case "assignees__id":
      case "created_by": {
        if (key === NONE_GROUP)
          return {
            name: groupBy === "created_by" ? t("workItems.groups.unknown") : t("workItems.groups.noAssignee"),
            icon: <UserRound size={16} aria-hidden />,
          };
        const m = lookups.memberById.get(key);
        return {
          name: m?.name ?? t("workItems.groups.formerMember"),
          icon: <Avatar name={m?.name ?? "?"} src={m?.avatar} size={18} />,
        };
      }
      case "target_date":
      case "start_date":
        return {
          name: key === NONE_GROUP ? t("workItems.groups.noDate") : formatDate(key),
          icon: <CalendarDays size={14} aria-hidden />,
        };
      case "estimate_point": {
        const point = lookups.pointById.get(key);
        return {
          name: key === NONE_GROUP ? t("workItems.props.noEstimate") : (point?.value ?? t("workItems.groups.unknown")),
          icon: <Triangle size={13} aria-hidden />,
        };
      }
      case "cycle_id": {
        if (key === NONE_GROUP) return { name: t(`${CM}.noCycle`), icon: <CircleSlash size={14} aria-hidden /> };
        const cycle = lookups.cycleById.get(key);
        // Not among the project's unarchived cycles: its items stay grouped under it, as on the server.
        if (!cycle) return { name: t(`${CM}.archivedCycle`), icon: <CycleIcon size={14} /> };
        return {
          name: cycle.name,
          icon: <CycleIcon status={cycle.status} size={14} />,
          hint: cycleHint(cycle, (k, o) => String(t(k, o ?? {}))),
        };
      }
      case "module_id": {
        if (key === NONE_GROUP) return { name: t(`${CM}.noModule`), icon: <CircleSlash size={14} aria-hidden /> };
        const module = lookups.moduleById.get(key);
        return { name: module?.name ?? t(`${CM}.archivedModule`), icon: <ModuleIcon size={14} /> };
      }
      case "project_id": {
        const project = lookups.projectById.get(key);
        return {
          name: project?.name ?? t("workItems.groups.unknown"),
          icon: <ProjectLogo name={project?.name ?? "?"} logo={project?.logo_props} size={16} />,
        };
      }
      default:
        return { name: key === NONE_GROUP ? t("workItems.groups.none") : key, icon: null };
    }
  };
}

/** "Current · 3 days left", "Upcoming · starts Dec 01", "Completed · ended Nov 20", "Draft". */
function cycleHint(
  cycle: Pick<Cycle, "status" | "days_left" | "start_date" | "end_date">,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  switch (cycle.status) {
    case "current":
      return t(`${CM}.daysLeft`, { count: cycle.days_left });
    case "upcoming":
      return cycle.start_date
        ? t(`${CM}.startsOn`, { date: formatDate(cycle.start_date, true) })
        : t(`${CM}.status.upcoming`);
    case "completed":
      return cycle.end_date
        ? t(`${CM}.endedOn`, { date: formatDate(cycle.end_date, true) })
        : t(`${CM}.status.completed`);
    default:
      return t(`${CM}.status.draft`);
  }
}

/** A state group's colour: that of its first state, so group headers match the states. */
function groupColor(group: string, lookups: Lookups): string | undefined {
  return lookups.states.find((s) => s.group === group)?.color;
}
