/**
 * /:ws/projects/:projectId/pages/:pageId/ — one page: its title (saved 2 s after the last
 * change, title-saver.ts), its body co-edited live (LiveEditor over `page.{id}`), the header's
 * access, lock, archive and favorite controls, and the version history. A page the caller can't
 * edit now (locked, archived, or not theirs to edit) is shown read-only under a banner saying why.
 */
import { PAGE_ACCESS, PAGE_NAME_MAX } from "@tideline/shared";
import clsx from "clsx";
import {
  Archive,
  ArchiveRestore,
  Check,
  FileQuestion,
  FileText,
  Globe,
  History,
  Loader,
  Lock,
  LockOpen,
  Star,
} from "lucide-react";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { LiveDocumentBadge, type LiveDocumentStatus, LiveEditor } from "../../components/editor";
import { Avatar, Banner, Button, EmptyState } from "../../components/ui";
import { mentionablesOf } from "../../stores/members";
import {
  archivePage,
  followDocumentTitle,
  loadPage,
  loadPages,
  type Page,
  pages,
  renamePage,
  restorePage,
  setPageAccess,
  setPageFavorite,
  setPageLocked,
  uploadPageImage,
  watchProjectPages,
} from "../../stores/pages";
import { PageHeader } from "../workspace/components/page-header";
import { Skeleton } from "../workspace/components/skeleton";
import { type PagePermissions, pageTitle } from "./page-logic";
import { PageMenu } from "./page-menu";
import { ProjectCrumbs, projectBlocked } from "./project-state";
import { createTitleSaver, type TitleSaver, type TitleSaveState } from "./title-saver";
import { type PagesProjectContext, personOf, relativeTime, usePagePermissions, usePagesProject } from "./use-pages";
import { VersionPanel, VersionPreview } from "./version-history";
import "../../components/ui/controls.css";
import "./pages.css";

export function PageScreen() {
  const { t } = useTranslation();
  const { projectId = "", pageId = "" } = useParams();
  const ctx = usePagesProject(projectId);
  const { slug, project, isMember } = ctx;
  const snap = useSnapshot(pages);
  const page = snap.byId[pageId] as Page | undefined;
  const status = snap.details[pageId];
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the load on "Try again"
  useEffect(() => {
    if (!isMember) return;
    void loadPage(slug, projectId, pageId, { quiet: true }).catch(() => undefined);
    return watchProjectPages(slug, projectId, pageId);
  }, [slug, projectId, pageId, isMember, attempt]);

  useEffect(() => {
    if (page && project) document.title = `${pageTitle(page.name)} · ${project.name}`;
  }, [page?.name, project, page]);

  // A sub-page names its parent in the breadcrumbs; the list brings the parent when it isn't cached.
  const parentId = page?.parent ?? null;
  const parent = parentId ? (snap.byId[parentId] as Page | undefined) : undefined;
  useEffect(() => {
    if (isMember && parentId && !parent) void loadPages(slug, projectId, { quiet: true }).catch(() => undefined);
  }, [isMember, parentId, parent, slug, projectId]);

  const pagesLink = `/${slug}/projects/${projectId}/pages/`;
  const crumbs = (
    <>
      <ProjectCrumbs slug={slug} project={project} />
      <Link className="crumb" to={pagesLink}>
        <FileText size={14} aria-hidden />
        {t("pages.page.backToPages")}
      </Link>
      <span className="crumb-sep">/</span>
      {parent ? (
        <>
          <Link className="crumb pg-crumb-parent" to={`${pagesLink}${parent.id}/`}>
            {pageTitle(parent.name)}
          </Link>
          <span className="crumb-sep">/</span>
        </>
      ) : null}
    </>
  );

  const blocked = projectBlocked(ctx, t);
  if (blocked) {
    return (
      <div className="pg-screen">
        <PageHeader>{crumbs}</PageHeader>
        {blocked}
      </div>
    );
  }
  if (status === "missing") {
    return (
      <div className="pg-screen">
        <PageHeader>{crumbs}</PageHeader>
        <EmptyState
          icon={FileQuestion}
          title={t("pages.page.notFound.title")}
          description={t("pages.page.notFound.description")}
          action={
            <Link className="btn btn-secondary" to={pagesLink}>
              {t("pages.page.notFound.back")}
            </Link>
          }
        />
      </div>
    );
  }
  if (!page) {
    return (
      <div className="pg-screen">
        <PageHeader>
          {crumbs}
          {status === "error" ? null : <Skeleton width={160} />}
        </PageHeader>
        {status === "error" ? (
          <EmptyState
            icon={FileText}
            title={t("pages.page.loadFailed")}
            action={
              <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
                {t("pages.retry")}
              </Button>
            }
          />
        ) : (
          <div className="pg-doc" role="status" aria-label={t("pages.page.loading")}>
            <Skeleton height={36} width="55%" />
            <div className="pg-doc-skeleton-lines">
              <Skeleton width="92%" />
              <Skeleton width="84%" />
              <Skeleton width="60%" />
            </div>
          </div>
        )}
      </div>
    );
  }
  return <PageView key={page.id} page={page} projectId={projectId} ctx={ctx} crumbs={crumbs} />;
}

