/**
 * What a project's screens need to draw work items: its states (in group order), labels,
 * members and the active estimate's points. Loaded once per project and kept fresh by the
 * settings actions (and, with the live layer, by state.* / label.* / estimate.* events).
 */
import type { StateGroup } from "@tideline/shared";
import { STATE_GROUPS } from "@tideline/shared";
import { useMemo } from "react";
import { useSnapshot } from "valtio";
import { api } from "../lib/api";
import { loadWithLocalCopy, readProjectLists, sameRows, writeListsThrough } from "../lib/local-db/meta";
import { serverAfterCopy } from "../lib/local-db/preload";
import { defineStore } from "../lib/store";
import { mentionablesOf } from "./members";

export type ProjectState = {
  id: string;
  project_id: string;
  name: string;
  description: string;
  color: string;
  group: StateGroup;
  default: boolean;
  sequence: number;
};

export type ProjectLabel = {
  id: string;
  project_id: string;
  name: string;
  color: string;
  description: string;
  parent: string | null;
  sort_order: number;
};

/** A project membership: `member` is the user id, `member_details` the person (see members.ts). */
export type ProjectMember = {
  id: string;
  role: number;
  member: string;
  member_details: {
    id: string;
    email: string;
    first_name: string;
    last_name: string;
    display_name: string;
    avatar_url: string | null;
  };
};

export type EstimatePoint = { id: string; key: number; value: string; description: string };
export type Estimate = {
  id: string;
  name: string;
  description: string;
  type: "points" | "categories" | "time";
  is_active: boolean;
  points: EstimatePoint[];
};

export type ProjectMeta = {
  status: "loading" | "ready" | "error";
  states: ProjectState[];
  labels: ProjectLabel[];
  members: ProjectMember[];
  estimates: Estimate[];
};

export const projectMeta = defineStore(() => ({
  byProject: {} as Record<string, ProjectMeta>,
}));

const inflight = new Map<string, Promise<void>>();
/** Projects whose meta shows the local database's copy, not yet the server's answer. */
const fromLocalCopy = new Set<string>();
const META_LISTS = ["states", "labels", "members", "estimates"] as const;
type MetaCopy = Awaited<ReturnType<typeof readProjectLists<(typeof META_LISTS)[number]>>>;
/** Copies read ahead by prefetchProjectMeta: the load that follows uses the same read. */
const prefetched = new Map<string, Promise<MetaCopy>>();

// A change of the lists (settings actions, state.* / label.* / estimate.* events) reaches the
// local copy at once, so the next visit paints it rather than what the last load saw.
writeListsThrough(projectMeta, "byProject", (projectId) => {
  const meta = projectMeta.byProject[projectId];
  if (meta?.status !== "ready" || fromLocalCopy.has(projectId)) return null;
  const { states, labels, members, estimates } = meta;
  return { states, labels, members, estimates };
});

/**
 * Show a project's stored meta before its load is asked for (a board reads it ahead, while the
 * server is still asked whether the user is a member); the load then replaces it.
 */
export function prefetchProjectMeta(projectId: string): void {
  if (projectMeta.byProject[projectId] || prefetched.has(projectId)) return;
  const reading = readProjectLists(projectId, META_LISTS);
  prefetched.set(projectId, reading);
  void reading.then((lists) => {
    if (!lists || projectMeta.byProject[projectId]) return;
    fromLocalCopy.add(projectId);
    performance.mark("tideline:project-meta:copy-applied");
    projectMeta.byProject[projectId] = {
      status: "ready",
      states: sortStates(lists.states),
      labels: sortLabels(lists.labels),
      members: lists.members,
      estimates: lists.estimates,
    };
  });
}

function sameMeta(a: Omit<ProjectMeta, "status">, b: Omit<ProjectMeta, "status">): boolean {
  return (
    sameRows(a.states, b.states) &&
    sameRows(a.labels, b.labels) &&
    sameRows(a.members, b.members) &&
    sameRows(a.estimates, b.estimates)
  );
}

