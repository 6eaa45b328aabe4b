/**
 * The body of a project's analytics modal: its two tabs over the project-level calls (work by
 * assignee is the project's per-person stats there). The custom tab's choice is the modal's
 * own, so the board's address stays as it was.
 */
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { TabList } from "../../components/progress/tab-list";
import { Select } from "../../components/ui";
import type { AnalyticsTarget, Duration } from "../../stores/analytics";
import { CustomAnalytics } from "./custom-analytics";
import { ScopeAndDemand } from "./scope-and-demand";
import "../../components/ui/stat-tiles.css";
import "./analytics.css";

const DURATIONS: Duration[] = ["all", "last_7_days", "last_30_days", "last_3_months"];

export function ProjectAnalyticsBody({ slug, projectId }: { slug: string; projectId: string }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<"scope_and_demand" | "custom">("scope_and_demand");
  const [duration, setDuration] = useState<Duration>("all");
  const target: AnalyticsTarget = useMemo(() => ({ slug, projectId, duration }), [slug, projectId, duration]);
  return (
    <div className="an-modal-body">
      <div className="an-modal-bar">
        <TabList
          label={t("analytics.title")}
          className="an-tabs"
          tabClassName="an-tab"
          items={(["scope_and_demand", "custom"] as const).map((key) => ({ key, label: t(`analytics.tabs.${key}`) }))}
          value={tab}
          onChange={setTab}
        />
        <div className="an-modal-period">
          <Select
            compact
            label={t("analytics.period")}
            value={duration}
            options={DURATIONS.map((d) => ({ value: d, label: t(`analytics.durations.${d}`) }))}
            onValueChange={(v) => setDuration(v as Duration)}
            align="end"
          />
        </div>
      </div>
      <div role="tabpanel" aria-label={t(`analytics.tabs.${tab}`)}>
        {tab === "scope_and_demand" ? (
          <ScopeAndDemand target={target} />
        ) : (
          <CustomAnalytics target={target} inAddress={false} />
        )}
      </div>
    </div>
  );
}
