/**
 * Favorite projects per workspace (the sidebar's Favorites section). Starring shows at once,
 * in the sidebar and on the project's star, and is undone if the server refuses.
 */
import { api } from "../lib/api";
import { onKeptAnswerChanged } from "../lib/offline/last-answers";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { markFavorite, type Project } from "./projects";
import type { LogoProps } from "./workspaces";

export type FavoriteProject = {
  id: string;
  entity_type: string;
  entity_identifier: string;
  project_id: string;
  sequence: number;
  entity_data: { id: string; name: string; identifier: string; logo_props: LogoProps; network: number };
  created_at: string;
};

export const favorites = defineStore(() => ({
  bySlug: {} as Record<string, FavoriteProject[]>,
}));

const base = (slug: string) => `/api/workspaces/${slug}`;

export async function fetchFavoriteProjects(slug: string): Promise<FavoriteProject[]> {
  const list = await api.get(`${base(slug)}/user-favorite-projects/`).json<FavoriteProject[]>();
  favorites.bySlug[slug] = list;
  return list;
}

// Started from the kept list and the server's differs: read it again.
onKeptAnswerChanged(/^\/api\/workspaces\/[^/]+\/user-favorite-projects\/$/, (pathname) => {
  void fetchFavoriteProjects(pathname.split("/")[3] ?? "").catch(() => undefined);
});

export async function addFavoriteProject(slug: string, project: Project): Promise<boolean> {
  const placeholder: FavoriteProject = {
    id: `pending-${project.id}`,
    entity_type: "project",
    entity_identifier: project.id,
    project_id: project.id,
    sequence: Number.MAX_SAFE_INTEGER,
    entity_data: {
      id: project.id,
      name: project.name,
      identifier: project.identifier,
      logo_props: project.logo_props,
      network: project.network,
    },
    created_at: new Date().toISOString(),
  };
  const result = await optimistic({
    apply: () => {
      const before = favorites.bySlug[slug] ?? [];
      favorites.bySlug[slug] = [...before.filter((f) => f.project_id !== project.id), placeholder];
      const undoMark = markFavorite(slug, project.id, true);
      return () => {
        favorites.bySlug[slug] = before;
        undoMark();
      };
    },
    call: () =>
      api.post(`${base(slug)}/user-favorite-projects/`, { json: { project: project.id } }).json<FavoriteProject>(),
    error: "Couldn't add the project to favorites",
  });
  if (result) {
    favorites.bySlug[slug] = (favorites.bySlug[slug] ?? []).map((f) => (f.id === placeholder.id ? result : f));
  }
  return Boolean(result);
}

export async function removeFavoriteProject(slug: string, projectId: string): Promise<boolean> {
  const ok = await optimistic({
    apply: () => {
      const before = favorites.bySlug[slug] ?? [];
      favorites.bySlug[slug] = before.filter((f) => f.project_id !== projectId);
      const undoMark = markFavorite(slug, projectId, false);
      return () => {
        favorites.bySlug[slug] = before;
        undoMark();
      };
    },
    call: () => api.delete(`${base(slug)}/user-favorite-projects/${projectId}/`).then(() => true),
    error: "Couldn't remove the project from favorites",
  });
  return Boolean(ok);
}

export function toggleFavoriteProject(slug: string, project: Project): Promise<boolean> {
  return project.is_favorite ? removeFavoriteProject(slug, project.id) : addFavoriteProject(slug, project);
}

/** Drop a project's favorite locally (it was archived, deleted or left). */
export function forgetFavorite(slug: string, projectId: string): void {
  const list = favorites.bySlug[slug];
  if (list) favorites.bySlug[slug] = list.filter((f) => f.project_id !== projectId);
}
