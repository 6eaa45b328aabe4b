/**
 * Projects of each workspace (the lite list the sidebar and project list draw from), archived
 * ones, full details for the settings pages, and member counts. Changes are optimistic: the
 * list and the detail are patched together and restored together.
 */
import { toast } from "sonner";
import { api } from "../lib/api";
import { onKeptAnswerChanged } from "../lib/offline/last-answers";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import type { LogoProps } from "./workspaces";

export type Project = {
  id: string;
  workspace: string;
  name: string;
  identifier: string;
  logo_props: LogoProps;
  cover_image: string | null;
  network: number;
  archived_at: string | null;
  is_member: boolean;
  member_role: number | null;
  sort_order: number | null;
  is_favorite: boolean;
  created_at: string;
  updated_at: string;
  project_lead: string | null;
  cycle_view: boolean;
  module_view: boolean;
  issue_views_view: boolean;
  page_view: boolean;
  inbox_view: boolean;
  is_time_tracking_enabled: boolean;
  is_epic_enabled: boolean;
};

export type ProjectDetail = Project & {
  description: string;
  default_assignee: string | null;
  timezone: string;
  guest_view_all_features: boolean;
  total_members: number;
  members: string[];
};

export type ProjectInput = {
  name: string;
  identifier: string;
  description?: string;
  network: number;
  project_lead?: string | null;
  cover_image?: string | null;
  logo_props?: LogoProps;
};

export type ProjectFeatureKey =
  | "cycle_view"
  | "module_view"
  | "issue_views_view"
  | "page_view"
  | "inbox_view"
  | "is_epic_enabled"
  | "guest_view_all_features";

export type ProjectPatch = Partial<
  Pick<
    ProjectDetail,
    | "name"
    | "identifier"
    | "description"
    | "network"
    | "project_lead"
    | "cover_image"
    | "logo_props"
    | ProjectFeatureKey
  >
>;

export const projects = defineStore(() => ({
  /** Active projects per workspace slug, in the caller's order. */
  bySlug: {} as Record<string, Project[]>,
  archivedBySlug: {} as Record<string, Project[]>,
  /** Full projects by id (settings pages). */
  details: {} as Record<string, ProjectDetail>,
  /** Ids the server answered 404 for. */
  missing: {} as Record<string, boolean>,
  /** Active member counts by project id. */
  memberCounts: {} as Record<string, number>,
}));

const base = (slug: string) => `/api/workspaces/${slug}`;

export async function fetchProjects(slug: string): Promise<Project[]> {
  const list = await api.get(`${base(slug)}/projects/`).json<Project[]>();
  projects.bySlug[slug] = list;
  return list;
}

export async function fetchArchivedProjects(slug: string): Promise<Project[]> {
  const list = await api.get(`${base(slug)}/projects/`, { searchParams: { archived: "true" } }).json<Project[]>();
  projects.archivedBySlug[slug] = list;
  return list;
}

export async function fetchProjectStats(slug: string): Promise<void> {
  const rows = await api
    .get(`${base(slug)}/project-stats/`, { searchParams: { fields: "total_members" } })
    .json<{ id: string; total_members?: number }[]>();
  for (const row of rows) projects.memberCounts[row.id] = row.total_members ?? 0;
}

export async function fetchProject(slug: string, id: string): Promise<ProjectDetail | null> {
  const response = await api.get(`${base(slug)}/projects/${id}/`, { throwHttpErrors: false });
  if (response.status === 404 || response.status === 400) {
    projects.missing[id] = true;
    return null;
  }
  if (!response.ok) throw new Error(`project ${id}: ${response.status}`);
  const detail = await response.json<ProjectDetail>();
  projects.details[id] = detail;
  projects.memberCounts[id] = detail.total_members;
  delete projects.missing[id];
  return detail;
}

// Started from kept answers and the server's differ: read the list or the project again (a
// project gone or left is then marked missing, and its screens say so).
onKeptAnswerChanged(/^\/api\/workspaces\/[^/]+\/projects\/$/, (pathname) => {
  void fetchProjects(pathname.split("/")[3] ?? "").catch(() => undefined);
});
onKeptAnswerChanged(/^\/api\/workspaces\/[^/]+\/projects\/[^/]+\/$/, (pathname) => {
  const [, , , slug = "", , id = ""] = pathname.split("/");
  void fetchProject(slug, id).catch(() => undefined);
});

/** Is this identifier free in the workspace? (The server sanitises the name it is given.) */
export async function isIdentifierAvailable(slug: string, identifier: string): Promise<boolean> {
  const { exists } = await api
    .get(`${base(slug)}/project-identifiers/`, { searchParams: { name: identifier } })
    .json<{ exists: number }>();
  return exists === 0;
}

/** Create a project. Throws the server's error so the modal can show it on its fields. */
export async function createProject(slug: string, input: ProjectInput): Promise<ProjectDetail> {
  const created = await api.post(`${base(slug)}/projects/`, { json: input }).json<ProjectDetail>();
  projects.details[created.id] = created;
  projects.memberCounts[created.id] = created.total_members;
  projects.bySlug[slug] = [created, ...(projects.bySlug[slug] ?? [])];
  return created;
}

/** Patch a project wherever it is shown; returns the undo. */
function patchLocal(slug: string, id: string, patch: Partial<ProjectDetail>): () => void {
  const detail = projects.details[id];
  const list = projects.bySlug[slug];
  const archived = projects.archivedBySlug[slug];
  if (detail) projects.details[id] = { ...detail, ...patch };
  if (list) projects.bySlug[slug] = list.map((p) => (p.id === id ? { ...p, ...patch } : p));
  if (archived) projects.archivedBySlug[slug] = archived.map((p) => (p.id === id ? { ...p, ...patch } : p));
  return () => {
    if (detail) projects.details[id] = detail;
    if (list) projects.bySlug[slug] = list;
    if (archived) projects.archivedBySlug[slug] = archived;
  };
}

