import { Menu } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useShell } from "../use-workspace";
import "./components.css";

/**
 * The 48px bar at the top of a workspace screen: where you are, and what you can do here. On a
 * phone it starts with the menu button that opens the sidebar drawer, and its actions wrap
 * onto a second line instead of covering the title.
 */
export function PageHeader({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <NavButton />
      <div className="page-header-title">{children}</div>
      {actions ? <div className="page-header-actions">{actions}</div> : null}
    </header>
  );
}

/** The phone's menu button (nothing on wider screens, where the sidebar is always there). */
export function NavButton() {
  const { t } = useTranslation();
  const { openNav } = useShell();
  if (!openNav) return null;
  return (
    <button
      type="button"
      className="nav-open-btn"
      aria-label={t("ui.nav.open")}
      title={t("ui.nav.open")}
      onClick={(event) => openNav(event.currentTarget)}
    >
      <Menu size={20} aria-hidden />
    </button>
  );
}
