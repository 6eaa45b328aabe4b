/**
 * The recharts part of the burndown, in its own module so it (and recharts) is loaded on demand
 * by burndown-chart.tsx and stays out of the main chunk. Colours are design tokens through
 * `var(--…)` in SVG presentation attributes, so the chart follows the theme without re-reading
 * computed styles.
 */
import { Area, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { BurndownRow } from "./burndown-data";

type Props = {
  rows: BurndownRow[];
  unit: "issues" | "points";
  height: number;
  labels: { pending: string; ideal: string; scope: string };
  /** Draw the scope line (the server sent per-day scope). */
  withScope: boolean;
};

type TooltipEntry = { dataKey?: unknown; value?: unknown; payload?: BurndownRow };

function ChartTooltip({
  active,
  payload,
  labels,
  withScope,
}: {
  active?: boolean;
  payload?: readonly TooltipEntry[];
  labels: Props["labels"];
  withScope: boolean;
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  return (
    <div className="burndown-tooltip">
      <div className="burndown-tooltip-date">{row.label}</div>
      <div className="burndown-tooltip-row">
        <span className="burndown-swatch burndown-swatch-pending" />
        {labels.pending}
        <strong>{row.pending ?? "–"}</strong>
      </div>
      <div className="burndown-tooltip-row">
        <span className="burndown-swatch burndown-swatch-ideal" />
        {labels.ideal}
        <strong>{row.ideal}</strong>
      </div>
      {withScope ? (
        <div className="burndown-tooltip-row">
          <span className="burndown-swatch burndown-swatch-scope" />
          {labels.scope}
          <strong>{row.scope ?? "–"}</strong>
        </div>
      ) : null}
    </div>
  );
}

export default function BurndownChartInner({ rows, unit, height, labels, withScope }: Props) {
  const tick = { fill: "var(--color-text-subtle)", fontSize: 11 };
  return (
    <ResponsiveContainer width="100%" height={height}>
      <ComposedChart data={rows} margin={{ top: 8, right: 20, bottom: 0, left: -12 }}>
        <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="label"
          tick={tick}
          tickLine={false}
          axisLine={{ stroke: "var(--color-border)" }}
          minTickGap={16}
          interval="preserveStartEnd"
        />
        <YAxis
          tick={tick}
          tickLine={false}
          axisLine={false}
          allowDecimals={unit === "points"}
          width={44}
          domain={[0, "auto"]}
        />
        <Tooltip
          cursor={{ stroke: "var(--color-border-strong)" }}
          content={(p) => (
            <ChartTooltip
              active={p.active}
              payload={p.payload as readonly TooltipEntry[]}
              labels={labels}
              withScope={withScope}
            />
          )}
        />
        <Area
          type="linear"
          dataKey="pending"
          name={labels.pending}
          stroke="var(--color-primary)"
          strokeWidth={2}
          fill="var(--color-primary)"
          fillOpacity={0.14}
          connectNulls={false}
          dot={false}
          activeDot={{ r: 4, fill: "var(--color-primary)", stroke: "var(--color-surface)" }}
          isAnimationActive={false}
        />
        {withScope ? (
          // The work in scope each day, a step per change: work added or taken out shows here.
          <Line
            type="stepAfter"
            dataKey="scope"
            name={labels.scope}
            stroke="var(--color-warning)"
            strokeWidth={1.5}
            connectNulls={false}
            dot={false}
            activeDot={{ r: 3, fill: "var(--color-warning)", stroke: "var(--color-surface)" }}
            isAnimationActive={false}
          />
        ) : null}
        <Line
          type="linear"
          dataKey="ideal"
          name={labels.ideal}
          stroke="var(--color-text-subtle)"
          strokeWidth={1.5}
          strokeDasharray="5 4"
          dot={false}
          activeDot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
