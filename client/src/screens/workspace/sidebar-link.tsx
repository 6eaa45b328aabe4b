import clsx from "clsx";
import type { ReactNode } from "react";
import { NavLink, useLocation } from "react-router";

/** Is `pathname` the page of a sidebar row with these matching rules? (see SidebarLink) */
export function sidebarRowActive(
  pathname: string,
  rules: { exactPrefix?: string; matchPrefix?: string; archives?: boolean },
): boolean | undefined {
  let forced: boolean | undefined;
  if (rules.exactPrefix) {
    const rest = pathname.startsWith(rules.exactPrefix) ? pathname.slice(rules.exactPrefix.length) : null;
    forced = rest !== null && (rest === "" || (rules.archives !== false && rest.startsWith("archives")));
  }
  if (rules.matchPrefix) forced = pathname.startsWith(rules.matchPrefix);
  return forced;
}

/** A row of the workspace sidebar that goes somewhere (its icon alone in the collapsed sidebar). */
export function SidebarLink({
  to,
  icon,
  label,
  end,
  exactPrefix,
  matchPrefix,
  archives,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  end?: boolean;
  /** Active only for this path and its non-project children (the projects list, archives). */
  exactPrefix?: string;
  /** With exactPrefix: false when the archives have a row of their own (pinned). */
  archives?: boolean;
  /** Active for every path under this prefix. */
  matchPrefix?: string;
}) {
  const location = useLocation();
  const forced = sidebarRowActive(location.pathname, { exactPrefix, matchPrefix, archives });
  return (
    <NavLink
      to={to}
      end={end}
      className={({ isActive }) => clsx("sidebar-row", (forced ?? isActive) && "active")}
      aria-current={forced === undefined ? undefined : forced ? "page" : undefined}
      title={label}
    >
      <span className="sidebar-row-icon">{icon}</span>
      <span className="sidebar-label">{label}</span>
    </NavLink>
  );
}
