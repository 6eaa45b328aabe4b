/**
 * /:ws/projects/:projectId/views/:viewId/ — one saved view: the shared work-items board whose
 * filters, display filters and properties are the view's. They start as the view saved them and
 * change on screen only (a working copy, never the user's own board settings); once they differ,
 * "Update view" saves them into the view and "Reset" goes back. A locked view's filters and
 * display can't change until it is unlocked (its menus say so). A view that is deleted or made
 * private by its owner while open turns into "not found" (live).
 */

import clsx from "clsx";
import { ArrowLeft, Layers, LockKeyhole, RotateCcw, Save, Star } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { useDropPrepaint } from "../../lib/prepaint";
import { session } from "../../stores/session";
import { loadView, type SavedView, setViewFavorite, updateView, viewDisplayName, views } from "../../stores/views";
import { seedLocalView, viewKeyOf, workItemView } from "../../stores/work-item-view";
import { ProjectCrumbs, useModuleProject } from "../modules/module-bits";
import { WorkItemsBoard } from "../work-items/work-items-board";
import { SectionCrumb } from "../workspace/components/list-parts";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { SaveAsViewButton } from "./save-as-view";
import { isViewDirty, settingsBody } from "./view-logic";
import { canManageView, ViewMenu, type ViewRights } from "./view-menu";
import { ViewModal } from "./view-modal";
import { viewsUrl } from "./view-urls";
import { useLiveViews, viewsBlocked } from "./views-screen";
import "../../components/ui/controls.css";
import "./views.css";

