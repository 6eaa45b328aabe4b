/**
 * The Display menu: group by, sub-group by (kanban), order by, which items (all / active /
 * backlog), show sub-issues, show empty groups, and the display properties. Changes apply at
 * once (kanban rules included) and are saved by the view store.
 */
import type {
  DisplayFilters,
  DisplayProperties,
  DisplayProperty,
  GroupByKey,
  IssueTypeFilter,
  OrderByKey,
} from "@tideline/shared";
import { SlidersHorizontal } from "lucide-react";
import { Popover } from "radix-ui";
import { useTranslation } from "react-i18next";
import { Button, Select } from "../../components/ui";
import { setDisplayFilters, setDisplayProperty } from "../../stores/work-item-view";
import { Toggle } from "../workspace/components/toggle";
import { useWorkItemsContext } from "./context";

const GROUP_OPTIONS: GroupByKey[] = [
  "state_id",
  "state__group",
  "priority",
  "labels__id",
  "assignees__id",
  "created_by",
  "start_date",
  "target_date",
  "estimate_point",
];

export const ORDER_OPTIONS: OrderByKey[] = [
  "sort_order",
  "-created_at",
  "-updated_at",
  "priority",
  "target_date",
  "start_date",
  "sequence_id",
];

/** Properties that show something today (cycles, modules and work-item types don't exist yet). */
const SHOWN_PROPERTIES: DisplayProperty[] = [
  "key",
  "state",
  "priority",
  "assignee",
  "labels",
  "start_date",
  "due_date",
  "estimate",
  "sub_issue_count",
  "attachment_count",
  "link",
  "created_on",
  "updated_on",
];

function PickerRow({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div className="wi-display-row">
      <span aria-hidden>{label}</span>
      <Select compact label={label} value={value} options={options} onValueChange={onChange} align="end" />
    </div>
  );
}

export function DisplayMenu({ display, properties }: { display: DisplayFilters; properties: DisplayProperties }) {
  const { t } = useTranslation();
  const { slug, viewKey, lookups } = useWorkItemsContext();
  const layout = display.layout;
  const groupOptions = GROUP_OPTIONS.filter((k) => k !== "estimate_point" || lookups.points.length > 0);
  const groupLabel = (k: string) => t(`workItems.groupBy.${k}`);
  const set = (patch: Parameters<typeof setDisplayFilters>[2]) => setDisplayFilters(slug, viewKey, patch);

  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button variant="secondary" size="sm">
          <SlidersHorizontal size={14} aria-hidden />
          <span className="wi-btn-text">{t("workItems.display.button")}</span>
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="wi-menu-pop wi-display-pop" align="end" sideOffset={6} collisionPadding={8}>
          {layout !== "spreadsheet" ? (
            <PickerRow
              label={t("workItems.display.groupBy")}
              value={display.group_by ?? ""}
              options={[
                ...(layout === "kanban" ? [] : [{ value: "", label: t("workItems.groupBy.none") }]),
                ...groupOptions.map((k) => ({ value: k, label: groupLabel(k) })),
              ]}
              onChange={(v) => set({ group_by: (v || null) as GroupByKey | null })}
            />
          ) : null}
          {layout === "kanban" ? (
            <PickerRow
              label={t("workItems.display.subGroupBy")}
              value={display.sub_group_by ?? ""}
              options={[
                { value: "", label: t("workItems.groupBy.none") },
                ...groupOptions.filter((k) => k !== display.group_by).map((k) => ({ value: k, label: groupLabel(k) })),
              ]}
              onChange={(v) => set({ sub_group_by: (v || null) as GroupByKey | null })}
            />
          ) : null}
          <PickerRow
            label={t("workItems.display.orderBy")}
            value={display.order_by}
            options={[
              ...ORDER_OPTIONS.map((k) => ({ value: k, label: t(`workItems.orderBy.${k}`) })),
              ...(ORDER_OPTIONS.includes(display.order_by)
                ? []
                : [{ value: display.order_by, label: display.order_by }]),
            ]}
            onChange={(v) => set({ order_by: v as OrderByKey })}
          />
          <PickerRow
            label={t("workItems.display.type")}
            value={display.type ?? ""}
            options={[
              { value: "", label: t("workItems.display.typeAll") },
              { value: "active", label: t("workItems.display.typeActive") },
              { value: "backlog", label: t("workItems.display.typeBacklog") },
            ]}
            onChange={(v) => set({ type: (v || null) as IssueTypeFilter | null })}
          />
          <div className="wi-display-row">
            <span>{t("workItems.display.showSubIssues")}</span>
            <Toggle
              label={t("workItems.display.showSubIssues")}
              checked={display.sub_issue}
              onCheckedChange={(on) => set({ sub_issue: on })}
            />
          </div>
          {layout !== "spreadsheet" ? (
            <div className="wi-display-row">
              <span>{t("workItems.display.showEmptyGroups")}</span>
              <Toggle
                label={t("workItems.display.showEmptyGroups")}
                checked={display.show_empty_groups}
                onCheckedChange={(on) => set({ show_empty_groups: on })}
              />
            </div>
          ) : null}
          <div className="wi-display-props">
            <span className="wi-filter-title">{t("workItems.display.properties")}</span>
            <div className="wi-prop-toggles">
              {SHOWN_PROPERTIES.filter((p) => p !== "estimate" || lookups.points.length > 0).map((p) => (
                <button
                  key={p}
                  type="button"
                  className="wi-prop-toggle"
                  aria-pressed={properties[p]}
                  onClick={() => setDisplayProperty(slug, viewKey, p, !properties[p])}
                >
                  {t(`workItems.displayProps.${p}`)}
                </button>
              ))}
            </div>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
