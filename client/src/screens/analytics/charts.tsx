/**
 * Analytics charts, with recharts loaded lazily (charts-inner.tsx) behind placeholders of the
 * same height, so nothing below jumps when it arrives (the burndown's pattern,
 * components/charts/burndown-chart.tsx).
 */
import { lazy, type ReactElement, Suspense } from "react";
import type { BarRow, Series, TrendRow } from "./charts-inner";
import "../../components/charts/charts.css";

const Bars = lazy(() => import("./charts-inner").then((m) => ({ default: m.BarsChart })));
const Trend = lazy(() => import("./charts-inner").then((m) => ({ default: m.TrendChart })));

export type { BarRow, Series, TrendRow };

function Frame({ height, label, children }: { height: number; label: string; children: ReactElement }) {
  return (
    <figure className="burndown an-figure" style={{ height }} aria-label={label}>
      <Suspense fallback={<div className="burndown-placeholder" style={{ height }} aria-hidden />}>{children}</Suspense>
    </figure>
  );
}

export function AnalyticsBars(props: {
  rows: BarRow[];
  series?: readonly Series[];
  height?: number;
  unit: string;
  label: string;
  across?: boolean;
}) {
  const height = props.height ?? 240;
  return (
    <Frame height={height} label={props.label}>
      <Bars rows={props.rows} series={props.series} height={height} unit={props.unit} across={props.across} />
    </Frame>
  );
}

export function AnalyticsTrend(props: {
  rows: TrendRow[];
  height?: number;
  label: string;
  labels: { created: string; resolved: string };
}) {
  const height = props.height ?? 240;
  return (
    <Frame height={height} label={props.label}>
      <Trend rows={props.rows} height={height} labels={props.labels} />
    </Frame>
  );
}
