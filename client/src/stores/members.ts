/**
 * People: the members of each workspace and of each project, with their roles. Role changes
 * and removals are optimistic; adding needs the server's new rows, so it waits for them.
 */
import { personFullName, personName } from "@tideline/shared";
import { toast } from "sonner";
import { api } from "../lib/api";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { markLeft, projects } from "./projects";
import { workspaces } from "./workspaces";

export type MemberUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string;
  avatar_url: string | null;
  is_bot: boolean;
  joining_date: string;
};

export type WorkspaceMember = {
  id: string;
  workspace: string;
  member: MemberUser;
  role: number;
  is_active: boolean;
  created_at: string;
};

/**
 * A project membership as the server (and the reference) sends it: `member` is the person's
 * user id, `member_details` the person. Workspace members, unlike these, nest the person.
 */
export type ProjectMember = {
  id: string;
  project: string;
  member: string;
  member_details: MemberUser;
  role: number;
  original_role: number;
  created_at: string;
};

export const members = defineStore(() => ({
  /** Active members per workspace slug (current user first, as the server orders them). */
  bySlug: {} as Record<string, WorkspaceMember[]>,
  /** Active members per project id. */
  byProject: {} as Record<string, ProjectMember[]>,
}));

const base = (slug: string) => `/api/workspaces/${slug}`;

/**
 * A member where they are introduced (the members lists, their profile card): "Ada Lovelace",
 * else the display name, else the e-mail (personFullName). Everywhere else people appear by
 * personName (their display name).
 */
export function memberName(user: Pick<MemberUser, "first_name" | "last_name" | "display_name"> & { email?: string }) {
  return personFullName(user);
}

/**
 * The people an "@" in an editor offers, by the name a mention shows (display name first,
 * as a handle), sorted by it.
 */
export function mentionablesOf(
  people: readonly Pick<MemberUser, "id" | "email" | "first_name" | "last_name" | "display_name" | "avatar_url">[],
): { id: string; display_name: string; avatar_url: string | null }[] {
  return people
    .map((member) => ({
      id: member.id,
      display_name: personName(member),
      avatar_url: member.avatar_url,
    }))
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
}

export async function fetchWorkspaceMembers(slug: string): Promise<WorkspaceMember[]> {
  const list = await api.get(`${base(slug)}/members/`).json<WorkspaceMember[]>();
  members.bySlug[slug] = list;
  return list;
}

function patchWorkspaceMember(slug: string, change: (m: WorkspaceMember[]) => WorkspaceMember[]) {
  const before = members.bySlug[slug];
  if (before) members.bySlug[slug] = change(before);
  return () => {
    if (before) members.bySlug[slug] = before;
  };
}

export async function updateWorkspaceMemberRole(slug: string, id: string, role: number): Promise<boolean> {
  const result = await optimistic({
    apply: () => patchWorkspaceMember(slug, (list) => list.map((m) => (m.id === id ? { ...m, role } : m))),
    call: () => api.patch(`${base(slug)}/members/${id}/`, { json: { role } }).json<WorkspaceMember>(),
    error: "Couldn't change the role",
  });
  if (result) toast.success("Role updated");
  return Boolean(result);
}

export async function removeWorkspaceMember(slug: string, id: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      const undo = patchWorkspaceMember(slug, (list) => list.filter((m) => m.id !== id));
      const ws = workspaces.bySlug[slug];
      const total = ws?.total_members;
      if (ws && total !== undefined) ws.total_members = total - 1;
      return () => {
        undo();
        if (ws && total !== undefined) ws.total_members = total;
      };
    },
    call: () => api.delete(`${base(slug)}/members/${id}/`).then(() => true),
    error: "Couldn't remove the member",
  });
  if (ok) toast.success("Member removed");
  return Boolean(ok);
}

// ───────── project members ─────────

export async function fetchProjectMembers(slug: string, projectId: string): Promise<ProjectMember[]> {
  const list = await api.get(`${base(slug)}/projects/${projectId}/members/`).json<ProjectMember[]>();
  members.byProject[projectId] = list;
  projects.memberCounts[projectId] = list.length;
  return list;
}

/** Add people to a project. Throws so the modal can keep its selection and show the error. */
export async function addProjectMembers(
  slug: string,
  projectId: string,
  items: { member_id: string; role: number }[],
): Promise<ProjectMember[]> {
  const added = await api
    .post(`${base(slug)}/projects/${projectId}/members/`, { json: { members: items } })
    .json<ProjectMember[]>();
  const current = members.byProject[projectId] ?? [];
  members.byProject[projectId] = [...current, ...added];
  projects.memberCounts[projectId] = current.length + added.length;
  return added;
}

function patchProjectMembers(projectId: string, change: (m: ProjectMember[]) => ProjectMember[]) {
  const before = members.byProject[projectId];
  const count = projects.memberCounts[projectId];
  if (before) {
    const next = change(before);
    members.byProject[projectId] = next;
    projects.memberCounts[projectId] = next.length;
  }
  return () => {
    if (before) members.byProject[projectId] = before;
    if (count !== undefined) projects.memberCounts[projectId] = count;
  };
}

export async function updateProjectMemberRole(
  slug: string,
  projectId: string,
  id: string,
  role: number,
): Promise<boolean> {
  const result = await optimistic({
    apply: () => patchProjectMembers(projectId, (list) => list.map((m) => (m.id === id ? { ...m, role } : m))),
    call: () =>
      api.patch(`${base(slug)}/projects/${projectId}/members/${id}/`, { json: { role } }).json<ProjectMember>(),
    error: "Couldn't change the role",
  });
  if (result) toast.success("Role updated");
  return Boolean(result);
}

export async function removeProjectMember(slug: string, projectId: string, id: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => patchProjectMembers(projectId, (list) => list.filter((m) => m.id !== id)),
    call: () => api.delete(`${base(slug)}/projects/${projectId}/members/${id}/`).then(() => true),
    error: "Couldn't remove the member",
  });
  if (ok) toast.success("Removed from the project");
  return Boolean(ok);
}

export async function leaveProject(slug: string, projectId: string, myUserId: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      const undoMembers = patchProjectMembers(projectId, (list) => list.filter((m) => m.member !== myUserId));
      const undoLists = markLeft(slug, projectId);
      return () => {
        undoMembers();
        undoLists();
      };
    },
    call: () => api.post(`${base(slug)}/projects/${projectId}/members/leave/`).then(() => true),
    error: "Couldn't leave the project",
  });
  if (ok) toast.success("You left the project");
  return Boolean(ok);
}
