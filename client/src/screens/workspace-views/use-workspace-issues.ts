/**
 * The workspace work-item list of one query (`GET /issues/`), paged by cursor as the user
 * scrolls. Live: the projects of the loaded rows are watched (watchProjectLive, shared with any
 * board open on them); a work-item event in one of them reloads the loaded pages (debounced),
 * since an edit can move a row in or out of the filters or change its place in the order. The
 * list also reloads when the window regains focus (events sent while the tab slept are lost).
 *
 * Rows read the work-items cache when it holds a copy at least as new, so a change made in the
 * peek shows in the row at once, before the reload answers.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { watchProjectLive } from "../../stores/live-board";
import { loadProjectMeta } from "../../stores/project-meta";
import { upsertWorkItems, type WorkItem, workItems } from "../../stores/work-items";
import { cursorsFor, fetchWorkspaceIssues, mergePage, type PagedList } from "../../stores/workspace-views";

export type IssuesState = {
  status: "loading" | "ready" | "error";
  list: PagedList | null;
  loadingMore: boolean;
};

const RELOAD_DELAY = 600;

export function useWorkspaceIssues(slug: string, query: Record<string, string> | null) {
  const key = query ? JSON.stringify(query) : "";
  const [state, setState] = useState<IssuesState>({ status: "loading", list: null, loadingMore: false });
  // Bumped by retry(): loads the first page again after a failure.
  const [attempt, setAttempt] = useState(0);
  // The answer of an older query must never land on a newer one.
  const generation = useRef(0);
  const latest = useRef({ state, query });
  latest.current = { state, query };

  /** Items of projects the cache hasn't loaded go into it, so the peek and the detail find them. */
  const remember = useCallback((items: readonly WorkItem[]) => {
    const byProject = new Map<string, WorkItem[]>();
    for (const item of items) {
      if (workItems.status[item.project_id] === "ready" || workItems.status[item.project_id] === "loading") continue;
      const list = byProject.get(item.project_id) ?? [];
      list.push(item);
      byProject.set(item.project_id, list);
    }
    for (const [projectId, list] of byProject) upsertWorkItems(projectId, list);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the query
  useEffect(() => {
    if (!query) return;
    const gen = ++generation.current;
    setState({ status: "loading", list: null, loadingMore: false });
    fetchWorkspaceIssues(slug, query)
      .then((page) => {
        if (gen !== generation.current) return;
        remember(page.results);
        setState({ status: "ready", list: mergePage(null, page), loadingMore: false });
      })
      .catch(() => gen === generation.current && setState({ status: "error", list: null, loadingMore: false }));
  }, [slug, key, remember, attempt]);

  const loadMore = useCallback(() => {
    const { state: current, query: q } = latest.current;
    if (!q || current.loadingMore || !current.list?.next) return;
    const gen = generation.current;
    const cursor = current.list.next;
    setState((s) => ({ ...s, loadingMore: true }));
    fetchWorkspaceIssues(slug, { ...q, cursor })
      .then((page) => {
        if (gen !== generation.current) return;
        remember(page.results);
        setState((s) => ({ status: "ready", list: mergePage(s.list, page), loadingMore: false }));
      })
      .catch(() => gen === generation.current && setState((s) => ({ ...s, loadingMore: false })));
  }, [slug, remember]);

  /** Reload every page loaded so far (in parallel), replacing the rows in one go. */
  const reload = useCallback(() => {
    const { state: current, query: q } = latest.current;
    if (!q || current.status !== "ready") return;
    const gen = ++generation.current;
    const cursors = cursorsFor(current.list?.items.length ?? 0);
    Promise.all(cursors.map((cursor) => fetchWorkspaceIssues(slug, { ...q, cursor })))
      .then((pages) => {
        if (gen !== generation.current) return;
        let list: PagedList | null = null;
        for (const page of pages) {
          remember(page.results);
          list = mergePage(list, page);
        }
        setState({ status: "ready", list, loadingMore: false });
      })
      .catch(() => {
        // A failed background reload keeps what is shown; the next change or focus tries again.
      });
  }, [slug, remember]);

  const items = state.list?.items;
  const projectIds = useMemo(() => [...new Set((items ?? []).map((i) => i.project_id))].sort(), [items]);
  const projectKey = projectIds.join(",");

  // Names of states, labels and people come from each shown project's metadata (loaded once per project).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the ids
  useEffect(() => {
    for (const id of projectIds) void loadProjectMeta(slug, id).catch(() => undefined);
  }, [slug, projectKey]);

  // Live: one (shared) subscription per shown project; any work-item event reloads, debounced.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the ids
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current && reloadRef.current(), RELOAD_DELAY);
    };
    const stops = projectIds.map((id) =>
      watchProjectLive(slug, id, {
        onEvent: (event) => {
          if (event.type.startsWith("issue.")) schedule();
        },
      }),
    );
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [slug, projectKey]);

  const reloadRef = useRef(reload);
  reloadRef.current = reload;

  // Revalidate on focus (not while hidden), at most every two seconds.
  useEffect(() => {
    let last = Date.now();
    const revalidate = () => {
      if (document.visibilityState !== "visible" || Date.now() - last < 2000) return;
      last = Date.now();
      reloadRef.current();
    };
    window.addEventListener("focus", revalidate);
    document.addEventListener("visibilitychange", revalidate);
    return () => {
      window.removeEventListener("focus", revalidate);
      document.removeEventListener("visibilitychange", revalidate);
    };
  }, []);

  // The cache's copy when it is at least as new (an edit made in the peek shows at once).
  const snap = useSnapshot(workItems);
  const version = snap.globalVersion;
  const rows = useMemo(() => {
    void version;
    return (items ?? []).map((row) => {
      const cached = workItems.cache.byId.get(row.id);
      return cached && cached.updated_at >= row.updated_at ? cached : row;
    });
  }, [items, version]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return { ...state, rows, loadMore, reload, retry };
}