/** States ordered as the product shows them: by group (fixed order), then position. */
export function sortStates(states: readonly ProjectState[]): ProjectState[] {
  const groupIndex = (g: StateGroup) => STATE_GROUPS.indexOf(g);
  return [...states].sort((a, b) => groupIndex(a.group) - groupIndex(b.group) || a.sequence - b.sequence);
}

export function sortLabels(labels: readonly ProjectLabel[]): ProjectLabel[] {
  return [...labels].sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name));
}

function takePrefetched(projectId: string): Promise<MetaCopy> | undefined {
  const reading = prefetched.get(projectId);
  prefetched.delete(projectId);
  return reading;
}

/** Whether the project's metadata on screen is the local copy's (the server not asked yet). */
export function metaFromLocalCopy(projectId: string): boolean {
  return fromLocalCopy.has(projectId);
}

/** Load (or reload with `force`) a project's states, labels, members and estimates. */
export function loadProjectMeta(slug: string, projectId: string, force = false): Promise<void> {
  const existing = projectMeta.byProject[projectId];
  const copyShown = fromLocalCopy.has(projectId);
  if (existing?.status === "ready" && !force && !copyShown) return Promise.resolve();
  const running = inflight.get(projectId);
  if (running) return running;
  if (!existing)
    projectMeta.byProject[projectId] = { status: "loading", states: [], labels: [], members: [], estimates: [] };
  const base = `/api/workspaces/${slug}/projects/${projectId}`;
  // Shown (or about to be) from the local copy: the server is asked once the board has painted.
  const fromServer = serverAfterCopy(projectId, META_LISTS, copyShown)
    .then(() =>
      Promise.all([
        api.get(`${base}/states/`).json<ProjectState[]>(),
        api.get(`${base}/issue-labels/`).json<ProjectLabel[]>(),
        api.get(`${base}/members/`).json<ProjectMember[]>(),
        api.get(`${base}/estimates/`).json<Estimate[]>(),
      ]),
    )
    .then(([states, labels, members, estimates]) => ({ states, labels, members, estimates }));
  // The local database's copy paints first when there is one; the server's answer replaces it.
  const promise = loadWithLocalCopy(
    projectId,
    META_LISTS,
    fromServer.then((lists) => {
      fromLocalCopy.delete(projectId);
      return lists;
    }),
    ({ states, labels, members, estimates }) => {
      const next = { states: sortStates(states), labels: sortLabels(labels), members, estimates };
      // The same lists again (the server confirming the stored copy): keep what is shown, so
      // nothing downstream (the board's lookups, its sort and grouping) is computed again.
      const shown = projectMeta.byProject[projectId];
      if (shown?.status === "ready" && sameMeta(shown, next)) return;
      projectMeta.byProject[projectId] = { status: "ready", ...next };
      performance.mark("tideline:project-meta:applied");
    },
    // The copy read ahead (prefetch) when there is one, rather than a second read.
    !existing || copyShown ? (takePrefetched(projectId) ?? true) : false,
  )
    .catch((error: unknown) => {
      const meta = projectMeta.byProject[projectId];
      if (meta) meta.status = "error";
      throw error;
    })
    .finally(() => inflight.delete(projectId));
  inflight.set(projectId, promise);
  return promise;
}

/** The project's active estimate, if estimates are on. */
export function activeEstimate(meta: ProjectMeta | undefined): Estimate | undefined {
  return meta?.estimates.find((e) => e.is_active);
}

export function defaultState(meta: ProjectMeta | undefined): ProjectState | undefined {
  return meta?.states.find((s) => s.default) ?? meta?.states[0];
}

/** The project's members as the "@" popup of its editors offers them (loaded with the meta). */
export function useMentionables(projectId: string) {
  const members = useSnapshot(projectMeta).byProject[projectId]?.members;
  return useMemo(() => mentionablesOf((members ?? []).map((m) => m.member_details)), [members]);
}
