/**
 * Display filters of a work-item list (group_by, sub_group_by, order_by, type, sub_issue,
 * layout …), their defaults and the kanban rules (product-domain §5):
 * - clearing group_by clears sub_group_by; a sub_group_by equal to group_by is cleared;
 * - kanban without group_by groups by state (callers may pick another default, e.g. priority
 *   on the profile);
 * - only kanban sub-groups: other layouts drop sub_group_by.
 * Besides the reference's keys, `gantt` keeps the timeline (gantt_chart) layout's scale per board,
 * as `calendar` keeps the calendar's month or week.
 */
import { z } from "zod";
import {
  DEFAULT_DISPLAY_PROPERTIES,
  DEFAULT_ORDER_BY,
  DISPLAY_PROPERTIES,
  type DisplayProperties,
  GROUP_BY,
  GROUP_BY_ALIASES,
  type GroupByKey,
  ISSUE_LAYOUTS,
  ISSUE_TYPE_FILTERS,
  type IssueLayout,
  type IssueTypeFilter,
  ORDER_BY,
  type OrderByKey,
  toGroupByKey,
  toOrderByKey,
} from "../constants/issues.ts";

/** The timeline (gantt_chart) layout's scales, widest day first. */
export const GANTT_SCALES = ["week", "month", "quarter"] as const;
export type GanttScale = (typeof GANTT_SCALES)[number];

