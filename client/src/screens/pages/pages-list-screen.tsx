/**
 * /:ws/projects/:projectId/pages/ — a project's pages in three tabs (Public, Private, Archived;
 * ?tab= keeps the choice in the address), searched by name, sorted by last edit, name or
 * creation, optionally favorites only. Sub-pages nest under their parent (expanded with the
 * chevron, remembered in this browser; searching lists matches flat). Every page of the project
 * is loaded once; tabs, search, sorting and the tree happen here (page-logic.ts), so they
 * answer at once.
 */
import { PAGE_ACCESS, ROLE } from "@tideline/shared";
import clsx from "clsx";
import {
  Archive,
  ArrowDownUp,
  Check,
  ChevronRight,
  FileText,
  Globe,
  Lock,
  Plus,
  Search,
  SearchX,
  Star,
  StarOff,
} from "lucide-react";
import { type CSSProperties, type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { useSnapshot } from "valtio";
import { Avatar, Button, EmptyState } from "../../components/ui";
import { useCreateIntent } from "../../lib/create-intent";
import { readLocal, writeLocal } from "../../lib/local-storage";
import { loadPages, type Page, pages, setPageFavorite, watchProjectPages } from "../../stores/pages";
import { useCreateShortcut } from "../workspace/components/create-shortcut";
import { Menu, MenuItem } from "../workspace/components/menu";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { CreatePageModal } from "./create-page-modal";
import {
  filterPages,
  isPageSort,
  isPageTab,
  PAGE_SORTS,
  PAGE_TABS,
  type PageSort,
  type PageTab,
  pageTitle,
  pageTreeRows,
  tabCounts,
} from "./page-logic";
import { PageMenu } from "./page-menu";
import { ProjectCrumbs, projectBlocked } from "./project-state";
import { type PagesProjectContext, personOf, relativeTime, usePagePermissions, usePagesProject } from "./use-pages";
import "../../components/ui/controls.css";
import "./pages.css";

type ListPrefs = { sort: PageSort; favoritesOnly: boolean };
const PREFS_KEY = "tideline:pages:list";

function usePrefs(): [ListPrefs, (patch: Partial<ListPrefs>) => void] {
  const [prefs, setPrefs] = useState<ListPrefs>(() => {
    const stored = readLocal<Partial<ListPrefs>>(PREFS_KEY, {});
    return {
      sort: isPageSort(stored.sort) ? stored.sort : "updated",
      favoritesOnly: stored.favoritesOnly === true,
    };
  });
  const update = (patch: Partial<ListPrefs>) =>
    setPrefs((current) => {
      const next = { ...current, ...patch };
      writeLocal(PREFS_KEY, next);
      return next;
    });
  return [prefs, update];
}

const TAB_ICONS: Record<PageTab, typeof Globe> = { public: Globe, private: Lock, archived: Archive };

/** Expanded parents, per project, remembered in this browser (a reload finds them open). */
const expandedKey = (projectId: string) => `tideline:pages:expanded:${projectId}`;
const EXPANDED_MAX = 500;

function readExpanded(projectId: string): ReadonlySet<string> {
  const stored = readLocal<unknown>(expandedKey(projectId), []);
  return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : []);
}

function useExpanded(projectId: string): [ReadonlySet<string>, (id: string, open: boolean) => void] {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => readExpanded(projectId));
  useEffect(() => setExpanded(readExpanded(projectId)), [projectId]);
  const set = (id: string, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      next.delete(id);
      if (open) next.add(id);
      // The most recently opened last; the oldest are forgotten past the cap.
      writeLocal(expandedKey(projectId), [...next].slice(-EXPANDED_MAX));
      return next;
    });
  return [expanded, set];
}

