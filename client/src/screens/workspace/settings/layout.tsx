import { FileDown, KeyRound, Settings, Settings2, Users, Webhook } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, NavLink, Outlet } from "react-router";
import { WorkspaceLogo } from "../components/logos";
import { PageHeader } from "../components/page-header";
import { can } from "../permissions";
import { useCurrentWorkspace } from "../use-workspace";

/** /:ws/settings/…: workspace settings for admins and members (guests are sent home). */
export function WorkspaceSettingsLayout() {
  const { t } = useTranslation();
  const { slug, workspace, role } = useCurrentWorkspace();

  useEffect(() => {
    if (workspace) document.title = `${t("settings.title")} · ${workspace.name}`;
  }, [workspace, t]);

  if (!workspace) return null;
  if (!can.seeWorkspaceSettings(role)) return <Navigate to={`/${slug}/`} replace />;

  return (
    <>
      <PageHeader>
        <Settings size={16} aria-hidden className="muted" />
        <span>{t("settings.title")}</span>
      </PageHeader>
      <div className="settings-shell">
        <nav className="settings-nav" aria-label={t("settings.nav")}>
          <div className="settings-nav-title">
            <WorkspaceLogo name={workspace.name} url={workspace.logo_url} size={16} />
            <span>{workspace.name}</span>
          </div>
          <NavLink to={`/${slug}/settings/`} end>
            <Settings2 size={15} aria-hidden />
            {t("settings.general.title")}
          </NavLink>
          <NavLink to={`/${slug}/settings/members/`}>
            <Users size={15} aria-hidden />
            {t("settings.members.title")}
          </NavLink>
          {can.manageExports(role) ? (
            <NavLink to={`/${slug}/settings/exports/`}>
              <FileDown size={15} aria-hidden />
              {t("settings.exports.title")}
            </NavLink>
          ) : null}
          {can.manageWebhooks(role) ? (
            <NavLink to={`/${slug}/settings/webhooks/`}>
              <Webhook size={15} aria-hidden />
              {t("settings.webhooks.title")}
            </NavLink>
          ) : null}
          {can.manageApiTokens(role) ? (
            <NavLink to={`/${slug}/settings/api-tokens/`}>
              <KeyRound size={15} aria-hidden />
              {t("settings.apiTokens.title")}
            </NavLink>
          ) : null}
        </nav>
        <div className="settings-body">
          <Outlet />
        </div>
      </div>
    </>
  );
}
