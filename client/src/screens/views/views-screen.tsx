/**
 * /:ws/projects/:projectId/views/ — a project's saved views: searched by name, each row with its
 * name (or "Untitled"), owner, who sees it, whether it is locked, the caller's star and the
 * view's actions. "Add view" creates one from scratch (its filters are then set on its board);
 * "Save as view" on any filtered board creates one from that board. Kept live by the project's
 * channel (view.* events).
 */
import type { DomainEvent } from "@tideline/shared";
import clsx from "clsx";
import { Archive, Globe2, Layers, Lock, LockKeyhole, Plus, Search, SearchX, Star } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { useSnapshot } from "valtio";
import { Avatar, Button, EmptyState } from "../../components/ui";
import { useCreateIntent } from "../../lib/create-intent";
import { watchProjectLive } from "../../stores/live-board";
import { applyViewEvent, loadViews, type SavedView, setViewFavorite, viewDisplayName, views } from "../../stores/views";
import {
  type ModuleProjectContext,
  type Person,
  ProjectCrumbs,
  personOf,
  useModuleProject,
} from "../modules/module-bits";
import { useCreateShortcut } from "../workspace/components/create-shortcut";
import { PageHeader } from "../workspace/components/page-header";
import { projectScreenBlocked } from "../workspace/components/project-screen-state";
import { SkeletonRows } from "../workspace/components/skeleton";
import { ViewMenu, type ViewRights } from "./view-menu";
import { ViewModal } from "./view-modal";
import { viewsUrl, viewUrl } from "./view-urls";
import "../../components/ui/controls.css";
import "../work-items/work-items.css";
import "./views.css";

/** The project can't show views: unknown, not joined, or views turned off. Null when it can. */
export function viewsBlocked(ctx: ModuleProjectContext, t: (key: string) => string): ReactNode {
  return projectScreenBlocked(
    ctx,
    {
      on: ctx.project?.issue_views_view !== false,
      icon: Layers,
      title: t("views.disabled.title"),
      description: t("views.disabled.description"),
      admin: { description: t("views.disabled.adminDescription"), settings: t("views.disabled.settings") },
    },
    t,
  );
}

/** Keep a project's views fresh while a views screen is open. */
export function useLiveViews(slug: string, projectId: string, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    void loadViews(slug, projectId).catch(() => undefined);
    return watchProjectLive(slug, projectId, {
      onEvent: (event: DomainEvent) => void applyViewEvent(slug, event),
      // Events missed while away: read the list again.
      onSynced: () => void loadViews(slug, projectId, true).catch(() => undefined),
    });
  }, [slug, projectId, enabled]);
}

