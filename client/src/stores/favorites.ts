/**
 * A person's favorites per workspace (the sidebar's Favorites section): projects, cycles,
 * modules, views and pages, and folders holding them one level deep. One flat list per
 * workspace (user-favorites/?all=true); `parent` says which folder holds one, `sequence` orders
 * each level. Every change shows at once and is undone if the server refuses (optimistic), the
 * stars on cycles, modules, views, pages and projects included (markEntityFavorite), and the
 * owner's other tabs follow through the personal favorite.* events on the user channel.
 */
import { type DomainEvent, favoriteSequenceBetween } from "@tideline/shared";
import { api } from "../lib/api";
import { isOwnClientMutation, mutationHeaders } from "../lib/client-mutations";
import { LocalChanges } from "../lib/local-changes";
import { onKeptAnswerChanged } from "../lib/offline/last-answers";
import { optimistic } from "../lib/optimistic";
import { defineStore } from "../lib/store";
import { addUserChannelHandler } from "../lib/user-channel";
import { markFavorite, type Project } from "./projects";
import { type LogoProps, workspaces } from "./workspaces";

export type FavoriteEntityType = "project" | "cycle" | "module" | "view" | "page" | "folder";

/** A favorite as the server answers it (live-server/src/services/favorites.ts presentFavorite). */
export type Favorite = {
  id: string;
  entity_type: FavoriteEntityType;
  entity_identifier: string | null;
  entity_data: {
    id: string;
    name: string;
    logo_props?: LogoProps;
    identifier?: string;
    project_id?: string | null;
  } | null;
  name: string | null;
  is_folder: boolean;
  sequence: number;
  parent: string | null;
  project_id: string | null;
  created_at: string;
};

/** What a star needs to show in the sidebar before the server answers. */
export type FavoriteEntity = {
  entity_type: Exclude<FavoriteEntityType, "folder">;
  id: string;
  project_id: string | null;
  name: string;
  logo_props?: LogoProps;
};

export const favorites = defineStore(() => ({
  bySlug: {} as Record<string, Favorite[]>,
}));

const base = (slug: string) => `/api/workspaces/${slug}/user-favorites/`;
const PENDING = "pending-";

/** One level's favorites (the top level when `parent` is null), in order. */
export function favoritesIn(list: readonly Favorite[], parent: string | null): Favorite[] {
  return list.filter((f) => f.parent === parent).sort((a, b) => a.sequence - b.sequence);
}

/** The favorite of an entity, if the person has one. */
export function favoriteOf(slug: string, type: FavoriteEntityType, id: string): Favorite | undefined {
  return favorites.bySlug[slug]?.find((f) => f.entity_type === type && f.entity_identifier === id);
}

/**
 * Changes of a workspace's list made here: a read that began before one (the reconnection's,
 * the kept copy's) would put a moved favorite back where it was, so it is dropped.
 */
const changes = new LocalChanges();

/** optimistic(), with the workspace's list marked as changed here while the call is on its way. */
function optimisticIn<T>(slug: string, opts: Parameters<typeof optimistic<T>>[0]): Promise<T | undefined> {
  return optimistic({ ...opts, call: () => changes.track(slug, opts.call) });
}

export async function fetchFavorites(slug: string): Promise<Favorite[]> {
  const since = changes.now();
  const list = await api.get(base(slug), { searchParams: { all: "true" } }).json<Favorite[]>();
  if (changes.isNewerHere(slug, since)) return favorites.bySlug[slug] ?? list;
  favorites.bySlug[slug] = list;
  return list;
}

/**
 * After an entity's own star call succeeded: if its stand-in is still shown (the user channel's
 * favorite.created was missed, e.g. sent while it was connecting), read the list again.
 */
export function settleFavorites(slug: string): void {
  if ((favorites.bySlug[slug] ?? []).some((f) => f.id.startsWith(PENDING))) {
    void fetchFavorites(slug).catch(() => undefined);
  }
}

// Started from the kept list and the server's differs: read it again.
onKeptAnswerChanged(/^\/api\/workspaces\/[^/]+\/user-favorites\/$/, (pathname) => {
  void fetchFavorites(pathname.split("/")[3] ?? "").catch(() => undefined);
});

/** Replace the workspace's list, returning the undo. */
function swap(slug: string, next: Favorite[]): () => void {
  const before = favorites.bySlug[slug] ?? [];
  favorites.bySlug[slug] = next;
  return () => {
    favorites.bySlug[slug] = before;
  };
}