export type DisplayFilters = {
  layout: IssueLayout;
  group_by: GroupByKey | null;
  sub_group_by: GroupByKey | null;
  order_by: OrderByKey;
  type: IssueTypeFilter | null;
  sub_issue: boolean;
  show_empty_groups: boolean;
  calendar: { layout: "month" | "week"; show_weekends: boolean };
  /** Optional when saved (older settings lack it); read back with its default. */
  gantt: { scale: GanttScale };
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
  gantt: { scale: "week" },
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

const orderBy = z.string().transform((value, ctx) => {
  const key = toOrderByKey(value);
  if (!key) {
    ctx.addIssue({ code: "custom", message: `Unknown ordering "${value}". Use one of ${ORDER_BY.join(", ")}.` });
    return z.NEVER;
  }
  return key;
});

/**
 * A partial update of display filters; unknown keys and values are refused. group_by,
 * sub_group_by and order_by come out as our keys (the reference's words are aliases).
 */
export const displayFiltersPatchSchema = z
  .object({
    layout: z.enum(ISSUE_LAYOUTS),
    group_by: groupBy,
    sub_group_by: groupBy,
    order_by: orderBy,
    type: z.enum(ISSUE_TYPE_FILTERS).nullable(),
    sub_issue: z.boolean(),
    show_empty_groups: z.boolean(),
    calendar: z
      .object({ layout: z.enum(["month", "week"]), show_weekends: z.boolean() })
      .partial()
      .strict(),
    gantt: z
      .object({ scale: z.enum(GANTT_SCALES, `Timeline scale must be one of: ${GANTT_SCALES.join(", ")}.`) })
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
  const next: DisplayFilters = { ...filters, calendar: { ...filters.calendar }, gantt: { ...filters.gantt } };
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
    ...Object.fromEntries(
      Object.entries(patch).filter(([key, v]) => v !== undefined && key !== "calendar" && key !== "gantt"),
    ),
    calendar: { ...base.calendar, ...(patch.calendar ?? {}) },
    gantt: { ...base.gantt, ...(patch.gantt ?? {}) },
  } as DisplayFilters;
  return normalizeDisplayFilters(merged, options);
}

/** Stored display filters read leniently: anything unreadable takes its default. */
export function readDisplayFilters(stored: Partial<Record<string, unknown>> | null | undefined): DisplayFilters {
  const out: DisplayFilters = {
    ...DEFAULT_DISPLAY_FILTERS,
    calendar: { ...DEFAULT_DISPLAY_FILTERS.calendar },
    gantt: { ...DEFAULT_DISPLAY_FILTERS.gantt },
  };
  if (!stored) return out;
  for (const key of Object.keys(displayFiltersPatchSchema.shape) as (keyof DisplayFilters)[]) {
    if (!(key in stored)) continue;
    const parsed = displayFiltersPatchSchema.shape[key].safeParse(stored[key]);
    if (!parsed.success || parsed.data === undefined) continue;
    if (key === "calendar") out.calendar = { ...out.calendar, ...(parsed.data as Partial<DisplayFilters["calendar"]>) };
    else if (key === "gantt") out.gantt = { ...out.gantt, ...(parsed.data as Partial<DisplayFilters["gantt"]>) };
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

/**
 * Display filters as a client saved them: group_by, sub_group_by and order_by keep the words
 * the client used ("state", "labels", "assignees", "state_detail.group" … of the reference,
 * or our keys), so every client reads back its own vocabulary. Their meaning is our key
 * (toGroupByKey / toOrderByKey), used for the rules and for queries, never for storage.
 */
export type SavedDisplayFilters = Omit<DisplayFilters, "group_by" | "sub_group_by" | "order_by"> & {
  group_by: string | null;
  sub_group_by: string | null;
  order_by: string;
};

const SAVED_WORDS = [
  ["group_by", toGroupByKey],
  ["sub_group_by", toGroupByKey],
  ["order_by", toOrderByKey],
] as const;

/** Does this saved set speak the reference's grouping words (state, labels …)? */
function speaksReferenceWords(saved: Partial<Record<string, unknown>>): boolean {
  return ["group_by", "sub_group_by"].some((key) => {
    const word = saved[key];
    return typeof word === "string" && !(GROUP_BY as readonly string[]).includes(word) && toGroupByKey(word) !== null;
  });
}

/** Put the saved words back on canonical filters wherever they still mean the same key. */
function withSavedWords(
  canonical: DisplayFilters,
  saved: Partial<Record<string, unknown>>,
  referenceWords: boolean,
): SavedDisplayFilters {
  const out = {
    ...canonical,
    calendar: { ...canonical.calendar },
    gantt: { ...canonical.gantt },
  } as SavedDisplayFilters;
  for (const [key, toKey] of SAVED_WORDS) {
    const value = canonical[key];
    const word = saved[key];
    if (value === null) continue;
    if (typeof word === "string" && toKey(word) === value) (out as Record<string, unknown>)[key] = word;
    else if (referenceWords && key !== "order_by") {
      // A rule filled the value in (kanban groups by state): say it the way the client does.
      const alias = Object.entries(GROUP_BY_ALIASES).find(([, k]) => k === value)?.[0];
      if (alias) (out as Record<string, unknown>)[key] = alias;
    }
  }
  return out;
}

/** Stored display filters read leniently, in the words they were saved with. */
export function readSavedDisplayFilters(
  stored: Partial<Record<string, unknown>> | null | undefined,
): SavedDisplayFilters {
  const saved = stored ?? {};
  return withSavedWords(readDisplayFilters(saved), saved, speaksReferenceWords(saved));
}

/**
 * Merge a client's raw display-filter patch (already checked with displayFiltersPatchSchema,
 * whose output is `patch`) into stored filters; the result keeps the client's words.
 */
export function mergeSavedDisplayFilters(
  stored: Partial<Record<string, unknown>> | null | undefined,
  rawPatch: Partial<Record<string, unknown>>,
  patch: DisplayFiltersPatch,
): SavedDisplayFilters {
  const canonical = mergeDisplayFilters(stored, patch);
  const saved: Partial<Record<string, unknown>> = { ...(stored ?? {}) };
  for (const [key] of SAVED_WORDS) if (key in rawPatch) saved[key] = rawPatch[key];
  return withSavedWords(canonical, saved, [rawPatch, saved, stored ?? {}].some(speaksReferenceWords));
}
