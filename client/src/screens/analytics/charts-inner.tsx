/**
 * The recharts parts of analytics, in their own module so recharts loads on demand (charts.tsx
 * wraps them in Suspense behind same-height placeholders). Colours are design tokens through
 * `var(--…)`, so both themes follow without reading computed styles.
 */
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

/** One stacked part of every bar: its key in the bar rows, its name and colour. */
export type Series = { key: string; label: string; color: string };
/** One bar: a label, the total and a value per series key. */
export type BarRow = { key: string; label: string; count: number; color?: string } & Record<string, unknown>;
export type TrendRow = { key: string; label: string; created: number; resolved: number };

const tick = { fill: "var(--color-text-subtle)", fontSize: 11 };

type TipEntry = { dataKey?: unknown; value?: unknown; color?: string; name?: unknown; payload?: BarRow | TrendRow };

function Tip({
  active,
  payload,
  unit,
  series,
}: {
  active?: boolean;
  payload?: readonly TipEntry[];
  unit: string;
  series?: readonly Series[];
}) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const parts = series?.length
    ? series
        .map((s) => ({ ...s, value: Number((row as Record<string, unknown>)[s.key] ?? 0) }))
        .filter((s) => s.value > 0)
    : [];
  return (
    <div className="burndown-tooltip">
      <div className="burndown-tooltip-date">{row.label}</div>
      {parts.map((p) => (
        <div key={p.key} className="burndown-tooltip-row">
          <span className="an-swatch" style={{ background: p.color }} />
          {p.label}
          <strong>{p.value}</strong>
        </div>
      ))}
      {"count" in row ? (
        <div className="burndown-tooltip-row">
          {unit}
          <strong>{row.count}</strong>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Bars, stacked by `series` when given (each bar's parts), else one bar per row in its own
 * colour (or the accent). `layout="horizontal"` lays bars across for long names (people, labels).
 */
export function BarsChart({
  rows,
  series,
  height,
  unit,
  across = false,
}: {
  rows: BarRow[];
  series?: readonly Series[];
  height: number;
  unit: string;
  across?: boolean;
}) {
  const stacked = Boolean(series?.length);
  const axisProps = { tick, tickLine: false } as const;
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart
        data={rows}
        layout={across ? "vertical" : "horizontal"}
        margin={{ top: 8, right: 12, bottom: 0, left: across ? 4 : -16 }}
      >
        <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={across} horizontal={!across} />
        {across ? (
          <>
            <XAxis type="number" {...axisProps} axisLine={false} allowDecimals={false} />
            <YAxis
              type="category"
              dataKey="label"
              {...axisProps}
              axisLine={{ stroke: "var(--color-border)" }}
              width={120}
              interval={0}
            />
          </>
        ) : (
          <>
            <XAxis
              dataKey="label"
              {...axisProps}
              axisLine={{ stroke: "var(--color-border)" }}
              interval="preserveStartEnd"
              minTickGap={8}
            />
            <YAxis {...axisProps} axisLine={false} allowDecimals={false} width={48} />
          </>
        )}
        <Tooltip
          cursor={{ fill: "var(--color-bg-hover)" }}
          content={(p) => (
            <Tip active={p.active} payload={p.payload as readonly TipEntry[]} unit={unit} series={series} />
          )}
        />
        {stacked ? (
          <Legend
            verticalAlign="top"
            align="right"
            height={24}
            iconType="circle"
            iconSize={8}
            // The series' own order (state groups, priorities), not recharts' alphabetical one.
            itemSorter={(item) => series?.findIndex((x) => x.key === item.dataKey) ?? 0}
            formatter={(value) => <span className="an-legend-text">{value}</span>}
          />
        ) : null}
        {stacked ? (
          series?.map((s, i) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId="bar"
              fill={s.color}
              maxBarSize={40}
              isAnimationActive={false}
              radius={i === (series?.length ?? 0) - 1 ? (across ? [0, 4, 4, 0] : [4, 4, 0, 0]) : 0}
            />
          ))
        ) : (
          <Bar
            dataKey="count"
            name={unit}
            maxBarSize={40}
            radius={across ? [0, 4, 4, 0] : [4, 4, 0, 0]}
            isAnimationActive={false}
          >
            {rows.map((r) => (
              <Cell key={r.key} fill={r.color ?? "var(--color-primary)"} />
            ))}
          </Bar>
        )}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Created and resolved per period, two areas over time. */
export function TrendChart({
  rows,
  height,
  labels,
}: {
  rows: TrendRow[];
  height: number;
  labels: { created: string; resolved: string };
}) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <AreaChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
        <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="label"
          tick={tick}
          tickLine={false}
          axisLine={{ stroke: "var(--color-border)" }}
          minTickGap={24}
          interval="preserveStartEnd"
        />
        <YAxis tick={tick} tickLine={false} axisLine={false} allowDecimals={false} width={48} />
        <Tooltip
          content={(p) => {
            const row = (p.payload?.[0] as TipEntry | undefined)?.payload as TrendRow | undefined;
            if (!p.active || !row) return null;
            return (
              <div className="burndown-tooltip">
                <div className="burndown-tooltip-date">{row.label}</div>
                <div className="burndown-tooltip-row">
                  <span className="an-swatch" style={{ background: "var(--color-primary)" }} />
                  {labels.created}
                  <strong>{row.created}</strong>
                </div>
                <div className="burndown-tooltip-row">
                  <span className="an-swatch" style={{ background: "var(--color-success)" }} />
                  {labels.resolved}
                  <strong>{row.resolved}</strong>
                </div>
              </div>
            );
          }}
        />
        <Legend
          verticalAlign="top"
          align="right"
          height={24}
          iconType="circle"
          iconSize={8}
          formatter={(value) => <span className="an-legend-text">{value}</span>}
        />
        <Area
          type="monotone"
          dataKey="created"
          name={labels.created}
          stroke="var(--color-primary)"
          fill="var(--color-primary)"
          fillOpacity={0.15}
          strokeWidth={2}
          isAnimationActive={false}
        />
        <Area
          type="monotone"
          dataKey="resolved"
          name={labels.resolved}
          stroke="var(--color-success)"
          fill="var(--color-success)"
          fillOpacity={0.15}
          strokeWidth={2}
          isAnimationActive={false}
        />
      </AreaChart>
    </ResponsiveContainer>
  );
}