function PageView({
  page,
  projectId,
  ctx,
  crumbs,
}: {
  page: Page;
  projectId: string;
  ctx: PagesProjectContext;
  crumbs: React.ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { slug } = ctx;
  const perms = usePagePermissions(page, ctx) as PagePermissions;
  const [titleState, setTitleState] = useState<TitleSaveState>("saved");
  const [liveStatus, setLiveStatus] = useState<LiveDocumentStatus | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [versionId, setVersionId] = useState<string | null>(null);
  const owner = personOf(ctx.members, page.owned_by, t("pages.someone"));
  const isPrivate = page.access === PAGE_ACCESS.private;
  const pageId = page.id;

  const upload = useCallback((file: File) => uploadPageImage(slug, projectId, pageId, file), [slug, projectId, pageId]);
  const followTitle = useCallback((title: string) => followDocumentTitle(pageId, title), [pageId]);
  const mentionables = useMemo(() => mentionablesOf(ctx.members.map((m) => m.member_details)), [ctx.members]);

  const banner = readOnlyBanner(page, perms, t, {
    restore: () =>
      void restorePage(slug, projectId, pageId).then((ok) => ok && toast.success(t("pages.actions.restored"))),
    unlock: () =>
      void setPageLocked(slug, projectId, pageId, false).then((ok) => ok && toast.success(t("pages.actions.unlocked"))),
  });

  return (
    <div className="pg-screen pg-page">
      <PageHeader
        actions={
          <>
            {liveStatus ? <LiveDocumentBadge status={liveStatus} /> : null}
            {perms.canChangeAccess ? (
              <Button
                size="sm"
                variant="ghost"
                className="pg-access-btn"
                title={isPrivate ? t("pages.page.access.privateHint") : t("pages.page.access.publicHint")}
                onClick={async () => {
                  const next = isPrivate ? PAGE_ACCESS.public : PAGE_ACCESS.private;
                  if (await setPageAccess(slug, projectId, pageId, next))
                    toast.success(isPrivate ? t("pages.actions.madePublic") : t("pages.actions.madePrivate"));
                }}
              >
                {isPrivate ? <Lock size={14} aria-hidden /> : <Globe size={14} aria-hidden />}
                {isPrivate ? t("pages.page.access.private") : t("pages.page.access.public")}
              </Button>
            ) : (
              <span
                className="pg-access-chip"
                title={isPrivate ? t("pages.page.access.privateReadOnly") : t("pages.page.access.publicReadOnly")}
              >
                {isPrivate ? <Lock size={13} aria-hidden /> : <Globe size={13} aria-hidden />}
                {isPrivate ? t("pages.page.access.private") : t("pages.page.access.public")}
              </span>
            )}
            {perms.canLock ? (
              <button
                type="button"
                className={clsx("ui-icon-btn pg-icon-btn", page.is_locked && "is-on")}
                aria-pressed={page.is_locked}
                aria-label={page.is_locked ? t("pages.page.unlock") : t("pages.page.lock")}
                title={page.is_locked ? t("pages.page.unlock") : t("pages.page.lock")}
                onClick={async () => {
                  const lock = !page.is_locked;
                  if (await setPageLocked(slug, projectId, pageId, lock))
                    toast.success(lock ? t("pages.actions.locked") : t("pages.actions.unlocked"));
                }}
              >
                {page.is_locked ? <Lock size={15} aria-hidden /> : <LockOpen size={15} aria-hidden />}
              </button>
            ) : null}
            {perms.canArchive || perms.canRestore ? (
              <button
                type="button"
                className="ui-icon-btn pg-icon-btn"
                aria-label={perms.canRestore ? t("pages.actions.restore") : t("pages.actions.archive")}
                title={perms.canRestore ? t("pages.actions.restore") : t("pages.actions.archive")}
                onClick={async () => {
                  if (perms.canRestore) {
                    if (await restorePage(slug, projectId, pageId)) toast.success(t("pages.actions.restored"));
                  } else if (await archivePage(slug, projectId, pageId)) {
                    toast.success(t("pages.actions.archived"));
                  }
                }}
              >
                {perms.canRestore ? <ArchiveRestore size={15} aria-hidden /> : <Archive size={15} aria-hidden />}
              </button>
            ) : null}
            {page.is_favorite || perms.canFavorite ? (
              <button
                type="button"
                className={clsx("ui-icon-btn pg-icon-btn pg-star", page.is_favorite && "is-on")}
                aria-pressed={page.is_favorite}
                aria-label={page.is_favorite ? t("pages.actions.unfavorite") : t("pages.actions.favorite")}
                title={page.is_favorite ? t("pages.actions.unfavorite") : t("pages.actions.favorite")}
                onClick={() => void setPageFavorite(slug, projectId, pageId, !page.is_favorite)}
              >
                <Star size={15} aria-hidden fill={page.is_favorite ? "currentColor" : "none"} />
              </button>
            ) : null}
            <button
              type="button"
              className={clsx("ui-icon-btn pg-icon-btn", versionsOpen && "is-on")}
              aria-pressed={versionsOpen}
              aria-label={t("pages.versions.open")}
              title={t("pages.versions.open")}
              onClick={() => {
                setVersionsOpen(!versionsOpen);
                if (versionsOpen) setVersionId(null);
              }}
            >
              <History size={15} aria-hidden />
            </button>
            <PageMenu
              slug={slug}
              projectId={projectId}
              page={page}
              perms={perms}
              label={t("pages.actions.more")}
              hide={["favorite", "access", "lock", "archive", "versions"]}
              onDeleted={() => navigate(`/${slug}/projects/${projectId}/pages/?tab=archived`, { replace: true })}
              onMoved={(target) => navigate(`/${slug}/projects/${target}/pages/${pageId}/`, { replace: true })}
            />
          </>
        }
      >
        {crumbs}
        <span className="pg-crumb-title" title={pageTitle(page.name)}>
          {pageTitle(page.name)}
        </span>
      </PageHeader>
      <div className={clsx("pg-page-body", versionsOpen && "with-versions")}>
        <div className="pg-page-scroll">
          {banner ? <div className="pg-banner">{banner}</div> : null}
          {versionId ? (
            <div className="pg-doc">
              <VersionPreview
                slug={slug}
                projectId={projectId}
                page={page}
                versionId={versionId}
                canRestore={perms.canRestoreVersion}
                onBack={() => setVersionId(null)}
              />
            </div>
          ) : null}
          {/* Kept mounted under a preview: the live connection and the caret stay where they were. */}
          <div className="pg-doc" hidden={versionId !== null}>
            <PageTitleField
              key={page.id}
              page={page}
              editable={perms.canEdit}
              slug={slug}
              projectId={projectId}
              onState={setTitleState}
            />
            <div className="pg-doc-meta">
              <Avatar name={owner.name} src={owner.avatarUrl} size={18} />
              <span>{t("pages.page.owner", { name: owner.name })}</span>
              <span aria-hidden>·</span>
              <span title={page.updated_at}>
                {t("pages.page.edited", { time: relativeTime(page.updated_at, t("pages.justNow")) })}
              </span>
              <TitleSaveIndicator state={titleState} />
            </div>
            <div className="pg-editor">
              <LiveEditor
                documentName={`page.${page.id}`}
                editable={perms.canEdit}
                ariaLabel={t("pages.page.bodyLabel")}
                placeholder={t("pages.page.bodyPlaceholder")}
                onUploadImage={perms.canEdit ? upload : undefined}
                mentionables={mentionables}
                showCharacterCount
                onStatusChange={setLiveStatus}
                onTitleChange={followTitle}
              />
            </div>
          </div>
        </div>
        {versionsOpen ? (
          <VersionPanel
            slug={slug}
            projectId={projectId}
            page={page}
            members={ctx.members}
            selected={versionId}
            onSelect={setVersionId}
            onClose={() => {
              setVersionsOpen(false);
              setVersionId(null);
            }}
          />
        ) : null}
      </div>
    </div>
  );
}

function readOnlyBanner(
  page: Page,
  perms: PagePermissions,
  t: (key: string) => string,
  actions: { restore: () => void; unlock: () => void },
): React.ReactNode {
  if (!perms.readOnly) return null;
  if (perms.readOnly === "archived") {
    return (
      <Banner kind="warning">
        <span className="pg-banner-row">
          <span>{perms.canRestore ? t("pages.page.banner.archivedCanRestore") : t("pages.page.banner.archived")}</span>
          {perms.canRestore ? (
            <Button size="sm" variant="secondary" onClick={actions.restore}>
              <ArchiveRestore size={14} aria-hidden />
              {t("pages.actions.restore")}
            </Button>
          ) : null}
        </span>
      </Banner>
    );
  }
  if (perms.readOnly === "locked") {
    return (
      <Banner kind="info">
        <span className="pg-banner-row">
          <span>{perms.canLock ? t("pages.page.banner.lockedCanUnlock") : t("pages.page.banner.locked")}</span>
          {perms.canLock && page.is_locked ? (
            <Button size="sm" variant="secondary" onClick={actions.unlock}>
              <LockOpen size={14} aria-hidden />
              {t("pages.actions.unlock")}
            </Button>
          ) : null}
        </span>
      </Banner>
    );
  }
  return <Banner kind="info">{t("pages.page.banner.noAccess")}</Banner>;
}

/** "Saving…" while a title change waits or is sent, "Saved" a moment after; quiet otherwise. */
function TitleSaveIndicator({ state }: { state: TitleSaveState }) {
  const { t } = useTranslation();
  return (
    <span className={clsx("pg-save-state", `is-${state}`)} aria-live="polite" data-state={state}>
      {state === "submitting" ? (
        <>
          <Loader size={12} aria-hidden className="pg-spin" />
          {t("pages.page.saveState.submitting")}
        </>
      ) : state === "submitted" ? (
        <>
          <Check size={12} aria-hidden />
          {t("pages.page.saveState.submitted")}
        </>
      ) : null}
    </span>
  );
}

function PageTitleField({
  page,
  editable,
  slug,
  projectId,
  onState,
}: {
  page: Page;
  editable: boolean;
  slug: string;
  projectId: string;
  onState: (state: TitleSaveState) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(page.name);
  const ref = useRef<HTMLTextAreaElement>(null);
  const focused = useRef(false);
  const saver = useRef<TitleSaver | null>(null);
  const target = useRef({ slug, projectId, pageId: page.id });
  target.current = { slug, projectId, pageId: page.id };
  const stateRef = useRef(onState);
  stateRef.current = onState;

  // One saver per page (the component is keyed by page id); a waiting change is saved on leave.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; reads the latest values through refs
  useEffect(() => {
    const instance = createTitleSaver({
      initial: page.name,
      save: (name) => renamePage(target.current.slug, target.current.projectId, target.current.pageId, name),
      onState: (s) => stateRef.current(s),
      onRevert: (name) => setDraft(name),
    });
    saver.current = instance;
    const flush = () => void instance.flush();
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      void instance.dispose();
      stateRef.current("saved");
    };
  }, []);

  // Someone renamed the page elsewhere: follow unless the person is typing here.
  useEffect(() => {
    if (!focused.current && saver.current?.sync(page.name)) setDraft(page.name);
  }, [page.name]);

  // Grow with the text.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the text changes
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight}px`;
  }, [draft]);

  return (
    <textarea
      ref={ref}
      className="pg-title"
      aria-label={t("pages.page.titleLabel")}
      placeholder={t("pages.page.titlePlaceholder")}
      value={draft}
      rows={1}
      maxLength={PAGE_NAME_MAX}
      readOnly={!editable}
      onFocus={() => {
        focused.current = true;
      }}
      onBlur={() => {
        focused.current = false;
        void saver.current?.flush();
      }}
      onChange={(e) => {
        // A title is one line: pasted line breaks become spaces.
        const value = e.target.value.replace(/[\r\n]+/g, " ");
        setDraft(value);
        saver.current?.change(value);
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" && !e.nativeEvent.isComposing) {
          e.preventDefault();
          void saver.current?.flush();
          // Enter moves on to the body, as in a document.
          const body = document.querySelector<HTMLElement>(".pg-editor [contenteditable=true]");
          body?.focus();
        }
      }}
    />
  );
}
