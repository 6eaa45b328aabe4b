/**
 * The workspace home (product-domain §2 "Home dashboard with widgets. Quick links. Recent
 * visits."): a greeting and a few real numbers, then the caller's widgets — quick links, recents,
 * stickies, their work items — shown and ordered as they chose in "Manage widgets"
 * (stores/home.ts), then their projects. While the widgets load, placeholders hold their room.
 */
import { House, LayoutGrid, SlidersHorizontal } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../../components/ui";
import { favorites } from "../../../stores/favorites";
import { type HomeWidgetKey, home, isHomeWidgetKey, loadHomeWidgets } from "../../../stores/home";
import { fetchProjectStats, projects } from "../../../stores/projects";
import { session } from "../../../stores/session";
import { StickiesWidget } from "../../stickies/stickies-widget";
import { LoadFailedState } from "../components/list-parts";
import { PageHeader } from "../components/page-header";
import { Skeleton } from "../components/skeleton";
import { useCurrentWorkspace } from "../use-workspace";
import { HomeProjects } from "./home-projects";
import { ManageWidgetsModal } from "./manage-widgets-modal";
import { MyWorkWidget } from "./my-work-widget";
import { QuickLinksWidget } from "./quick-links-widget";
import { RecentsWidget } from "./recents-widget";
import "./home.css";

function greetingKey(hour: number): string {
  if (hour < 5) return "workspace.home.evening";
  if (hour < 12) return "workspace.home.morning";
  if (hour < 18) return "workspace.home.afternoon";
  return "workspace.home.evening";
}

export function HomeScreen() {
  const { t, i18n } = useTranslation();
  const { slug, workspace } = useCurrentWorkspace();
  const user = useSnapshot(session).user;
  const snap = useSnapshot(projects);
  const favs = useSnapshot(favorites).bySlug[slug];
  const widgets = useSnapshot(home).bySlug[slug]?.widgets;
  const [managing, setManaging] = useState(false);

  useEffect(() => {
    void fetchProjectStats(slug).catch(() => undefined);
    void loadHomeWidgets(slug).catch(() => undefined);
  }, [slug]);

  const mine = snap.bySlug[slug]?.filter((p) => p.is_member);
  const now = new Date();
  const firstName = user?.first_name || user?.display_name || "";
  const shown = (widgets?.items ?? []).filter((w) => w.is_enabled && isHomeWidgetKey(w.key));
  const ready = widgets?.status === "ready";

  return (
    <>
      <PageHeader
        actions={
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setManaging(true)}
            disabled={!ready}
            aria-label={t("home.manageWidgets")}
          >
            <SlidersHorizontal size={14} aria-hidden />
            <span className="home-manage-label">{t("home.manageWidgets")}</span>
          </Button>
        }
      >
        <House size={16} aria-hidden className="muted" />
        <span>{t("workspace.sidebar.home")}</span>
      </PageHeader>
      <div className="page-body">
        <div className="home-greeting">
          <h1>{t(greetingKey(now.getHours()), { name: firstName })}</h1>
          <p className="muted">
            {new Intl.DateTimeFormat(i18n.language, { weekday: "long", month: "long", day: "numeric" }).format(now)}
            {workspace ? ` · ${workspace.name}` : ""}
          </p>
        </div>

        <div className="home-stats">
          <Stat label={t("workspace.home.yourProjects")} value={mine?.length} />
          <Stat label={t("workspace.home.favorites")} value={favs?.filter((f) => !f.is_folder).length} />
          <Stat label={t("workspace.home.members")} value={workspace?.total_members} />
        </div>

        {!widgets || widgets.status === "loading" ? (
          <div className="home-widgets-loading" role="status" aria-label={t("home.loading")}>
            {[0, 1].map((i) => (
              <div key={i} className="home-widget">
                <Skeleton width={120} height={14} />
                <div className="home-widget-placeholder">
                  <Skeleton width="100%" height={120} radius={10} />
                </div>
              </div>
            ))}
          </div>
        ) : widgets.status === "error" ? (
          <div className="home-widget home-widget-empty">
            <LoadFailedState
              icon={LayoutGrid}
              title={t("home.manage.loadFailed")}
              retryLabel={t("home.manage.retry")}
              onRetry={() => void loadHomeWidgets(slug).catch(() => undefined)}
            />
          </div>
        ) : shown.length === 0 ? (
          <div className="home-widget home-widget-empty">
            <EmptyState
              icon={LayoutGrid}
              title={t("home.empty.title")}
              description={t("home.empty.description")}
              action={
                <Button variant="secondary" onClick={() => setManaging(true)}>
                  <SlidersHorizontal size={14} aria-hidden />
                  {t("home.empty.action")}
                </Button>
              }
            />
          </div>
        ) : (
          shown.map((w) => <Widget key={w.key} widgetKey={w.key as HomeWidgetKey} slug={slug} />)
        )}

        <HomeProjects slug={slug} />
      </div>
      <ManageWidgetsModal slug={slug} open={managing} onOpenChange={setManaging} />
    </>
  );
}

function Widget({ widgetKey, slug }: { widgetKey: HomeWidgetKey; slug: string }) {
  switch (widgetKey) {
    case "quick_links":
      return <QuickLinksWidget slug={slug} />;
    case "recents":
      return <RecentsWidget slug={slug} />;
    case "my_stickies":
      return <StickiesWidget slug={slug} />;
    case "my_work_items":
      return <MyWorkWidget slug={slug} />;
  }
}

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="home-stat">
      <div className="home-stat-value">{value === undefined ? <Skeleton width={32} height={22} /> : value}</div>
      <div className="home-stat-label">{label}</div>
    </div>
  );
}
