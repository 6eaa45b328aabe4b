/**
 * Workspace views (product-domain §2: "Workspace menu: views at /workspace-views/all-issues/"):
 * `/:ws/workspace-views/:viewId/` where viewId is a built-in view (all-issues, assigned, created,
 * subscribed) or a saved view's id. A tab strip of the built-ins and the saved views, the work
 * items of every project the caller is in as a spreadsheet (default order -created_at), filters
 * and order, "Save as view" for the current filters, and the saved view's rename, lock,
 * visibility and delete. A row opens the item's peek (?peekId=…&peekProject=…).
 */
import { ROLE } from "@tideline/shared";
import clsx from "clsx";
import {
  Eye,
  EyeOff,
  Layers,
  Link2,
  Lock,
  LockOpen,
  MoreHorizontal,
  Pencil,
  Plus,
  Save,
  SearchX,
  Trash2,
  X,
} from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, useNavigate, useParams, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { fetchWorkspaceMembers, members, type WorkspaceMember } from "../../stores/members";
import { fetchProjects, type Project, projects } from "../../stores/projects";
import { session } from "../../stores/session";
import type { WorkItem } from "../../stores/work-items";
import {
  BUILT_IN_VIEWS,
  builtInKey,
  DEFAULT_WORKSPACE_ORDER,
  deleteWorkspaceView,
  fetchWorkspaceView,
  isBuiltInView,
  listQuery,
  loadWorkspaceViews,
  sameFilters,
  setViewDraft,
  setWorkspaceViewAccess,
  setWorkspaceViewLocked,
  updateWorkspaceView,
  type ViewDraft,
  type WorkspaceView,
  workspaceViews,
} from "../../stores/workspace-views";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem, MenuSeparator } from "../workspace/components/menu";
import { PageHeader } from "../workspace/components/page-header";
import { Skeleton } from "../workspace/components/skeleton";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import { IssuesSheet } from "./issues-sheet";
import { useWorkspaceIssues } from "./use-workspace-issues";
import { FilterChips, FiltersButton, OrderButton } from "./view-filters";
import { ViewModal } from "./view-modal";
import "./workspace-views.css";

const WorkItemPeek = lazy(() => import("../work-item/peek").then((m) => ({ default: m.WorkItemPeek })));

