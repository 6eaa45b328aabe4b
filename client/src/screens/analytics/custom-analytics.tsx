/**
 * The "Custom" tab: any axis (x), an optional segment splitting each bar, and the measure (work
 * items, or estimate points) — a chart and the same numbers as a table. The choice lives in the
 * address (?x=&segment=&metric=) so a chart can be shared and survives a reload (in a modal: its own state).
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Select } from "../../components/ui";
import {
  type AnalyticsTarget,
  CHART_AXES,
  type ChartAnswer,
  type ChartAxis,
  type ChartMetric,
} from "../../stores/analytics";
import { chartModel, chartTotal } from "./analytics-logic";
import { AnalyticsBars } from "./charts";
import { useAnalytics } from "./use-analytics";

const isAxis = (v: string | null): v is ChartAxis => Boolean(v && (CHART_AXES as readonly string[]).includes(v));

/**
 * `inAddress`: the choice is kept in the address (the workspace screen); in a modal over
 * another screen it is the modal's own state, leaving that screen's address alone.
 */
export function CustomAnalytics({ target, inAddress = true }: { target: AnalyticsTarget; inAddress?: boolean }) {
  const { t } = useTranslation();
  const [addressParams, setAddressParams] = useSearchParams();
  const [ownParams, setOwnParams] = useState(() => new URLSearchParams());
  const params = inAddress ? addressParams : ownParams;
  const x: ChartAxis = isAxis(params.get("x")) ? (params.get("x") as ChartAxis) : "PRIORITY";
  const rawSegment = params.get("segment");
  const segment: ChartAxis | null = isAxis(rawSegment) && rawSegment !== x ? rawSegment : null;
  const metric: ChartMetric =
    params.get("metric") === "ESTIMATE_POINT_COUNT" ? "ESTIMATE_POINT_COUNT" : "WORK_ITEM_COUNT";

  function choose(key: "x" | "segment" | "metric", value: string) {
    const change = (current: URLSearchParams) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key === "x" && next.get("segment") === value) next.delete("segment");
      return next;
    };
    if (inAddress) setAddressParams(change, { replace: true });
    else setOwnParams(change);
  }

  const axisOptions = CHART_AXES.map((a) => ({ value: a, label: t(`analytics.axis.${a}`) }));
  const answer = useAnalytics<ChartAnswer>(target, "advance-analytics-charts", {
    type: "custom-work-items",
    x_axis: x,
    group_by: segment ?? undefined,
    y_axis: metric,
  });
  const model = answer.data ? chartModel(answer.data, x, segment, t) : null;
  const unit = metric === "ESTIMATE_POINT_COUNT" ? t("analytics.points") : t("analytics.workItems");
  const title = t("analytics.customTitle", {
    metric: unit,
    axis: t(`analytics.axis.${x}`),
  });

  return (
    <div className="an-body">
      <fieldset className="an-controls">
        <legend className="visually-hidden">{t("analytics.chartOptions")}</legend>
        <div className="an-control">
          <span aria-hidden>{t("analytics.xAxis")}</span>
          <Select
            compact
            label={t("analytics.xAxis")}
            value={x}
            options={axisOptions}
            onValueChange={(v) => choose("x", v)}
          />
        </div>
        <div className="an-control">
          <span aria-hidden>{t("analytics.segment")}</span>
          <Select
            compact
            label={t("analytics.segment")}
            value={segment ?? ""}
            options={[{ value: "", label: t("analytics.noSegment") }, ...axisOptions.filter((o) => o.value !== x)]}
            onValueChange={(v) => choose("segment", v)}
          />
        </div>
        <div className="an-control">
          <span aria-hidden>{t("analytics.metric")}</span>
          <Select
            compact
            label={t("analytics.metric")}
            value={metric}
            options={[
              { value: "WORK_ITEM_COUNT", label: t("analytics.metrics.issue_count") },
              { value: "ESTIMATE_POINT_COUNT", label: t("analytics.metrics.estimate") },
            ]}
            onValueChange={(v) => choose("metric", v === "WORK_ITEM_COUNT" ? "" : v)}
          />
        </div>
      </fieldset>

      <section className="stat-card" aria-labelledby="an-custom-title" data-testid="an-custom">
        <h3 id="an-custom-title" className="stat-card-title">
          {title}
        </h3>
        {answer.status === "error" && !model ? <p className="an-error">{t("analytics.error")}</p> : null}
        {!model ? (
          <div className="burndown-placeholder" style={{ height: 320 }} aria-hidden />
        ) : model.rows.length === 0 || chartTotal(model.rows) === 0 ? (
          <p className="stat-card-empty an-card-empty-tall">{t("analytics.nothingHere")}</p>
        ) : (
          <AnalyticsBars rows={model.rows} series={model.series} unit={unit} label={title} height={320} />
        )}
      </section>

      {model && model.rows.length > 0 ? (
        <section className="stat-card" aria-labelledby="an-custom-table-title">
          <h3 id="an-custom-table-title" className="stat-card-title">
            {t("analytics.table")}
          </h3>
          <div className="an-table-wrap">
            <table className="an-table" data-testid="an-custom-table">
              <thead>
                <tr>
                  <th scope="col">{t(`analytics.axis.${x}`)}</th>
                  {model.series.map((s) => (
                    <th key={s.key} scope="col" className="an-num">
                      <span className="an-swatch" style={{ background: s.color }} aria-hidden />
                      {s.label}
                    </th>
                  ))}
                  <th scope="col" className="an-num">
                    {unit}
                  </th>
                </tr>
              </thead>
              <tbody>
                {model.rows.map((r) => (
                  <tr key={r.key}>
                    <th scope="row">{r.label}</th>
                    {model.series.map((s) => (
                      <td key={s.key} className="an-num">
                        {Number(r[s.key] ?? 0)}
                      </td>
                    ))}
                    <td className="an-num">
                      <strong>{r.count}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}