export function ViewsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { projectId = "" } = useParams();
  const ctx = useModuleProject(projectId);
  const { slug, project, isMember } = ctx;
  const snap = useSnapshot(views);
  const entry = snap.byProject[projectId];
  const [search, setSearch] = useState("");
  const [modal, setModal] = useState<{ view: SavedView | null } | null>(null);
  useLiveViews(slug, projectId, isMember && project?.issue_views_view !== false);

  useEffect(() => {
    document.title = project ? `${project.name} · ${t("views.title")}` : t("views.title");
  }, [project, t]);

  const list = (entry?.list ?? []) as SavedView[];
  const q = search.trim().toLowerCase();
  const shown = useMemo(
    () => (q ? list.filter((v) => viewDisplayName(v.name, t("views.untitled")).toLowerCase().includes(q)) : list),
    [list, q, t],
  );
  const rights: ViewRights = { canEdit: ctx.canEdit, isAdmin: ctx.isAdmin };

  const blocked = viewsBlocked(ctx, t);
  // "c" opens the new-view form, as on the other lists; so does the command palette's "Create view".
  const canCreate = ctx.canEdit && !blocked;
  useCreateShortcut("c", canCreate, () => setModal({ view: null }));
  useCreateIntent("view", projectId, canCreate, () => setModal({ view: null }));
  const header = (
    <PageHeader
      actions={
        blocked ? null : (
          <>
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
            <Link
              className="ui-icon-btn vw-icon-btn"
              to={`${viewsUrl(slug, projectId)}archived/`}
              title={t("views.archived.title")}
              aria-label={t("views.archived.title")}
            >
              <Archive size={15} aria-hidden />
            </Link>
            {ctx.canEdit ? (
              <Button size="sm" onClick={() => setModal({ view: null })}>
                <Plus size={14} aria-hidden />
                <span className="vw-btn-text">{t("views.add")}</span>
              </Button>
            ) : null}
          </>
        )
      }
    >
      <ProjectCrumbs slug={slug} project={project} />
      <h1 className="vw-h1">{t("views.title")}</h1>
      {entry?.status === "ready" ? <span className="vw-total">{list.length}</span> : null}
    </PageHeader>
  );

  let body: ReactNode;
  if (blocked) body = blocked;
  else if (!entry || (entry.status === "loading" && !list.length))
    body = (
      <div className="vw-list" aria-busy>
        <SkeletonRows count={6} height={44} />
      </div>
    );
  else if (entry.status === "error" && !list.length)
    body = (
      <EmptyState
        icon={Layers}
        title={t("views.loadFailed")}
        action={
          <Button variant="secondary" onClick={() => void loadViews(slug, projectId, true).catch(() => undefined)}>
            {t("views.retry")}
          </Button>
        }
      />
    );
  else if (!list.length)
    body = (
      <EmptyState
        icon={Layers}
        title={t("views.empty.title")}
        description={ctx.canEdit ? t("views.empty.description") : t("views.empty.descriptionGuest")}
        action={
          ctx.canEdit ? (
            <Button onClick={() => setModal({ view: null })}>
              <Plus size={14} aria-hidden />
              {t("views.add")}
            </Button>
          ) : undefined
        }
      />
    );
  else if (!shown.length)
    body = (
      <EmptyState
        icon={SearchX}
        title={t("views.noResults.title")}
        description={t("views.noResults.description")}
        action={
          <Button variant="secondary" onClick={() => setSearch("")}>
            {t("views.noResults.clear")}
          </Button>
        }
      />
    );
  else
    body = (
      <ul className="vw-list" aria-label={t("views.title")}>
        {shown.map((view) => (
          <ViewRow
            key={view.id}
            slug={slug}
            view={view}
            rights={rights}
            owner={personOf(ctx.members, view.owned_by)}
            onEdit={() => setModal({ view })}
          />
        ))}
      </ul>
    );

  return (
    <div className="vw-screen">
      {header}
      <div className="vw-body">{body}</div>
      {isMember ? (
        <ViewModal
          open={modal !== null}
          onOpenChange={(open) => !open && setModal(null)}
          slug={slug}
          projectId={projectId}
          view={modal?.view ?? null}
          onSaved={(view) => {
            if (!modal?.view) navigate(viewUrl(slug, projectId, view.id));
          }}
        />
      ) : null}
    </div>
  );
}

function ViewRow({
  slug,
  view,
  rights,
  owner,
  onEdit,
}: {
  slug: string;
  view: SavedView;
  rights: ViewRights;
  owner: Person | null;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const projectId = view.project_id ?? "";
  const untitled = !view.name.trim();
  const name = viewDisplayName(view.name, t("views.untitled"));
  return (
    <li className="vw-row">
      <Link className="vw-row-link" to={viewUrl(slug, projectId, view.id)}>
        <Layers size={15} className="vw-row-icon" aria-hidden />
        <span className="vw-row-text">
          <span className={clsx("vw-row-name", untitled && "is-untitled")}>{name}</span>
          {view.description ? <span className="vw-row-desc">{view.description}</span> : null}
        </span>
      </Link>
      <span className="vw-row-meta">
        {view.is_locked ? (
          <span className="vw-badge vw-locked" title={t("views.locked.badge")}>
            <LockKeyhole size={13} aria-hidden />
            <span className="vw-badge-text">{t("views.locked.short")}</span>
          </span>
        ) : null}
        <span
          className="vw-badge"
          title={view.access === 0 ? t("views.access.privateHint") : t("views.access.publicHint")}
        >
          {view.access === 0 ? <Lock size={13} aria-hidden /> : <Globe2 size={13} aria-hidden />}
          <span className="vw-badge-text">
            {view.access === 0 ? t("views.access.private") : t("views.access.public")}
          </span>
        </span>
        {owner ? (
          <span className="vw-owner" title={t("views.owner", { name: owner.name })}>
            <Avatar name={owner.name} src={owner.avatarUrl} size={20} />
          </span>
        ) : (
          <span className="vw-owner" aria-hidden />
        )}
        {rights.canEdit ? (
          <button
            type="button"
            className={clsx("ui-icon-btn vw-icon-btn", "vw-star", view.is_favorite && "is-on")}
            aria-pressed={Boolean(view.is_favorite)}
            aria-label={
              view.is_favorite
                ? t("views.actions.unfavoriteNamed", { name })
                : t("views.actions.favoriteNamed", { name })
            }
            title={view.is_favorite ? t("views.actions.unfavorite") : t("views.actions.favorite")}
            onClick={() => void setViewFavorite(slug, projectId, view.id, !view.is_favorite)}
          >
            <Star size={14} aria-hidden />
          </button>
        ) : null}
        <ViewMenu slug={slug} rights={rights} view={view} onEdit={onEdit} hideFavorite />
      </span>
    </li>
  );
}