function endOf(list: readonly Favorite[], parent: string | null): number {
  const level = favoritesIn(list, parent);
  return favoriteSequenceBetween(level[level.length - 1]?.sequence, undefined);
}

/**
 * Show (or drop) an entity's favorite in the sidebar at once, for a star set through the
 * entity's own call; returns the undo. The server's favorite.created replaces the stand-in.
 */
export function markEntityFavorite(slug: string, entity: FavoriteEntity, on: boolean): () => void {
  const list = favorites.bySlug[slug];
  if (!list) return () => undefined;
  changes.stamp(slug);
  const others = list.filter((f) => !(f.entity_type === entity.entity_type && f.entity_identifier === entity.id));
  if (!on) return swap(slug, others);
  const existing = list.find((f) => f.entity_type === entity.entity_type && f.entity_identifier === entity.id);
  if (existing) return () => undefined;
  const standIn: Favorite = {
    id: `${PENDING}${entity.id}`,
    entity_type: entity.entity_type,
    entity_identifier: entity.id,
    entity_data: { id: entity.id, name: entity.name, logo_props: entity.logo_props, project_id: entity.project_id },
    name: null,
    is_folder: false,
    sequence: endOf(list, null),
    parent: null,
    project_id: entity.project_id,
    created_at: new Date().toISOString(),
  };
  return swap(slug, [...others, standIn]);
}

/** Put the server's favorite in the list, in place of its stand-in or older copy. */
function adopt(slug: string, favorite: Favorite): void {
  const list = favorites.bySlug[slug];
  if (!list) return;
  const rest = list.filter(
    (f) =>
      f.id !== favorite.id &&
      !(
        f.id.startsWith(PENDING) &&
        f.entity_type === favorite.entity_type &&
        (favorite.is_folder ? f.name === favorite.name : f.entity_identifier === favorite.entity_identifier)
      ),
  );
  favorites.bySlug[slug] = [...rest, favorite];
}

// ───────────── projects (their own calls, kept for the project menus) ─────────────

export async function addFavoriteProject(slug: string, project: Project): Promise<boolean> {
  const result = await optimisticIn(slug, {
    apply: () => {
      const undoList = markEntityFavorite(
        slug,
        {
          entity_type: "project",
          id: project.id,
          project_id: project.id,
          name: project.name,
          logo_props: project.logo_props,
        },
        true,
      );
      const undoMark = markFavorite(slug, project.id, true);
      return () => {
        undoList();
        undoMark();
      };
    },
    call: () =>
      api.post(`/api/workspaces/${slug}/user-favorite-projects/`, { json: { project: project.id } }).json<Favorite>(),
    error: "Couldn't add the project to favorites",
  });
  if (result) adopt(slug, result);
  return Boolean(result);
}

export async function removeFavoriteProject(slug: string, projectId: string): Promise<boolean> {
  const ok = await optimisticIn(slug, {
    apply: () => {
      const undoList = swap(
        slug,
        (favorites.bySlug[slug] ?? []).filter(
          (f) => !(f.entity_type === "project" && f.entity_identifier === projectId),
        ),
      );
      const undoMark = markFavorite(slug, projectId, false);
      return () => {
        undoList();
        undoMark();
      };
    },
    call: () => api.delete(`/api/workspaces/${slug}/user-favorite-projects/${projectId}/`).then(() => true),
    error: "Couldn't remove the project from favorites",
  });
  return Boolean(ok);
}

export function toggleFavoriteProject(slug: string, project: Project): Promise<boolean> {
  return project.is_favorite ? removeFavoriteProject(slug, project.id) : addFavoriteProject(slug, project);
}

/** Drop a project's favorites locally, its cycles', modules', views' and pages' too (archived, deleted or left). */
export function forgetFavorite(slug: string, projectId: string): void {
  const list = favorites.bySlug[slug];
  if (list) favorites.bySlug[slug] = list.filter((f) => f.project_id !== projectId);
}

// ───────────── folders, moves, removal (user-favorites/) ─────────────

/** Make a folder at the end of the top level. */
export async function createFolder(slug: string, name: string): Promise<Favorite | undefined> {
  const list = favorites.bySlug[slug] ?? [];
  const standIn: Favorite = {
    id: `${PENDING}folder-${Date.now()}`,
    entity_type: "folder",
    entity_identifier: null,
    entity_data: null,
    name,
    is_folder: true,
    sequence: endOf(list, null),
    parent: null,
    project_id: null,
    created_at: new Date().toISOString(),
  };
  const result = await optimisticIn(slug, {
    apply: () => swap(slug, [...list, standIn]),
    call: () =>
      api
        .post(base(slug), {
          json: { entity_type: "folder", is_folder: true, name, parent: null },
          headers: mutationHeaders(),
        })
        .json<Favorite>(),
    error: "Couldn't create the folder",
  });
  if (result) {
    favorites.bySlug[slug] = (favorites.bySlug[slug] ?? []).filter((f) => f.id !== standIn.id);
    adopt(slug, result);
  }
  return result;
}

