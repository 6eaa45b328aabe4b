import { personFullName } from "@tideline/shared";
import { ArrowLeft, Bell, CircleUser, KeyRound, Palette } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet } from "react-router";
import { useSnapshot } from "valtio";
import { Avatar } from "../../components/ui";
import { adoptProfileTheme } from "../../stores/profile";
import { session } from "../../stores/session";
import { fetchMyWorkspaces, workspaces } from "../../stores/workspaces";
import "../workspace/workspace.css";
import "./profile.css";

/** /profile/…: the account's settings, with a left nav and a way back to the workspace. */
export function ProfileLayout() {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const wsSnap = useSnapshot(workspaces);

  useEffect(() => {
    adoptProfileTheme();
    if (!workspaces.listLoaded) void fetchMyWorkspaces().catch(() => undefined);
  }, []);

  const last = wsSnap.list.find((w) => w.id === snap.profile?.last_workspace_id) ?? wsSnap.list[0] ?? null;
  const user = snap.user;
  // Your own card: introduced by your full name (personFullName), as the members lists do.
  const name = user ? personFullName(user) : "";

  return (
    <div className="ws-shell">
      <nav className="sidebar profile-nav" aria-label={t("profile.nav")}>
        <div className="sidebar-top">
          <Link className="sidebar-row profile-back" to={last ? `/${last.slug}/` : "/"}>
            <ArrowLeft size={16} className="sidebar-row-icon" aria-hidden />
            <span className="sidebar-label">
              {last ? t("profile.back", { name: last.name }) : t("profile.backHome")}
            </span>
          </Link>
        </div>
        <div className="sidebar-scroll">
          <div className="profile-card">
            <Avatar name={name || "?"} src={user?.avatar_url} size={36} />
            <div className="member-info">
              <span className="member-name">{name}</span>
              <span className="member-email">{user?.email}</span>
            </div>
          </div>
          <div className="sidebar-group">
            <div className="sidebar-section">
              <span className="profile-nav-heading">{t("profile.heading")}</span>
            </div>
            <NavLink to="/profile/" end className={({ isActive }) => (isActive ? "sidebar-row active" : "sidebar-row")}>
              <CircleUser size={16} className="sidebar-row-icon" aria-hidden />
              <span className="sidebar-label">{t("profile.general.nav")}</span>
            </NavLink>
            <NavLink
              to="/profile/security/"
              className={({ isActive }) => (isActive ? "sidebar-row active" : "sidebar-row")}
            >
              <KeyRound size={16} className="sidebar-row-icon" aria-hidden />
              <span className="sidebar-label">{t("profile.security.nav")}</span>
            </NavLink>
            <NavLink
              to="/profile/appearance/"
              className={({ isActive }) => (isActive ? "sidebar-row active" : "sidebar-row")}
            >
              <Palette size={16} className="sidebar-row-icon" aria-hidden />
              <span className="sidebar-label">{t("profile.appearance.nav")}</span>
            </NavLink>
            <NavLink
              to="/profile/notifications/"
              className={({ isActive }) => (isActive ? "sidebar-row active" : "sidebar-row")}
            >
              <Bell size={16} className="sidebar-row-icon" aria-hidden />
              <span className="sidebar-label">{t("profile.notifications.nav")}</span>
            </NavLink>
          </div>
        </div>
      </nav>
      <main className="ws-main">
        <div className="profile-body">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
