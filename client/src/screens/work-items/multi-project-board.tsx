/**
 * A work-items board over several projects: the workspace views (all, assigned, created,
 * subscribed, saved ones) and a member's work on their profile. Every layout of the project
 * board — list, kanban, spreadsheet, calendar, timeline — over the work items of every project
 * the caller is a member of, from the same local cache (stores/work-items, one entry per project,
 * kept live by each project's channel) and the same pipeline, so filters, grouping and layouts
 * repaint without asking the server. While the projects load, the server's workspace list
 * (`GET /issues/`) paints the first page.
 *
 * Each row, card and bar sits in its own project's context (<ItemProject>: identifier, states,
 * labels, the caller's rights there), so inline editing works per project. What can't span
 * projects is left out: creating items (which project?), the bulk bar (bulk calls are per
 * project), grouping by one project's states (state groups instead), and kanban drops onto
 * another project's state, label, cycle or module.
 */
import { calendarDate, type GroupByKey, ROLE } from "@tideline/shared";
import clsx from "clsx";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useSnapshot } from "valtio";
import { watchProjectLive } from "../../stores/live-board";
import { loadProjectMeta, projectMeta } from "../../stores/project-meta";
import { fetchProjects, type Project, projects } from "../../stores/projects";
import { session } from "../../stores/session";
import {
  clearFilters,
  defaultView,
  flushWorkItemView,
  loadWorkItemView,
  type StoredFilters,
  setDisplayFilters,
  workItemView,
} from "../../stores/work-item-view";
import {
  getWorkItem,
  loadProjectWorkItems,
  upsertWorkItems,
  useProjectsWorkItems,
  type WorkItem,
  type WorkItemListPage,
  watchProjectFocus,
} from "../../stores/work-items";
import { fetchWorkspaceIssues } from "../../stores/workspace-views";
import { BoardBody, BoardControls, BoardFilterBar, useBoardSelection } from "./board-parts";
import {
  buildLookups,
  cachedTranslate,
  type Lookups,
  mergeLookups,
  SelectionContext,
  WorkItemsContext,
  type WorkItemsContextValue,
} from "./context";
import { useBoardData } from "./use-board-data";
import "./work-items.css";
import "./work-items-board.css";

const WorkItemPeek = lazy(() => import("../work-item/peek").then((m) => ({ default: m.WorkItemPeek })));

/** What narrows the board before the user's filters: a built-in view's "me", a profile's member. */
export type MultiProjectScope = {
  /** Stable while the scope means the same (memo key). */
  key: string;
  /** Does an item belong to the scope? (Absent: every item of the projects.) */
  includes?: (item: WorkItem) => boolean;
  /** The same scope as query parameters of the workspace list (the first paint). */
  query: Record<string, string>;
  /** False while the scope itself is still loading (e.g. the ids of subscribed items). */
  ready: boolean;
};

export type MultiProjectBoardProps = {
  slug: string;
  /** The settings' key in stores/work-item-view: saved per user, or a seeded working copy (saved views). */
  viewKey: string;
  scope: MultiProjectScope;
  /** The screen's header: the board's controls (search, layouts, filters, display) go in its actions. */
  renderHeader: (parts: { controls: ReactNode; total: number | null }) => ReactNode;
  /** Between the header and the filter chips (e.g. the views' tab strip). */
  above?: ReactNode;
  /** At the end of the filter chips row (a saved view's "Update view"). */
  filterActions?: ReactNode;
  /** Filters, display and layout can't change (a locked view): their controls say this instead. */
  lockedReason?: string;
  /** Shown when the scope holds no items at all. */
  empty: { title: string; description?: string; action?: ReactNode };
};

