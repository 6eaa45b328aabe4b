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
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { Button, Select } from "../../components/ui";
import { setDisplayFilters, setDisplayProperty } from "../../stores/work-item-view";
import { Toggle } from "../workspace/components/toggle";
import { useWorkItemsContext } from "./context";
import { useCycleModuleFeatures } from "./cycle-module-pickers";

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
  "cycle_id",
  "module_id",
];

export const ORDER_OPTIONS: OrderByKey[] = [
  "sort_order",
  "-created_at",
  "-updated_at",
  "priority",
  "target_date",
  "start_date",
  "sequence_id",
  "issue_cycle__cycle__name",
  "issue_module__module__name",
];

/** Grouping and ordering words of cycles and modules (their strings live with the rest of theirs). */
const CYCLE_KEYS = new Set<string>(["cycle_id", "issue_cycle__cycle__name", "-issue_cycle__cycle__name"]);
const MODULE_KEYS = new Set<string>(["module_id", "issue_module__module__name", "-issue_module__module__name"]);

/** Properties that show something today (work-item types don't exist yet; modules and cycle only where the project has them). */
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
  "modules",
  "cycle",
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

// Memoised: the board re-renders on every filter change, which leaves this alone.
export const DisplayMenu = memo(function DisplayMenu({
  display,
  properties,
}: {
  display: DisplayFilters;
  properties: DisplayProperties;
}) {
  const { t } = useTranslation();
  const { slug, projectId, viewKey, lookups, scope } = useWorkItemsContext();
  const features = useCycleModuleFeatures(slug, projectId);
  const layout = display.layout;
  // Cycles and modules only where the project has them; on a cycle's board every item is in that
  // cycle, so grouping or ordering by cycle says nothing (a module's board keeps module grouping:
  // its items may be in other modules too).
  const offered = (k: string) =>
    (!CYCLE_KEYS.has(k) || (features.cycles && scope.kind !== "cycle")) && (!MODULE_KEYS.has(k) || features.modules);
  // A board of several projects groups by project, and by state group rather than by each
  // project's own states (a state_id choice shows as the state groups there).
  const multi = lookups.projects.length > 0;
  const groupOptions: GroupByKey[] = [
    ...(multi ? (["project_id"] as const) : []),
    ...GROUP_OPTIONS.filter(
      (k) => (k !== "estimate_point" || lookups.points.length > 0) && offered(k) && !(multi && k === "state_id"),
    ),
  ];
  const shownGroupBy = (key: GroupByKey | null) => (multi && key === "state_id" ? "state__group" : key);
  const orderOptions = ORDER_OPTIONS.filter(offered);
  const groupLabel = (k: string) =>
    k === "cycle_id" || k === "module_id" ? t(`cycleModule.groupBy.${k}`) : t(`workItems.groupBy.${k}`);
  const orderLabel = (k: string) =>
    CYCLE_KEYS.has(k) || MODULE_KEYS.has(k) ? t(`cycleModule.orderBy.${k}`) : t(`workItems.orderBy.${k}`);
  const set = (patch: Parameters<typeof setDisplayFilters>[2]) => setDisplayFilters(slug, viewKey, patch);

  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button variant="secondary" size="sm" title={t("workItems.display.button")}>
          <SlidersHorizontal size={14} aria-hidden />
          <span className="wi-btn-text">{t("workItems.display.button")}</span>
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="wi-menu-pop wi-display-pop" align="end" sideOffset={6} collisionPadding={8}>
          {layout === "calendar" ? (
            <div className="wi-display-row">
              <span>{t("calendar.showWeekends")}</span>
              <Toggle
                label={t("calendar.showWeekends")}
                checked={display.calendar.show_weekends}
                onCheckedChange={(on) => set({ calendar: { ...display.calendar, show_weekends: on } })}
              />
            </div>
          ) : null}
          {/* The calendar and the timeline place items by date: grouping says nothing there. */}
          {layout !== "spreadsheet" && layout !== "calendar" && layout !== "gantt_chart" ? (
            <PickerRow
              label={t("workItems.display.groupBy")}
              value={shownGroupBy(display.group_by) ?? ""}
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
              value={shownGroupBy(display.sub_group_by) ?? ""}
              options={[
                { value: "", label: t("workItems.groupBy.none") },
                ...groupOptions
                  .filter((k) => k !== shownGroupBy(display.group_by))
                  .map((k) => ({ value: k, label: groupLabel(k) })),
              ]}
              onChange={(v) => set({ sub_group_by: (v || null) as GroupByKey | null })}
            />
          ) : null}
          <PickerRow
            label={t("workItems.display.orderBy")}
            value={display.order_by}
            options={[
              ...orderOptions.map((k) => ({ value: k, label: orderLabel(k) })),
              ...(orderOptions.includes(display.order_by)
                ? []
                : [
                    {
                      value: display.order_by,
                      label:
                        CYCLE_KEYS.has(display.order_by) || MODULE_KEYS.has(display.order_by)
                          ? orderLabel(display.order_by)
                          : display.order_by,
                    },
                  ]),
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
          {layout !== "spreadsheet" && layout !== "calendar" && layout !== "gantt_chart" ? (
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
              {SHOWN_PROPERTIES.filter(
                (p) =>
                  (p !== "estimate" || lookups.points.length > 0) &&
                  (p !== "cycle" || features.cycles) &&
                  (p !== "modules" || features.modules),
              ).map((p) => (
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
});
