/**
 * The frame of god-mode's settings pages: a left navigation with the instance name, the
 * admin's address and sign-out. Only the instance admin gets in; anyone else (anonymous or a
 * plain user) is sent to the admin sign-in, and an instance without an admin to the set-up.
 */
import { KeyRound, LogOut, Mail, Settings2, SquareArrowOutUpRight, Waves } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, NavLink, Outlet } from "react-router";
import { useSnapshot } from "valtio";
import { Avatar, Banner, Button, ScreenLoader } from "../../components/ui";
import { adminSignOut, instanceAdmin, loadAdmin, loadConfiguration } from "../../stores/instance-admin";
import { session } from "../../stores/session";
import { clearDraft } from "./setup-draft";
import "./god-mode.css";

const NAV = [
  { to: "/god-mode/general/", icon: Settings2, key: "godMode.nav.general" },
  { to: "/god-mode/authentication/", icon: KeyRound, key: "godMode.nav.authentication" },
  { to: "/god-mode/email/", icon: Mail, key: "godMode.nav.email" },
] as const;

export function GodModeLayout() {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const admin = useSnapshot(instanceAdmin);
  const [signingOut, setSigningOut] = useState(false);
  const setupDone = snap.instance?.instance.is_setup_done ?? true;

  useEffect(() => {
    if (!setupDone) return;
    clearDraft();
    void loadAdmin().then((status) => {
      if (status === "admin") void loadConfiguration();
    });
  }, [setupDone]);

  if (!setupDone) return <Navigate to="/god-mode/setup/" replace />;
  if (admin.status === "anonymous" || admin.status === "not-admin") return <Navigate to="/god-mode/" replace />;
  if (admin.status === "error") {
    return (
      <div className="full-center" style={{ padding: 24 }}>
        <div className="stack" style={{ maxWidth: 420 }}>
          <Banner>{t("godMode.loadFailed")}</Banner>
          <Button onClick={() => void loadAdmin()}>{t("godMode.retry")}</Button>
        </div>
      </div>
    );
  }
  if (admin.status !== "admin" || !admin.admin) return <ScreenLoader />;

  const instanceName = snap.instance?.instance.instance_name || "Tideline";
  const adminName = [admin.admin.first_name, admin.admin.last_name].filter(Boolean).join(" ") || admin.admin.email;

  async function signOut() {
    setSigningOut(true);
    if (!(await adminSignOut())) setSigningOut(false);
  }

  return (
    <div className="gm-shell">
      <aside className="gm-sidebar">
        <div className="gm-brand">
          <span className="gm-brand-logo" aria-hidden>
            <Waves size={18} strokeWidth={2.25} />
          </span>
          <div className="gm-brand-text">
            <span className="gm-brand-name" title={instanceName}>
              {instanceName}
            </span>
            <span className="gm-brand-caption">{t("godMode.caption")}</span>
          </div>
        </div>
        <nav className="gm-nav" aria-label={t("godMode.nav.label")}>
          {NAV.map(({ to, icon: Icon, key }) => (
            <NavLink key={to} to={to} className="gm-nav-link">
              <Icon size={16} aria-hidden />
              {t(key)}
            </NavLink>
          ))}
        </nav>
        <div className="gm-sidebar-footer">
          <div className="gm-account" title={admin.admin.email}>
            <Avatar name={adminName} size={24} />
            <span className="gm-account-email">{admin.admin.email}</span>
          </div>
          <a className="btn btn-ghost btn-sm" href="/">
            <SquareArrowOutUpRight size={14} aria-hidden />
            {t("godMode.openApp")}
          </a>
          <Button variant="ghost" size="sm" onClick={signOut} loading={signingOut}>
            {signingOut ? null : <LogOut size={14} aria-hidden />}
            {t("godMode.signOut")}
          </Button>
        </div>
      </aside>
      <main className="gm-main">
        <Outlet />
      </main>
    </div>
  );
}
