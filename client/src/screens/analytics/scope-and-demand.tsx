/**
 * The "Scope and demand" tab: how much work there is and where it stands — totals (work items,
 * open, completed, overdue, projects, members), demand by state group and by priority, work by
 * assignee and by label (split by state group), created vs resolved over time, and each
 * project's work by state group. Every number comes from one server aggregate.
 */
import { AlertTriangle, CheckCircle2, CircleDot, FolderKanban, Layers, Users } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type {
  AnalyticsTarget,
  ChartAnswer,
  OverviewTotals,
  ProjectStats,
  TimelinePoint,
  WorkItemTotals,
} from "../../stores/analytics";
import { STATE_GROUP_COLOR } from "../member-profile/profile-logic";
import { Skeleton } from "../workspace/components/skeleton";
import { chartModel, padMonths, trendRows, trimTrend } from "./analytics-logic";
import { AnalyticsBars, AnalyticsTrend } from "./charts";
import { useAnalytics } from "./use-analytics";

const GROUPS = ["backlog", "unstarted", "started", "completed", "cancelled"] as const;
const GROUP_FIELD: Record<(typeof GROUPS)[number], keyof ProjectStats> = {
  backlog: "backlog_work_items",
  unstarted: "un_started_work_items",
  started: "started_work_items",
  completed: "completed_work_items",
  cancelled: "cancelled_work_items",
};

export function ScopeAndDemand({ target, showPeople = true }: { target: AnalyticsTarget; showPeople?: boolean }) {
  const { t } = useTranslation();
  const totals = useAnalytics<WorkItemTotals>(target, "advance-analytics", { tab: "work-items" });
  const overview = useAnalytics<OverviewTotals>(target, "advance-analytics", { tab: "overview" });
  const unit = t("analytics.workItems");
  const w = totals.data;
  const open = w ? w.backlog_work_items.count + w.un_started_work_items.count + w.started_work_items.count : 0;

  return (
    <div className="an-body">
      <div className="an-tiles" aria-busy={!w}>
        <Tile icon={<Layers size={15} />} label={t("analytics.tiles.workItems")} value={w?.total_work_items.count} />
        <Tile icon={<CircleDot size={15} />} label={t("analytics.tiles.open")} value={w ? open : undefined} />
        <Tile
          icon={<CheckCircle2 size={15} />}
          label={t("analytics.tiles.completed")}
          value={w?.completed_work_items.count}
        />
        <Tile
          icon={<AlertTriangle size={15} />}
          label={t("analytics.tiles.overdue")}
          value={w?.overdue_work_items.count}
          tone={w && w.overdue_work_items.count > 0 ? "danger" : undefined}
        />
        {target.projectId ? null : (
          <Tile
            icon={<FolderKanban size={15} />}
            label={t("analytics.tiles.projects")}
            value={overview.data?.total_projects.count}
          />
        )}
        {target.projectId ? null : (
          <Tile
            icon={<Users size={15} />}
            label={t("analytics.tiles.members")}
            value={overview.data?.total_users.count}
          />
        )}
      </div>

      {totals.status === "error" && !w ? <p className="an-error">{t("analytics.error")}</p> : null}
      {w && w.total_work_items.count === 0 ? (
        <p className="stat-card-empty an-nothing">{t("analytics.nothing")}</p>
      ) : (
        <>
          <div className="an-grid">
            <ChartCard
              title={t("analytics.demandByState")}
              target={target}
              axis="STATE_GROUPS"
              unit={unit}
              testId="an-demand-state"
            />
            <ChartCard
              title={t("analytics.demandByPriority")}
              target={target}
              axis="PRIORITY"
              segment="STATE_GROUPS"
              unit={unit}
              testId="an-demand-priority"
            />
            {showPeople ? (
              <ChartCard
                title={t("analytics.workByAssignee")}
                target={target}
                axis="ASSIGNEES"
                segment="STATE_GROUPS"
                unit={unit}
                across
                testId="an-work-assignee"
              />
            ) : null}
            <ChartCard
              title={t("analytics.workByLabel")}
              target={target}
              axis="LABELS"
              segment="STATE_GROUPS"
              unit={unit}
              across
              testId="an-work-label"
            />
          </div>
          <TrendCard target={target} />
          {target.projectId ? null : <ProjectsTable target={target} />}
        </>
      )}
    </div>
  );
}

function Tile({
  icon,
  label,
  value,
  tone,
}: {
  icon: ReactNode;
  label: string;
  value: number | undefined;
  tone?: "danger";
}) {
  return (
    <div className={`stat-tile${tone ? ` stat-tile-${tone}` : ""}`}>
      <span className="stat-tile-label">
        <span aria-hidden className="stat-tile-icon">
          {icon}
        </span>
        {label}
      </span>
      {value === undefined ? <Skeleton width={48} height={24} /> : <strong className="stat-tile-value">{value}</strong>}
    </div>
  );
}

