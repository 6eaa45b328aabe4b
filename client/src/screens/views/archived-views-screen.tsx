/**
 * /:ws/projects/:projectId/views/archived/ — the project's archived views: search, restore (back
 * in the views list at once) and delete with a confirmation. Only the view's owner and the
 * project's admins may restore or delete.
 */
import { ArchiveRestore, Layers, Search } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { EmptyState } from "../../components/ui";
import { session } from "../../stores/session";
import { deleteView, loadArchivedViews, restoreView, type SavedView, viewDisplayName, views } from "../../stores/views";
import { ProjectCrumbs, useModuleProject } from "../modules/module-bits";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import {
  LoadFailedState,
  NoMatchState,
  RestoreButton,
  RowDeleteButton,
  SectionCrumb,
} from "../workspace/components/list-parts";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { canManageView } from "./view-menu";
import { viewsUrl } from "./view-urls";
import { viewsBlocked } from "./views-screen";
import "../../components/ui/controls.css";
import "../work-items/work-items.css";
import "./views.css";

export function ArchivedViewsScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const ctx = useModuleProject(projectId);
  const { slug, project, isMember } = ctx;
  const snap = useSnapshot(views);
  const entry = snap.archived[projectId];
  const userId = useSnapshot(session).user?.id;
  const [search, setSearch] = useState("");
  const [deleting, setDeleting] = useState<SavedView | null>(null);
  const enabled = isMember && project?.issue_views_view !== false;

  useEffect(() => {
    if (enabled) void loadArchivedViews(slug, projectId).catch(() => undefined);
  }, [slug, projectId, enabled]);
  useEffect(() => {
    if (project) document.title = `${t("views.archived.title")} · ${project.name}`;
  }, [project, t]);

  const all = (entry?.list ?? []) as SavedView[];
  const q = search.trim().toLowerCase();
  const shown = useMemo(
    () => (q ? all.filter((v) => viewDisplayName(v.name, t("views.untitled")).toLowerCase().includes(q)) : all),
    [all, q, t],
  );
  const rights = { canEdit: ctx.canEdit, isAdmin: ctx.isAdmin };
  const blocked = viewsBlocked(ctx, t);

  const header = (
    <PageHeader
      actions={
        blocked || !all.length ? null : (
          <div className="wi-search vw-search">
            <Search size={13} aria-hidden />
            <input
              type="search"
              className="wi-search-input"
              placeholder={t("views.search")}
              aria-label={t("views.search")}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
        )
      }
    >
      <ProjectCrumbs slug={slug} project={project} />
      <SectionCrumb to={viewsUrl(slug, projectId)} icon={Layers} label={t("views.title")} />
      <span className="crumb-sep">/</span>
      <h1 className="vw-h1">{t("views.archived.title")}</h1>
    </PageHeader>
  );

  let body: ReactNode;
  if (blocked) body = blocked;
  else if (!entry || (entry.status === "loading" && !all.length))
    body = (
      <div className="vw-list" aria-busy>
        <SkeletonRows count={4} height={44} />
      </div>
    );
  else if (entry.status === "error" && !all.length)
    body = (
      <LoadFailedState
        icon={ArchiveRestore}
        title={t("views.loadFailed")}
        retryLabel={t("views.retry")}
        onRetry={() => void loadArchivedViews(slug, projectId).catch(() => undefined)}
      />
    );
  else if (!all.length)
    body = (
      <EmptyState
        icon={ArchiveRestore}
        title={t("views.archived.emptyTitle")}
        description={t("views.archived.emptyDescription")}
      />
    );
  else if (!shown.length)
    body = (
      <NoMatchState
        title={t("views.noResults.title")}
        clearLabel={t("views.noResults.clear")}
        onClear={() => setSearch("")}
      />
    );
  else
    body = (
      <ul className="vw-list" aria-label={t("views.archived.title")}>
        {shown.map((view) => {
          const name = viewDisplayName(view.name, t("views.untitled"));
          const manage = canManageView(rights, view, userId);
          return (
            <li key={view.id} className="vw-row">
              <span className="vw-row-link">
                <Layers size={15} className="vw-row-icon" aria-hidden />
                <span className="vw-row-text">
                  <span className={view.name.trim() ? "vw-row-name" : "vw-row-name is-untitled"}>{name}</span>
                  {view.archived_at ? (
                    <span className="vw-row-desc">
                      {t("views.archived.on", { date: new Date(view.archived_at).toLocaleDateString() })}
                    </span>
                  ) : null}
                </span>
              </span>
              {manage ? (
                <span className="vw-row-meta">
                  <RestoreButton
                    label={t("views.archived.restore")}
                    onRestore={async () => {
                      if (await restoreView(slug, projectId, view.id))
                        toast.success(t("views.archived.restored", { name }));
                    }}
                  />
                  <RowDeleteButton
                    className="ui-icon-btn vw-icon-btn"
                    label={t("views.archived.deleteNamed", { name })}
                    title={t("views.actions.delete")}
                    onClick={() => setDeleting(view)}
                  />
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    );

  return (
    <div className="vw-screen">
      {header}
      <div className="vw-body">{body}</div>
      <ConfirmModal
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("views.delete.title")}
        description={t("views.delete.description", {
          name: deleting ? viewDisplayName(deleting.name, t("views.untitled")) : "",
        })}
        confirmLabel={t("views.delete.confirm")}
        onConfirm={async () => {
          if (!deleting) return;
          const ok = await deleteView(slug, projectId, deleting.id);
          setDeleting(null);
          if (ok) toast.success(t("views.actions.deleted"));
        }}
      />
    </div>
  );
}
