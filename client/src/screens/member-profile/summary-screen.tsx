import { format, parseISO } from "date-fns";
import { AlertTriangle, Bell, CheckCircle2, Contrast, PenLine, UserCheck } from "lucide-react";
import type { ReactNode } from "react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSnapshot } from "valtio";
import { Banner, toDay } from "../../components/ui";
import { loadMemberStats, memberProfile, type ProfileStats, profileKey } from "../../stores/member-profile";
import { PriorityIcon, StateIcon } from "../work-items/properties";
import { Skeleton } from "../workspace/components/skeleton";
import { useProfileOutlet } from "./member-profile-layout";
// The state and priority icons' colours live with the board's styles.
import "../work-items/work-items.css";
import "../../components/ui/stat-tiles.css";
import { ProfileColumns, ProfileDays, ProfileDonut } from "./profile-charts";
import { completedSeries, PRIORITY_COLOR, priorityRows, STATE_GROUP_COLOR, stateGroupRows } from "./profile-logic";

/**
 * The summary tab: the member's numbers (created, assigned, subscribed, completed, overdue, each a
 * way into its list), their assigned work by state group and priority, what they completed over
 * the last 90 days, and the cycles they are working in.
 */
export function ProfileSummaryScreen() {
  const { t } = useTranslation();
  const { slug, userId } = useProfileOutlet();
  const snap = useSnapshot(memberProfile);
  const key = profileKey(slug, userId);

  useEffect(() => {
    void loadMemberStats(slug, userId);
  }, [slug, userId]);

  const entry = snap.stats[key];
  const stats = entry?.data as ProfileStats | null | undefined;
  if (entry?.status === "error" && !stats) return <Banner kind="error">{t("memberProfile.error")}</Banner>;
  if (!stats) return <SummarySkeleton />;
  return <Summary stats={stats} />;
}

