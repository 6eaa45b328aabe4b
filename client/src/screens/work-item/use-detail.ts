/** Hooks the work-item detail's parts share: the detail state, the project and its metadata. */
import { personName, ROLE } from "@tideline/shared";
import { createContext, useContext } from "react";
import { useSnapshot } from "valtio";
import { activeEstimate, type ProjectMeta, projectMeta } from "../../stores/project-meta";
import { type Project, projects } from "../../stores/projects";
import { session } from "../../stores/session";
import { type Detail, workItemDetail } from "../../stores/work-item-detail";

/** Where the detail is: workspace, project, item, and what the viewer may do there. */
export type DetailContextValue = {
  slug: string;
  projectId: string;
  workItemId: string;
  identifier: string;
  canEdit: boolean;
  isProjectAdmin: boolean;
  archived: boolean;
  mode: "page" | "peek";
};

export const DetailContext = createContext<DetailContextValue | null>(null);

export function useDetailContext(): DetailContextValue {
  const value = useContext(DetailContext);
  if (!value) throw new Error("useDetailContext outside a work-item detail");
  return value;
}

/** The detail state of an item (a snapshot: read-only, re-renders on change). */
export function useDetail(id: string): Detail | undefined {
  const snap = useSnapshot(workItemDetail);
  return snap.byId[id] as Detail | undefined;
}

/** The project from the workspace's list (role, identifier, name). */
export function useProject(slug: string, projectId: string): Project | undefined {
  const snap = useSnapshot(projects);
  return (snap.bySlug[slug]?.find((p) => p.id === projectId) ??
    snap.archivedBySlug[slug]?.find((p) => p.id === projectId)) as Project | undefined;
}

export function useProjectMeta(projectId: string): ProjectMeta | undefined {
  const snap = useSnapshot(projectMeta);
  return snap.byProject[projectId] as ProjectMeta | undefined;
}

export function useViewerId(): string | null {
  return useSnapshot(session).user?.id ?? null;
}

/** The signed-in person's name and picture (comment box). */
export function useViewer(): { name: string; avatarUrl: string | null } {
  const user = useSnapshot(session).user;
  if (!user) return { name: "?", avatarUrl: null };
  return { name: personName(user), avatarUrl: user.avatar_url };
}

/** Editing needs project member or above (guests read only). */
export function permissionsFor(project: Project | undefined): { canEdit: boolean; isProjectAdmin: boolean } {
  const role = project?.member_role ?? 0;
  return { canEdit: role >= ROLE.member, isProjectAdmin: role >= ROLE.admin };
}

/** Name resolvers over the project as it is now (activity sentences, pickers). */
export function metaNames(meta: ProjectMeta | undefined) {
  const estimate = activeEstimate(meta);
  return {
    state: (id: string) => meta?.states.find((s) => s.id === id)?.name,
    label: (id: string) => meta?.labels.find((l) => l.id === id)?.name,
    member: (id: string) => {
      const m = meta?.members.find((x) => x.member === id)?.member_details;
      return m ? personName(m) : undefined;
    },
    estimate: (id: string) => estimate?.points.find((p) => p.id === id)?.value,
  };
}

/** The browse address of an item (/acme/browse/WEB-12/). */
export function browsePath(slug: string, key: string): string {
  return `/${slug}/browse/${key}/`;
}
