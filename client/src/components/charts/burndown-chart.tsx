/**
 * Burndown of a cycle or module: the work remaining per day against the ideal straight line,
 * and the scope (the work in it each day) as its own stepped line, so work added or taken out
 * reads as a scope change rather than as work created or burnt. A legend names the three.
 * recharts is loaded lazily (burndown-chart-inner.tsx) so screens without a chart never
 * download it; a placeholder of the same height stands in meanwhile so nothing below it jumps.
 */
import { lazy, type ReactElement, Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { type BurndownPointInput, buildBurndownRows, hasScope } from "./burndown-data";
import "./charts.css";

const Inner = lazy(() => import("./burndown-chart-inner"));

export type BurndownChartProps = {
  /** {yyyy-MM-dd: pending | null} for every day from start to end (null = a day after today). */
  chart: Record<string, number | null>;
  /** The server's per-day points (`progress`: scope per day); without them no scope line. */
  points?: readonly BurndownPointInput[] | null;
  start: string;
  end: string;
  /** The scope to burn down from (total issues or total points) for the ideal line. */
  total: number;
  unit: "issues" | "points";
  /** Overrides today's pending value (local counts, so a change shows before the server's event). */
  todayPending?: number;
  today?: string;
  height?: number;
};

export function BurndownChart(props: BurndownChartProps): ReactElement {
  const { t } = useTranslation();
  const height = props.height ?? 220;
  const { chart, points, start, end, total, todayPending, today, unit } = props;
  const rows = useMemo(
    () => buildBurndownRows({ chart, points, start, end, total, todayPending, today }),
    [chart, points, start, end, total, todayPending, today],
  );
  const withScope = hasScope(rows);
  const labels = {
    pending: unit === "points" ? t("charts.burndown.pendingPoints") : t("charts.burndown.pendingIssues"),
    ideal: t("charts.burndown.ideal"),
    scope: t("charts.burndown.scope"),
  };
  const placeholder = <div className="burndown-placeholder" style={{ height }} aria-hidden />;
  if (!rows.length) {
    return (
      <div className="burndown-empty" style={{ height }}>
        {t("charts.burndown.noDates")}
      </div>
    );
  }
  const todayRow = today ? rows.find((r) => r.date === today) : undefined;
  const shown = todayRow ?? rows.filter((r) => r.pending !== null).at(-1) ?? rows[0];
  return (
    <figure
      className="burndown"
      aria-label={t("charts.burndown.aria", { pending: shown?.pending ?? 0, total })}
      data-today-pending={todayRow?.pending ?? undefined}
      data-today-scope={todayRow?.scope ?? undefined}
    >
      <div className="burndown-plot" style={{ height }}>
        <Suspense fallback={placeholder}>
          <Inner rows={rows} unit={unit} height={height} labels={labels} withScope={withScope} />
        </Suspense>
      </div>
      <figcaption className="burndown-legend">
        <span className="burndown-legend-item">
          <span className="burndown-swatch burndown-swatch-pending" aria-hidden />
          {labels.pending}
        </span>
        <span className="burndown-legend-item">
          <span className="burndown-swatch burndown-swatch-ideal" aria-hidden />
          {labels.ideal}
        </span>
        {withScope ? (
          <span className="burndown-legend-item">
            <span className="burndown-swatch burndown-swatch-scope" aria-hidden />
            {labels.scope}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
