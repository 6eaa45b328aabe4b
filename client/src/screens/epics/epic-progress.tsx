/**
 * An epic's progress: its children counted by state group (the shared progress bar), "N of M
 * done" and the percentage. Read from the detail's distribution, which the sub-items list keeps in
 * step with the cache, so a child completed anywhere moves it. Shown on the epic's page and peek.
 */
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ProgressByGroup } from "../../components/progress/progress-by-group";
import { useDetail } from "../work-item/use-detail";
import { countersFromDistribution, epicCompletion } from "./epic-logic";
import "./epics.css";

export function EpicProgress({ epicId }: { epicId: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const detail = useDetail(epicId);
  const counters = countersFromDistribution(detail?.distribution ?? {});
  const { done, total, percent } = epicCompletion(counters);
  return (
    <section className="ep-progress" aria-labelledby={titleId} data-testid="epic-progress">
      <div className="ep-progress-head">
        <h2 id={titleId} className="ep-progress-title">
          {t("epics.page.progress")}
        </h2>
        {counters.total_issues ? (
          <>
            <span className="ep-progress-summary" data-testid="epic-progress-summary">
              {t("epics.page.summary", { done, total })}
            </span>
            <span className="ep-progress-percent" data-testid="epic-progress-percent">
              {t("epics.page.percent", { percent })}
            </span>
          </>
        ) : null}
      </div>
      {counters.total_issues ? (
        <ProgressByGroup counters={counters} testIdPrefix="epic-progress" />
      ) : (
        <p className="ep-progress-empty">{t("epics.page.noChildren")}</p>
      )}
    </section>
  );
}
