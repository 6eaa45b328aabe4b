/**
 * Display filters of a work-item list (group_by, sub_group_by, order_by, type, sub_issue,
 * layout …), their defaults and the kanban rules (product-domain §5):
 * - clearing group_by clears sub_group_by; a sub_group_by equal to group_by is cleared;
 * - kanban without group_by groups by state (callers may pick another default, e.g. priority
 *   on the profile);
 * - only kanban sub-groups: other layouts drop sub_group_by.
 */
import { z } from "zod";
import {
  DEFAULT_DISPLAY_PROPERTIES,
  DEFAULT_ORDER_BY,
  DISPLAY_PROPERTIES,
  type DisplayProperties,
  GROUP_BY,
  type GroupByKey,
  ISSUE_LAYOUTS,
  ISSUE_TYPE_FILTERS,
  type IssueLayout,
  type IssueTypeFilter,
  ORDER_BY,
  type OrderByKey,
  toGroupByKey,
} from "../constants/issues.ts";

export type DisplayFilters = {
  layout: IssueLayout;
  group_by: GroupByKey | null;
  sub_group_by: GroupByKey | null;
  order_by: OrderByKey;
  type: IssueTypeFilter | null;
  sub_issue: boolean;
  show_empty_groups: boolean;
  calendar: { layout: "month" | "week"; show_weekends: boolean };
};

export const DEFAULT_DISPLAY_FILTERS: Readonly<DisplayFilters> = {
  layout: "list",
  group_by: null,
  sub_group_by: null,
  order_by: DEFAULT_ORDER_BY,
  type: null,
  sub_issue: true,
  show_empty_groups: true,
  calendar: { layout: "month", show_weekends: false },
};

const groupBy = z
  .string()
  .nullable()
  .transform((value, ctx) => {
    if (value === null || value === "" || value === "null") return null;
    const key = toGroupByKey(value);
    if (!key) {
      ctx.addIssue({ code: "custom", message: `Unknown grouping "${value}". Use one of ${GROUP_BY.join(", ")}.` });
      return z.NEVER;
    }
    return key;
  });

/** A partial update of display filters; unknown keys and values are refused. */
export const displayFiltersPatchSchema = z
  .object({
    layout: z.enum(ISSUE_LAYOUTS),
    group_by: groupBy,
    sub_group_by: groupBy,
    order_by: z.enum(ORDER_BY),
    type: z.enum(ISSUE_TYPE_FILTERS).nullable(),
    sub_issue: z.boolean(),
    show_empty_groups: z.boolean(),
    calendar: z
      .object({ layout: z.enum(["month", "week"]), show_weekends: z.boolean() })
      .partial()
      .strict(),
  })
  .partial()
  .strict();
export type DisplayFiltersPatch = z.output<typeof displayFiltersPatchSchema>;

/** A partial update of display properties: known keys, boolean values. */
export const displayPropertiesPatchSchema = z
  .object(Object.fromEntries(DISPLAY_PROPERTIES.map((key) => [key, z.boolean()])) as Record<string, z.ZodBoolean>)
  .partial()
  .strict();

/** Apply the kanban rules to complete display filters. */
export function normalizeDisplayFilters(
  filters: DisplayFilters,
  options: { kanbanDefaultGroupBy?: GroupByKey } = {},
): DisplayFilters {
  const next: DisplayFilters = { ...filters, calendar: { ...filters.calendar } };
  if (next.group_by === null) next.sub_group_by = null;
  if (next.sub_group_by !== null && next.sub_group_by === next.group_by) next.sub_group_by = null;
  if (next.layout === "kanban" && next.group_by === null) next.group_by = options.kanbanDefaultGroupBy ?? "state_id";
  if (next.layout !== "kanban") next.sub_group_by = null;
  return next;
}

/**
 * Merge a patch into stored display filters (missing or invalid stored values fall back to
 * the defaults), then normalise.
 */
export function mergeDisplayFilters(
  stored: Partial<Record<string, unknown>> | null | undefined,
  patch: DisplayFiltersPatch = {},
  options: { kanbanDefaultGroupBy?: GroupByKey } = {},
): DisplayFilters {
  const base = readDisplayFilters(stored);
  const merged: DisplayFilters = {
    ...base,
    ...Object.fromEntries(Object.entries(patch).filter(([key, v]) => v !== undefined && key !== "calendar")),
    calendar: { ...base.calendar, ...(patch.calendar ?? {}) },
  } as DisplayFilters;
  return normalizeDisplayFilters(merged, options);
}

/** Stored display filters read leniently: anything unreadable takes its default. */
export function readDisplayFilters(stored: Partial<Record<string, unknown>> | null | undefined): DisplayFilters {
  const out: DisplayFilters = { ...DEFAULT_DISPLAY_FILTERS, calendar: { ...DEFAULT_DISPLAY_FILTERS.calendar } };
  if (!stored) return out;
  for (const key of Object.keys(displayFiltersPatchSchema.shape) as (keyof DisplayFilters)[]) {
    if (!(key in stored)) continue;
    const parsed = displayFiltersPatchSchema.shape[key].safeParse(stored[key]);
    if (!parsed.success || parsed.data === undefined) continue;
    if (key === "calendar") out.calendar = { ...out.calendar, ...(parsed.data as Partial<DisplayFilters["calendar"]>) };
    else (out as Record<string, unknown>)[key] = parsed.data;
  }
  return out;
}

/** Stored display properties read leniently, every missing one on. */
export function readDisplayProperties(stored: Partial<Record<string, unknown>> | null | undefined): DisplayProperties {
  const out: DisplayProperties = { ...DEFAULT_DISPLAY_PROPERTIES };
  if (!stored) return out;
  for (const key of DISPLAY_PROPERTIES) {
    const value = stored[key];
    if (typeof value === "boolean") out[key] = value;
  }
  return out;
}
