import type { ReactNode } from "react";
import "./components.css";

/** The 48px bar at the top of a workspace screen: where you are, and what you can do here. */
export function PageHeader({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div className="page-header-title">{children}</div>
      {actions ? <div className="page-header-actions">{actions}</div> : null}
    </header>
  );
}
