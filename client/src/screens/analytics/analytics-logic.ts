/**
 * Turning the server's analytics answers into what the charts and tables draw: bars with
 * readable names (priorities and state groups in words, in the product's colours), the series
 * of a segmented chart, the created-vs-resolved points with month or day labels. Pure, so it is
 * unit-tested (analytics-logic.test.ts).
 */
import { format, parseISO } from "date-fns";
import type { ChartAnswer, ChartAxis, TimelinePoint } from "../../stores/analytics";
import { PRIORITY_COLOR, STATE_GROUP_COLOR } from "../member-profile/profile-logic";
import type { BarRow, Series, TrendRow } from "./charts-inner";

/** Colours for segments without their own (labels, people, cycles…), in turn. */
export const PALETTE = [
  "var(--color-primary)",
  "var(--color-success)",
  "var(--color-warning)",
  "var(--color-danger)",
  "#8b5cf6",
  "#06b6d4",
  "#ec4899",
  "#84cc16",
  "#f97316",
  "#64748b",
];

/** The axes whose values are words of the product (translated), not names people typed. */
const WORD_AXES: Partial<Record<ChartAxis, "priority" | "stateGroup">> = {
  PRIORITY: "priority",
  STATE_GROUPS: "stateGroup",
};
const DATE_AXES: ChartAxis[] = ["CREATED_AT", "TARGET_DATE", "START_DATE", "COMPLETED_AT"];

export type Translate = (key: string) => string;

/** A value of an axis as a person reads it. */
export function valueName(axis: ChartAxis, key: string, name: string, t: Translate): string {
  if (key === "None" || key === "none") return t("analytics.none");
  const words = WORD_AXES[axis];
  if (words === "priority") return t(`workItems.priority.${key}`);
  if (words === "stateGroup") return t(`workItems.stateGroup.${key}`);
  if (DATE_AXES.includes(axis)) {
    try {
      return format(parseISO(key), "MMM d, yyyy");
    } catch {
      return name;
    }
  }
  return name;
}

/** The product's own colour of a value, if it has one (priorities, state groups). */
export function valueColor(axis: ChartAxis, key: string): string | undefined {
  if (axis === "PRIORITY") return PRIORITY_COLOR[key as keyof typeof PRIORITY_COLOR];
  if (axis === "STATE_GROUPS") return STATE_GROUP_COLOR[key as keyof typeof STATE_GROUP_COLOR];
  return undefined;
}

/** Bars and (segmented) series of a custom chart answer. */
export function chartModel(
  answer: ChartAnswer,
  axis: ChartAxis,
  segment: ChartAxis | null,
  t: Translate,
): { rows: BarRow[]; series: Series[] } {
  const series: Series[] = segment
    ? Object.entries(answer.schema).map(([key, name], i) => ({
        key: `s:${key}`,
        label: valueName(segment, key, name, t),
        color:
          valueColor(segment, key) ??
          (key === "none" ? "var(--color-border-strong)" : (PALETTE[i % PALETTE.length] ?? "var(--color-primary)")),
      }))
    : [];
  if (segment) {
    // Segments keep their server order (priority, state groups in the product's order).
    const order = segment === "PRIORITY" ? ["urgent", "high", "medium", "low", "none"] : null;
    const groups = segment === "STATE_GROUPS" ? ["backlog", "unstarted", "started", "completed", "cancelled"] : null;
    const rank = order ?? groups;
    if (rank) series.sort((a, b) => rank.indexOf(a.key.slice(2)) - rank.indexOf(b.key.slice(2)));
  }
  const rows: BarRow[] = answer.data.map((bar) => {
    const row: BarRow = {
      key: String(bar.key),
      label: valueName(axis, String(bar.key), String(bar.name), t),
      count: Number(bar.count),
      color: valueColor(axis, String(bar.key)),
    };
    for (const s of series) row[s.key] = Number(bar[s.key.slice(2)] ?? 0);
    return row;
  });
  return { rows, series };
}

/** Created vs resolved points; months read "Mar 2026", days "Mar 4". */
export function trendRows(points: readonly TimelinePoint[], unit: "month" | "day"): TrendRow[] {
  return points.map((p) => {
    let label = p.key;
    try {
      label = format(parseISO(p.key), unit === "month" ? "MMM yyyy" : "MMM d");
    } catch {
      // keep the key
    }
    return { key: p.key, label, created: Number(p.created_issues), resolved: Number(p.completed_issues) };
  });
}

/** The total of a chart's measure (for "nothing to chart" and the table's footer). */
export const chartTotal = (rows: readonly BarRow[]) => rows.reduce((n, r) => n + r.count, 0);

/** Trim a long trend to the part that holds anything: leading empty periods go (the last year kept at least). */
export function trimTrend(rows: TrendRow[], keepAtLeast = 12): TrendRow[] {
  const first = rows.findIndex((r) => r.created > 0 || r.resolved > 0);
  if (first <= 0) return rows;
  return rows.slice(Math.min(first, Math.max(0, rows.length - keepAtLeast)));
}

/**
 * A monthly trend of a few months reads as a dot or a step: empty months go before it until
 * it spans `atLeast` months, so a new workspace's first month shows as growth from nothing.
 */
export function padMonths(rows: TrendRow[], atLeast = 6): TrendRow[] {
  const first = rows[0];
  if (!first || rows.length >= atLeast) return rows;
  const before: TrendRow[] = [];
  const start = parseISO(first.key);
  for (let i = atLeast - rows.length; i > 0; i--) {
    const d = new Date(Date.UTC(start.getFullYear(), start.getMonth() - i, 1));
    const key = d.toISOString().slice(0, 10);
    before.push({ key, label: format(parseISO(key), "MMM yyyy"), created: 0, resolved: 0 });
  }
  return [...before, ...rows];
}
