/**
 * Workspace search for the command palette (GET /api/workspaces/:slug/search/; product-domain §3
 * "Search results groups", §9 "search default page 30"; calls-errors-sync §7). The server ranks
 * and caps each group and never answers what the caller may not see; this module only asks,
 * drops answers that arrive after a newer question, and links each result to its screen.
 *
 * Recent searches (the queries whose result was opened) are kept in this browser per person and
 * workspace, newest first, five at most: they belong to the one who typed them, not the team.
 */
import { api } from "../lib/api";

/** The groups of an answer, in the order the palette shows them. */
export const SEARCH_GROUPS = ["issue", "project", "page", "cycle", "module", "issue_view", "workspace"] as const;
export type SearchGroup = (typeof SEARCH_GROUPS)[number];

export type WorkspaceResult = { id: string; name: string; slug: string };
export type ProjectResult = { id: string; name: string; identifier: string; workspace__slug: string };
export type IssueResult = {
  id: string;
  name: string;
  sequence_id: number;
  project_id: string;
  project__identifier: string;
  workspace__slug: string;
};
export type ProjectScopedResult = {
  id: string;
  name: string;
  project_id: string;
  project__identifier: string;
  workspace__slug: string;
};
export type PageResult = {
  id: string;
  name: string;
  project_ids: string[];
  project__identifiers: string[];
  workspace__slug: string;
};

/** The server's answer, in the reference's shape (every group present, maybe empty). */
export type SearchResults = {
  workspace: WorkspaceResult[];
  project: ProjectResult[];
  issue: IssueResult[];
  cycle: ProjectScopedResult[];
  module: ProjectScopedResult[];
  issue_view: ProjectScopedResult[];
  page: PageResult[];
};

export type SearchHit =
  | { group: "workspace"; result: WorkspaceResult }
  | { group: "project"; result: ProjectResult }
  | { group: "issue"; result: IssueResult }
  | { group: "cycle" | "module" | "issue_view"; result: ProjectScopedResult }
  | { group: "page"; result: PageResult };

export function emptyResults(): SearchResults {
  return { workspace: [], project: [], issue: [], cycle: [], module: [], issue_view: [], page: [] };
}

/**
 * Ask the server. `signal` aborts a question the person has typed past; an aborted or failed
 * question rejects (the palette keeps what it showed and says the search failed).
 */
export async function searchWorkspace(
  slug: string,
  query: string,
  options: { projectId?: string; signal?: AbortSignal } = {},
): Promise<SearchResults> {
  const searchParams: Record<string, string> = { search: query, workspace_search: "true" };
  if (options.projectId) searchParams.project_id = options.projectId;
  const answer = await api
    .get(`/api/workspaces/${slug}/search/`, { searchParams, signal: options.signal })
    .json<{ results: Partial<SearchResults> }>();
  return { ...emptyResults(), ...answer.results };
}

/** Was this rejection the person typing on (an aborted question), not a failure to report? */
export function isAbandoned(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** The screen a result opens (the same paths the sidebar and lists link to). */
export function resultPath(slug: string, hit: SearchHit): string {
  switch (hit.group) {
    case "workspace":
      return `/${hit.result.slug}/`;
    case "project":
      return `/${slug}/projects/${hit.result.id}/issues/`;
    case "issue":
      return `/${slug}/browse/${hit.result.project__identifier}-${hit.result.sequence_id}/`;
    case "cycle":
      return `/${slug}/projects/${hit.result.project_id}/cycles/${hit.result.id}/`;
    case "module":
      return `/${slug}/projects/${hit.result.project_id}/modules/${hit.result.id}/`;
    case "issue_view":
      return `/${slug}/projects/${hit.result.project_id}/views/${hit.result.id}/`;
    case "page": {
      const projectId = hit.result.project_ids[0];
      return projectId ? `/${slug}/projects/${projectId}/pages/${hit.result.id}/` : `/${slug}/`;
    }
  }
}

/** Every hit of an answer, group by group in the palette's order. */
export function hitsOf(results: SearchResults): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const group of SEARCH_GROUPS) {
    for (const result of results[group]) hits.push({ group, result } as SearchHit);
  }
  return hits;
}

// ───────────── recent searches ─────────────

const RECENT_SEARCHES = 5;
const recentKey = (userId: string, slug: string) => `tideline:recent-searches:${userId}:${slug}`;

export function recentSearches(userId: string, slug: string): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(recentKey(userId, slug)) ?? "[]");
    return Array.isArray(stored)
      ? stored.filter((q): q is string => typeof q === "string").slice(0, RECENT_SEARCHES)
      : [];
  } catch {
    return [];
  }
}

/** Remember a query whose result was opened: first, once, five at most. */
export function rememberSearch(userId: string, slug: string, query: string): void {
  const trimmed = query.trim();
  if (!trimmed) return;
  const next = [trimmed, ...recentSearches(userId, slug).filter((q) => q.toLowerCase() !== trimmed.toLowerCase())];
  try {
    localStorage.setItem(recentKey(userId, slug), JSON.stringify(next.slice(0, RECENT_SEARCHES)));
  } catch {
    // A full or refused storage only loses the history.
  }
}

export function clearRecentSearches(userId: string, slug: string): void {
  try {
    localStorage.removeItem(recentKey(userId, slug));
  } catch {
    // Nothing to clear.
  }
}
