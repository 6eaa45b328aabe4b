/**
 * What the epics screens show when the project can't show epics (unknown, not joined, epics
 * turned off in its features), in place of their content. Null when it can.
 */
import { ROLE } from "@tideline/shared";
import { FolderKanban, Settings, Sparkles } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState } from "../../components/ui";
import type { PagesProjectContext } from "../pages/use-pages";
import { JoinProjectState } from "../workspace/components/join-project-state";

export function EpicsBlocked({ ctx, t }: { ctx: PagesProjectContext; t: (key: string) => string }): ReactNode {
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
  if (project && !project.is_epic_enabled) {
    const admin = ctx.projectRole >= ROLE.admin;
    return (
      <EmptyState
        icon={Sparkles}
        title={t("epics.disabled.title")}
        description={admin ? t("epics.disabled.adminDescription") : t("epics.disabled.description")}
        action={
          admin ? (
            <Link className="btn btn-secondary" to={`/${slug}/projects/${project.id}/settings/features/`}>
              <Settings size={14} aria-hidden />
              {t("epics.disabled.settings")}
            </Link>
          ) : null
        }
      />
    );
  }
  return null;
}
