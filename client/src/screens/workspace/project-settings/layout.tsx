import { ROLE } from "@tideline/shared";
import { CircleDot, FolderKanban, Ruler, Settings2, Tag, ToggleRight, Users } from "lucide-react";
import { createContext, useContext, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet, useParams } from "react-router";
import { useSnapshot } from "valtio";
import { EmptyState, ScreenLoader } from "../../../components/ui";
import { fetchProject, type ProjectDetail, projects } from "../../../stores/projects";
import { JoinProjectState } from "../components/join-project-state";
import { ProjectLogo } from "../components/logos";
import { PageHeader } from "../components/page-header";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";

type ProjectSettingsContext = { project: ProjectDetail; projectRole: number | null };
const Ctx = createContext<ProjectSettingsContext | null>(null);

/** The project whose settings are open, and the caller's role in it. */
export function useProjectSettings(): ProjectSettingsContext {
  const value = useContext(Ctx);
  if (!value) throw new Error("useProjectSettings outside ProjectSettingsLayout");
  return value;
}

/** /:ws/projects/:projectId/settings/…: the project's settings with their own left nav. */
export function ProjectSettingsLayout() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const { slug, role } = useCurrentWorkspace();
  const snap = useSnapshot(projects);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setFailed(false);
    fetchProject(slug, projectId).catch(() => setFailed(true));
  }, [slug, projectId]);

  const project = snap.details[projectId] as ProjectDetail | undefined;

  useEffect(() => {
    if (project) document.title = `${project.name} · ${t("projects.settings.title")}`;
  }, [project, t]);

  const header = (
    <PageHeader>
      <Link className="crumb" to={`/${slug}/projects/`}>
        <FolderKanban size={14} aria-hidden />
        {t("projects.list.title")}
      </Link>
      <span className="crumb-sep">/</span>
      {project ? (
        <span className="crumb">
          <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
          {project.name}
        </span>
      ) : null}
      <span className="crumb-sep">/</span>
      <span>{t("projects.settings.title")}</span>
    </PageHeader>
  );

  if (snap.missing[projectId]) {
    return (
      <>
        {header}
        <EmptyState
          icon={FolderKanban}
          title={t("projects.settings.notFound")}
          description={t("projects.settings.notFoundHint")}
          action={
            <Link className="btn btn-secondary" to={`/${slug}/projects/`}>
              {t("projects.settings.backToProjects")}
            </Link>
          }
        />
      </>
    );
  }
  if (failed) {
    return (
      <>
        {header}
        <EmptyState icon={FolderKanban} title={t("workspace.loadFailed")} />
      </>
    );
  }
  if (!project) {
    return (
      <>
        {header}
        <ScreenLoader />
      </>
    );
  }
  if (!project.is_member) {
    return (
      <>
        {header}
        <JoinProjectState slug={slug} projectId={project.id} workspaceRole={role ?? ROLE.guest} />
      </>
    );
  }

  const base = `/${slug}/projects/${project.id}/settings/`;
  return (
    <Ctx.Provider value={{ project, projectRole: project.member_role }}>
      {header}
      <div className="settings-shell">
        <nav className="settings-nav" aria-label={t("projects.settings.nav")}>
          <div className="settings-nav-title">
            <ProjectLogo name={project.name} logo={project.logo_props} size={16} />
            <span>{project.name}</span>
          </div>
          <NavLink to={base} end>
            <Settings2 size={15} aria-hidden />
            {t("projects.settings.general")}
          </NavLink>
          <NavLink to={`${base}members/`}>
            <Users size={15} aria-hidden />
            {t("projects.settings.members")}
          </NavLink>
          {can.seeProjectFeatures(project.member_role) ? (
            <NavLink to={`${base}features/`}>
              <ToggleRight size={15} aria-hidden />
              {t("projects.settings.features")}
            </NavLink>
          ) : null}
          {(project.member_role ?? 0) >= ROLE.member ? (
            <>
              <NavLink to={`${base}states/`}>
                <CircleDot size={15} aria-hidden />
                {t("stateSettings.nav")}
              </NavLink>
              <NavLink to={`${base}labels/`}>
                <Tag size={15} aria-hidden />
                {t("labelSettings.nav")}
              </NavLink>
            </>
          ) : null}
          {can.seeProjectFeatures(project.member_role) ? (
            <NavLink to={`${base}estimates/`}>
              <Ruler size={15} aria-hidden />
              {t("estimateSettings.nav")}
            </NavLink>
          ) : null}
        </nav>
        <div className="settings-body">
          <Outlet />
        </div>
      </div>
    </Ctx.Provider>
  );
}
