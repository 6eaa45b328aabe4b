/**
 * Blocking relations for the work-items timeline's arrows. The project's work-item cache (the
 * v2 sync) carries no relations, so they come from the list variant with relations,
 * GET issues-detail/ (epics-detail/ on the epics board), with layout gantt_chart (one flat list;
 * each item with `issue_relation`, the rows it owns), read page by page (100 items a page, a few
 * pages at a time) once each time the timeline opens; arrows appear as pages arrive. A blocking pair is stored once, as
 * (blocked item, blocker, "blocked_by"), so the owned rows alone give every pair.
 * Relations changed while the timeline is open show when it next opens.
 */
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
  /** Bumped whenever a project's relations arrive; components subscribe to re-read them. */
  version: {} as Record<string, number>,
}));

/** Per project: item id → the pairs it owns (replaced page by page). */
const byProject = new Map<string, Map<string, BlockingPair[]>>();
/** The load in flight per project: a newer load makes older answers stale. */
const loads = new Map<string, symbol>();
const PER_PAGE = 100;
const CONCURRENCY = 3;

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
    timelineRelations.version[projectId] = (timelineRelations.version[projectId] ?? 0) + 1;
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
