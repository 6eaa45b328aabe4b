/**
 * The query strings of the analytics calls, as the reference's web client sends them
 * (analytics.service.ts: `tab` or `type`, and TAnalyticsFilterParams: project_ids joined by
 * commas, cycle_id, module_id; `date_filter` from its duration picker; the custom chart's
 * `x_axis`, `group_by` and `y_axis`).
 */
import { z } from "zod";
import { isUuid } from "../../http/ids.ts";

/** The reference's ChartXAxisProperty keys this product can chart (build_chart.py). */
export const CHART_DIMENSIONS = [
  "STATES",
  "STATE_GROUPS",
  "LABELS",
  "ASSIGNEES",
  "ESTIMATE_POINTS",
  "CYCLES",
  "MODULES",
  "PRIORITY",
  "START_DATE",
  "TARGET_DATE",
  "CREATED_AT",
  "COMPLETED_AT",
  "CREATED_BY",
] as const;
export type ChartDimension = (typeof CHART_DIMENSIONS)[number];

/** The reference's ChartYAxisMetric values we answer: how many work items, or their estimate points. */
export const CHART_METRICS = ["WORK_ITEM_COUNT", "ESTIMATE_POINT_COUNT"] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];

/** The reference's duration keys (date_utils.py); anything else means all time. */
export const DATE_FILTERS = ["yesterday", "last_7_days", "last_30_days", "last_3_months", "custom"] as const;

const idList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === "") return null;
    const ids = value
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    const wrong = ids.find((id): boolean => !isUuid(id));
    if (wrong) {
      ctx.addIssue({ code: "custom", message: `"${wrong.slice(0, 40)}" is not a project id.` });
      return z.NEVER;
    }
    return ids;
  });

const optionalId = (what: string) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || isUuid(v), { message: `Not a ${what} id.` })
    .transform((v) => (v ? v : null));

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD.")
  .optional();

/** Filters shared by every analytics call. */
export const analyticsFilters = z.object({
  project_ids: idList,
  cycle_id: optionalId("cycle"),
  module_id: optionalId("module"),
  date_filter: z.enum(DATE_FILTERS).optional().catch(undefined),
  start_date: day,
  end_date: day,
});
export type AnalyticsFilters = z.output<typeof analyticsFilters>;

export const advanceAnalyticsQuery = analyticsFilters.extend({
  tab: z
    .enum(["overview", "work-items"], { message: 'Choose the tab "overview" or "work-items".' })
    .default("overview"),
});

export const advanceStatsQuery = analyticsFilters.extend({
  type: z.enum(["work-items"], { message: 'The only type is "work-items".' }).default("work-items"),
});

export const advanceChartsQuery = analyticsFilters.extend({
  type: z
    .enum(["projects", "work-items", "custom-work-items"], {
      message: 'Choose the type "projects", "work-items" or "custom-work-items".',
    })
    .default("projects"),
  x_axis: z.enum(CHART_DIMENSIONS, { message: `x_axis is one of ${CHART_DIMENSIONS.join(", ")}.` }).default("PRIORITY"),
  group_by: z
    .union([z.literal(""), z.enum(CHART_DIMENSIONS)], {
      message: `group_by is one of ${CHART_DIMENSIONS.join(", ")}.`,
    })
    .optional()
    .transform((v) => (v ? v : null)),
  y_axis: z
    .enum(CHART_METRICS, { message: `y_axis is one of ${CHART_METRICS.join(", ")}.` })
    .default("WORK_ITEM_COUNT"),
});
export type AdvanceChartsQuery = z.output<typeof advanceChartsQuery>;
