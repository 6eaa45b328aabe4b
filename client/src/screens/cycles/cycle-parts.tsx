/**
 * Pieces the cycles page, the active-cycle card and the cycle panel share: the status badge,
 * dates, the progress bar and ring, the burndown with its unit toggle, and the assignee/label
 * breakdown.
 */

import type { CycleStatus, ProgressCounters } from "@tideline/shared";
import { personName } from "@tideline/shared";
import clsx from "clsx";
import { CalendarDays } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { BurndownChart } from "../../components/charts/burndown-chart";
import { BurndownUnitToggle } from "../../components/charts/burndown-unit-toggle";
import { Breakdown } from "../../components/progress/breakdown";
import { FavoriteStar as SharedFavoriteStar } from "../../components/progress/favorite-star";
import { ProgressByGroup as SharedProgressByGroup } from "../../components/progress/progress-by-group";
import { Avatar, showDay } from "../../components/ui";
import { percentDone } from "../../lib/progress";
import {
  type AnalyticsType,
  type Cycle,
  type CycleAnalytics,
  cycles,
  loadCycleAnalytics,
  setCycleFavorite,
} from "../../stores/cycles";
import type { ProjectMember } from "../../stores/project-meta";
import { chartToday, cycleWhen, pendingOf } from "./cycle-logic";

export function StatusBadge({ status }: { status: CycleStatus }) {
  const { t } = useTranslation();
  return <span className={clsx("cy-badge", `cy-badge-${status}`)}>{t(`cycles.status.${status}`)}</span>;
}

/** "Starts in 5 days" / "Starts tomorrow" beside an upcoming cycle's dates (drafts say No dates in CycleDates). */
export function StartsIn({ cycle, today }: { cycle: Pick<Cycle, "status" | "start_date">; today: string }) {
  const { t } = useTranslation();
  const when = cycleWhen(cycle, today);
  if (!when || when.key === "noDates") return null;
  return (
    <span className="cy-days-left cy-starts-in">
      {when.key === "startsIn" ? t("cycles.when.startsIn", { count: when.count }) : t(`cycles.when.${when.key}`)}
    </span>
  );
}

/** "Nov 03, 2026 → Nov 17, 2026", or "No dates" for a draft. */
export function CycleDates({ cycle }: { cycle: Pick<Cycle, "start_date" | "end_date"> }) {
  const { t } = useTranslation();
  return (
    <span className="cy-dates">
      <CalendarDays size={13} aria-hidden />
      {cycle.start_date && cycle.end_date ? (
        <>
          <span>{showDay(cycle.start_date)}</span>
          <span aria-hidden>→</span>
          <span className="visually-hidden">{t("cycles.to")}</span>
          <span>{showDay(cycle.end_date)}</span>
        </>
      ) : (
        <span className="cy-muted">{t("cycles.when.noDates")}</span>
      )}
    </span>
  );
}

export function DaysLeft({ cycle }: { cycle: Pick<Cycle, "status" | "days_left"> }) {
  const { t } = useTranslation();
  if (cycle.status !== "current") return null;
  return <span className="cy-days-left">{t("cycles.daysLeft", { count: cycle.days_left })}</span>;
}

/** "Progress · 2/6 done" over the bar by state group (the active card adds a link under it). */
export function CycleProgress({ counters, children }: { counters: ProgressCounters; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="cy-section">
      <div className="cy-section-head">
        <h3>{t("cycles.progress.title")}</h3>
        <span className="cy-muted" data-testid="cycle-done-count">
          {t("cycles.row.items", { done: counters.completed_issues, total: counters.total_issues })}
        </span>
      </div>
      <ProgressByGroup counters={counters} />
      {children}
    </section>
  );
}

/** The shared bar by state group, with the count test ids the cycle e2e specs read. */
export function ProgressByGroup({ counters, unit = "issues" }: { counters: ProgressCounters; unit?: AnalyticsType }) {
  return <SharedProgressByGroup counters={counters} unit={unit} testIdPrefix="cycle-count" />;
}

/** A small ring with the share done, for list rows. */
export function ProgressRing({ counters, size = 28 }: { counters: ProgressCounters; size?: number }) {
  const { t } = useTranslation();
  const pct = percentDone(counters);
  const r = size / 2 - 3;
  const c = 2 * Math.PI * r;
  return (
    <span className="cy-ring" title={t("cycles.progress.done", { pct })}>
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden>
        <circle cx={size / 2} cy={size / 2} r={r} className="cy-ring-track" />
        {/* Nothing done draws no arc (a round cap alone would show a dot). */}
        {pct > 0 ? (
          <circle
            cx={size / 2}
            cy={size / 2}
            r={r}
            className="cy-ring-value"
            strokeDasharray={`${(pct / 100) * c} ${c}`}
            transform={`rotate(-90 ${size / 2} ${size / 2})`}
          />
        ) : null}
      </svg>
      <span className="cy-ring-pct">{pct}%</span>
    </span>
  );
}

