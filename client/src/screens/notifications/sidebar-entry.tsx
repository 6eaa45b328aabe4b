import clsx from "clsx";
import { Bell } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { useSnapshot } from "valtio";
import { firstPaintDone } from "../../lib/offline/last-answers";
import { loadUnreadCounts, notifications } from "../../stores/notifications";
import "./notifications.css";

/**
 * The sidebar's "Notifications" row with the unread badge. The badge moves without a reload:
 * the store hears `notification.*` on the user's live channel (lib/user-channel.ts, opened by
 * the workspace shell).
 */
export function NotificationsSidebarLink({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const counts = useSnapshot(notifications).counts[slug];
  // The total counts mentions too: the badge says what the All tab lists.
  const unread = counts?.total ?? 0;

  // The badge waits for the first screen's paint: at start it would compete with a board's
  // first paint for the CPU (lib/offline/last-answers.ts).
  useEffect(() => {
    let alive = true;
    void firstPaintDone().then(() => {
      if (alive) void loadUnreadCounts(slug).catch(() => undefined);
    });
    return () => {
      alive = false;
    };
  }, [slug]);

  const label = t("notifications.title");
  const badge = unread > 99 ? "99+" : String(unread);
  return (
    <NavLink
      to={`/${slug}/notifications/`}
      className={({ isActive }) => clsx("sidebar-row", isActive && "active")}
      title={unread > 0 ? t("notifications.sidebarUnread", { count: unread }) : label}
    >
      <span className="sidebar-row-icon notif-nav-icon">
        <Bell size={16} />
        {unread > 0 ? <span className="notif-nav-dot" aria-hidden /> : null}
      </span>
      <span className="sidebar-label">{label}</span>
      {unread > 0 ? (
        <span className="notif-badge" data-testid="notifications-badge">
          <span className="visually-hidden">{t("notifications.sidebarUnread", { count: unread })}</span>
          <span aria-hidden>{badge}</span>
        </span>
      ) : null}
    </NavLink>
  );
}
