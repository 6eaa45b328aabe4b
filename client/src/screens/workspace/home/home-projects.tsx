import { NETWORK } from "@tideline/shared";
import { FolderKanban, Globe, Lock, Plus, Star, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../../components/ui";
import { projects } from "../../../stores/projects";
import { ProjectLogo } from "../components/logos";
import { Skeleton } from "../components/skeleton";
import { can } from "../permissions";
import { useCurrentWorkspace, useShell } from "../use-workspace";

/** The home's "Your projects": a card per project the caller is in, or how to get one. */
export function HomeProjects({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const { role } = useCurrentWorkspace();
  const snap = useSnapshot(projects);
  const shell = useShell();
  const list = snap.bySlug[slug];
  const mine = list?.filter((p) => p.is_member);
  const canCreate = can.createProject(role);

  return (
    <section className="home-projects" aria-labelledby="home-projects-title">
      <h2 className="section-title" id="home-projects-title">
        {t("workspace.home.yourProjects")}
      </h2>
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
            <Link key={p.id} className="home-card" to={`/${slug}/projects/${p.id}/issues/`}>
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
    </section>
  );
}
