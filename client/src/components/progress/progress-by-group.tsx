/**
 * A cycle's or module's work split by state group: one bar with a segment per group, and the
 * counts under it (work items, or estimate points when `unit` is points).
 */
import type { ProgressCounters, StateGroup } from "@tideline/shared";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import "./progress.css";

/** Done first, the way the reference reads a bar: what is finished, in flight, still to start. */
const SEGMENTS: StateGroup[] = ["completed", "started", "unstarted", "backlog", "cancelled"];

export function ProgressByGroup({
  counters,
  unit = "issues",
  testIdPrefix,
}: {
  counters: ProgressCounters;
  unit?: "issues" | "points";
  /** Gives each count a test id `${prefix}-${group}` (the e2e specs read them). */
  testIdPrefix?: string;
}) {
  const { t } = useTranslation();
  const total = unit === "points" ? counters.total_estimate_points : counters.total_issues;
  const value = (g: StateGroup) => (unit === "points" ? counters[`${g}_estimate_points`] : counters[`${g}_issues`]);
  return (
    <div className="pg-progress">
      <div className="pg-bar" role="img" aria-label={t("charts.progress.aria", { done: value("completed"), total })}>
        {total > 0
          ? SEGMENTS.map((g) =>
              value(g) > 0 ? (
                <span
                  key={g}
                  className={clsx("pg-seg", `pg-seg-${g}`)}
                  style={{ width: `${(value(g) / total) * 100}%` }}
                />
              ) : null,
            )
          : null}
      </div>
      <ul className="pg-legend">
        {SEGMENTS.map((g) => (
          <li key={g} data-group={g}>
            <span className={clsx("pg-dot", `pg-seg-${g}`)} aria-hidden />
            <span className="pg-legend-name">{t(`charts.groups.${g}`)}</span>
            <span className="pg-legend-value" data-testid={testIdPrefix ? `${testIdPrefix}-${g}` : undefined}>
              {value(g)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
