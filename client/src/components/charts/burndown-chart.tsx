/**
 * Burndown of a cycle or module: pending work per day against the ideal straight line. recharts
 * is loaded lazily (burndown-chart-inner.tsx) so screens without a chart never download it; a
 * placeholder of the same height stands in meanwhile so nothing below it jumps.
 */
import { lazy, type ReactElement, Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { buildBurndownRows } from "./burndown-data";
import "./charts.css";

const Inner = lazy(() => import("./burndown-chart-inner"));

export type BurndownChartProps = {
  /** {yyyy-MM-dd: pending | null} for every day from start to end (null = a day after today). */
  chart: Record<string, number | null>;
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
  const { chart, start, end, total, todayPending, today, unit } = props;
  const rows = useMemo(
    () => buildBurndownRows({ chart, start, end, total, todayPending, today }),
    [chart, start, end, total, todayPending, today],
  );
  const labels = {
    pending: unit === "points" ? t("charts.burndown.pendingPoints") : t("charts.burndown.pendingIssues"),
    ideal: t("charts.burndown.ideal"),
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
  return (
    <figure
      className="burndown"
      style={{ height }}
      aria-label={t("charts.burndown.aria", { pending: todayRow?.pending ?? rows[0]?.pending ?? 0, total })}
      data-today-pending={todayRow?.pending ?? undefined}
    >
      <Suspense fallback={placeholder}>
        <Inner rows={rows} unit={unit} height={height} labels={labels} />
      </Suspense>
    </figure>
  );
}
