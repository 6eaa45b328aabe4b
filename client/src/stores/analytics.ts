/**
 * Analytics (/:ws/analytics/ and a project's analytics modal): the server's aggregates —
 * GET advance-analytics/ (totals), advance-analytics-stats/ (per project or per assignee) and
 * advance-analytics-charts/ (created vs resolved; the custom chart) — at workspace or project
 * level (live-server/src/routes/analytics/). Read-only: each answer is kept under the exact
 * request it answers, so switching back to a chart shows it at once while it is asked again.
 */
import { api } from "../lib/api";
import { defineStore } from "../lib/store";

/** The reference's chart axes (ChartXAxisProperty) this product charts. */
export const CHART_AXES = [
  "STATE_GROUPS",
  "STATES",
  "PRIORITY",
  "LABELS",
  "ASSIGNEES",
  "ESTIMATE_POINTS",
  "CYCLES",
  "MODULES",
  "CREATED_AT",
  "TARGET_DATE",
  "START_DATE",
  "COMPLETED_AT",
  "CREATED_BY",
] as const;
export type ChartAxis = (typeof CHART_AXES)[number];
export type ChartMetric = "WORK_ITEM_COUNT" | "ESTIMATE_POINT_COUNT";
export type Duration = "all" | "last_7_days" | "last_30_days" | "last_3_months";

export type Counted = { count: number };
export type WorkItemTotals = {
  total_work_items: Counted;
  started_work_items: Counted;
  backlog_work_items: Counted;
  un_started_work_items: Counted;
  completed_work_items: Counted;
  cancelled_work_items: Counted;
  overdue_work_items: Counted;
};
export type OverviewTotals = {
  total_users: Counted;
  total_admins: Counted;
  total_members: Counted;
  total_guests: Counted;
  total_projects: Counted;
  total_work_items: Counted;
  total_cycles: Counted;
  total_intake: Counted;
};
type GroupCounts = {
  cancelled_work_items: number;
  completed_work_items: number;
  backlog_work_items: number;
  un_started_work_items: number;
  started_work_items: number;
};
export type ProjectStats = GroupCounts & { project_id: string; project__name: string };
export type AssigneeStats = GroupCounts & {
  assignee_id: string | null;
  display_name: string | null;
  avatar_url: string | null;
};
/** One bar: its key and name, the measure (`count`) and, segmented, a value per segment key. */
export type ChartBar = { key: string; name: string; count: number } & Record<string, number | string>;
export type ChartAnswer = { data: ChartBar[]; schema: Record<string, string> };
export type TimelinePoint = { key: string; name: string; created_issues: number; completed_issues: number };

/** Where the numbers come from: the workspace (optionally some projects) or one project (optionally a cycle or module). */
export type AnalyticsTarget = {
  slug: string;
  projectId?: string;
  projectIds?: readonly string[];
  cycleId?: string;
  moduleId?: string;
  duration: Duration;
};

type Entry = { status: "loading" | "ready" | "error"; data: unknown };

export const analytics = defineStore(() => ({
  answers: {} as Record<string, Entry>,
}));

function baseOf(target: AnalyticsTarget): string {
  const ws = `/api/workspaces/${target.slug}`;
  return target.projectId ? `${ws}/projects/${target.projectId}` : ws;
}

function paramsOf(target: AnalyticsTarget, extra: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  if (!target.projectId && target.projectIds?.length) params.set("project_ids", target.projectIds.join(","));
  if (target.cycleId) params.set("cycle_id", target.cycleId);
  if (target.moduleId) params.set("module_id", target.moduleId);
  if (target.duration !== "all") params.set("date_filter", target.duration);
  for (const [k, v] of Object.entries(extra)) if (v) params.set(k, v);
  return params;
}

/** The key an answer is kept under: the exact request. */
export function analyticsKey(target: AnalyticsTarget, endpoint: string, extra: Record<string, string | undefined>) {
  return `${baseOf(target)}/${endpoint}/?${paramsOf(target, extra)}`;
}

/** Ask (again) and keep the answer; what was shown stays while the new answer comes. */
export async function loadAnalytics(
  target: AnalyticsTarget,
  endpoint: "advance-analytics" | "advance-analytics-stats" | "advance-analytics-charts",
  extra: Record<string, string | undefined>,
): Promise<void> {
  const key = analyticsKey(target, endpoint, extra);
  const current = analytics.answers[key];
  if (!current) analytics.answers[key] = { status: "loading", data: null };
  try {
    const data = await api.get(key).json<unknown>();
    analytics.answers[key] = { status: "ready", data };
  } catch {
    const entry = analytics.answers[key];
    if (entry && entry.status !== "ready") entry.status = "error";
  }
}
