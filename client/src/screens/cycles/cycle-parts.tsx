/**
 * Pieces the cycles page, the active-cycle card and the cycle panel share: the status badge,
 * dates, the progress bar and ring, the burndown with its unit toggle, and the assignee/label
 * breakdown.
 */
import type { CycleStatus, ProgressCounters, StateGroup } from "@tideline/shared";
import clsx from "clsx";
import { CalendarDays, Star, Tag, Users } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { BurndownChart } from "../../components/charts/burndown-chart";
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
import { memberName } from "../../stores/members";
import type { ProjectMember } from "../../stores/project-meta";
import { Skeleton } from "../workspace/components/skeleton";
import { chartToday, pendingOf } from "./cycle-logic";

export function StatusBadge({ status }: { status: CycleStatus }) {
  const { t } = useTranslation();
  return <span className={clsx("cy-badge", `cy-badge-${status}`)}>{t(`cycles.status.${status}`)}</span>;
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
        <span className="cy-muted">{t("cycles.noDates")}</span>
      )}
    </span>
  );
}

export function DaysLeft({ cycle }: { cycle: Pick<Cycle, "status" | "days_left"> }) {
  const { t } = useTranslation();
  if (cycle.status !== "current") return null;
  return <span className="cy-days-left">{t("cycles.daysLeft", { count: cycle.days_left })}</span>;
}

const SEGMENTS: StateGroup[] = ["completed", "started", "unstarted", "backlog", "cancelled"];

/** A bar split by state group with the counts under it. */
export function ProgressByGroup({ counters, unit = "issues" }: { counters: ProgressCounters; unit?: AnalyticsType }) {
  const { t } = useTranslation();
  const total = unit === "points" ? counters.total_estimate_points : counters.total_issues;
  const value = (g: StateGroup) =>
    unit === "points" ? counters[`${g}_estimate_points`] : counters[`${g}_issues` as keyof ProgressCounters];
  return (
    <div className="cy-progress">
      <div
        className="cy-progress-bar"
        role="img"
        aria-label={t("cycles.progress.aria", { done: value("completed"), total })}
      >
        {total > 0
          ? SEGMENTS.map((g) =>
              value(g) > 0 ? (
                <span
                  key={g}
                  className={clsx("cy-seg", `cy-seg-${g}`)}
                  style={{ width: `${(value(g) / total) * 100}%` }}
                />
              ) : null,
            )
          : null}
      </div>
      <ul className="cy-progress-legend">
        {SEGMENTS.map((g) => (
          <li key={g} data-group={g}>
            <span className={clsx("cy-dot", `cy-seg-${g}`)} aria-hidden />
            <span className="cy-legend-name">{t(`cycles.groups.${g}`)}</span>
            <span className="cy-legend-value" data-testid={`cycle-count-${g}`}>
              {value(g)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
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

export function FavoriteStar({ slug, cycle, disabled }: { slug: string; cycle: Cycle; disabled?: boolean }) {
  const { t } = useTranslation();
  const on = Boolean(cycle.is_favorite);
  if (disabled) return null;
  return (
    <button
      type="button"
      className={clsx("cy-icon-btn cy-star", on && "is-on")}
      aria-pressed={on}
      aria-label={on ? t("cycles.unfavorite", { name: cycle.name }) : t("cycles.favorite", { name: cycle.name })}
      title={on ? t("cycles.unfavoriteShort") : t("cycles.favoriteShort")}
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        void setCycleFavorite(slug, cycle.project_id, cycle.id, !on);
      }}
    >
      <Star size={14} aria-hidden fill={on ? "currentColor" : "none"} />
    </button>
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
  const names = people.map((p) => (p ? memberName(p) : "")).join(", ");
  return (
    <span className="cy-avatars" title={names} role="img" aria-label={t("cycles.assignees", { names })}>
      {people
        .slice(0, max)
        .map((p) => (p ? <Avatar key={p.id} name={memberName(p)} src={p.avatar_url} size={20} /> : null))}
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
        {hasPoints ? (
          <div className="tabs cy-mini-tabs" role="tablist" aria-label={t("cycles.burndown.unit")}>
            {(["issues", "points"] as const).map((u) => (
              <button
                key={u}
                type="button"
                role="tab"
                aria-selected={type === u}
                className={clsx("tab cy-tab", type === u && "active")}
                onClick={() => setUnit(u)}
              >
                {t(`cycles.burndown.${u}`)}
              </button>
            ))}
          </div>
        ) : null}
      </div>
      {!cycle.start_date || !cycle.end_date ? (
        <div className="burndown-empty" style={{ height }}>
          {t("cycles.burndown.noDates")}
        </div>
      ) : chart ? (
        <BurndownChart
          chart={chart}
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
  const [tab, setTab] = useState<"assignees" | "labels">("assignees");
  const analytics = useCycleAnalytics(slug, cycle, "issues");
  const data = analytics?.data;
  const rows =
    tab === "assignees"
      ? (data?.assignees ?? []).map((a) => ({
          key: a.assignee_id ?? "none",
          name: a.assignee_id
            ? memberName({
                first_name: a.first_name ?? "",
                last_name: a.last_name ?? "",
                display_name: a.display_name ?? "",
              })
            : t("cycles.breakdown.noAssignee"),
          avatar: a.assignee_id ? (a.avatar_url ?? "") : null,
          color: null as string | null,
          done: a.completed_issues ?? 0,
          total: a.total_issues ?? 0,
        }))
      : (data?.labels ?? []).map((l) => ({
          key: l.label_id ?? "none",
          name: l.label_id ? (l.label_name ?? "") : t("cycles.breakdown.noLabel"),
          avatar: null as string | null,
          color: l.label_id ? (l.color ?? null) : null,
          done: l.completed_issues ?? 0,
          total: l.total_issues ?? 0,
        }));
  return (
    <section className="cy-section cy-breakdown">
      <div className="cy-section-head">
        <div className="tabs cy-mini-tabs" role="tablist" aria-label={t("cycles.breakdown.label")}>
          {(["assignees", "labels"] as const).map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={tab === k}
              className={clsx("tab cy-tab", tab === k && "active")}
              onClick={() => setTab(k)}
            >
              {k === "assignees" ? <Users size={12} aria-hidden /> : <Tag size={12} aria-hidden />}
              {t(`cycles.breakdown.${k}`)}
            </button>
          ))}
        </div>
      </div>
      {!data ? (
        analytics?.status === "error" ? (
          <p className="cy-muted cy-breakdown-empty">{t("cycles.breakdown.failed")}</p>
        ) : (
          <div className="cy-breakdown-rows">
            <Skeleton width="70%" />
            <Skeleton width="55%" />
          </div>
        )
      ) : rows.length === 0 ? (
        <p className="cy-muted cy-breakdown-empty">{t("cycles.breakdown.empty")}</p>
      ) : (
        <ul className="cy-breakdown-rows">
          {rows.map((r) => (
            <li key={r.key} className="cy-breakdown-row">
              {r.avatar !== null ? (
                <Avatar name={r.name} src={r.avatar || null} size={18} />
              ) : r.color !== null ? (
                <span className="cy-label-dot" style={{ background: r.color }} aria-hidden />
              ) : (
                <span className="cy-label-dot cy-label-dot-none" aria-hidden />
              )}
              <span className="cy-breakdown-name">{r.name}</span>
              <span className="cy-breakdown-bar" aria-hidden>
                <span style={{ width: `${r.total ? (r.done / r.total) * 100 : 0}%` }} />
              </span>
              <span className="cy-breakdown-count">
                {t("cycles.breakdown.count", { done: r.done, total: r.total })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
