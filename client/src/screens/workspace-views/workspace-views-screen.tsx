/**
 * Workspace views (product-domain §2: "Workspace menu: views at /workspace-views/all-issues/"):
 * `/:ws/workspace-views/:viewId/` where viewId is a built-in view (all-issues, assigned, created,
 * subscribed) or a saved view's id. A tab strip of the built-ins and the saved views, and the
 * board of every project the caller is in (screens/work-items/multi-project-board: list, kanban,
 * spreadsheet — the default —, calendar and timeline, filters, grouping, display properties).
 * A built-in view's settings are the caller's own, saved per view
 * (workspace-views/{view}/user-properties/); a saved view's board starts from the view and its
 * changes stay on screen until "Update view" (or "Save as view" for someone else's view). A
 * locked view keeps its settings. A row opens the item's peek (?peekId=…&peekProject=…).
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
  RotateCcw,
  Save,
  Trash2,
} from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { watchWorkspaceLive } from "../../stores/live-workspace";
import { session } from "../../stores/session";
import { clearFilters, seedLocalView, workItemView, workspaceViewKey } from "../../stores/work-item-view";
import {
  BUILT_IN_VIEWS,
  builtInFilters,
  deleteWorkspaceView,
  fetchWorkspaceView,
  isBuiltInView,
  loadWorkspaceViews,
  setWorkspaceViewAccess,
  setWorkspaceViewLocked,
  updateWorkspaceView,
  type WorkspaceView,
  workspaceViews,
} from "../../stores/workspace-views";
import { isViewDirty, type ViewSettings } from "../views/view-logic";
import { useMemberWorkScope } from "../work-items/member-work-scope";
import { MultiProjectBoard } from "../work-items/multi-project-board";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import { Menu, MenuItem, MenuSeparator } from "../workspace/components/menu";
import { PageHeader } from "../workspace/components/page-header";
import { Skeleton } from "../workspace/components/skeleton";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import { ViewModal } from "./view-modal";
import "./workspace-views.css";

/** What a new view starts with when made from nothing ("New view"): the workspace defaults. */
const NEW_VIEW_SETTINGS: ViewSettings = {
  filters: {},
  display_filters: { layout: "spreadsheet", order_by: "-created_at" },
  display_properties: {},
};