/** A card with one custom-chart answer drawn as bars (segmented by state group when asked). */
function ChartCard({
  title,
  target,
  axis,
  segment,
  unit,
  across,
  testId,
}: {
  title: string;
  target: AnalyticsTarget;
  axis: "STATE_GROUPS" | "PRIORITY" | "ASSIGNEES" | "LABELS";
  segment?: "STATE_GROUPS";
  unit: string;
  across?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const answer = useAnalytics<ChartAnswer>(target, "advance-analytics-charts", {
    type: "custom-work-items",
    x_axis: axis,
    group_by: segment,
  });
  const model = answer.data ? chartModel(answer.data, axis, segment ?? null, t) : null;
  // People and labels: the ten with the most work (a long tail reads better in the custom tab).
  const rows = model ? (across ? model.rows.slice(0, 10) : model.rows) : [];
  const height = across ? Math.max(160, rows.length * 30 + 32) : 220;
  return (
    <section className="stat-card" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h3 id={`${testId}-title`} className="stat-card-title">
        {title}
      </h3>
      {!model ? (
        <div className="burndown-placeholder" style={{ height: 220 }} aria-hidden />
      ) : rows.length === 0 ? (
        <p className="stat-card-empty">{t("analytics.nothingHere")}</p>
      ) : (
        <AnalyticsBars rows={rows} series={model.series} unit={unit} label={title} across={across} height={height} />
      )}
    </section>
  );
}

/** Created vs resolved: per month for a workspace or project, per day for a cycle or module. */
export function TrendCard({ target }: { target: AnalyticsTarget }) {
  const { t } = useTranslation();
  const answer = useAnalytics<{ data: TimelinePoint[] }>(target, "advance-analytics-charts", { type: "work-items" });
  const byDay = Boolean(target.cycleId || target.moduleId);
  const rows = answer.data
    ? byDay
      ? trendRows(answer.data.data, "day")
      : padMonths(trimTrend(trendRows(answer.data.data, "month")))
    : null;
  const title = t("analytics.createdVsResolved");
  return (
    <section className="stat-card" aria-labelledby="an-trend-title" data-testid="an-trend">
      <h3 id="an-trend-title" className="stat-card-title">
        {title}
      </h3>
      {!rows ? (
        <div className="burndown-placeholder" style={{ height: 240 }} aria-hidden />
      ) : rows.length === 0 ? (
        <p className="stat-card-empty">{byDay ? t("analytics.noDates") : t("analytics.nothingHere")}</p>
      ) : (
        <AnalyticsTrend
          rows={rows}
          label={title}
          labels={{ created: t("analytics.created"), resolved: t("analytics.resolved") }}
        />
      )}
    </section>
  );
}

/** Each project's work items by state group, with a bar of the shares. */
function ProjectsTable({ target }: { target: AnalyticsTarget }) {
  const { t } = useTranslation();
  const answer = useAnalytics<ProjectStats[]>(target, "advance-analytics-stats", { type: "work-items" });
  const rows = answer.data ? [...answer.data].sort((a, b) => a.project__name.localeCompare(b.project__name)) : null;
  return (
    <section className="stat-card" aria-labelledby="an-projects-title">
      <h3 id="an-projects-title" className="stat-card-title">
        {t("analytics.byProject")}
      </h3>
      {!rows ? (
        <div className="burndown-placeholder" style={{ height: 120 }} aria-hidden />
      ) : (
        <div className="an-table-wrap">
          <table className="an-table" data-testid="an-projects-table">
            <thead>
              <tr>
                <th scope="col">{t("analytics.project")}</th>
                {GROUPS.map((g) => (
                  <th key={g} scope="col" className="an-num">
                    {t(`workItems.stateGroup.${g}`)}
                  </th>
                ))}
                <th scope="col" className="an-num">
                  {t("analytics.total")}
                </th>
                <th scope="col" className="an-share-col">
                  <span className="visually-hidden">{t("analytics.shares")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const total = GROUPS.reduce((n, g) => n + Number(r[GROUP_FIELD[g]]), 0);
                return (
                  <tr key={r.project_id}>
                    <th scope="row">{r.project__name}</th>
                    {GROUPS.map((g) => (
                      <td key={g} className="an-num">
                        {Number(r[GROUP_FIELD[g]])}
                      </td>
                    ))}
                    <td className="an-num">
                      <strong>{total}</strong>
                    </td>
                    <td className="an-share-col">
                      <div className="an-share" aria-hidden>
                        {GROUPS.map((g) => {
                          const n = Number(r[GROUP_FIELD[g]]);
                          return n ? <span key={g} style={{ flexGrow: n, background: STATE_GROUP_COLOR[g] }} /> : null;
                        })}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
