import { NETWORK } from "@tideline/shared";
import { FolderKanban, Globe, House, Lock, Plus, Star, Users } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../../components/ui";
import { favorites } from "../../../stores/favorites";
import { fetchProjectStats, projects } from "../../../stores/projects";
import { session } from "../../../stores/session";
import { StickiesWidget } from "../../stickies/stickies-widget";
import { ProjectLogo } from "../components/logos";
import { PageHeader } from "../components/page-header";
import { Skeleton } from "../components/skeleton";
import { can } from "../permissions";
import { useCurrentWorkspace, useShell } from "../use-workspace";

function greetingKey(hour: number): string {
  if (hour < 5) return "workspace.home.evening";
  if (hour < 12) return "workspace.home.morning";
  if (hour < 18) return "workspace.home.afternoon";
  return "workspace.home.evening";
}

/** The workspace home: a greeting, a few real numbers and your projects. */
export function HomeScreen() {
  const { t, i18n } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();
  const user = useSnapshot(session).user;
  const snap = useSnapshot(projects);
  const favs = useSnapshot(favorites).bySlug[slug];
  const shell = useShell();

  useEffect(() => {
    void fetchProjectStats(slug).catch(() => undefined);
  }, [slug]);

  const list = snap.bySlug[slug];
  const mine = list?.filter((p) => p.is_member);
  const now = new Date();
  const firstName = user?.first_name || user?.display_name || "";
  const canCreate = can.createProject(role);

  return (
    <>
      <PageHeader>
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

        <StickiesWidget slug={slug} />

        <h2 className="section-title">{t("workspace.home.yourProjects")}</h2>
        {mine === undefined ? (
          <div className="home-grid">
            {[0, 1, 2].map((i) => (
              <div key={i} className="home-card">
                <Skeleton width="60%" />
                <Skeleton width="30%" height={10} />
              </div>
            ))}
          </div>
        ) : mine.length === 0 ? (
          <div className="home-card" style={{ minHeight: 0 }}>
            <EmptyState
              icon={FolderKanban}
              title={t("workspace.home.noProjects")}
              description={
                canCreate
                  ? t("workspace.home.noProjectsHint")
                  : list && list.length > 0
                    ? t("workspace.home.noProjectsJoin")
                    : t("workspace.home.noProjectsGuest")
              }
              action={
                canCreate ? (
                  <Button onClick={shell.openCreateProject}>
                    <Plus size={14} aria-hidden />
                    {t("projects.create.button")}
                  </Button>
                ) : list && list.length > 0 ? (
                  <Link className="btn btn-secondary" to={`/${slug}/projects/`}>
                    {t("workspace.home.browseProjects")}
                  </Link>
                ) : null
              }
            />
          </div>
        ) : (
          <div className="home-grid">
            {mine.map((p) => (
              <Link key={p.id} className="home-card" to={`/${slug}/projects/${p.id}/settings/`}>
                <div className="home-card-top">
                  <ProjectLogo name={p.name} logo={p.logo_props} size={28} />
                  <div className="stack" style={{ "--gap": "0px", minWidth: 0 } as React.CSSProperties}>
                    <span className="home-card-name">{p.name}</span>
                    <span className="project-identifier" style={{ alignSelf: "flex-start" }}>
                      {p.identifier}
                    </span>
                  </div>
                </div>
                <div className="home-card-meta">
                  <span className="meta-item">
                    <Users size={12} aria-hidden /> {snap.memberCounts[p.id] ?? "–"}
                  </span>
                  <span className="meta-item">
                    {p.network === NETWORK.public ? <Globe size={12} aria-hidden /> : <Lock size={12} aria-hidden />}
                    {p.network === NETWORK.public ? t("projects.network.public") : t("projects.network.private")}
                  </span>
                  {p.is_favorite ? <Star size={12} aria-label={t("workspace.home.favorite")} /> : null}
                </div>
              </Link>
            ))}
            {canCreate ? (
              <button type="button" className="home-card-new" onClick={shell.openCreateProject}>
                <Plus size={16} aria-hidden />
                {t("projects.create.button")}
              </button>
            ) : null}
          </div>
        )}
      </div>
    </>
  );
}

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="home-stat">
      <div className="home-stat-value">{value === undefined ? <Skeleton width={32} height={22} /> : value}</div>
      <div className="home-stat-label">{label}</div>
    </div>
  );
}
