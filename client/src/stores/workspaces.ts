/**
 * Workspaces the current user belongs to, and each opened workspace's details (with the
 * caller's role, which drives what the shell and settings show).
 */
import { api } from "../lib/api";
import { onKeptAnswerChanged } from "../lib/offline/last-answers";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { session } from "./session";

export type LogoProps = {
  in_use?: "emoji" | "icon";
  emoji?: { value?: string; url?: string };
  icon?: { name?: string; color?: string; background_color?: string };
};

export type UserLite = {
  id: string;
  first_name: string;
  last_name: string;
  display_name: string;
  avatar_url: string | null;
};

export type Workspace = {
  id: string;
  name: string;
  slug: string;
  logo_url: string | null;
  logo_props: LogoProps;
  organization_size: string;
  timezone: string;
  owner: UserLite | { id: string } | null;
  owner_id: string;
  created_at: string;
  updated_at: string;
  /** The caller's own role here (20 admin, 15 member, 5 guest). */
  role?: number;
  total_members?: number;
};

export type WorkspaceInput = { name: string; slug: string; organization_size: string };
export type WorkspacePatch = Partial<Pick<Workspace, "name" | "logo_url" | "logo_props" | "organization_size">>;

export const workspaces = defineStore(() => ({
  list: [] as Workspace[],
  listLoaded: false,
  bySlug: {} as Record<string, Workspace>,
  /** Slugs the server answered 404 for (not a member, or no such workspace). */
  missing: {} as Record<string, boolean>,
}));

export async function fetchMyWorkspaces(): Promise<Workspace[]> {
  const list = await api.get("/api/users/me/workspaces/").json<Workspace[]>();
  workspaces.list = list;
  workspaces.listLoaded = true;
  return list;
}

/** Load one workspace (the shell calls this on entry); a 404 marks it missing. */
export async function fetchWorkspace(slug: string): Promise<Workspace | null> {
  const response = await api.get(`/api/workspaces/${slug}/`, { throwHttpErrors: false });
  if (response.status === 404 || response.status === 403) {
    workspaces.missing[slug] = true;
    return null;
  }
  if (!response.ok) throw new Error(`workspace ${slug}: ${response.status}`);
  const ws = await response.json<Workspace>();
  workspaces.bySlug[slug] = ws;
  delete workspaces.missing[slug];
  return ws;
}

// Started from kept answers and the server's differ (renamed, left, removed): read them again.
onKeptAnswerChanged(/^\/api\/users\/me\/workspaces\/$/, () => void fetchMyWorkspaces().catch(() => undefined));
onKeptAnswerChanged(/^\/api\/workspaces\/[^/]+\/$/, (pathname) => {
  const slug = pathname.split("/")[3] ?? "";
  void fetchWorkspace(slug).catch(() => undefined);
});

/** True when the slug is well formed, not reserved and not used. */
export async function checkWorkspaceSlug(slug: string): Promise<boolean> {
  const { status } = await api
    .get("/api/workspace-slug-check/", { searchParams: { slug } })
    .json<{ status: boolean }>();
  return status === true;
}

/** Create a workspace. Throws the server's error so the form can show it on its fields. */
export async function createWorkspace(input: WorkspaceInput): Promise<Workspace> {
  const ws = await api.post("/api/workspaces/", { json: input }).json<Workspace>();
  workspaces.list = [...workspaces.list, ws];
  workspaces.bySlug[ws.slug] = ws;
  return ws;
}

export async function updateWorkspace(slug: string, patch: WorkspacePatch): Promise<boolean> {
  const result = await optimistic({
    apply: () => {
      const before = workspaces.bySlug[slug];
      const listBefore = workspaces.list;
      if (before) workspaces.bySlug[slug] = { ...before, ...patch };
      workspaces.list = workspaces.list.map((w) => (w.slug === slug ? { ...w, ...patch } : w));
      return () => {
        if (before) workspaces.bySlug[slug] = before;
        workspaces.list = listBefore;
      };
    },
    call: () => api.patch(`/api/workspaces/${slug}/`, { json: patch }).json<Workspace>(),
    error: "Couldn't update the workspace",
  });
  if (result) {
    const role = workspaces.bySlug[slug]?.role;
    workspaces.bySlug[slug] = { ...workspaces.bySlug[slug], ...result, role: result.role ?? role };
  }
  return Boolean(result);
}

/**
 * Save the settings form: applied at once, undone if refused, and the error thrown so the
 * form can show it on the right field (a toast would lose which field was wrong).
 */
export async function saveWorkspaceSettings(slug: string, patch: WorkspacePatch): Promise<void> {
  const before = workspaces.bySlug[slug];
  const listBefore = workspaces.list;
  if (before) workspaces.bySlug[slug] = { ...before, ...patch };
  workspaces.list = workspaces.list.map((w) => (w.slug === slug ? { ...w, ...patch } : w));
  try {
    const updated = await api.patch(`/api/workspaces/${slug}/`, { json: patch }).json<Workspace>();
    workspaces.bySlug[slug] = { ...workspaces.bySlug[slug], ...updated, role: updated.role ?? before?.role };
  } catch (error) {
    if (before) workspaces.bySlug[slug] = before;
    workspaces.list = listBefore;
    throw error;
  }
}

/** Delete a workspace: it leaves the switcher at once and comes back if the server refuses. */
export async function deleteWorkspace(slug: string): Promise<boolean> {
  const result = await optimistic({
    apply: () => {
      const listBefore = workspaces.list;
      workspaces.list = workspaces.list.filter((w) => w.slug !== slug);
      return () => {
        workspaces.list = listBefore;
      };
    },
    call: () => api.delete(`/api/workspaces/${slug}/`).then(() => true),
    error: "Couldn't delete the workspace",
  });
  if (result) delete workspaces.bySlug[slug];
  return Boolean(result);
}

export async function leaveWorkspace(slug: string): Promise<boolean> {
  const result = await optimistic({
    apply: () => {
      const listBefore = workspaces.list;
      workspaces.list = workspaces.list.filter((w) => w.slug !== slug);
      return () => {
        workspaces.list = listBefore;
      };
    },
    call: () => api.post(`/api/workspaces/${slug}/members/leave/`).then(() => true),
    error: "Couldn't leave the workspace",
  });
  if (result) delete workspaces.bySlug[slug];
  return Boolean(result);
}

/**
 * Remember the workspace as the one to reopen next time. Silent: it is a convenience the user
 * never asked for, so a failure is not worth a toast.
 */
export async function rememberWorkspace(ws: Workspace): Promise<void> {
  const profile = session.profile;
  if (!profile || profile.last_workspace_id === ws.id) return;
  const previous = profile.last_workspace_id;
  profile.last_workspace_id = ws.id;
  try {
    await api.patch("/api/users/me/profile/", { json: { last_workspace_id: ws.id } });
  } catch {
    if (session.profile) session.profile.last_workspace_id = previous;
  }
}