export function ViewBoardScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { projectId = "", viewId = "" } = useParams();
  const ctx = useModuleProject(projectId);
  const { slug, isMember, project } = ctx;
  const snap = useSnapshot(views);
  const sessionSnap = useSnapshot(session);
  const viewSnap = useSnapshot(workItemView);
  const entry = snap.byId[viewId];
  const view = (entry?.view ??
    snap.byProject[projectId]?.list.find((v) => v.id === viewId) ??
    null) as SavedView | null;
  const viewKey = viewKeyOf(projectId, { kind: "view", viewId });
  const [editOpen, setEditOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const enabled = isMember && project?.issue_views_view !== false;
  useLiveViews(slug, projectId, enabled);

  useEffect(() => {
    if (enabled) void loadView(slug, projectId, viewId);
  }, [slug, projectId, viewId, enabled]);

  // The board starts from the view. When the saved view changes (updated here or by someone else)
  // the board follows it, unless it holds changes of its own that aren't saved yet.
  const seeded = useRef<{ key: string; saved: SavedView } | null>(null);
  const [seededKey, setSeededKey] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (!view) return;
    const previous = seeded.current;
    const working = workItemView.byKey[viewKey];
    const fresh = previous?.key !== viewKey || !working;
    if (fresh || (previous && previous.saved.updated_at !== view.updated_at && !isViewDirty(previous.saved, working))) {
      seedLocalView(viewKey, view);
    }
    seeded.current = { key: viewKey, saved: view };
    setSeededKey(viewKey);
  }, [view, viewKey]);

  const name = view ? viewDisplayName(view.name, t("views.untitled")) : "";
  const crumbs = <SectionCrumb to={viewsUrl(slug, projectId)} icon={Layers} label={t("views.title")} />;

  const blocked = viewsBlocked(ctx, t);
  const missing = entry?.status === "missing";
  const archived = Boolean(view?.archived_at);
  // Not the board: the picture of it from the last visit goes (lib/prepaint.ts).
  useDropPrepaint(Boolean(blocked || missing || archived || entry?.status === "error"));
  if (blocked || missing || archived || entry?.status === "error") {
    return (
      <div className="vw-screen">
        <PageHeader>
          <ProjectCrumbs slug={slug} project={project} />
          {crumbs}
        </PageHeader>
        {blocked ?? (
          <EmptyState
            icon={Layers}
            title={
              archived ? t("views.detail.archivedTitle") : missing ? t("views.detail.notFound") : t("views.loadFailed")
            }
            description={
              archived ? t("views.detail.archivedDescription") : missing ? t("views.detail.notFoundHint") : undefined
            }
            action={
              <Link
                className="btn btn-secondary"
                to={archived ? `${viewsUrl(slug, projectId)}archived/` : viewsUrl(slug, projectId)}
              >
                <ArrowLeft size={14} aria-hidden />
                {t("views.detail.back")}
              </Link>
            }
          />
        )}
      </div>
    );
  }

  const rights: ViewRights = { canEdit: ctx.canEdit, isAdmin: ctx.isAdmin };
  const manage = view ? canManageView(rights, view, sessionSnap.user?.id) : false;
  const working = viewSnap.byKey[viewKey];
  const dirty = Boolean(view && working && seededKey === viewKey && isViewDirty(view, working));

  async function save() {
    if (!view || !working || saving) return;
    setSaving(true);
    const result = await updateView(slug, projectId, view.id, settingsBody(working));
    setSaving(false);
    if (result.ok) toast.success(t("views.update.saved"));
    else toast.error(t("views.update.failed"), { description: result.message });
  }

  const filterActions =
    // A view locked while it held changes here can still go back to what it saves (Reset).
    view && dirty ? (
      <>
        <span className="vw-dirty-note">{t("views.update.changed")}</span>
        <Button size="sm" variant="ghost" onClick={() => seedLocalView(viewKey, view)}>
          <RotateCcw size={14} aria-hidden />
          {t("views.update.reset")}
        </Button>
        {/* Someone else's view: keep the changes as a view of one's own instead. */}
        {!manage && ctx.canEdit && working ? (
          <SaveAsViewButton slug={slug} projectId={projectId} settings={working} />
        ) : null}
        {manage && !view.is_locked ? (
          <Button size="sm" loading={saving} onClick={() => void save()}>
            <Save size={14} aria-hidden />
            {t("views.update.button")}
          </Button>
        ) : null}
      </>
    ) : undefined;

  const actions = view ? (
    <>
      {view.is_locked ? (
        <span className="vw-locked-pill" title={t("views.locked.reason")}>
          <LockKeyhole size={12} aria-hidden />
          <span className="vw-locked-pill-text">{t("views.locked.short")}</span>
        </span>
      ) : null}
      {ctx.canEdit ? (
        <button
          type="button"
          className={clsx("ui-icon-btn vw-icon-btn", "vw-star", view.is_favorite && "is-on")}
          aria-pressed={Boolean(view.is_favorite)}
          aria-label={view.is_favorite ? t("views.actions.unfavorite") : t("views.actions.favorite")}
          title={view.is_favorite ? t("views.actions.unfavorite") : t("views.actions.favorite")}
          onClick={() => void setViewFavorite(slug, projectId, view.id, !view.is_favorite)}
        >
          <Star size={15} aria-hidden />
        </button>
      ) : null}
      <ViewMenu
        slug={slug}
        rights={rights}
        view={view}
        onEdit={() => setEditOpen(true)}
        onGone={() => navigate(viewsUrl(slug, projectId))}
        hideFavorite
      />
    </>
  ) : null;

  return (
    <>
      {view && seededKey === viewKey ? (
        <WorkItemsBoard
          scope={{ kind: "view", viewId }}
          title={name}
          crumbs={crumbs}
          actions={actions}
          filterActions={filterActions}
          lockedReason={view.is_locked ? t("views.locked.reason") : undefined}
        />
      ) : (
        <div className="vw-screen">
          <PageHeader>
            <ProjectCrumbs slug={slug} project={project} />
            {crumbs}
          </PageHeader>
          <div className="vw-list" aria-busy>
            <SkeletonRows count={10} height={36} />
          </div>
        </div>
      )}
      {view && isMember ? (
        <ViewModal open={editOpen} onOpenChange={setEditOpen} slug={slug} projectId={projectId} view={view} />
      ) : null}
    </>
  );
}
