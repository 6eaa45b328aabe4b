/**
 * What every cycles screen shows around its content: the crumbs (Projects / project / Cycles),
 * and in place of the content when the project can't show cycles (unknown, not joined, cycles
 * turned off in its features).
 */
import { ROLE } from "@tideline/shared";
import { CircleDashed, FolderKanban, Settings } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EmptyState } from "../../components/ui";
import type { Project } from "../../stores/projects";
import { JoinProjectState } from "../workspace/components/join-project-state";
import { ProjectLogo } from "../workspace/components/logos";
import { Skeleton } from "../workspace/components/skeleton";
import type { CyclesProjectContext } from "./use-cycles";

/** Projects / <project> / [Cycles /] — the start of the cycles screens' headers. */
export function CyclesCrumbs({
  slug,
  project,
  cyclesLink,
}: {
  slug: string;
  project: Project | undefined;
  /** Also link to the cycles page (screens under it). */
  cyclesLink?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Link className="crumb cy-crumb-hide-narrow" to={`/${slug}/projects/`}>
        <FolderKanban size={14} aria-hidden />
        {t("projects.list.title")}
      </Link>
      <span className="crumb-sep cy-crumb-hide-narrow">/</span>
      {project ? (
        <Link className="crumb cy-crumb-project cy-crumb-hide-small" to={`/${slug}/projects/${project.id}/issues/`}>
          <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
          <span className="cy-crumb-name">{project.name}</span>
        </Link>
      ) : (
        <Skeleton width={120} />
      )}
      <span className="crumb-sep cy-crumb-hide-small">/</span>
      {cyclesLink && project ? (
        <>
          <Link className="crumb" to={`/${slug}/projects/${project.id}/cycles/`}>
            <CircleDashed size={14} aria-hidden />
            {t("cycles.title")}
          </Link>
          <span className="crumb-sep">/</span>
        </>
      ) : null}
    </>
  );
}

/** The project can't show cycles: unknown, not a member, or cycles turned off. Null when it can. */
export function CyclesBlocked({ ctx, t }: { ctx: CyclesProjectContext; t: (key: string) => string }): ReactNode {
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
  if (project && !ctx.cyclesOn) {
    const admin = ctx.projectRole >= ROLE.admin;
    return (
      <EmptyState
        icon={CircleDashed}
        title={t("cycles.disabled.title")}
        description={admin ? t("cycles.disabled.adminDescription") : t("cycles.disabled.description")}
        action={
          admin ? (
            <Link className="btn btn-secondary" to={`/${slug}/projects/${project.id}/settings/features/`}>
              <Settings size={14} aria-hidden />
              {t("cycles.disabled.settings")}
            </Link>
          ) : null
        }
      />
    );
  }
  return null;
}
