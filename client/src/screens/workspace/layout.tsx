import { Building2 } from "lucide-react";
import { Dialog } from "radix-ui";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router";
import { useSnapshot } from "valtio";
import { OfflineBanner } from "../../components/offline/offline-banner";
import { Button, EmptyState, ScreenLoader } from "../../components/ui";
import { closeStartWindow, firstPaintDone } from "../../lib/offline/last-answers";
import { useIsNarrow } from "../../lib/use-media";
import { openUserChannel } from "../../lib/user-channel";
import { fetchFavorites } from "../../stores/favorites";
import { adoptProfileTheme } from "../../stores/profile";
import { fetchProjects } from "../../stores/projects";
import { session } from "../../stores/session";
import { scheduleWorkspaceSync } from "../../stores/workspace-lists";
import { fetchMyWorkspaces, fetchWorkspace, rememberWorkspace, workspaces } from "../../stores/workspaces";
import { usePaletteKeys } from "../command-palette/use-palette-keys";
import { CreateProjectModal } from "./projects/create-project-modal";
import { Sidebar } from "./sidebar";
import { ShellContext, useCurrentWorkspace } from "./use-workspace";
import "./workspace.css";

// The stickies modal (and the editor it shows) loads the first time it opens; so do the command
// palette and the shortcut help.
const StickiesModal = lazy(async () => ({ default: (await import("../stickies/stickies-modal")).StickiesModal }));
const CommandPalette = lazy(async () => ({
  default: (await import("../command-palette/command-palette")).CommandPalette,
}));
const ShortcutHelp = lazy(async () => ({ default: (await import("../command-palette/shortcut-help")).ShortcutHelp }));

/**
 * The workspace shell: sidebar + the current screen. Under 768 px the sidebar is a drawer
 * (a Radix dialog: opened by the menu button in each screen's header, closed by Escape, a tap
 * outside or a navigation; the focus goes back to the button). Offline, a banner across the top of
 * the screen says so (components/offline). Loads the workspace (and the lists the
 * sidebar needs) whenever the slug changes; a workspace the user can't see is "not found".
 */
