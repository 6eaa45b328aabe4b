/**
 * What both pages screens show around their content: the crumbs to the project, and in place of
 * the content when the project can't show pages (unknown, not joined, pages turned off).
 */
import { FileText, FolderKanban } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Project } from "../../stores/projects";
import { ProjectLogo } from "../workspace/components/logos";
import { projectScreenBlocked } from "../workspace/components/project-screen-state";
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

/** The project can't show pages: unknown, not a member, or pages turned off. Null when it can. */
export function projectBlocked(ctx: PagesProjectContext, t: (key: string) => string): ReactNode {
  return projectScreenBlocked(
    ctx,
    {
      on: ctx.project?.page_view !== false,
      icon: FileText,
      title: t("pages.disabled.title"),
      description: t("pages.disabled.description"),
      admin: { description: t("pages.disabled.adminDescription"), settings: t("pages.disabled.settings") },
    },
    t,
  );
}