export function MultiProjectBoard({
  slug,
  viewKey,
  scope,
  renderHeader,
  above,
  filterActions,
  lockedReason,
  empty,
}: MultiProjectBoardProps): ReactNode {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const peekId = searchParams.get("peekId");
  const projectsSnap = useSnapshot(projects);
  const metaSnap = useSnapshot(projectMeta);
  const viewSnap = useSnapshot(workItemView);
  const sessionSnap = useSnapshot(session);
  const [search, setSearch] = useState("");
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // The projects whose items the caller sees here: those they are a member of, not archived.
  const projectList = projectsSnap.bySlug[slug] as readonly Project[] | undefined;
  const memberProjects = useMemo(() => (projectList ?? []).filter((p) => p.is_member && !p.archived_at), [projectList]);
  const projectIds = useMemo(() => memberProjects.map((p) => p.id), [memberProjects]);
  const projectKey = projectIds.join(",");

  useEffect(() => {
    if (!projects.bySlug[slug]) void fetchProjects(slug).catch(() => setLoadFailed(true));
  }, [slug]);

  // Every project's states, labels and members and its items, live, refreshed on focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: projectKey stands for the ids; attempt retries
  useEffect(() => {
    setLoadFailed(false);
    const fail = () => setLoadFailed(true);
    const stops: (() => void)[] = [];
    for (const id of projectIds) {
      loadProjectMeta(slug, id, attempt > 0).catch(fail);
      loadProjectWorkItems(slug, id, { force: attempt > 0 }).catch(fail);
      stops.push(watchProjectFocus(slug, id), watchProjectLive(slug, id));
    }
    return () => {
      for (const stop of stops) stop();
    };
  }, [slug, projectKey, attempt]);

  // The board's settings (a saved view's working copy is seeded by its screen and never loaded).
  useEffect(() => {
    loadWorkItemView(slug, viewKey).catch(() => undefined);
    const unloading = () => flushWorkItemView(viewKey, true);
    // beforeunload first: the page is still whole there (a request from pagehide, the fallback,
    // can be dropped on its way through the service worker while the page goes).
    window.addEventListener("beforeunload", unloading);
    window.addEventListener("pagehide", unloading);
    return () => {
      window.removeEventListener("beforeunload", unloading);
      window.removeEventListener("pagehide", unloading);
      flushWorkItemView(viewKey);
    };
  }, [slug, viewKey]);

  const view = viewSnap.byKey[viewKey] ?? defaultView(viewKey);
  const viewFilters = view.filters as StoredFilters;
  const today = calendarDate(new Date());

  // ───── lookups: each project's, and their union for the board ─────
  const metaReady = projectIds.every((id) => metaSnap.byProject[id]?.status === "ready");
  // biome-ignore lint/correctness/useExhaustiveDependencies: metaSnap changes when any project's metadata does
  const perProject = useMemo(() => {
    const out = new Map<string, Lookups>();
    for (const id of projectIds)
      out.set(id, buildLookups(projectMeta.byProject[id] as (typeof projectMeta.byProject)[string] | undefined));
    return out;
  }, [projectKey, metaSnap.byProject]);
  const lookups = useMemo(
    () =>
      mergeLookups(
        projectIds.map((id) => perProject.get(id) as Lookups),
        memberProjects.map((p) => ({ id: p.id, name: p.name, identifier: p.identifier, logo_props: p.logo_props })),
      ),
    [perProject, projectIds, memberProjects],
  );
  const identifierOf = useCallback(
    (projectId: string) => memberProjects.find((p) => p.id === projectId)?.identifier,
    [memberProjects],
  );

  // ───── items ─────
  const { items: allItems, status, version } = useProjectsWorkItems(projectIds);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version marks in-place changes of cached items
  const items = useMemo(() => {
    const includes = scope.includes;
    return allItems.filter((item) => !item.is_epic && (!includes || includes(item)));
  }, [allItems, version, scope.key, scope.includes]);

  const { selection } = useBoardSelection(items, viewKey);

  // ───── context: the board's and each project's ─────
  const openPeek = useCallback(
    (id: string) =>
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          next.set("peekId", id);
          const item = getWorkItem(id);
          if (item) next.set("peekProject", item.project_id);
          return next;
          // At once, not as a transition (see work-items-board.tsx openPeek).
        },
        { flushSync: true },
      ),
    [setSearchParams],
  );
  const closePeek = useCallback(
    () =>
      setSearchParams((params) => {
        const next = new URLSearchParams(params);
        next.delete("peekId");
        next.delete("peekProject");
        return next;
      }),
    [setSearchParams],
  );
  const rowT = useMemo(() => cachedTranslate((key, options) => (options ? t(key, options) : t(key))), [t]);
  const userId = sessionSnap.user?.id ?? null;
  const ctxValue = useMemo<WorkItemsContextValue>(() => {
    const base: WorkItemsContextValue = {
      t: rowT,
      slug,
      projectId: "",
      identifier: "",
      canEdit: memberProjects.some((p) => (p.member_role ?? 0) >= ROLE.member),
      isAdmin: false,
      userId,
      lookups,
      props: view.display_properties,
      today,
      peekId,
      openPeek,
      openCreate: () => undefined,
      scope: { kind: "project" },
      scopeDefaults: {},
      viewKey,
      canAdd: false,
      noSelection: true,
    };
    // One context per project, built once per change of the board's (rows are memoised on it).
    const cache = new Map<string, WorkItemsContextValue>();
    base.forProject = (projectId) => {
      let value = cache.get(projectId);
      if (!value) {
        const project = memberProjects.find((p) => p.id === projectId);
        const role = project?.member_role ?? 0;
        value = {
          ...base,
          projectId,
          identifier: project?.identifier ?? "",
          canEdit: role >= ROLE.member,
          isAdmin: role >= ROLE.admin,
          lookups: perProject.get(projectId) ?? buildLookups(undefined),
          project: project
            ? { id: project.id, name: project.name, identifier: project.identifier, logo_props: project.logo_props }
            : undefined,
          forProject: undefined,
        };
        cache.set(projectId, value);
      }
      return value;
    };
    return base;
  }, [
    rowT,
    slug,
    memberProjects,
    userId,
    lookups,
    perProject,
    view.display_properties,
    today,
    peekId,
    openPeek,
    viewKey,
  ]);

  // ───── the pipeline, and the server's workspace list while the projects load ─────
  const fetchPreview = useCallback(
    async (query: Record<string, string>) => {
      const page = (await fetchWorkspaceIssues(slug, { ...query, ...scope.query })) as unknown as WorkItemListPage;
      // Items of projects still loading go into the cache, so the peek finds them at once.
      const byProject = new Map<string, WorkItem[]>();
      for (const item of flatten(page.results))
        byProject.set(item.project_id, [...(byProject.get(item.project_id) ?? []), item]);
      for (const [projectId, list] of byProject) upsertWorkItems(projectId, list);
      return page;
    },
    [slug, scope.query],
  );
  const localReady = status === "ready" && metaReady && projectList !== undefined && scope.ready;
  const { layout, display, groupBy, subGroupBy, shown, ready, liveCount, filtered } = useBoardData({
    items,
    version,
    view,
    viewKey,
    search,
    lookups,
    today,
    identifierOf,
    // One project's states make no columns here: a state_id choice groups by state group.
    mapGroupBy: (key: GroupByKey | null) => (key === "state_id" ? "state__group" : key),
    localReady,
    metaReady,
    previewWanted: !localReady && view.status !== "loading",
    fetchPreview,
  });

  const controls = (
    <BoardControls
      ctx={ctxValue}
      search={search}
      onSearch={setSearch}
      placeholder={t("workItems.searchShort")}
      layout={layout}
      lockedReason={lockedReason}
      filters={viewFilters}
      display={display}
      properties={view.display_properties}
    />
  );
  const chips = ready ? <BoardFilterBar filters={viewFilters} actions={filterActions} /> : null;

  const peekProject = (peekId && getWorkItem(peekId)?.project_id) || searchParams.get("peekProject");

  return (
    <WorkItemsContext.Provider value={ctxValue}>
      <SelectionContext.Provider value={selection}>
        <div className={clsx("wi-screen", "wib-multi", `wi-layout-${layout}`, lockedReason && "wib-locked")}>
          {renderHeader({ controls, total: ready ? shown.total : null })}
          {above}
          {chips}
          <div className="wi-body">
            <BoardBody
              layout={layout}
              ready={ready}
              localReady={localReady}
              loadFailed={loadFailed}
              onRetry={() => setAttempt((n) => n + 1)}
              shown={shown}
              groupBy={groupBy}
              subGroupBy={subGroupBy}
              display={display}
              liveCount={liveCount}
              filtered={filtered}
              empty={empty}
              canAdd={false}
              onAdd={() => undefined}
              onClearFilters={() => {
                clearFilters(slug, viewKey);
                setSearch("");
                if (display.type !== null || !display.sub_issue)
                  setDisplayFilters(slug, viewKey, { type: null, sub_issue: true });
              }}
            />
          </div>
        </div>
        {peekId && peekProject ? (
          <Suspense fallback={null}>
            <WorkItemPeek workspaceSlug={slug} projectId={peekProject} workItemId={peekId} onClose={closePeek} />
          </Suspense>
        ) : null}
      </SelectionContext.Provider>
    </WorkItemsContext.Provider>
  );
}

/** Every item of a list answer, grouped or not. */
function flatten(results: WorkItemListPage["results"]): WorkItem[] {
  if (Array.isArray(results)) return results;
  const out: WorkItem[] = [];
  for (const cell of Object.values(results)) {
    const inner = (cell as { results: unknown }).results;
    if (Array.isArray(inner)) out.push(...(inner as WorkItem[]));
    else for (const sub of Object.values(inner as Record<string, { results: WorkItem[] }>)) out.push(...sub.results);
  }
  return out;
}