export function WorkspaceLayout() {
  const { t } = useTranslation();
  const { slug, workspace } = useCurrentWorkspace();
  const snap = useSnapshot(workspaces);
  const [createOpen, setCreateOpen] = useState(false);
  const [stickiesOpen, setStickiesOpen] = useState(false);
  const [stickiesUsed, setStickiesUsed] = useState(false);
  const [failed, setFailed] = useState(false);
  const userId = useSnapshot(session).user?.id;

  useEffect(() => {
    adoptProfileTheme();
  }, []);

  // The person's own live channel (notifications, stickies: lib/user-channel.ts), once for the
  // shell — on phones too, where the sidebar is a drawer that is mostly closed. It waits for the
  // first screen's paint, not to compete with a board's first paint (lib/offline/last-answers.ts).
  useEffect(() => {
    if (!userId) return;
    let release: (() => void) | null = null;
    let alive = true;
    void firstPaintDone().then(() => {
      if (alive) release = openUserChannel(userId);
    });
    return () => {
      alive = false;
      release?.();
    };
  }, [userId]);

  useEffect(() => {
    let alive = true;
    let cancelSync: (() => void) | null = null;
    setFailed(false);
    // The sidebar's lists are asked with the workspace, not after it: a board waits for the
    // projects list (is the user a member?), and one hop less is one kept answer sooner at start.
    // A workspace the user can't see answers 404 to them too, and the screen says "not found".
    const projectList = fetchProjects(slug);
    projectList.catch(() => undefined);
    void fetchFavorites(slug).catch(() => undefined);
    fetchWorkspace(slug)
      .then((ws) => {
        if (!alive || !ws) return;
        void rememberWorkspace(ws);
        projectList
          .then(() => {
            // Every project's lists into the local copy, in the background (workspace sync).
            if (alive) cancelSync = scheduleWorkspaceSync(slug, ws.id);
          })
          .catch(() => undefined);
      })
      .catch(() => alive && setFailed(true));
    if (!workspaces.listLoaded) void fetchMyWorkspaces().catch(() => undefined);
    return () => {
      alive = false;
      cancelSync?.();
    };
  }, [slug]);

  const narrow = useIsNarrow();
  const [navOpen, setNavOpen] = useState(false);
  const { pathname } = useLocation();
  // A navigation (a link in the drawer, or anywhere) closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the path changes
  useEffect(() => setNavOpen(false), [pathname]);
  useEffect(() => {
    if (!narrow) setNavOpen(false);
  }, [narrow]);
  // The button that opened the drawer gets the focus back when it closes (a tap may not focus it).
  const opener = useRef<HTMLElement | null>(null);
  const openNav = useCallback((from?: HTMLElement | null) => {
    opener.current = from ?? null;
    setNavOpen(true);
  }, []);

  const openCreateProject = useCallback(() => {
    setNavOpen(false);
    setCreateOpen(true);
  }, []);
  const openStickies = useCallback(() => {
    setNavOpen(false);
    setStickiesUsed(true);
    setStickiesOpen(true);
  }, []);
  // The command palette and the shortcut help: mounted the first time they are asked for.
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [paletteUsed, setPaletteUsed] = useState(false);
  const [helpUsed, setHelpUsed] = useState(false);
  const openPalette = useCallback(() => {
    setNavOpen(false);
    setPaletteUsed(true);
    setPaletteOpen(true);
  }, []);
  const showShortcuts = useCallback(() => {
    setHelpUsed(true);
    setHelpOpen(true);
  }, []);
  usePaletteKeys({
    togglePalette: () => {
      if (paletteOpen) setPaletteOpen(false);
      // Over another modal (a create form) it would fight that form for the focus: the form first.
      else if (!document.querySelector(".dialog-content")) openPalette();
    },
    showShortcuts,
  });
  const actions = useMemo(
    () => ({ openCreateProject, openStickies, openPalette, openNav: narrow ? openNav : null }),
    [openCreateProject, openStickies, openPalette, narrow, openNav],
  );

  useEffect(() => {
    if (workspace) document.title = `${workspace.name} · Tideline`;
  }, [workspace]);

  // A workspace that isn't there ends the start: no board will paint (lib/offline/last-answers.ts).
  const missing = Boolean(snap.missing[slug]);
  useEffect(() => {
    if (missing) closeStartWindow();
  }, [missing]);

  if (snap.missing[slug]) {
    return (
      <div className="full-center">
        <EmptyState
          icon={Building2}
          title={t("workspace.notFound.title")}
          description={t("workspace.notFound.description")}
          action={
            <div className="row">
              <Link className="btn btn-secondary" to="/">
                {t("workspace.notFound.home")}
              </Link>
              <Link className="btn btn-primary" to="/create-workspace/">
                {t("workspace.notFound.create")}
              </Link>
            </div>
          }
        />
      </div>
    );
  }

  if (failed) {
    return (
      <div className="full-center">
        <div className="stack" style={{ alignItems: "center" }}>
          <p className="muted">{t("workspace.loadFailed")}</p>
          <Button onClick={() => window.location.reload()}>{t("workspace.common.retry")}</Button>
        </div>
      </div>
    );
  }

  return (
    <ShellContext.Provider value={actions}>
      <div className="ws-shell">
        {narrow ? (
          <Dialog.Root open={navOpen} onOpenChange={setNavOpen}>
            <Dialog.Portal>
              <Dialog.Overlay className="nav-drawer-overlay" />
              <Dialog.Content
                className="nav-drawer"
                aria-describedby={undefined}
                onCloseAutoFocus={(event) => {
                  const from = opener.current;
                  if (from?.isConnected) {
                    event.preventDefault();
                    from.focus();
                  }
                }}
              >
                <Dialog.Title className="visually-hidden">{t("ui.nav.title")}</Dialog.Title>
                <Sidebar drawer onClose={() => setNavOpen(false)} />
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        ) : (
          <Sidebar />
        )}
        <div className="ws-main-column">
          <OfflineBanner />
          <main className="ws-main" id="main">
            {workspace ? <Outlet /> : <ScreenLoader />}
          </main>
        </div>
      </div>
      {workspace ? <CreateProjectModal open={createOpen} onOpenChange={setCreateOpen} /> : null}
      {workspace && paletteUsed ? (
        <Suspense fallback={null}>
          <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} onShowShortcuts={showShortcuts} />
        </Suspense>
      ) : null}
      {helpUsed ? (
        <Suspense fallback={null}>
          <ShortcutHelp open={helpOpen} onOpenChange={setHelpOpen} />
        </Suspense>
      ) : null}
      {workspace && stickiesUsed ? (
        <Suspense fallback={null}>
          <StickiesModal open={stickiesOpen} onOpenChange={setStickiesOpen} />
        </Suspense>
      ) : null}
    </ShellContext.Provider>
  );
}
