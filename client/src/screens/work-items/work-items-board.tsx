/**
 * The work-items board: a project's work items — or one cycle's, or one module's — in list, kanban
 * or spreadsheet layout. The project screen, a cycle's and a module's work-items screens are this
 * one board with a different scope. Every item of the project is in the local cache
 * (stores/work-items); the scope, filtering, grouping and ordering happen here with the shared
 * logic (board-scope.ts, pipeline.ts), so a filter or layout change repaints without asking the
 * server. Each scope has its own view settings (stores/work-item-view, by view key). The peek
 * opens with ?peekId=. A cycle or module board can show a details panel at its right.
 */
import { calendarDate, type DisplayFilters, projectChannelName, ROLE } from "@tideline/shared";
import clsx from "clsx";
import { FolderKanban, PanelRight, Plus, Settings, X } from "lucide-react";
import {
  type ComponentType,
  lazy,
  type ReactElement,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { useSnapshot } from "valtio";
import { OutboxChip } from "../../components/offline/waiting-to-sync";
import { Button, EmptyState } from "../../components/ui";
import { useCreateIntent } from "../../lib/create-intent";
import { closeStartWindow } from "../../lib/offline/last-answers";
import { dropPrepaint } from "../../lib/prepaint";
import { useIsNarrow } from "../../lib/use-media";
import { whenIdle } from "../../lib/yield";
import { loadCycles, useProjectCycles } from "../../stores/cycles";
import { watchProjectLive } from "../../stores/live-board";
import { loadModules, useProjectModules } from "../../stores/modules";
import { loadProjectMeta, projectMeta } from "../../stores/project-meta";
import { fetchProject, projects } from "../../stores/projects";
import { session } from "../../stores/session";
import { setPanelCollapsed, usePanelCollapsed } from "../../stores/sidebar-preferences";
import {
  clearFilters,
  defaultView,
  flushWorkItemView,
  loadWorkItemView,
  type StoredFilters,
  setDisplayFilters,
  viewKeyOf,
  workItemView,
} from "../../stores/work-item-view";
import {
  fetchWorkItemsPage,
  loadProjectWorkItems,
  useProjectWorkItems,
  type WorkItemInput,
  watchProjectFocus,
} from "../../stores/work-items";
import { ProjectAnalyticsButton } from "../analytics/project-analytics";
import { SaveAsViewButton } from "../views/save-as-view";
import { JoinProjectState } from "../workspace/components/join-project-state";
import { ProjectLogo } from "../workspace/components/logos";
import { PageHeader } from "../workspace/components/page-header";
import { Skeleton } from "../workspace/components/skeleton";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import {
  BoardBody,
  type BoardBodyProps,
  BoardControls,
  BoardFilterBar,
  filteredNow,
  useBoardSelection,
} from "./board-parts";
import {
  type BoardScope,
  itemsInScope,
  scopeDefaults,
  scopeFilters,
  scopeListPath,
  withScopeDefaults,
} from "./board-scope";
import { BulkBar } from "./bulk-bar";
import {
  buildLookups,
  cachedTranslate,
  SelectionContext,
  WorkItemsContext,
  type WorkItemsContextValue,
} from "./context";
import { CreateWorkItemModal } from "./create-work-item-modal";
import { LiveIndicator } from "./live-indicator";
import { useBoardData } from "./use-board-data";
import "./work-items.css";
import "./work-items-board.css";

export type { BoardScope } from "./board-scope";

export type WorkItemsBoardProps = {
  scope: BoardScope;
  /**
   * Breadcrumb pieces shown after the project crumb and before the title (e.g. <Link>Cycles</Link>);
   * the board puts the separators around them and ends the trail with the title as the h1.
   */
  crumbs?: ReactNode;
  /** The h1 / document title of the screen ("Work items", the cycle's name, the module's name). */
  title: string;
  /** Extra header actions shown before the Add button (e.g. "Add existing work items"). */
  actions?: ReactNode;
  /**
   * A details panel to the right of the board (cycle or module details). The board renders a toggle
   * button in the header; open/closed is kept per person and kind (stores/sidebar-preferences.ts:
   * the `cycle` / `module` panels), open by default on desktop, closed by default on phones (<768px,
   * where it opens as an overlay drawer).
   */
  panel?: ReactNode;
  /** False hides create, quick add and "c" (e.g. a completed cycle takes no new items). Default true. */
  canAdd?: boolean;
  /** Shown instead of the generic "no work items" empty state when the scope holds no items. */
  empty?: { title: string; description?: string; action?: ReactNode };
  /**
   * Shown at the end of the filter chips row (a saved view's "Update view" / "Reset"). Without it,
   * a filtered board of a project with views offers "Save as view" there.
   */
  filterActions?: ReactNode;
  /** Filters, display and layout can't change (a locked view): their controls say this instead. */
  lockedReason?: string;
  /** The Add button's words when the board makes something else than work items (e.g. "Add epic"). */
  addLabel?: string;
};

type PeekProps = { workspaceSlug: string; projectId: string; workItemId: string; onClose: () => void };

// The peek belongs to the work-item detail; it is loaded only if (and once) that module exists.
const peekModules = import.meta.glob<{ WorkItemPeek: ComponentType<PeekProps> }>("../work-item/peek.tsx");
const peekLoader = peekModules["../work-item/peek.tsx"];
const WorkItemPeek = peekLoader ? lazy(() => peekLoader().then((m) => ({ default: m.WorkItemPeek }))) : null;

export function WorkItemsBoard({
  scope,
  crumbs,
  title,
  actions,
  panel,
  canAdd: canAddProp = true,
  empty,
  filterActions,
  lockedReason,
  addLabel,
}: WorkItemsBoardProps): ReactElement {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  // Stable while the scope is the same, however the caller builds the object.
  const scopeId =
    scope.kind === "cycle"
      ? scope.cycleId
      : scope.kind === "module"
        ? scope.moduleId
        : scope.kind === "view"
          ? scope.viewId
          : "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: scope is identified by its kind and id
  const boardScope = useMemo<BoardScope>(() => scope, [scope.kind, scopeId]);
  const viewKey = viewKeyOf(projectId, boardScope);
  const defaults = useMemo(() => scopeDefaults(boardScope), [boardScope]);
  const { slug, role } = useCurrentWorkspace();
  const [searchParams, setSearchParams] = useSearchParams();
  const peekId = searchParams.get("peekId");
  const projectsSnap = useSnapshot(projects);
  const metaSnap = useSnapshot(projectMeta);
  const viewSnap = useSnapshot(workItemView);
  const sessionSnap = useSnapshot(session);
  const { items: projectItems, status, version } = useProjectWorkItems(projectId);
  const [loadFailed, setLoadFailed] = useState(false);
  const [search, setSearch] = useState("");
  const [createOpen, setCreateOpen] = useState(false);
  const [prefill, setPrefill] = useState<Partial<WorkItemInput> | undefined>(undefined);
  const narrow = useIsNarrow();
  const [panelOpen, setPanelOpen] = usePanelOpen(scope.kind, narrow);
  const panelId = `wib-panel-${scope.kind}`;
  const drawerRef = useRef<HTMLElement>(null);
  // On a phone the panel is a drawer over the board: it takes the focus when it opens, and
  // Escape (when no dialog or menu is open above it) gives the board back.
  useEffect(() => {
    if (!narrow || !panelOpen) return;
    drawerRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (document.querySelector("[role=dialog], [data-radix-popper-content-wrapper]")) return;
      setPanelOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [narrow, panelOpen, setPanelOpen]);

  const project = projectsSnap.bySlug[slug]?.find((p) => p.id === projectId) ?? projectsSnap.details[projectId];
  const missing = projectsSnap.missing[projectId];
  const isMember = project?.is_member ?? false;
  // A board that can't show (not found, not joined) will never paint: its start is over all the
  // same, so the server's checks of what it started from go now (lib/offline/last-answers.ts).
  const blocked = Boolean(missing) || (project !== undefined && !isMember);
  // Nor does the last visit's board painted before the app stay over it (lib/prepaint.ts).
  useEffect(() => {
    if (blocked || loadFailed) dropPrepaint();
  }, [blocked, loadFailed]);
  useEffect(() => {
    if (blocked) closeStartWindow();
  }, [blocked]);

  // The project itself: from the sidebar's list, or fetched when it isn't there (deep link).
  useEffect(() => {
    if (!projects.bySlug[slug]?.some((p) => p.id === projectId))
      void fetchProject(slug, projectId).catch(() => undefined);
  }, [slug, projectId]);

  // Its states/labels/members and every work item; refreshed on focus.
  useEffect(() => {
    if (!isMember) return;
    setLoadFailed(false);
    const fail = () => setLoadFailed(true);
    loadProjectMeta(slug, projectId).catch(fail);
    // Cycle and module groups, filters and names; the board works without them.
    loadCycles(slug, projectId).catch(() => undefined);
    loadModules(slug, projectId).catch(() => undefined);
    loadProjectWorkItems(slug, projectId).catch(fail);
    const stop = watchProjectFocus(slug, projectId);
    const stopLive = watchProjectLive(slug, projectId);
    return () => {
      stop();
      stopLive();
    };
  }, [slug, projectId, isMember]);

  // This board's view settings (going from one cycle to another reloads only these).
  useEffect(() => {
    if (!isMember) return;
    loadWorkItemView(slug, viewKey).catch(() => undefined);
    // A view change made just before the tab closes is still saved.
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
  }, [slug, viewKey, isMember]);

  useEffect(() => {
    if (project) document.title = `${project.name} · ${title}`;
  }, [project, title]);

  const meta = metaSnap.byProject[projectId];
  const view = viewSnap.byKey[viewKey] ?? defaultView();
  const display = view.display_filters as DisplayFilters;
  const viewFilters = view.filters as StoredFilters;
  const cycleList = useProjectCycles(projectId);
  const moduleList = useProjectModules(projectId);
  const lookups = useMemo(
    () => buildLookups(meta as (typeof projectMeta.byProject)[string] | undefined, cycleList, moduleList),
    [meta, cycleList, moduleList],
  );
  const today = calendarDate(new Date());
  // The scope is an implicit filter: never a chip, never saved into the user's filters.
  // biome-ignore lint/correctness/useExhaustiveDependencies: version marks in-place changes of cached items
  const items = useMemo(
    () => itemsInScope(projectItems, boardScope, today),
    [projectItems, version, boardScope, today],
  );

  // ───── selection ─────
  const { selection, selected, clearSelection } = useBoardSelection(items, viewKey);

  // ───── actions ─────
  const openPeek = useCallback(
    (id: string) =>
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          next.set("peekId", id);
          return next;
        },
        // Rendered at once, not as a transition: a click's answer must not wait behind the
        // board's other work (the start's catch-up, live events), and the peek's code, when not
        // loaded yet, is asked for in this render (bench browser-board: first interaction).
        { replace: false, flushSync: true },
      ),
    [setSearchParams],
  );
  const closePeek = useCallback(
    () =>
      setSearchParams((params) => {
        const next = new URLSearchParams(params);
        next.delete("peekId");
        return next;
      }),
    [setSearchParams],
  );
  // A new item starts in the board's cycle or module; a group's values go over that.
  const openCreate = useCallback(
    (values?: Partial<WorkItemInput>) => {
      setPrefill(withScopeDefaults(defaults, values));
      setCreateOpen(true);
    },
    [defaults],
  );

  const canEdit = (project?.member_role ?? 0) >= ROLE.member;
  // Analytics: workspace and project members and admins (product-domain §6), not guests.
  const canSeeAnalytics = canEdit && (role ?? 0) >= ROLE.member;
  const canAdd = canEdit && canAddProp;
  const rowT = useMemo(() => cachedTranslate((key, options) => (options ? t(key, options) : t(key))), [t]);
  const ctxValue = useMemo<WorkItemsContextValue>(
    () => ({
      t: rowT,
      slug,
      projectId,
      identifier: project?.identifier ?? "",
      canEdit,
      isAdmin: (project?.member_role ?? 0) >= ROLE.admin,
      userId: sessionSnap.user?.id ?? null,
      lookups,
      props: view.display_properties,
      today,
      peekId,
      openPeek,
      openCreate,
      scope: boardScope,
      scopeDefaults: defaults,
      viewKey,
      canAdd: canAddProp,
    }),
    [
      rowT,
      slug,
      projectId,
      project?.identifier,
      project?.member_role,
      canEdit,
      sessionSnap.user?.id,
      lookups,
      view.display_properties,
      today,
      peekId,
      openPeek,
      openCreate,
      boardScope,
      defaults,
      viewKey,
      canAddProp,
    ],
  );

  // The command palette's "Create work item" for this project lands on its board (lib/create-intent.ts).
  useCreateIntent(
    "workItem",
    projectId,
    canAdd && (scope.kind === "project" || scope.kind === "cycle" || scope.kind === "module"),
    () => openCreate(undefined),
  );

  // "c" opens the create modal when no field has the focus; Escape clears a selection.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (document.querySelector("[role=dialog], [data-radix-popper-content-wrapper]")) return;
      if (event.key === "c" && canAdd) {
        event.preventDefault();
        openCreate(undefined);
      } else if (event.key === "Escape" && selected.size) {
        clearSelection();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canAdd, openCreate, selected.size, clearSelection]);

  // ───── the pipeline, and the server's first page while the cache loads ─────
  const fetchPreview = useCallback(
    (query: Record<string, string>) => fetchWorkItemsPage(slug, projectId, query, scopeListPath(boardScope)),
    [slug, projectId, boardScope],
  );
  const localReady = status === "ready" && meta?.status === "ready";
  const { layout, groupBy, subGroupBy, shown, ready, liveCount, filtered } = useBoardData({
    items,
    version,
    view,
    viewKey,
    search,
    lookups,
    today,
    projectIdentifier: project?.identifier,
    localReady,
    metaReady: meta?.status === "ready",
    previewWanted: status !== "ready" && isMember && view.status !== "loading",
    fetchPreview,
  });

  // The peek's code, once the board is there and the page has a moment: the first click on an
  // item then opens it without a download and its compile (bench browser-board: first interaction).
  useEffect(() => {
    if (!ready || !peekLoader) return;
    return whenIdle(() => void peekLoader().catch(() => undefined));
  }, [ready]);

  const header = (
    <PageHeader
      actions={
        project && isMember ? (
          <>
            <BoardControls
              ctx={ctxValue}
              search={search}
              onSearch={setSearch}
              // A cycle's or module's board has more controls: the short word leaves room for the title.
              placeholder={scope.kind === "project" ? t("workItems.search") : t("workItems.searchShort")}
              layout={layout}
              lockedReason={lockedReason}
              filters={viewFilters}
              display={display}
              properties={view.display_properties}
            />
            {actions}
            {canAdd ? (
              <Button size="sm" onClick={() => openCreate(undefined)} title={t("workItems.addShortcut")}>
                <Plus size={14} aria-hidden />
                <span className="wi-btn-text">{addLabel ?? t("workItems.add")}</span>
              </Button>
            ) : null}
            {scope.kind === "project" && canSeeAnalytics ? (
              <ProjectAnalyticsButton slug={slug} projectId={projectId} projectName={project.name} />
            ) : null}
            <Link
              className="wi-icon-btn wi-settings-link"
              to={`/${slug}/projects/${projectId}/settings/`}
              aria-label={t("workItems.projectSettings")}
              title={t("workItems.projectSettings")}
            >
              <Settings size={15} aria-hidden />
            </Link>
            {panel ? (
              <button
                type="button"
                className={clsx("wi-icon-btn", "wib-panel-toggle", panelOpen && "is-on")}
                aria-pressed={panelOpen}
                aria-controls={panelId}
                aria-label={panelOpen ? t("board.panel.hide") : t("board.panel.show")}
                title={panelOpen ? t("board.panel.hide") : t("board.panel.show")}
                onClick={() => setPanelOpen(!panelOpen)}
              >
                <PanelRight size={15} aria-hidden />
              </button>
            ) : null}
          </>
        ) : null
      }
    >
      <Link className="crumb" to={`/${slug}/projects/`}>
        <FolderKanban size={14} aria-hidden />
        {t("projects.list.title")}
      </Link>
      <span className="crumb-sep">/</span>
      {project && scope.kind !== "project" ? (
        // A cycle's or module's board gives its room to the title: the project shows as its logo,
        // named by the tooltip and for screen readers, and leads back to the project's board.
        <Link
          className="crumb wi-crumb-project wi-crumb-logo"
          to={`/${slug}/projects/${projectId}/issues/`}
          aria-label={project.name}
          title={project.name}
        >
          <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
        </Link>
      ) : project ? (
        <span className="crumb wi-crumb-project">
          <ProjectLogo name={project.name} logo={project.logo_props} size={18} />
          <span className="wi-crumb-name">{project.name}</span>
        </span>
      ) : (
        <Skeleton width={120} />
      )}
      <span className="crumb-sep">/</span>
      {crumbs ? (
        <>
          {crumbs}
          <span className="crumb-sep">/</span>
        </>
      ) : null}
      <h1 className="wi-title" title={title}>
        {title}
      </h1>
      {ready ? <span className="wi-total">{shown.total}</span> : null}
      {project && isMember ? <LiveIndicator channel={projectChannelName(projectId)} /> : null}
      <OutboxChip />
    </PageHeader>
  );

  if (missing) {
    return (
      <div className="wi-screen">
        {header}
        <EmptyState
          icon={FolderKanban}
          title={t("projects.settings.notFound")}
          description={t("projects.settings.notFoundHint")}
          action={
            <Link className="btn btn-secondary" to={`/${slug}/projects/`}>
              {t("projects.settings.backToProjects")}
            </Link>
          }
        />
      </div>
    );
  }
  if (project && !isMember) {
    return (
      <div className="wi-screen">
        {header}
        <JoinProjectState slug={slug} projectId={project.id} workspaceRole={role ?? ROLE.guest} />
      </div>
    );
  }

  // "Save as view" (a filtered project, cycle or module board of a project with views), or the
  // caller's own actions. A cycle's or module's board saves its scope as a filter too, so the view
  // shows the same items (a module board's own module filter, when set, is kept as the user chose).
  const saveAsView =
    !filterActions &&
    (scope.kind === "project" || scope.kind === "cycle" || scope.kind === "module") &&
    project?.issue_views_view &&
    canEdit &&
    filteredNow(viewFilters, "", display) ? (
      <SaveAsViewButton
        slug={slug}
        projectId={projectId}
        settings={{
          filters: { ...(scopeFilters(boardScope) as StoredFilters), ...viewFilters },
          display_filters: display,
          display_properties: view.display_properties,
        }}
      />
    ) : null;
  const chipsExtra = filterActions ?? saveAsView ?? undefined;
  const chips = ready ? <BoardFilterBar filters={viewFilters} actions={chipsExtra} /> : null;

  const bodyBase: BoardBodyProps = {
    layout,
    ready,
    localReady,
    loadFailed,
    onRetry: () => {
      setLoadFailed(false);
      loadProjectMeta(slug, projectId, true).catch(() => setLoadFailed(true));
      loadProjectWorkItems(slug, projectId, { force: true }).catch(() => setLoadFailed(true));
    },
    shown,
    groupBy,
    subGroupBy,
    display,
    liveCount,
    filtered,
    empty,
    canAdd,
    onAdd: () => openCreate(undefined),
    addLabel,
    onClearFilters: () => {
      clearFilters(slug, viewKey);
      setSearch("");
      if (display.type !== null || !display.sub_issue)
        setDisplayFilters(slug, viewKey, { type: null, sub_issue: true });
    },
  };
  const body = !project ? <BoardBody {...bodyBase} ready={false} /> : <BoardBody {...bodyBase} />;
  return (
    <WorkItemsContext.Provider value={ctxValue}>
      <SelectionContext.Provider value={selection}>
        <div
          className={clsx(
            "wi-screen",
            `wi-layout-${layout}`,
            (actions || panel) && "wib-extras",
            lockedReason && "wib-locked",
          )}
        >
          {header}
          {panel ? (
            <div className={clsx("wib-split", panelOpen && "has-panel")}>
              <div className="wib-main">
                {chips}
                <div className="wi-body">{body}</div>
                {canEdit ? <BulkBar /> : null}
              </div>
              {panelOpen ? (
                <>
                  {narrow ? (
                    <button
                      type="button"
                      className="wib-panel-backdrop"
                      aria-label={t("board.panel.hide")}
                      tabIndex={-1}
                      onClick={() => setPanelOpen(false)}
                    />
                  ) : null}
                  <aside
                    id={panelId}
                    className="wib-panel"
                    aria-label={t("board.panel.label")}
                    ref={drawerRef}
                    tabIndex={-1}
                  >
                    {narrow ? (
                      <div className="wib-drawer-head">
                        <button
                          type="button"
                          className="wi-icon-btn"
                          aria-label={t("board.panel.hide")}
                          title={t("board.panel.hide")}
                          onClick={() => setPanelOpen(false)}
                        >
                          <X size={18} aria-hidden />
                        </button>
                      </div>
                    ) : null}
                    {panel}
                  </aside>
                </>
              ) : null}
            </div>
          ) : (
            <>
              {chips}
              <div className="wi-body">{body}</div>
              {canEdit ? <BulkBar /> : null}
            </>
          )}
        </div>
        {canAdd && ready ? (
          <CreateWorkItemModal open={createOpen} onOpenChange={setCreateOpen} prefill={prefill} />
        ) : null}
        {peekId && WorkItemPeek ? (
          <Suspense fallback={null}>
            <WorkItemPeek workspaceSlug={slug} projectId={projectId} workItemId={peekId} onClose={closePeek} />
          </Suspense>
        ) : null}
      </SelectionContext.Provider>
    </WorkItemsContext.Provider>
  );
}

/**
 * Whether the details panel is open. On a desktop the choice is kept per person and kind of board
 * (all cycles share one, all modules another: stores/sidebar-preferences.ts usePanelCollapsed)
 * and the panel starts open. On a phone the panel is a drawer over the board: it always starts
 * closed and opening it there is not remembered, so a desktop choice never makes the phone open
 * on a covered board.
 */
function usePanelOpen(kind: BoardScope["kind"], narrow: boolean): [boolean, (open: boolean) => void] {
  const panel = kind === "module" ? "module" : "cycle";
  const [collapsed] = usePanelCollapsed(panel);
  const [drawer, setDrawer] = useState(false);
  // Leaving the phone size closes the drawer so a later narrow window starts closed again.
  useEffect(() => {
    if (!narrow) setDrawer(false);
  }, [narrow]);
  const set = useCallback(
    (open: boolean) => {
      if (narrow) setDrawer(open);
      else setPanelCollapsed(panel, !open);
    },
    [panel, narrow],
  );
  return [narrow ? drawer : !collapsed, set];
}