export function WorkspaceViewsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { slug, role } = useCurrentWorkspace();
  const { viewId = "all-issues" } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const me = useSnapshot(session).user;
  const viewsSnap = useSnapshot(workspaceViews);
  const viewList = viewsSnap.bySlug[slug];
  const projectList = (useSnapshot(projects).bySlug[slug] ?? []) as Project[];
  const people = (useSnapshot(members).bySlug[slug] ?? []) as WorkspaceMember[];
  // Only projects the user is in have items here (membership decides, views README).
  const memberProjects = useMemo(() => projectList.filter((p) => p.is_member), [projectList]);
  const builtIn = isBuiltInView(viewId) ? viewId : null;
  const canCreate = (role ?? 0) >= ROLE.member;

  useEffect(() => {
    void loadWorkspaceViews(slug).catch(() => undefined);
    if (!projects.bySlug[slug]) void fetchProjects(slug).catch(() => undefined);
    if (!members.bySlug[slug]) void fetchWorkspaceMembers(slug).catch(() => undefined);
  }, [slug]);

  // Workspace views' events reach no client (no workspace channel, views README): refetch the
  // list when the window regains focus, so views others created, changed or deleted show up.
  useEffect(() => {
    let last = Date.now();
    const revalidate = () => {
      if (document.visibilityState !== "visible" || Date.now() - last < 2000) return;
      last = Date.now();
      void loadWorkspaceViews(slug).catch(() => undefined);
    };
    window.addEventListener("focus", revalidate);
    document.addEventListener("visibilitychange", revalidate);
    return () => {
      window.removeEventListener("focus", revalidate);
      document.removeEventListener("visibilitychange", revalidate);
    };
  }, [slug]);

  // A saved view not in the list (a link to one created since): ask for it once; 404 → missing.
  const listed = builtIn ? null : ((viewList?.views.find((v) => v.id === viewId) as WorkspaceView | undefined) ?? null);
  const [fetched, setFetched] = useState<{ id: string; view: WorkspaceView | null } | null>(null);
  useEffect(() => {
    if (builtIn || listed || viewList?.status !== "ready" || fetched?.id === viewId) return;
    let alive = true;
    void fetchWorkspaceView(slug, viewId).then((view) => alive && setFetched({ id: viewId, view }));
    return () => {
      alive = false;
    };
  }, [builtIn, listed, viewList?.status, slug, viewId, fetched?.id]);
  const saved = listed ?? (fetched?.id === viewId ? fetched.view : null);
  const missing = !builtIn && !listed && fetched?.id === viewId && !fetched.view;

  const base = useMemo<ViewDraft | null>(() => {
    if (builtIn) return { filters: {}, orderBy: DEFAULT_WORKSPACE_ORDER };
    if (!saved) return null;
    return { filters: saved.filters ?? {}, orderBy: saved.display_filters?.order_by || DEFAULT_WORKSPACE_ORDER };
  }, [builtIn, saved]);
  const draftSnap = viewsSnap.drafts[`${slug}/${viewId}`] as ViewDraft | undefined;
  const locked = Boolean(saved?.is_locked);
  // A locked view shows exactly what it saved (a draft made before it was locked waits for the unlock).
  const current = locked ? base : (draftSnap ?? base);
  const dirty = Boolean(
    base && current && (!sameFilters(current.filters, base.filters) || current.orderBy !== base.orderBy),
  );
  const canManage = Boolean(saved && me && (saved.owned_by === me.id || (role ?? 0) >= ROLE.admin));

  const query = useMemo(
    () =>
      current && me ? listQuery({ filters: current.filters, builtIn, meId: me.id, orderBy: current.orderBy }) : null,
    [current, me, builtIn],
  );
  const issues = useWorkspaceIssues(slug, query);

  const setDraft = useCallback(
    (change: Partial<ViewDraft>) => {
      if (!current) return;
      const next = { ...current, ...change };
      // Back to what the view says: no draft left.
      const same = base && sameFilters(next.filters, base.filters) && next.orderBy === base.orderBy;
      setViewDraft(slug, viewId, same ? null : next);
    },
    [current, base, slug, viewId],
  );

  const peekId = searchParams.get("peekId");
  const peekProject = searchParams.get("peekProject");
  const openPeek = useCallback(
    (item: WorkItem) =>
      setSearchParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set("peekId", item.id);
          next.set("peekProject", item.project_id);
          return next;
        },
        { replace: Boolean(peekId) },
      ),
    [setSearchParams, peekId],
  );
  const closePeek = useCallback(
    () =>
      setSearchParams((prev) => {
        const next = new URLSearchParams(prev);
        next.delete("peekId");
        next.delete("peekProject");
        return next;
      }),
    [setSearchParams],
  );

  const [modal, setModal] = useState<null | "new" | "saveAs" | "edit">(null);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const title = builtIn ? t(`workspaceViews.builtIn.${builtIn}`) : saved ? viewName(saved, t) : "";
  const hasFilters = Object.values(current?.filters ?? {}).some((v) => v?.length);

  const header = (
    <PageHeader
      actions={
        current && !missing ? (
          <>
            <FiltersButton
              filters={current.filters}
              onChange={(filters) => setDraft({ filters })}
              fixedKey={builtIn ? builtInKey(builtIn) : null}
              projects={memberProjects}
              people={people}
              disabled={locked}
            />
            <OrderButton orderBy={current.orderBy} onChange={(orderBy) => setDraft({ orderBy })} disabled={locked} />
            {saved && dirty && canManage ? (
              <Button
                size="sm"
                variant="secondary"
                onClick={async () => {
                  const ok = await updateWorkspaceView(slug, saved.id, {
                    filters: current.filters,
                    display_filters: { order_by: current.orderBy },
                  });
                  if (ok) {
                    setViewDraft(slug, viewId, null);
                    toast.success(t("workspaceViews.saved"));
                  }
                }}
              >
                <Save size={14} aria-hidden />
                <span className="wi-btn-text">{t("workspaceViews.saveChanges")}</span>
              </Button>
            ) : null}
            {canCreate && (dirty || (builtIn && (hasFilters || builtIn !== "all-issues"))) ? (
              <Button size="sm" onClick={() => setModal("saveAs")} title={t("workspaceViews.saveAsHint")}>
                <Plus size={14} aria-hidden />
                <span className="wi-btn-text">{t("workspaceViews.saveAs")}</span>
              </Button>
            ) : null}
            {saved ? (
              <ViewMenu
                view={saved}
                canManage={canManage}
                onEdit={() => setModal("edit")}
                onDelete={() => setDeleteOpen(true)}
                slug={slug}
              />
            ) : null}
          </>
        ) : null
      }
    >
      <Layers size={16} aria-hidden className="muted" />
      <Link className="crumb wsv-crumb-hide-narrow" to={`/${slug}/workspace-views/all-issues/`}>
        {t("workspaceViews.title")}
      </Link>
      <span className="crumb-sep wsv-crumb-hide-narrow">/</span>
      {title ? (
        <h1 className="page-header-h1 wsv-title" title={title}>
          {title}
        </h1>
      ) : (
        <Skeleton width={120} />
      )}
      {locked ? <Lock size={13} className="muted" aria-label={t("workspaceViews.locked")} /> : null}
      {issues.status === "ready" && issues.list ? <span className="toolbar-count">{issues.list.total}</span> : null}
    </PageHeader>
  );

  let body: React.ReactNode;
  if (missing) {
    body = (
      <EmptyState
        icon={Layers}
        title={t("workspaceViews.missing.title")}
        description={t("workspaceViews.missing.description")}
        action={
          <Button variant="secondary" onClick={() => navigate(`/${slug}/workspace-views/all-issues/`)}>
            {t("workspaceViews.missing.back")}
          </Button>
        }
      />
    );
  } else if (!query || issues.status === "loading") {
    body = <SheetSkeleton />;
  } else if (issues.status === "error") {
    body = (
      <EmptyState
        icon={Layers}
        title={t("workspaceViews.loadFailed")}
        action={
          <Button variant="secondary" onClick={issues.retry}>
            {t("workspace.common.retry")}
          </Button>
        }
      />
    );
  } else if (!issues.rows.length && hasFilters) {
    body = (
      <EmptyState
        icon={SearchX}
        title={t("workspaceViews.noResults.title")}
        description={t("workspaceViews.noResults.description")}
        action={
          locked ? undefined : (
            <Button variant="secondary" onClick={() => setDraft({ filters: {} })}>
              <X size={14} aria-hidden />
              {t("workspaceViews.filters.clearAll")}
            </Button>
          )
        }
      />
    );
  } else if (!issues.rows.length) {
    const which = builtIn ?? "saved";
    body = (
      <EmptyState
        icon={Layers}
        title={t(`workspaceViews.empty.${which}.title`)}
        description={t(`workspaceViews.empty.${which}.description`)}
      />
    );
  } else {
    body = (
      <IssuesSheet
        slug={slug}
        rows={issues.rows}
        projects={projectList}
        hasMore={Boolean(issues.list?.next)}
        onLoadMore={issues.loadMore}
        onOpen={openPeek}
        openId={peekId}
      />
    );
  }

  return (
    <div className="wsv-screen">
      {header}
      <ViewTabs
        slug={slug}
        views={(viewList?.views ?? []) as WorkspaceView[]}
        loading={!viewList || viewList.status === "loading"}
        activeId={viewId}
        canCreate={canCreate}
        onNew={() => setModal("new")}
      />
      {current && !missing ? (
        <FilterChips
          filters={current.filters}
          onChange={(filters) => setDraft({ filters })}
          projects={projectList}
          people={people}
          readOnly={locked}
        />
      ) : null}
      <div className="wsv-body">{body}</div>
      {peekId && peekProject ? (
        <Suspense fallback={null}>
          <WorkItemPeek workspaceSlug={slug} projectId={peekProject} workItemId={peekId} onClose={closePeek} />
        </Suspense>
      ) : null}
      <ViewModal
        open={modal !== null}
        onOpenChange={(open) => !open && setModal(null)}
        slug={slug}
        view={modal === "edit" && saved ? saved : undefined}
        filters={
          modal === "new"
            ? {}
            : {
                ...(current?.filters ?? {}),
                // Saving a built-in's filters keeps the built-in's own (assigned → me).
                ...(builtIn && me ? builtInFiltersOf(builtIn, me.id) : {}),
              }
        }
        orderBy={modal === "new" ? DEFAULT_WORKSPACE_ORDER : (current?.orderBy ?? DEFAULT_WORKSPACE_ORDER)}
        onCreated={(view) => {
          if (modal === "saveAs") setViewDraft(slug, viewId, null);
          toast.success(t("workspaceViews.created", { name: viewName(view, t) }));
          navigate(`/${slug}/workspace-views/${view.id}/`);
        }}
      />
      {saved ? (
        <ConfirmModal
          open={deleteOpen}
          onOpenChange={setDeleteOpen}
          title={t("workspaceViews.delete.title", { name: viewName(saved, t) })}
          description={t("workspaceViews.delete.description")}
          confirmLabel={t("workspaceViews.delete.confirm")}
          onConfirm={async () => {
            if (await deleteWorkspaceView(slug, saved.id)) {
              setDeleteOpen(false);
              setViewDraft(slug, saved.id, null);
              navigate(`/${slug}/workspace-views/all-issues/`);
            }
          }}
        />
      ) : null}
    </div>
  );
}

