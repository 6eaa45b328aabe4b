/**
 * Blocking relations for the work-items timeline's arrows. The project's work-item cache (the
 * v2 sync) carries no relations, so they come from the list variant with relations,
 * GET issues-detail/ (epics-detail/ on the epics board), with layout gantt_chart (one flat list;
 * each item with `issue_relation`, the rows it owns), read page by page (100 items a page, a few
 * pages at a time) once each time the timeline opens; arrows appear as pages arrive. A blocking pair is stored once, as
 * (blocked item, blocker, "blocked_by"), so the owned rows alone give every pair.
 * While the timeline is open, relation.created / relation.deleted events on the project's channel
 * (stores/live-board.ts hands them over) add and remove pairs, and a reconnection (events may
 * have been lost) reads the project's relations again.
 */
import type { DomainEvent } from "@tideline/shared";
import { api } from "../lib/api";
import { defineStore } from "../lib/store";

/** One blocking pair: `from` blocks `to`. */
export type BlockingPair = { from: string; to: string };

type ListedRelation = { relation_type: string; issue_id: string; related_issue: string };
type DetailPage = {
  results: { id: string; issue_relation?: ListedRelation[] }[];
  total_pages: number;
};

export const timelineRelations = defineStore(() => ({
  /** Bumped whenever a project's relations change; components subscribe to re-read them. */
  version: {} as Record<string, number>,
}));

/** Per project: item id → the pairs it owns (the blocked item owns the pair; replaced page by page). */
const byProject = new Map<string, Map<string, BlockingPair[]>>();
/** The load in flight per project: a newer load makes older answers stale. */
const loads = new Map<string, symbol>();
const PER_PAGE = 100;
const CONCURRENCY = 3;

type LoadQuery = { slug: string; filters: Record<string, string>; type: "issues" | "epics" };
/** The projects an open timeline shows, with how it read them (to read them again) and how many timelines show them. */
const shown = new Map<string, LoadQuery & { count: number }>();

function bump(projectId: string): void {
  timelineRelations.version[projectId] = (timelineRelations.version[projectId] ?? 0) + 1;
}

/** Every blocking pair known for a project (read after subscribing to the version). */
export function getBlockingPairs(projectId: string): BlockingPair[] {
  return [...(byProject.get(projectId)?.values() ?? [])].flat();
}

/**
 * Load (again) every blocking pair of a project's work items — only those `filters` keep (a
 * cycle's or module's board asks for its own items) — a failed page leaves its arrows out.
 */
export async function loadTimelineRelations(
  slug: string,
  projectId: string,
  filters: Record<string, string> = {},
  type: "issues" | "epics" = "issues",
): Promise<void> {
  const token = Symbol(projectId);
  loads.set(projectId, token);
  const pairs = new Map<string, BlockingPair[]>();
  byProject.set(projectId, pairs);
  const url = `/api/workspaces/${slug}/projects/${projectId}/${type}-detail/`;
  const take = (page: DetailPage) => {
    if (loads.get(projectId) !== token) return false;
    for (const item of page.results) {
      const owned = (item.issue_relation ?? []).filter((r) => r.relation_type === "blocked_by");
      pairs.set(
        item.id,
        owned.map((r) => ({ from: r.related_issue, to: r.issue_id })),
      );
    }
    bump(projectId);
    return true;
  };
  const fetchPage = (index: number) =>
    api
      .get(url, {
        searchParams: { ...filters, layout: "gantt_chart", per_page: PER_PAGE, cursor: `${PER_PAGE}:${index}:0` },
      })
      .json<DetailPage>();
  let first: DetailPage;
  try {
    first = await fetchPage(0);
  } catch {
    return; // No arrows; the timeline itself works without them.
  }
  if (!take(first)) return;
  const rest = Array.from({ length: Math.max(0, first.total_pages - 1) }, (_, i) => i + 1);
  const worker = async () => {
    for (let index = rest.shift(); index !== undefined; index = rest.shift()) {
      try {
        if (!take(await fetchPage(index))) return;
      } catch {
        // This page's arrows stay out; the others still come.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rest.length) }, worker));
}

/**
 * A timeline shows a project's arrows: read its relations (again: they may have changed since the
 * timeline was last open) and keep them fresh on reconnections until the returned stop is called.
 */
export function showTimelineRelations(
  slug: string,
  projectId: string,
  filters: Record<string, string> = {},
  type: "issues" | "epics" = "issues",
): () => void {
  const entry = { slug, filters, type, count: (shown.get(projectId)?.count ?? 0) + 1 };
  shown.set(projectId, entry);
  void loadTimelineRelations(slug, projectId, filters, type);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const current = shown.get(projectId);
    if (!current) return;
    if (current.count <= 1) shown.delete(projectId);
    else current.count -= 1;
  };
}

/** The project's channel (re)connected: events sent meanwhile were lost, so a shown project reads its relations again. */
export function resyncTimelineRelations(projectId: string): void {
  const query = shown.get(projectId);
  if (query) void loadTimelineRelations(query.slug, projectId, query.filters, query.type);
}

type RelationEventData = { issue_id?: unknown; related_issue_id?: unknown; relation_type?: unknown };

/**
 * The blocking pair a relation event is about, or null for other relations. The event names the
 * relation as its project's item sees it: "blocked_by" (the related item blocks it) or
 * "blocking" (it blocks the related item).
 */
export function blockingPairOf(data: RelationEventData): BlockingPair | null {
  const { issue_id: issue, related_issue_id: related, relation_type: type } = data;
  if (typeof issue !== "string" || typeof related !== "string" || !issue || !related) return null;
  if (type === "blocked_by") return { from: related, to: issue };
  if (type === "blocking") return { from: issue, to: related };
  return null;
}

const samePair = (a: BlockingPair, b: BlockingPair) => a.from === b.from && a.to === b.to;

/**
 * A relation created or deleted (anyone's change, ours included: applying it twice changes
 * nothing): add or remove its blocking pair, so an open timeline's arrows follow without a reload.
 * Relating a pair again another way arrives as a deletion then a creation.
 */
export function applyTimelineRelationEvent(event: DomainEvent): void {
  if (event.type !== "relation.created" && event.type !== "relation.deleted") return;
  const pair = blockingPairOf(event.data as RelationEventData);
  if (!pair) return;
  if (event.type === "relation.created") {
    const projectId = event.project_id;
    if (!projectId) return;
    let pairs = byProject.get(projectId);
    if (!pairs) {
      pairs = new Map();
      byProject.set(projectId, pairs);
    }
    const owned = pairs.get(pair.to) ?? [];
    if (owned.some((p) => samePair(p, pair))) return;
    pairs.set(pair.to, [...owned, pair]);
    bump(projectId);
    return;
  }
  // A pair across two projects may be held by either project's list: drop it wherever it is.
  for (const [projectId, pairs] of byProject) {
    let changed = false;
    for (const [owner, owned] of pairs) {
      const kept = owned.filter((p) => !samePair(p, pair));
      if (kept.length === owned.length) continue;
      pairs.set(owner, kept);
      changed = true;
    }
    if (changed) bump(projectId);
  }
}