export async function updateProject(slug: string, id: string, patch: ProjectPatch): Promise<boolean> {
  const result = await optimistic({
    apply: () => patchLocal(slug, id, patch),
    call: () => api.patch(`${base(slug)}/projects/${id}/`, { json: patch }).json<ProjectDetail>(),
    error: "Couldn't update the project",
  });
  if (result) patchLocal(slug, id, result);
  return Boolean(result);
}

/**
 * Like updateProject, but for a settings form: the error is thrown (after the undo) so the
 * form can put it on the right field instead of a toast.
 */
export async function saveProjectSettings(slug: string, id: string, patch: ProjectPatch): Promise<void> {
  const undo = patchLocal(slug, id, patch);
  try {
    const result = await api.patch(`${base(slug)}/projects/${id}/`, { json: patch }).json<ProjectDetail>();
    patchLocal(slug, id, result);
  } catch (error) {
    undo();
    throw error;
  }
}

/** Move a project between the active and archived lists; returns the undo. */
function moveLocal(slug: string, id: string, toArchived: boolean): () => void {
  const list = projects.bySlug[slug] ?? [];
  const archived = projects.archivedBySlug[slug] ?? [];
  const detail = projects.details[id];
  const from = toArchived ? list : archived;
  const project = from.find((p) => p.id === id) ?? detail;
  const archivedAt = toArchived ? new Date().toISOString() : null;
  if (project) {
    const moved = { ...project, archived_at: archivedAt, ...(toArchived ? { is_favorite: false } : {}) };
    if (toArchived) {
      projects.bySlug[slug] = list.filter((p) => p.id !== id);
      projects.archivedBySlug[slug] = [moved, ...archived.filter((p) => p.id !== id)];
    } else {
      projects.archivedBySlug[slug] = archived.filter((p) => p.id !== id);
      projects.bySlug[slug] = [moved, ...list.filter((p) => p.id !== id)];
    }
  }
  if (detail) projects.details[id] = { ...detail, archived_at: archivedAt };
  return () => {
    projects.bySlug[slug] = list;
    projects.archivedBySlug[slug] = archived;
    if (detail) projects.details[id] = detail;
  };
}

export async function archiveProject(slug: string, id: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => moveLocal(slug, id, true),
    call: () => api.post(`${base(slug)}/projects/${id}/archive/`).then(() => true),
    error: "Couldn't archive the project",
  });
  if (ok) toast.success("Project archived", { description: "Find it under Projects → Archived." });
  return Boolean(ok);
}

export async function restoreProject(slug: string, id: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => moveLocal(slug, id, false),
    call: () => api.delete(`${base(slug)}/projects/${id}/archive/`).then(() => true),
    error: "Couldn't restore the project",
  });
  if (ok) toast.success("Project restored");
  return Boolean(ok);
}

export async function deleteProject(slug: string, id: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      const list = projects.bySlug[slug];
      const archived = projects.archivedBySlug[slug];
      if (list) projects.bySlug[slug] = list.filter((p) => p.id !== id);
      if (archived) projects.archivedBySlug[slug] = archived.filter((p) => p.id !== id);
      return () => {
        if (list) projects.bySlug[slug] = list;
        if (archived) projects.archivedBySlug[slug] = archived;
      };
    },
    call: () => api.delete(`${base(slug)}/projects/${id}/`).then(() => true),
    error: "Couldn't delete the project",
  });
  if (ok) {
    delete projects.details[id];
    toast.success("Project deleted");
  }
  return Boolean(ok);
}

/** Join a public project: it shows as joined at once; the role comes back from the server. */
export async function joinProject(slug: string, id: string, workspaceRole: number): Promise<boolean> {
  const role = workspaceRole >= 20 ? 20 : workspaceRole >= 15 ? 15 : 5;
  const result = await optimistic({
    apply: () => {
      const undo = patchLocal(slug, id, { is_member: true, member_role: role });
      const count = projects.memberCounts[id];
      if (count !== undefined) projects.memberCounts[id] = count + 1;
      return () => {
        undo();
        if (count !== undefined) projects.memberCounts[id] = count;
      };
    },
    call: () => api.post(`${base(slug)}/projects/join/`, { json: { project_ids: [id] } }).json<{ role: number }[]>(),
    error: "Couldn't join the project",
  });
  const joined = result?.[0];
  if (joined) patchLocal(slug, id, { member_role: joined.role });
  return Boolean(result);
}

/** After leaving a project (members store), reflect it in the lists. */
export function markLeft(slug: string, id: string): () => void {
  const list = projects.bySlug[slug];
  const undo = patchLocal(slug, id, { is_member: false, member_role: null, is_favorite: false });
  // A private project is invisible to non-members: it leaves the list altogether.
  const isPrivate = list?.find((p) => p.id === id)?.network === 0;
  if (isPrivate && list) projects.bySlug[slug] = list.filter((p) => p.id !== id);
  const count = projects.memberCounts[id];
  if (count !== undefined) projects.memberCounts[id] = Math.max(0, count - 1);
  return () => {
    undo();
    if (list) projects.bySlug[slug] = list;
    if (count !== undefined) projects.memberCounts[id] = count;
  };
}

/** Mark a project (un)favorite in the lists; the favorites store owns the favorite rows. */
export function markFavorite(slug: string, id: string, isFavorite: boolean): () => void {
  return patchLocal(slug, id, { is_favorite: isFavorite });
}
