/** How a group looks in list headers, kanban columns and swimlanes: its name and icon. */
import { type GroupByKey, NONE_GROUP } from "@tideline/shared";
import { CalendarDays, Triangle, UserRound } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/ui";
import type { Lookups } from "./context";
import { formatDate, LabelDot, PriorityIcon, StateIcon, useLabels } from "./properties";

export type GroupInfo = { name: string; icon: ReactNode };

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
      default:
        return { name: key === NONE_GROUP ? t("workItems.groups.none") : key, icon: null };
    }
  };
}

/** A state group's colour: that of its first state, so group headers match the states. */
function groupColor(group: string, lookups: Lookups): string | undefined {
  return lookups.states.find((s) => s.group === group)?.color;
}