function builtInFiltersOf(view: (typeof BUILT_IN_VIEWS)[number], meId: string) {
  const key = builtInKey(view);
  return key ? { [key]: [meId] } : {};
}

function viewName(view: Pick<WorkspaceView, "name">, t: (key: string) => string): string {
  return view.name.trim() || t("workspaceViews.untitled");
}

/** The built-in views, then the saved ones (newest first, as the server lists them), then "New view". */
function ViewTabs({
  slug,
  views,
  loading,
  activeId,
  canCreate,
  onNew,
}: {
  slug: string;
  views: readonly WorkspaceView[];
  loading: boolean;
  activeId: string;
  canCreate: boolean;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  // Keep the active tab in sight when the strip scrolls (phones, many views).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the active tab changes
  useEffect(() => {
    document
      .querySelector<HTMLElement>(".wsv-tab[aria-current='page']")
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [activeId]);
  return (
    <nav className="wsv-tabs" aria-label={t("workspaceViews.tabsLabel")}>
      {BUILT_IN_VIEWS.map((id) => (
        <NavLink key={id} to={`/${slug}/workspace-views/${id}/`} className="wsv-tab">
          {t(`workspaceViews.builtIn.${id}`)}
        </NavLink>
      ))}
      {views.length || loading ? <span className="wsv-tab-sep" aria-hidden /> : null}
      {loading && !views.length ? <Skeleton width={80} /> : null}
      {views.map((view) => (
        <NavLink
          key={view.id}
          to={`/${slug}/workspace-views/${view.id}/`}
          className={clsx("wsv-tab", !view.name.trim() && "wsv-tab-untitled")}
          title={view.description || undefined}
        >
          {view.access === 0 ? <EyeOff size={12} aria-label={t("workspaceViews.private")} /> : null}
          {view.is_locked ? <Lock size={12} aria-label={t("workspaceViews.locked")} /> : null}
          {viewName(view, t)}
        </NavLink>
      ))}
      {canCreate ? (
        <button type="button" className="wsv-tab wsv-tab-new" onClick={onNew}>
          <Plus size={13} aria-hidden />
          {t("workspaceViews.newView")}
        </button>
      ) : null}
    </nav>
  );
}

function ViewMenu({
  slug,
  view,
  canManage,
  onEdit,
  onDelete,
}: {
  slug: string;
  view: WorkspaceView;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu
      align="end"
      width={220}
      trigger={
        <button
          type="button"
          className="wi-icon-btn"
          aria-label={t("workspaceViews.menu.label", { name: viewName(view, t) })}
          title={t("workspaceViews.menu.short")}
        >
          <MoreHorizontal size={16} aria-hidden />
        </button>
      }
    >
      {canManage ? (
        <MenuItem icon={<Pencil size={14} />} onSelect={onEdit} disabled={view.is_locked}>
          {t("workspaceViews.menu.rename")}
        </MenuItem>
      ) : null}
      {canManage ? (
        <MenuItem
          icon={view.is_locked ? <LockOpen size={14} /> : <Lock size={14} />}
          onSelect={() =>
            void setWorkspaceViewLocked(slug, view.id, !view.is_locked).then(
              (ok) =>
                ok &&
                toast.success(t(view.is_locked ? "workspaceViews.menu.unlocked" : "workspaceViews.menu.lockedDone")),
            )
          }
        >
          {view.is_locked ? t("workspaceViews.menu.unlock") : t("workspaceViews.menu.lock")}
        </MenuItem>
      ) : null}
      {canManage ? (
        <MenuItem
          icon={view.access === 0 ? <Eye size={14} /> : <EyeOff size={14} />}
          onSelect={() => void setWorkspaceViewAccess(slug, view.id, view.access === 0 ? 1 : 0)}
        >
          {view.access === 0 ? t("workspaceViews.menu.makePublic") : t("workspaceViews.menu.makePrivate")}
        </MenuItem>
      ) : null}
      <MenuItem
        icon={<Link2 size={14} />}
        onSelect={() => {
          void navigator.clipboard
            .writeText(`${window.location.origin}/${slug}/workspace-views/${view.id}/`)
            .then(() => toast.success(t("workspaceViews.menu.linkCopied")))
            .catch(() => toast.error(t("workspaceViews.menu.linkFailed")));
        }}
      >
        {t("workspaceViews.menu.copyLink")}
      </MenuItem>
      {canManage ? (
        <>
          <MenuSeparator />
          <MenuItem danger icon={<Trash2 size={14} />} onSelect={onDelete}>
            {t("workspaceViews.menu.delete")}
          </MenuItem>
        </>
      ) : null}
    </Menu>
  );
}

/** The sheet's shape while the first page loads, so nothing jumps when it arrives. */
function SheetSkeleton() {
  return (
    <div className="wsv-skeleton" aria-busy role="status" aria-label="Loading">
      <div className="wsv-skeleton-head" />
      {Array.from({ length: 10 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <div key={i} className="wsv-skeleton-row">
          <Skeleton width={56} />
          <Skeleton width={`${30 + ((i * 13) % 25)}%`} />
          <Skeleton width={90} />
          <Skeleton width={70} />
        </div>
      ))}
    </div>
  );
}
