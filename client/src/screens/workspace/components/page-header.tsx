import type { ReactNode } from "react";
import { NavButton } from "./nav-button";
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