function Summary({ stats }: { stats: ProfileStats }) {
  const { t } = useTranslation();
  const { slug, userId, projects } = useProfileOutlet();
  const base = `/${slug}/profile/${userId}/`;
  const unit = t("memberProfile.summary.items");

  const groups = useMemo(
    () =>
      stateGroupRows(stats.state_distribution).map((r) => ({
        key: r.key,
        label: t(`workItems.stateGroup.${r.key}`),
        count: r.count,
        color: STATE_GROUP_COLOR[r.key],
      })),
    [stats.state_distribution, t],
  );
  const priorities = useMemo(
    () =>
      priorityRows(stats.priority_distribution).map((r) => ({
        key: r.key,
        label: t(`workItems.priority.${r.key}`),
        count: r.count,
        color: PRIORITY_COLOR[r.key],
      })),
    [stats.priority_distribution, t],
  );
  const days = useMemo(
    () =>
      completedSeries(stats.completed_by_date, toDay(new Date())).map((p) => ({
        ...p,
        label: format(parseISO(p.date), "MMM d"),
      })),
    [stats.completed_by_date],
  );
  const completedLately = days.reduce((sum, d) => sum + d.count, 0);
  const projectName = (id: string) => projects.find((p) => p.id === id)?.name ?? "";
  const cycles = [
    ...stats.present_cycles.map((c) => ({ ...c, upcoming: false })),
    ...stats.upcoming_cycles.map((c) => ({ ...c, upcoming: true })),
  ];

  return (
    <div className="mp-summary">
      <div className="mp-tiles">
        <Tile
          to={`${base}created/`}
          icon={<PenLine size={15} />}
          label={t("memberProfile.summary.created")}
          value={stats.created_issues}
          id="created"
        />
        <Tile
          to={`${base}assigned/`}
          icon={<UserCheck size={15} />}
          label={t("memberProfile.summary.assigned")}
          value={stats.assigned_issues}
          id="assigned"
        />
        <Tile
          to={`${base}subscribed/`}
          icon={<Bell size={15} />}
          label={t("memberProfile.summary.subscribed")}
          value={stats.subscribed_issues}
          id="subscribed"
        />
        <Tile
          to={`${base}assigned/?state_group=completed`}
          icon={<CheckCircle2 size={15} />}
          label={t("memberProfile.summary.completed")}
          value={stats.completed_issues}
          id="completed"
        />
        <Tile
          icon={<AlertTriangle size={15} />}
          label={t("memberProfile.summary.overdue")}
          value={stats.overdue_issues}
          id="overdue"
          tone={stats.overdue_issues > 0 ? "danger" : undefined}
        />
      </div>

      <div className="mp-cards">
        <section className="stat-card" aria-labelledby="mp-groups-title">
          <h3 id="mp-groups-title" className="stat-card-title">
            {t("memberProfile.summary.byState")}
          </h3>
          {stats.assigned_issues === 0 ? (
            <p className="stat-card-empty">{t("memberProfile.summary.nothingAssigned")}</p>
          ) : (
            <div className="mp-donut-row">
              <div className="mp-donut">
                <ProfileDonut rows={groups} unit={unit} label={t("memberProfile.summary.byState")} height={150} />
                <div className="mp-donut-center" aria-hidden>
                  <strong>{stats.assigned_issues}</strong>
                  <span>{t("memberProfile.summary.assignedShort")}</span>
                </div>
              </div>
              <ul className="mp-legend">
                {groups.map((g) => (
                  <li key={g.key} data-testid={`profile-group-${g.key}`}>
                    <StateIcon group={g.key} color={g.color} />
                    <span className="mp-legend-name">{g.label}</span>
                    <Link
                      className="mp-legend-value"
                      to={`${base}assigned/?state_group=${g.key}`}
                      aria-label={t("memberProfile.summary.openGroup", { group: g.label, count: g.count })}
                    >
                      {g.count}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>

        <section className="stat-card" aria-labelledby="mp-priority-title">
          <h3 id="mp-priority-title" className="stat-card-title">
            {t("memberProfile.summary.byPriority")}
          </h3>
          {stats.assigned_issues === 0 ? (
            <p className="stat-card-empty">{t("memberProfile.summary.nothingAssigned")}</p>
          ) : (
            <>
              <ProfileColumns
                rows={priorities}
                unit={unit}
                label={t("memberProfile.summary.byPriority")}
                height={150}
              />
              <ul className="mp-legend mp-legend-inline">
                {priorities.map((p) => (
                  <li key={p.key} data-testid={`profile-priority-${p.key}`}>
                    <PriorityIcon priority={p.key} size={13} />
                    <span className="mp-legend-name">{p.label}</span>
                    <span className="mp-legend-value">{p.count}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>

      <section className="stat-card" aria-labelledby="mp-days-title">
        <div className="mp-card-head">
          <h3 id="mp-days-title" className="stat-card-title">
            {t("memberProfile.summary.completedOverTime")}
          </h3>
          <span className="muted mp-card-note">
            {t("memberProfile.summary.completedLately", { count: completedLately })}
          </span>
        </div>
        {completedLately === 0 ? (
          <p className="stat-card-empty mp-card-empty-tall">{t("memberProfile.summary.nothingCompleted")}</p>
        ) : (
          <ProfileDays
            rows={days}
            unit={t("memberProfile.summary.completedUnit")}
            label={t("memberProfile.summary.completedOverTime")}
          />
        )}
      </section>

      {cycles.length > 0 ? (
        <section className="stat-card" aria-labelledby="mp-cycles-title">
          <h3 id="mp-cycles-title" className="stat-card-title">
            {t("memberProfile.summary.cycles")}
          </h3>
          <ul className="mp-cycles">
            {cycles.map((c) => (
              <li key={c.cycle__id}>
                <Contrast size={14} aria-hidden className="muted" />
                <Link to={`/${slug}/projects/${c.cycle__project_id}/cycles/${c.cycle__id}/`}>{c.cycle__name}</Link>
                <span className="muted">{projectName(c.cycle__project_id)}</span>
                <span className={c.upcoming ? "badge" : "badge mp-badge-live"}>
                  {c.upcoming ? t("memberProfile.summary.upcoming") : t("memberProfile.summary.current")}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function Tile({
  to,
  icon,
  label,
  value,
  id,
  tone,
}: {
  to?: string;
  icon: ReactNode;
  label: string;
  value: number;
  id: string;
  tone?: "danger";
}) {
  const body = (
    <>
      <span className="stat-tile-label">
        {icon}
        {label}
      </span>
      <strong className="stat-tile-value" data-testid={`profile-count-${id}`}>
        {value}
      </strong>
    </>
  );
  const className = tone === "danger" ? "stat-tile stat-tile-danger" : "stat-tile";
  return to ? (
    <Link to={to} className={`${className} stat-tile-link`}>
      {body}
    </Link>
  ) : (
    <div className={className}>{body}</div>
  );
}

function SummarySkeleton() {
  return (
    <div className="mp-summary" aria-busy="true">
      <div className="mp-tiles">
        {["a", "b", "c", "d", "e"].map((k) => (
          <div key={k} className="stat-tile">
            <Skeleton width="60%" height={12} />
            <Skeleton width={36} height={22} />
          </div>
        ))}
      </div>
      <div className="mp-cards">
        <div className="stat-card">
          <Skeleton width="40%" height={13} />
          <Skeleton height={150} />
        </div>
        <div className="stat-card">
          <Skeleton width="40%" height={13} />
          <Skeleton height={150} />
        </div>
      </div>
      <div className="stat-card">
        <Skeleton width="30%" height={13} />
        <Skeleton height={200} />
      </div>
    </div>
  );
}