export function WorkspaceViewsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { slug, role, workspace } = useCurrentWorkspace();
  const { viewId = "all-issues" } = useParams();
  const me = useSnapshot(session).user;
  const viewsSnap = useSnapshot(workspaceViews);
  const viewSnap = useSnapshot(workItemView);
  const viewList = viewsSnap.bySlug[slug];
  const builtIn = isBuiltInView(viewId) ? viewId : null;
  const canCreate = (role ?? 0) >= ROLE.member;

  useEffect(() => {
    void loadWorkspaceViews(slug).catch(() => undefined);
  }, [slug]);

  // Others' view changes arrive on the workspace channel (stores/live-workspace.ts), which also
  // reloads the list after a reconnection. One change is not announced to others: a public view
  // turned private reaches its owner only, so the list is still reloaded when the window
  // regains focus, and such a view leaves the other members' tabs then.
  const workspaceId = workspace?.id;
  useEffect(() => {
    if (!workspaceId) return;
    return watchWorkspaceLive(slug, workspaceId);
  }, [slug, workspaceId]);
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

  // The board's settings: a built-in view's are the caller's own (saved as they change); a saved
  // view's board is a working copy of the view.
  const viewKey = builtIn ? workspaceViewKey(slug, builtIn) : workspaceViewKey(slug, `views/${viewId}`);
  const seeded = useRef<{ key: string; saved: WorkspaceView } | null>(null);
  const [seededKey, setSeededKey] = useState<string | null>(null);
  // Seeded on first sight; later, when the saved view changes (here or by someone else), the board
  // follows it unless it holds changes of its own.
  useLayoutEffect(() => {
    if (!saved) return;
    const previous = seeded.current;
    const working = workItemView.byKey[viewKey];
    const fresh = previous?.key !== viewKey || !working;
    if (fresh || (previous && previous.saved.updated_at !== saved.updated_at && !isViewDirty(previous.saved, working)))
      seedLocalView(viewKey, saved);
    seeded.current = { key: viewKey, saved };
    setSeededKey(viewKey);
  }, [saved, viewKey]);

  const scope = useMemberWorkScope(slug, builtIn && builtIn !== "all-issues" ? builtIn : "all", me?.id ?? null);
  const working = viewSnap.byKey[viewKey] as ViewSettings | undefined;
  const dirty = Boolean(saved && working && seededKey === viewKey && isViewDirty(saved, working));
  const locked = Boolean(saved?.is_locked);
  const canManage = Boolean(saved && me && (saved.owned_by === me.id || (role ?? 0) >= ROLE.admin));
  const [saving, setSaving] = useState(false);

  const [modal, setModal] = useState<null | "new" | "saveAs" | "edit">(null);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const title = builtIn ? t(`workspaceViews.builtIn.${builtIn}`) : saved ? viewName(saved, t) : "";
  const filtered = Object.values((working?.filters ?? {}) as Record<string, unknown[]>).some((v) => v?.length);

  async function update() {
    if (!saved || !working || saving) return;
    setSaving(true);
    const ok = await updateWorkspaceView(slug, saved.id, {
      filters: working.filters as WorkspaceView["filters"],
      display_filters: { ...working.display_filters },
      display_properties: { ...(working.display_properties as Record<string, boolean>) },
    });
    setSaving(false);
    if (ok) toast.success(t("workspaceViews.saved"));
  }

  // A saved view changed on the board: go back to it, update it, or keep the changes as a new view.
  const filterActions =
    saved && dirty ? (
      <>
        <span className="vw-dirty-note">{t("views.update.changed")}</span>
        <Button size="sm" variant="ghost" onClick={() => seedLocalView(viewKey, saved)}>
          <RotateCcw size={14} aria-hidden />
          {t("views.update.reset")}
        </Button>
        {!canManage && canCreate ? (
          <Button size="sm" variant="secondary" onClick={() => setModal("saveAs")}>
            <Plus size={14} aria-hidden />
            {t("workspaceViews.saveAs")}
          </Button>
        ) : null}
        {canManage && !locked ? (
          <Button size="sm" loading={saving} onClick={() => void update()}>
            <Save size={14} aria-hidden />
            {t("views.update.button")}
          </Button>
        ) : null}
      </>
    ) : undefined;

  // What "Save as view" saves: the board's settings, with a built-in view's own filter (assigned → me).
  const saveAsSettings: ViewSettings = {
    filters: {
      ...(working?.filters ?? {}),
      ...(builtIn && me ? builtInFilters(builtIn, me.id) : {}),
    },
    display_filters: working?.display_filters ?? NEW_VIEW_SETTINGS.display_filters,
    display_properties: working?.display_properties ?? {},
  };

  const tabs = (
    <ViewTabs
      slug={slug}
      views={(viewList?.views ?? []) as WorkspaceView[]}
      loading={!viewList || viewList.status === "loading"}
      activeId={viewId}
      canCreate={canCreate}
      onNew={() => setModal("new")}
    />
  );

  const renderHeader = ({ controls, total }: { controls?: React.ReactNode; total: number | null }) => (
    <PageHeader
      actions={
        controls ? (
          <>
            {controls}
            {builtIn && canCreate && (filtered || builtIn !== "all-issues") ? (
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
      {total !== null ? <span className="toolbar-count">{total}</span> : null}
    </PageHeader>
  );

  const which = builtIn ?? "saved";
  return (
    <div className="wsv-screen">
      {missing ? (
        <>
          {renderHeader({ total: null })}
          {tabs}
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
        </>
      ) : !builtIn && (!saved || seededKey !== viewKey) ? (
        <>
          {renderHeader({ total: null })}
          {tabs}
        </>
      ) : (
        <MultiProjectBoard
          slug={slug}
          viewKey={viewKey}
          scope={scope}
          renderHeader={renderHeader}
          above={tabs}
          filterActions={filterActions}
          lockedReason={locked ? t("views.locked.reason") : undefined}
          empty={{
            title: t(`workspaceViews.empty.${which}.title`),
            description: t(`workspaceViews.empty.${which}.description`),
          }}
        />
      )}
      <ViewModal
        open={modal !== null}
        onOpenChange={(open) => !open && setModal(null)}
        slug={slug}
        view={modal === "edit" && saved ? saved : undefined}
        settings={modal === "new" ? NEW_VIEW_SETTINGS : saveAsSettings}
        onCreated={(view) => {
          // The view this came from goes back to what it was: a saved view to itself, a built-in
          // view to no filters (they went into the new view).
          if (modal === "saveAs" && saved) seedLocalView(viewKey, saved);
          else if (modal === "saveAs" && builtIn) clearFilters(slug, viewKey);
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
              navigate(`/${slug}/workspace-views/all-issues/`);
            }
          }}
        />
      ) : null}
    </div>
  );
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
