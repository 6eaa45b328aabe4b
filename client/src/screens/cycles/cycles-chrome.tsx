/**
 * What every cycles screen shows around its content: the crumbs (Projects / project / Cycles),
 * and in place of the content when the project can't show cycles (unknown, not joined, cycles
 * turned off in its features).
 */
import { CircleDashed, FolderKanban } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Project } from "../../stores/projects";
import { ProjectLogo } from "../workspace/components/logos";
import { projectScreenBlocked } from "../workspace/components/project-screen-state";
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
  return projectScreenBlocked(
    ctx,
    {
      on: ctx.cyclesOn,
      icon: CircleDashed,
      title: t("cycles.disabled.title"),
      description: t("cycles.disabled.description"),
      admin: { description: t("cycles.disabled.adminDescription"), settings: t("cycles.disabled.settings") },
    },
    t,
  );
}
