/**
 * /:ws/analytics/:tab/ — workspace analytics (product-domain §2 "Analytics tabs:
 * scope_and_demand, custom"): the tabs, and the filters both share — which projects (all the
 * caller works in, or some) and the period (by creation time). Filters and tab live in the
 * address. Admins and members only (§6); a guest is sent home.
 */
import { ROLE } from "@tideline/shared";
import clsx from "clsx";
import { BarChart3, ChevronDown } from "lucide-react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useParams, useSearchParams } from "react-router";
import { useSnapshot } from "valtio";
import { TabList } from "../../components/progress/tab-list";
import { Combobox, Select } from "../../components/ui";
import type { AnalyticsTarget, Duration } from "../../stores/analytics";
import { type Project, projects } from "../../stores/projects";
import { ProjectLogo } from "../workspace/components/logos";
import { PageHeader } from "../workspace/components/page-header";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import { CustomAnalytics } from "./custom-analytics";
import { ScopeAndDemand } from "./scope-and-demand";
import "../../components/ui/stat-tiles.css";
import "./analytics.css";

export const ANALYTICS_TABS = ["scope_and_demand", "custom"] as const;
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number];
const DURATIONS: Duration[] = ["all", "last_7_days", "last_30_days", "last_3_months"];

export function AnalyticsScreen() {
  const { t } = useTranslation();
  const { slug, role, workspace } = useCurrentWorkspace();
  const { tab: tabParam } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const projectsSnap = useSnapshot(projects);

  useEffect(() => {
    document.title = `${t("analytics.title")} · ${workspace?.name ?? ""}`;
  }, [t, workspace?.name]);

  const mine = useMemo(
    () =>
      ((projectsSnap.bySlug[slug] ?? []) as Project[])
        .filter((p) => p.is_member && !p.archived_at)
        .sort((a, b) => a.name.localeCompare(b.name)),
    [projectsSnap.bySlug, slug],
  );
  const chosen = (params.get("projects") ?? "").split(",").filter((id) => mine.some((p) => p.id === id));
  const rawDuration = params.get("duration") as Duration | null;
  const duration: Duration = rawDuration && DURATIONS.includes(rawDuration) ? rawDuration : "all";
  const chosenKey = chosen.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `chosenKey` stands for `chosen`
  const target: AnalyticsTarget = useMemo(() => ({ slug, projectIds: chosen, duration }), [slug, chosenKey, duration]);

  if (role !== null && role < ROLE.member) return <Navigate to={`/${slug}/`} replace />;
  const tab: AnalyticsTab = (ANALYTICS_TABS as readonly string[]).includes(tabParam ?? "")
    ? (tabParam as AnalyticsTab)
    : "scope_and_demand";
  if (tabParam !== tab) return <Navigate to={`/${slug}/analytics/${tab}/${window.location.search}`} replace />;

  function setParam(key: string, value: string) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  }
  function toggleProject(id: string) {
    const next = chosen.includes(id) ? chosen.filter((p) => p !== id) : [...chosen, id];
    setParam("projects", next.join(","));
  }

  const projectsLabel =
    chosen.length === 0
      ? t("analytics.allProjects")
      : chosen.length === 1
        ? (mine.find((p) => p.id === chosen[0])?.name ?? "")
        : t("analytics.someProjects", { count: chosen.length });

  return (
    <>
      <PageHeader
        actions={
          <div className="an-filters">
            <Combobox
              label={t("analytics.projects")}
              multiple
              options={mine.map((p) => ({
                value: p.id,
                label: p.name,
                keywords: p.identifier,
                icon: <ProjectLogo name={p.name} logo={p.logo_props} size={16} />,
              }))}
              isSelected={(id) => chosen.includes(id)}
              onSelect={toggleProject}
              footer={
                chosen.length ? (
                  <button type="button" className="an-clear" onClick={() => setParam("projects", "")}>
                    {t("analytics.allProjects")}
                  </button>
                ) : null
              }
            >
              <button
                type="button"
                className={clsx("an-filter-btn", chosen.length > 0 && "is-on")}
                aria-label={`${t("analytics.projects")}: ${projectsLabel}`}
                data-testid="an-projects-filter"
              >
                <span className="an-filter-text">{projectsLabel}</span>
                <ChevronDown size={13} aria-hidden />
              </button>
            </Combobox>
            <Select
              compact
              label={t("analytics.period")}
              value={duration}
              options={DURATIONS.map((d) => ({ value: d, label: t(`analytics.durations.${d}`) }))}
              onValueChange={(v) => setParam("duration", v === "all" ? "" : v)}
              align="end"
            />
          </div>
        }
      >
        <BarChart3 size={16} aria-hidden className="muted" />
        <h1 className="page-header-h1">{t("analytics.title")}</h1>
      </PageHeader>
      <div className="an-screen">
        <TabList
          label={t("analytics.title")}
          className="an-tabs"
          tabClassName="an-tab"
          items={ANALYTICS_TABS.map((key) => ({ key, label: t(`analytics.tabs.${key}`) }))}
          value={tab}
          onChange={(key) => navigate(`/${slug}/analytics/${key}/${window.location.search}`)}
        />
        <div role="tabpanel" aria-label={t(`analytics.tabs.${tab}`)}>
          {tab === "scope_and_demand" ? <ScopeAndDemand target={target} /> : <CustomAnalytics target={target} />}
        </div>
      </div>
    </>
  );
}