/** The cycle's star (members only: the server refuses others'). */
export function FavoriteStar({ slug, cycle, disabled }: { slug: string; cycle: Cycle; disabled?: boolean }) {
  if (disabled) return null;
  return (
    <SharedFavoriteStar
      className="cy-icon-btn"
      on={Boolean(cycle.is_favorite)}
      name={cycle.name}
      onToggle={(next) => void setCycleFavorite(slug, cycle.project_id, cycle.id, next)}
    />
  );
}

/** Up to `max` faces, then "+n". */
export function AssigneeStack({
  ids,
  members,
  max = 3,
}: {
  ids: readonly string[];
  members: readonly ProjectMember[];
  max?: number;
}) {
  const { t } = useTranslation();
  if (!ids.length) return <span className="cy-avatars cy-avatars-empty" aria-hidden />;
  const people = ids.map((id) => members.find((m) => m.member === id)?.member_details).filter(Boolean);
  const names = people.map((p) => (p ? personName(p) : "")).join(", ");
  return (
    <span className="cy-avatars" title={names} role="img" aria-label={t("cycles.assignees", { names })}>
      {people
        .slice(0, max)
        .map((p) => (p ? <Avatar key={p.id} name={personName(p)} src={p.avatar_url} size={20} /> : null))}
      {people.length > max ? <span className="cy-avatars-more">+{people.length - max}</span> : null}
    </span>
  );
}

/** Read (and load on first use) a cycle's analytics of one type. */
export function useCycleAnalytics(slug: string, cycle: Cycle, type: AnalyticsType) {
  const snap = useSnapshot(cycles);
  const key = `${cycle.id}:${type}`;
  useEffect(() => {
    if (!cycles.analytics[key]) void loadCycleAnalytics(slug, cycle.project_id, cycle.id, type);
  }, [slug, cycle.project_id, cycle.id, type, key]);
  return snap.analytics[key] as { status: "loading" | "ready" | "error"; data: CycleAnalytics | null } | undefined;
}

/**
 * The burndown with its unit toggle (points only when the project estimates in points). Today's
 * point comes from the counters on screen, so a change shows before the chart is refetched.
 */
export function CycleBurndown({
  slug,
  cycle,
  counters,
  hasPoints,
  height = 220,
}: {
  slug: string;
  cycle: Cycle;
  counters: ProgressCounters;
  hasPoints: boolean;
  height?: number;
}) {
  const { t } = useTranslation();
  const [unit, setUnit] = useState<AnalyticsType>("issues");
  const type = hasPoints ? unit : "issues";
  const analytics = useCycleAnalytics(slug, cycle, type);
  const chart = analytics?.data?.completion_chart;
  const today = chart ? chartToday(chart, cycle.status) : undefined;
  const total = type === "points" ? counters.total_estimate_points : counters.total_issues;
  return (
    <section className="cy-section cy-burndown" aria-label={t("cycles.burndown.title")}>
      <div className="cy-section-head">
        <h3>{t("cycles.burndown.title")}</h3>
        {hasPoints ? <BurndownUnitToggle value={type} onChange={setUnit} /> : null}
      </div>
      {!cycle.start_date || !cycle.end_date ? (
        <div className="burndown-empty" style={{ height }}>
          {t("cycles.burndown.noDates")}
        </div>
      ) : chart ? (
        <BurndownChart
          chart={chart}
          points={analytics?.data?.progress}
          start={cycle.start_date}
          end={cycle.end_date}
          total={total}
          unit={type}
          today={today}
          todayPending={today ? pendingOf(counters, type) : undefined}
          height={height}
        />
      ) : analytics?.status === "error" ? (
        <div className="burndown-empty" style={{ height }}>
          {t("cycles.burndown.failed")}
        </div>
      ) : (
        <div className="burndown-placeholder" style={{ height }} aria-hidden />
      )}
    </section>
  );
}

/** Assignees and labels: how much of the cycle's work each holds, done over total. */
export function CycleBreakdown({ slug, cycle }: { slug: string; cycle: Cycle }) {
  const { t } = useTranslation();
  const analytics = useCycleAnalytics(slug, cycle, "issues");
  const data = analytics?.data;
  return (
    <Breakdown
      className="cy-section cy-breakdown"
      assignees={data?.assignees ?? null}
      labels={data?.labels ?? null}
      failed={analytics?.status === "error"}
      emptyText={t("cycles.breakdown.empty")}
    />
  );
}
