import { Building2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState, ScreenLoader } from "../../components/ui";
import { fetchFavoriteProjects } from "../../stores/favorites";
import { adoptProfileTheme } from "../../stores/profile";
import { fetchProjects } from "../../stores/projects";
import { fetchMyWorkspaces, fetchWorkspace, rememberWorkspace, workspaces } from "../../stores/workspaces";
import { CreateProjectModal } from "./projects/create-project-modal";
import { Sidebar } from "./sidebar";
import { ShellContext, useCurrentWorkspace } from "./use-workspace";
import "./workspace.css";

/**
 * The workspace shell: sidebar + the current screen. Loads the workspace (and the lists the
 * sidebar needs) whenever the slug changes; a workspace the user can't see is "not found".
 */
export function WorkspaceLayout() {
  const { t } = useTranslation();
  const { slug, workspace } = useCurrentWorkspace();
  const snap = useSnapshot(workspaces);
  const [createOpen, setCreateOpen] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    adoptProfileTheme();
  }, []);

  useEffect(() => {
    let alive = true;
    setFailed(false);
    fetchWorkspace(slug)
      .then((ws) => {
        if (!alive || !ws) return;
        void rememberWorkspace(ws);
        void fetchProjects(slug).catch(() => undefined);
        void fetchFavoriteProjects(slug).catch(() => undefined);
      })
      .catch(() => alive && setFailed(true));
    if (!workspaces.listLoaded) void fetchMyWorkspaces().catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [slug]);

  const openCreateProject = useCallback(() => setCreateOpen(true), []);
  const actions = useMemo(() => ({ openCreateProject }), [openCreateProject]);

  useEffect(() => {
    if (workspace) document.title = `${workspace.name} · Tideline`;
  }, [workspace]);

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
        <Sidebar />
        <main className="ws-main" id="main">
          {workspace ? <Outlet /> : <ScreenLoader />}
        </main>
      </div>
      {workspace ? <CreateProjectModal open={createOpen} onOpenChange={setCreateOpen} /> : null}
    </ShellContext.Provider>
  );
}
