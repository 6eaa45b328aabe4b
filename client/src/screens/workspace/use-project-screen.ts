/**
 * What every project-level screen (pages, cycles, modules, views, epics) needs about where it is:
 * the project — from the sidebar's list, or fetched on a deep link —, whether it is missing, the
 * caller's workspace and project roles, and the project's members (loaded once the caller is a
 * member). Screens add their own permissions on top.
 */
import { useEffect } from "react";
import { useSnapshot } from "valtio";
import { loadProjectMeta, type ProjectMember, projectMeta } from "../../stores/project-meta";
import { fetchProject, type Project, projects } from "../../stores/projects";
import { useCurrentWorkspace } from "./use-workspace";

export type ProjectScreenContext = ReturnType<typeof useProjectScreen>;

export function useProjectScreen(projectId: string) {
  const { slug, role: workspaceRole } = useCurrentWorkspace();
  const projectsSnap = useSnapshot(projects);
  const metaSnap = useSnapshot(projectMeta);
  const project = (projectsSnap.bySlug[slug]?.find((p) => p.id === projectId) ?? projectsSnap.details[projectId]) as
    | Project
    | undefined;
  const missing = Boolean(projectsSnap.missing[projectId]);
  const isMember = project?.is_member ?? false;

  useEffect(() => {
    if (!projects.bySlug[slug]?.some((p) => p.id === projectId))
      void fetchProject(slug, projectId).catch(() => undefined);
  }, [slug, projectId]);

  useEffect(() => {
    if (isMember) void loadProjectMeta(slug, projectId).catch(() => undefined);
  }, [slug, projectId, isMember]);

  const members = (metaSnap.byProject[projectId]?.members ?? []) as ProjectMember[];
  const projectRole = project?.member_role ?? 0;
  return {
    slug,
    project,
    missing,
    isMember,
    workspaceRole,
    projectRole,
    members,
    /** The caller's role in any project of the workspace (e.g. pages shared across projects). */
    roleOf: (id: string) => (projectsSnap.bySlug[slug] ?? []).find((p) => p.id === id)?.member_role ?? null,
  };
}
