/**
 * What a project-level screen (pages, cycles, modules, views, epics) shows in place of its
 * content when the project can't show it: the project is unknown, the caller hasn't joined it,
 * or the screen's feature is turned off in the project's features. One piece so every screen
 * says it the same way; each screen only names its feature.
 */
import { ROLE } from "@tideline/shared";
import { FolderKanban, type LucideIcon, Settings } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState } from "../../../components/ui";
import type { Project } from "../../../stores/projects";
import { JoinProjectState } from "./join-project-state";

/** What the screen knows about its project (the screens' project hooks all return at least this). */
export type ProjectScreenContext = {
  slug: string;
  project: Project | undefined;
  /** The project doesn't exist or the caller can't see it. */
  missing: boolean;
  workspaceRole: number | null;
  projectRole: number;
};

/** The screen's feature and how to say it is off. */
export type ProjectFeature = {
  on: boolean;
  icon: LucideIcon;
  title: string;
  /** For everyone who can't turn it on. */
  description: string;
  /** For project admins, with a link to the project's features (left out: admins read `description`, no link). */
  admin?: { description: string; settings: string };
};

/** The state to show instead of the screen's content, or null when the screen can show it. */
export function projectScreenBlocked(
  ctx: ProjectScreenContext,
  feature: ProjectFeature,
  t: (key: string) => string,
): ReactNode {
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
  if (project && !feature.on) {
    const admin = ctx.projectRole >= ROLE.admin ? feature.admin : undefined;
    return (
      <EmptyState
        icon={feature.icon}
        title={feature.title}
        description={admin ? admin.description : feature.description}
        action={
          admin ? (
            <Link className="btn btn-secondary" to={`/${slug}/projects/${project.id}/settings/features/`}>
              <Settings size={14} aria-hidden />
              {admin.settings}
            </Link>
          ) : undefined
        }
      />
    );
  }
  return null;
}
