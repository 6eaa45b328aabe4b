/**
 * The recharts parts of the profile summary, in their own module so recharts loads on demand
 * (profile-charts.tsx wraps them in Suspense behind same-height placeholders). Colours are
 * design tokens through `var(--…)`, so both themes follow without reading computed styles.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

export type Slice = { key: string; label: string; count: number; color: string };
export type DayBar = { date: string; label: string; count: number };

type TipEntry = { payload?: { label: string; count: number } };

function Tip({ active, payload, unit }: { active?: boolean; payload?: readonly TipEntry[]; unit: string }) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  return (
    <div className="burndown-tooltip">
      <div className="burndown-tooltip-date">{row.label}</div>
      <div className="burndown-tooltip-row">
        {unit}
        <strong>{row.count}</strong>
      </div>
    </div>
  );
}

const tick = { fill: "var(--color-text-subtle)", fontSize: 11 };

/** A donut of shares (state groups); empty slices are left out of the ring but not the legend. */
export function DonutChart({ rows, height, unit }: { rows: Slice[]; height: number; unit: string }) {
  const shown = rows.filter((r) => r.count > 0);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <PieChart>
        <Pie
          data={shown}
          dataKey="count"
          nameKey="label"
          innerRadius="62%"
          outerRadius="92%"
          paddingAngle={shown.length > 1 ? 2 : 0}
          stroke="var(--color-surface)"
          isAnimationActive={false}
        >
          {shown.map((r) => (
            <Cell key={r.key} fill={r.color} />
          ))}
        </Pie>
        <Tooltip content={(p) => <Tip active={p.active} payload={p.payload as readonly TipEntry[]} unit={unit} />} />
      </PieChart>
    </ResponsiveContainer>
  );
}

/** One bar per value (priorities), each in its own colour. */
export function ColumnChart({ rows, height, unit }: { rows: Slice[]; height: number; unit: string }) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
        <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tick={tick} tickLine={false} axisLine={{ stroke: "var(--color-border)" }} interval={0} />
        <YAxis tick={tick} tickLine={false} axisLine={false} allowDecimals={false} width={44} />
        <Tooltip
          cursor={{ fill: "var(--color-bg-hover)" }}
          content={(p) => <Tip active={p.active} payload={p.payload as readonly TipEntry[]} unit={unit} />}
        />
        <Bar dataKey="count" radius={[4, 4, 0, 0]} maxBarSize={36} isAnimationActive={false}>
          {rows.map((r) => (
            <Cell key={r.key} fill={r.color} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Completed work per day (the last 90 days). */
export function DaysChart({ rows, height, unit }: { rows: DayBar[]; height: number; unit: string }) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -20 }}>
        <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="label"
          tick={tick}
          tickLine={false}
          axisLine={{ stroke: "var(--color-border)" }}
          minTickGap={24}
          interval="preserveStartEnd"
        />
        <YAxis tick={tick} tickLine={false} axisLine={false} allowDecimals={false} width={44} />
        <Tooltip
          cursor={{ fill: "var(--color-bg-hover)" }}
          content={(p) => <Tip active={p.active} payload={p.payload as readonly TipEntry[]} unit={unit} />}
        />
        <Bar dataKey="count" fill="var(--color-success)" radius={[2, 2, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