export function PagesListScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const ctx = usePagesProject(projectId);
  const { slug, project, isMember } = ctx;
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get("tab");
  const tab: PageTab = isPageTab(tabParam) ? tabParam : "public";
  const [prefs, setPrefs] = usePrefs();
  const [search, setSearch] = useState("");
  const [createOpen, setCreateOpen] = useState(false);
  const [createParent, setCreateParent] = useState<Page | null>(null);
  const [expanded, setExpanded] = useExpanded(projectId);
  const snap = useSnapshot(pages);

  useEffect(() => {
    if (!isMember) return;
    void loadPages(slug, projectId).catch(() => undefined);
    return watchProjectPages(slug, projectId);
  }, [slug, projectId, isMember]);

  useEffect(() => {
    if (project) document.title = `${t("pages.title")} · ${project.name}`;
  }, [project, t]);

  const list = snap.lists[projectId];
  const all = useMemo(
    () => (list?.ids ?? []).map((id) => snap.byId[id]).filter((p): p is Page => Boolean(p)),
    [list, snap.byId],
  );
  const counts = useMemo(() => tabCounts(all), [all]);
  // Guests can't favorite pages: no favorites filter for them (nor a stale one from before).
  const canFavorite = ctx.projectRole >= ROLE.member;
  const favoritesOnly = prefs.favoritesOnly && canFavorite;
  const shown = useMemo(
    () => filterPages(all, { tab, search, favoritesOnly, sort: prefs.sort }),
    [all, tab, search, favoritesOnly, prefs.sort],
  );
  const canCreate = ctx.canCreate && project?.page_view !== false;
  const flat = search.trim() !== "" || favoritesOnly;
  const rows = useMemo(() => pageTreeRows(shown, expanded, flat), [shown, expanded, flat]);
  const openCreate = (parent: Page | null) => {
    setCreateParent(parent);
    setCreateOpen(true);
  };

  // "c" opens the new-page form when no field has the focus (as on the work items screen).
  useCreateShortcut("c", canCreate, () => openCreate(null));
  useCreateIntent("page", projectId, canCreate, () => openCreate(null));

  const setTab = (next: PageTab) =>
    setSearchParams(
      (params) => {
        const out = new URLSearchParams(params);
        if (next === "public") out.delete("tab");
        else out.set("tab", next);
        return out;
      },
      { replace: true },
    );

  const header = (
    <PageHeader
      actions={
        canCreate && isMember ? (
          <Button size="sm" onClick={() => openCreate(null)} title={t("pages.createShortcut")}>
            <Plus size={14} aria-hidden />
            {t("pages.create")}
          </Button>
        ) : null
      }
    >
      <ProjectCrumbs slug={slug} project={project} />
      <h1 className="pg-h1">{t("pages.title")}</h1>
      {list?.status === "ready" ? <span className="pg-total">{all.length}</span> : null}
    </PageHeader>
  );

  const blocked = projectBlocked(ctx, t);
  if (blocked) {
    return (
      <div className="pg-screen">
        {header}
        {blocked}
      </div>
    );
  }

  let body: ReactNode;
  if (!list || (list.status === "loading" && list.ids.length === 0)) {
    body = (
      <div className="pg-rows-skeleton">
        <SkeletonRows count={6} height={48} />
      </div>
    );
  } else if (list.status === "error" && list.ids.length === 0) {
    body = (
      <EmptyState
        icon={FileText}
        title={t("pages.loadFailed")}
        action={
          <Button variant="secondary" onClick={() => void loadPages(slug, projectId).catch(() => undefined)}>
            {t("pages.retry")}
          </Button>
        }
      />
    );
  } else if (shown.length === 0) {
    body = (
      <EmptyTab
        tab={tab}
        search={search.trim()}
        favoritesOnly={favoritesOnly && counts[tab] > 0}
        canCreate={canCreate}
        onClearSearch={() => setSearch("")}
        onShowAll={() => setPrefs({ favoritesOnly: false })}
        onCreate={() => openCreate(null)}
      />
    );
  } else {
    body = (
      <ul className={clsx("pg-rows", !flat && "is-tree")} aria-label={t(`pages.tabs.${tab}`)}>
        {rows.map(({ page, depth, children }) => (
          <PageRow
            key={page.id}
            page={page}
            projectId={projectId}
            ctx={ctx}
            depth={depth}
            tree={!flat}
            childCount={children}
            expanded={expanded.has(page.id)}
            onToggle={(open) => setExpanded(page.id, open)}
            onAddSubPage={canCreate && isMember && !page.archived_at ? () => openCreate(page) : undefined}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="pg-screen">
      {header}
      <div className="projects-toolbar pg-toolbar">
        <div className="tabs" role="tablist" aria-label={t("pages.tabs.label")}>
          {PAGE_TABS.map((key) => {
            const Icon = TAB_ICONS[key];
            return (
              <button
                key={key}
                type="button"
                role="tab"
                aria-selected={tab === key}
                className={clsx("tab pg-tab", tab === key && "active")}
                onClick={() => setTab(key)}
              >
                <Icon size={13} aria-hidden />
                {t(`pages.tabs.${key}`)}
                <span className="pg-tab-count">{list?.status === "ready" ? counts[key] : ""}</span>
              </button>
            );
          })}
        </div>
        <div className="pg-tools">
          <div className="search-input">
            <Search size={14} aria-hidden />
            <input
              className="input"
              type="search"
              placeholder={t("pages.searchPlaceholder")}
              aria-label={t("pages.search")}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          {canFavorite ? (
            <button
              type="button"
              className={clsx("ui-tool-btn pg-tool-btn", prefs.favoritesOnly && "is-on")}
              aria-pressed={prefs.favoritesOnly}
              title={t("pages.favoritesOnlyHint")}
              onClick={() => setPrefs({ favoritesOnly: !prefs.favoritesOnly })}
            >
              <Star size={13} aria-hidden fill={prefs.favoritesOnly ? "currentColor" : "none"} />
              {t("pages.favoritesOnly")}
            </button>
          ) : null}
          <Menu
            width={190}
            trigger={
              <button
                type="button"
                className="ui-tool-btn pg-tool-btn pg-sort-btn"
                aria-label={`${t("pages.sort.label")}: ${t(`pages.sort.${prefs.sort}`)}`}
              >
                <ArrowDownUp size={13} aria-hidden />
                {t(`pages.sort.${prefs.sort}`)}
              </button>
            }
          >
            {PAGE_SORTS.map((key) => (
              <MenuItem
                key={key}
                icon={<Check size={14} style={{ visibility: prefs.sort === key ? "visible" : "hidden" }} />}
                onSelect={() => setPrefs({ sort: key })}
              >
                {t(`pages.sort.${key}`)}
              </MenuItem>
            ))}
          </Menu>
        </div>
      </div>
      {body}
      {isMember ? (
        <CreatePageModal
          open={createOpen}
          onOpenChange={setCreateOpen}
          slug={slug}
          projectId={projectId}
          initialAccess={
            createParent ? createParent.access : tab === "private" ? PAGE_ACCESS.private : PAGE_ACCESS.public
          }
          parent={createParent}
          onCreated={(page) => {
            if (page.parent) setExpanded(page.parent, true);
          }}
        />
      ) : null}
    </div>
  );
}

function PageRow({
  page,
  projectId,
  ctx,
  depth,
  tree,
  childCount,
  expanded,
  onToggle,
  onAddSubPage,
}: {
  page: Page;
  projectId: string;
  ctx: PagesProjectContext;
  depth: number;
  /** Rows show a chevron slot (the list is a tree, not search results). */
  tree: boolean;
  childCount: number;
  expanded: boolean;
  onToggle: (open: boolean) => void;
  onAddSubPage?: () => void;
}) {
  const { t } = useTranslation();
  const perms = usePagePermissions(page, ctx);
  const owner = personOf(ctx.members, page.owned_by, t("pages.someone"));
  const name = pageTitle(page.name);
  const to = `/${ctx.slug}/projects/${projectId}/pages/${page.id}/`;
  const archived = Boolean(page.archived_at);
  if (!perms) return null;
  return (
    <li className="pg-row" style={{ "--pg-depth": depth } as CSSProperties}>
      {tree ? (
        childCount > 0 ? (
          <button
            type="button"
            className={clsx("ui-icon-btn pg-icon-btn pg-row-toggle", expanded && "is-open")}
            aria-expanded={expanded}
            aria-label={t(expanded ? "pages.row.hideSubPages" : "pages.row.showSubPages", { name, count: childCount })}
            title={t(expanded ? "pages.row.hideSubPages" : "pages.row.showSubPages", { name, count: childCount })}
            onClick={() => onToggle(!expanded)}
          >
            <ChevronRight size={14} aria-hidden className="pg-row-chevron" />
          </button>
        ) : (
          <span className="pg-row-toggle-slot" />
        )
      ) : null}
      <Link className="pg-row-link" to={to}>
        <FileText size={16} aria-hidden className="pg-row-icon" />
        <span className={clsx("pg-row-name", !page.name.trim() && "is-untitled")}>{name}</span>
        {page.is_locked ? (
          <span className="pg-badge" title={t("pages.row.locked")}>
            <Lock size={11} aria-hidden />
            {t("pages.row.locked")}
          </span>
        ) : null}
      </Link>
      <span className="pg-row-meta">
        <span className="pg-row-time" title={archived ? (page.archived_at ?? "") : page.updated_at}>
          {archived
            ? t("pages.row.archived", { time: relativeTime(page.archived_at ?? "", t("pages.justNow")) })
            : t("pages.row.edited", { time: relativeTime(page.updated_at, t("pages.justNow")) })}
        </span>
        {onAddSubPage ? (
          <button
            type="button"
            className="ui-icon-btn pg-icon-btn pg-row-add"
            aria-label={t("pages.row.addSubPage", { name })}
            title={t("pages.row.addSubPageHint")}
            onClick={onAddSubPage}
          >
            <Plus size={14} aria-hidden />
          </button>
        ) : null}
        <span className="pg-row-owner" title={t("pages.row.owner", { name: owner.name })}>
          <Avatar name={owner.name} src={owner.avatarUrl} size={22} />
        </span>
        {page.is_favorite || perms.canFavorite ? (
          <button
            type="button"
            className={clsx("ui-icon-btn pg-icon-btn pg-star", page.is_favorite && "is-on")}
            aria-pressed={page.is_favorite}
            aria-label={t(page.is_favorite ? "pages.row.unfavorite" : "pages.row.favorite", { name })}
            title={page.is_favorite ? t("pages.actions.unfavorite") : t("pages.actions.favorite")}
            onClick={() => void setPageFavorite(ctx.slug, projectId, page.id, !page.is_favorite)}
          >
            <Star size={14} aria-hidden fill={page.is_favorite ? "currentColor" : "none"} />
          </button>
        ) : (
          <span className="pg-icon-placeholder" />
        )}
        <PageMenu
          slug={ctx.slug}
          projectId={projectId}
          page={page}
          perms={perms}
          label={t("pages.row.actions", { name })}
        />
      </span>
    </li>
  );
}

function EmptyTab({
  tab,
  search,
  favoritesOnly,
  canCreate,
  onClearSearch,
  onShowAll,
  onCreate,
}: {
  tab: PageTab;
  search: string;
  favoritesOnly: boolean;
  canCreate: boolean;
  onClearSearch: () => void;
  onShowAll: () => void;
  onCreate: () => void;
}) {
  const { t } = useTranslation();
  if (search) {
    return (
      <EmptyState
        icon={SearchX}
        title={t("pages.empty.noMatch.title", { search })}
        description={t("pages.empty.noMatch.description")}
        action={
          <Button variant="secondary" onClick={onClearSearch}>
            {t("pages.empty.noMatch.clear")}
          </Button>
        }
      />
    );
  }
  if (favoritesOnly) {
    return (
      <EmptyState
        icon={StarOff}
        title={t("pages.empty.noFavorites.title")}
        description={t("pages.empty.noFavorites.description")}
        action={
          <Button variant="secondary" onClick={onShowAll}>
            {t("pages.empty.noFavorites.showAll")}
          </Button>
        }
      />
    );
  }
  const Icon = TAB_ICONS[tab];
  const creatable = canCreate && tab !== "archived";
  return (
    <EmptyState
      icon={tab === "archived" ? Icon : FileText}
      title={t(`pages.empty.${tab}.title`)}
      description={tab === "public" && !canCreate ? t("pages.empty.public.guest") : t(`pages.empty.${tab}.description`)}
      action={
        creatable ? (
          <Button onClick={onCreate}>
            <Plus size={14} aria-hidden />
            {t("pages.create")}
          </Button>
        ) : null
      }
    />
  );
}