async function patchFavorite(
  slug: string,
  id: string,
  patch: Partial<Pick<Favorite, "name" | "parent" | "sequence">>,
  error: string,
): Promise<boolean> {
  const result = await optimisticIn(slug, {
    apply: () =>
      swap(
        slug,
        (favorites.bySlug[slug] ?? []).map((f) => (f.id === id ? { ...f, ...patch } : f)),
      ),
    call: () => api.patch(`${base(slug)}${id}/`, { json: patch, headers: mutationHeaders() }).json<Favorite>(),
    error,
  });
  if (result) adopt(slug, result);
  return Boolean(result);
}

export function renameFolder(slug: string, id: string, name: string): Promise<boolean> {
  return patchFavorite(slug, id, { name }, "Couldn't rename the folder");
}

/**
 * Move a favorite to `parent` (null: the top level), before `beforeId` (the end when null):
 * its sequence is the midpoint between its new neighbours (product-domain §9).
 */
export function moveFavorite(
  slug: string,
  id: string,
  parent: string | null,
  beforeId: string | null,
): Promise<boolean> {
  const list = favorites.bySlug[slug] ?? [];
  const level = favoritesIn(list, parent).filter((f) => f.id !== id);
  const index = beforeId ? level.findIndex((f) => f.id === beforeId) : -1;
  const sequence =
    index < 0
      ? favoriteSequenceBetween(level[level.length - 1]?.sequence, undefined)
      : favoriteSequenceBetween(level[index - 1]?.sequence, level[index]?.sequence);
  return patchFavorite(slug, id, { parent, sequence }, "Couldn't move the favorite");
}

/** Remove a favorite; a folder goes with what it holds (as the server does). */
export async function removeFavorite(slug: string, id: string): Promise<boolean> {
  const list = favorites.bySlug[slug] ?? [];
  const gone = list.find((f) => f.id === id);
  const ok = await optimisticIn(slug, {
    apply: () => {
      const undoList = swap(
        slug,
        list.filter((f) => f.id !== id && f.parent !== id),
      );
      const undoMark =
        gone?.entity_type === "project" && gone.entity_identifier
          ? markFavorite(slug, gone.entity_identifier, false)
          : () => undefined;
      return () => {
        undoList();
        undoMark();
      };
    },
    call: () => api.delete(`${base(slug)}${id}/`, { headers: mutationHeaders() }).then(() => true),
    error: "Couldn't remove the favorite",
  });
  return Boolean(ok);
}

// ───────────── the owner's other tabs ─────────────

/** Follow a favorite.* event of another tab (or of a star set through an entity's own call). */
export function applyFavoriteEvent(event: DomainEvent): void {
  if (!event.type.startsWith("favorite.")) return;
  // Our own change is already shown, except a star set through an entity's call, whose
  // stand-in only the server's favorite.created replaces (adopting is idempotent).
  if (event.type !== "favorite.created" && isOwnClientMutation(event.client_mutation_id)) return;
  const slug = Object.values(workspaces.bySlug).find((w) => w.id === event.workspace_id)?.slug;
  if (!slug || !favorites.bySlug[slug]) return;
  const favorite = event.data as unknown as Favorite;
  if (!favorite || typeof favorite.id !== "string") return;
  if (event.type === "favorite.deleted") {
    favorites.bySlug[slug] = (favorites.bySlug[slug] ?? []).filter((f) => f.id !== favorite.id);
    if (favorite.entity_type === "project" && favorite.entity_identifier)
      markFavorite(slug, favorite.entity_identifier, false);
    return;
  }
  adopt(slug, favorite);
  if (favorite.entity_type === "project" && favorite.entity_identifier)
    markFavorite(slug, favorite.entity_identifier, true);
}

addUserChannelHandler({
  onEvent: applyFavoriteEvent,
  // Events sent while the socket was down are lost: read the loaded lists again.
  onSynced: () => {
    for (const slug of Object.keys(favorites.bySlug)) void fetchFavorites(slug).catch(() => undefined);
  },
});
