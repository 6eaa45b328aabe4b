/**
 * What both pages screens show around their content: the crumbs to the project, and in place of
 * the content when the project can't show pages (unknown, not joined, pages turned off).
 */
import { ROLE } from "@tideline/shared";
import { FileText, FolderKanban, Settings } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EmptyState } from "../../components/ui";
import type { Project } from "../../stores/projects";
import { JoinProjectState } from "../workspace/components/join-project-state";
import { ProjectLogo } from "../workspace/components/logos";
import { Skeleton } from "../workspace/components/skeleton";
import type { PagesProjectContext } from "./use-pages";

/** Projects / <project> / — the start of both pages screens' headers. */
export function ProjectCrumbs({ slug, project }: { slug: string; project: Project | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <Link className="crumb pg-crumb-hide-narrow" to={`/${slug}/projects/`}>
        <FolderKanban size={14} aria-hidden />
        {t("projects.list.title")}
      </Link>
      <span className="crumb-sep pg-crumb-hide-narrow">/</span>
      {project ? (
        <Link className="crumb pg-crumb-project pg-crumb-hide-small" to={`/${slug}/projects/${project.id}/issues/`}>
          <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
          <span className="pg-crumb-name">{project.name}</span>
        </Link>
      ) : (
        <Skeleton width={120} />
      )}
      <span className="crumb-sep pg-crumb-hide-small">/</span>
    </>
  );
}

/**
 * The project can't show pages: unknown, not a member, or pages turned off. Null when it can.
 */
export function projectBlocked(ctx: PagesProjectContext, t: (key: string) => string): ReactNode {
  const { slug, project } = ctx;
  if (ctx.missing) {
    return (
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
    );
  }
  if (project && !project.is_member) {
    return <JoinProjectState slug={slug} projectId={project.id} workspaceRole={ctx.workspaceRole ?? ROLE.guest} />;
  }
  if (project && project.page_view === false) {
    const admin = ctx.projectRole >= ROLE.admin;
    return (
      <EmptyState
        icon={FileText}
        title={t("pages.disabled.title")}
        description={admin ? t("pages.disabled.adminDescription") : t("pages.disabled.description")}
        action={
          admin ? (
            <Link className="btn btn-secondary" to={`/${slug}/projects/${project.id}/settings/features/`}>
              <Settings size={14} aria-hidden />
              {t("pages.disabled.settings")}
            </Link>
          ) : null
        }
      />
    );
  }
  return null;
}
