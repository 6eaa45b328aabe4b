/**
 * The summary's charts, with recharts loaded lazily (profile-charts-inner.tsx) behind
 * placeholders of the same height, so screens without them never download it and nothing
 * below jumps when it arrives (the burndown's pattern, components/charts/burndown-chart.tsx).
 */
import { lazy, type ReactElement, Suspense } from "react";
import type { DayBar, Slice } from "./profile-charts-inner";
import "../../components/charts/charts.css";

const Donut = lazy(() => import("./profile-charts-inner").then((m) => ({ default: m.DonutChart })));
const Columns = lazy(() => import("./profile-charts-inner").then((m) => ({ default: m.ColumnChart })));
const Days = lazy(() => import("./profile-charts-inner").then((m) => ({ default: m.DaysChart })));

export type { DayBar, Slice };

type Props<R> = { rows: R[]; height?: number; unit: string; label: string };

function Frame({ height, label, children }: { height: number; label: string; children: ReactElement }) {
  return (
    <figure className="burndown" style={{ height }} aria-label={label}>
      <Suspense fallback={<div className="burndown-placeholder" style={{ height }} aria-hidden />}>{children}</Suspense>
    </figure>
  );
}

export function ProfileDonut({ rows, height = 180, unit, label }: Props<Slice>) {
  return (
    <Frame height={height} label={label}>
      <Donut rows={rows} height={height} unit={unit} />
    </Frame>
  );
}

export function ProfileColumns({ rows, height = 180, unit, label }: Props<Slice>) {
  return (
    <Frame height={height} label={label}>
      <Columns rows={rows} height={height} unit={unit} />
    </Frame>
  );
}

export function ProfileDays({ rows, height = 200, unit, label }: Props<DayBar>) {
  return (
    <Frame height={height} label={label}>
      <Days rows={rows} height={height} unit={unit} />
    </Frame>
  );
}
