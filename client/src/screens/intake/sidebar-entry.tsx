/**
 * The sidebar's "Intake" row under an open project whose intake is on, with the pending count
 * (intake-count/). The count moves without a reload: the row keeps the project's live channel
 * open (shared with the project's screens, stores/live-board.ts), where intake.* events make
 * the store read the count again.
 */
import clsx from "clsx";
import { Inbox } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { useSnapshot } from "valtio";
import { intake, loadIntakeCount } from "../../stores/intake";
import { watchProjectLive } from "../../stores/live-board";
import "./intake.css";

export function IntakeSidebarLink({ slug, projectId }: { slug: string; projectId: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const count = useSnapshot(intake).counts[projectId] ?? 0;
  const to = `/${slug}/projects/${projectId}/intake/`;

  useEffect(() => {
    void loadIntakeCount(slug, projectId).catch(() => undefined);
    return watchProjectLive(slug, projectId);
  }, [slug, projectId]);

  const label = t("intake.nav");
  const active = location.pathname.startsWith(to);
  return (
    <NavLink
      to={to}
      className={clsx("sidebar-row", active && "active")}
      aria-current={active ? "page" : undefined}
      title={count > 0 ? t("intake.pending", { count }) : label}
    >
      <span className="sidebar-row-icon">
        <Inbox size={14} />
      </span>
      <span className="sidebar-label">{label}</span>
      {count > 0 ? (
        <span className="intake-nav-count" data-testid="intake-count">
          <span className="visually-hidden">{t("intake.pending", { count })}</span>
          <span aria-hidden>{count > 99 ? "99+" : count}</span>
        </span>
      ) : null}
    </NavLink>
  );
}
