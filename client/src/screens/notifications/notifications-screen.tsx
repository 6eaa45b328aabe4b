import { personName } from "@tideline/shared";
import clsx from "clsx";
import { formatDistanceToNowStrict, parseISO } from "date-fns";
import { Archive, ArchiveRestore, Bell, CheckCheck, ListFilter, Mail, MailOpen } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useSnapshot } from "valtio";
import { Avatar, Button, EmptyState } from "../../components/ui";
import {
  archiveNotification,
  DEFAULT_FILTERS,
  loadNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  NOTIFICATION_TYPES,
  type Notification,
  type NotificationFilters,
  type NotificationTab,
  notifications,
  setNotificationFilters,
  setNotificationTab,
  snoozeNotification,
} from "../../stores/notifications";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { useCurrentWorkspace } from "../workspace/use-workspace";
import { describeNotificationChange } from "./describe-change";
import { SnoozeMenu } from "./snooze-menu";
import { notificationTarget } from "./target";
import "./notifications.css";
import { CheckMenuItem } from "../workspace/components/menu";

const TABS: NotificationTab[] = ["all", "mentions"];

function itemKey(n: Notification): string | null {
  const issue = n.data.issue;
  return issue ? `${issue.identifier}-${issue.sequence_id}` : null;
}

function actorName(n: Notification): string {
  const a = n.triggered_by_details;
  if (!a) return "Tideline";
  return personName(a);
}

function ago(value: string): string {
  try {
    return formatDistanceToNowStrict(parseISO(value), { addSuffix: true });
  } catch {
    return value.slice(0, 10);
  }
}

/** /:ws/notifications/: the caller's notifications, All and Mentions, with filters and actions. */
export function NotificationsScreen() {
  const { t } = useTranslation();
  const { slug, workspace } = useCurrentWorkspace();
  const snap = useSnapshot(notifications);
  const list = snap.lists[slug];
  const counts = snap.counts[slug];

  useEffect(() => {
    void loadNotifications(slug).catch(() => undefined);
  }, [slug]);

  useEffect(() => {
    document.title = `${t("notifications.title")} · ${workspace?.name ?? ""}`;
  }, [t, workspace?.name]);

  const hasUnread = (list?.items ?? []).some((n) => !n.read_at);
  const tabCount = (tab: NotificationTab) => (tab === "all" ? (counts?.total ?? 0) : (counts?.mention ?? 0));

  return (
    <>
      <PageHeader
        actions={
          <>
            <FilterMenu slug={slug} filters={snap.filters as NotificationFilters} />
            <Button
              variant="secondary"
              size="sm"
              disabled={!hasUnread}
              onClick={() => void markAllNotificationsRead(slug, t("notifications.errors.markAll"))}
            >
              <CheckCheck size={14} aria-hidden />
              {t("notifications.markAllRead")}
            </Button>
          </>
        }
      >
        <Bell size={16} aria-hidden className="muted" />
        <h1 className="page-header-h1">{t("notifications.title")}</h1>
      </PageHeader>
      <div className="page-body notif-body">
        <div className="notif-tabs" role="tablist" aria-label={t("notifications.title")}>
          {TABS.map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={snap.tab === tab}
              className={clsx("notif-tab", snap.tab === tab && "active")}
              onClick={() => setNotificationTab(slug, tab)}
            >
              {t(`notifications.tabs.${tab}`)}
              {tabCount(tab) > 0 ? <span className="notif-tab-count">{tabCount(tab)}</span> : null}
            </button>
          ))}
        </div>
        {!list || (list.status === "loading" && list.items.length === 0) ? (
          <SkeletonRows count={6} height={56} />
        ) : list.status === "error" ? (
          <EmptyState
            icon={Bell}
            title={t("notifications.loadFailed")}
            action={
              <Button variant="secondary" onClick={() => void loadNotifications(slug).catch(() => undefined)}>
                {t("workspace.common.retry")}
              </Button>
            }
          />
        ) : list.items.length === 0 ? (
          <EmptyState
            icon={Bell}
            title={t(`notifications.empty.${snap.tab}.title`)}
            description={
              snap.filters.archived
                ? t("notifications.empty.archived")
                : snap.filters.snoozed
                  ? t("notifications.empty.snoozed")
                  : t(`notifications.empty.${snap.tab}.hint`)
            }
          />
        ) : (
          <>
            <ul className="notif-list" aria-label={t("notifications.title")}>
              {(list.items as Notification[]).map((n) => (
                <NotificationRow key={n.id} slug={slug} n={n} />
              ))}
            </ul>
            {list.next ? (
              <div className="list-more">
                <Button
                  variant="secondary"
                  size="sm"
                  loading={list.loadingMore}
                  onClick={() => void loadNotifications(slug, true).catch(() => undefined)}
                >
                  {t("notifications.loadMore")}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </>
  );
}

function NotificationRow({ slug, n }: { slug: string; n: Notification }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const key = itemKey(n);
  const actor = actorName(n);
  const unread = !n.read_at;
  const change = describeNotificationChange(n, t);

  function open() {
    void markNotificationRead(slug, n, true, t("notifications.errors.read"));
    const to = notificationTarget(slug, n);
    if (to) navigate(to);
  }

  return (
    <li className={clsx("notif-row", unread && "unread")}>
      <button type="button" className="notif-main" onClick={open}>
        <Avatar name={actor} src={n.triggered_by_details?.avatar_url ?? null} size={28} />
        <span className="notif-text">
          <span className="notif-title">{n.title}</span>
          <span className="notif-meta">
            {n.is_inbox_issue ? <span className="notif-intake">{t("notifications.intake")}</span> : null}
            {key ? <span className="notif-key">{key}</span> : null}
            {n.data.issue ? <span className="notif-name">{n.data.issue.name}</span> : null}
          </span>
          {change ? (
            <span className="notif-message" data-testid="notification-change">
              {change}
            </span>
          ) : null}
        </span>
        <span className="notif-time" title={new Date(n.created_at).toLocaleString()}>
          {ago(n.created_at)}
        </span>
        <span className="notif-dot-slot">
          {unread ? <span className="notif-dot" role="img" aria-label={t("notifications.unread")} /> : null}
        </span>
      </button>
      <div className="notif-actions">
        <button
          type="button"
          className="notif-action"
          aria-label={unread ? t("notifications.markRead") : t("notifications.markUnread")}
          title={unread ? t("notifications.markRead") : t("notifications.markUnread")}
          onClick={() => void markNotificationRead(slug, n, unread, t("notifications.errors.read"))}
        >
          {unread ? <MailOpen size={14} /> : <Mail size={14} />}
        </button>
        <button
          type="button"
          className="notif-action"
          aria-label={n.archived_at ? t("notifications.unarchive") : t("notifications.archive")}
          title={n.archived_at ? t("notifications.unarchive") : t("notifications.archive")}
          onClick={() => void archiveNotification(slug, n, !n.archived_at, t("notifications.errors.archive"))}
        >
          {n.archived_at ? <ArchiveRestore size={14} /> : <Archive size={14} />}
        </button>
        <SnoozeMenu
          snoozed={Boolean(n.snoozed_till && Date.parse(n.snoozed_till) > Date.now())}
          onSnooze={(until) => void snoozeNotification(slug, n, until, t("notifications.errors.snooze"))}
        />
      </div>
    </li>
  );
}

function FilterMenu({ slug, filters }: { slug: string; filters: NotificationFilters }) {
  const { t } = useTranslation();
  const active =
    filters.types.length > 0 ||
    filters.read !== DEFAULT_FILTERS.read ||
    filters.snoozed !== DEFAULT_FILTERS.snoozed ||
    filters.archived !== DEFAULT_FILTERS.archived;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant={active ? "primary" : "secondary"} size="sm" aria-label={t("notifications.filters.label")}>
          <ListFilter size={14} aria-hidden />
          {t("notifications.filters.label")}
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu-content notif-filter-menu" align="end" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t("notifications.filters.type")}</DropdownMenu.Label>
          {NOTIFICATION_TYPES.map((type) => (
            <CheckMenuItem
              key={type}
              checked={filters.types.includes(type)}
              onChange={(on) =>
                setNotificationFilters(slug, {
                  types: on ? [...filters.types, type] : filters.types.filter((x) => x !== type),
                })
              }
            >
              {t(`notifications.filters.${type}`)}
            </CheckMenuItem>
          ))}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Label className="menu-label">{t("notifications.filters.status")}</DropdownMenu.Label>
          <CheckMenuItem
            checked={filters.read === "unread"}
            onChange={(on) => setNotificationFilters(slug, { read: on ? "unread" : "any" })}
          >
            {t("notifications.filters.unread")}
          </CheckMenuItem>
          <CheckMenuItem
            checked={filters.read === "read"}
            onChange={(on) => setNotificationFilters(slug, { read: on ? "read" : "any" })}
          >
            {t("notifications.filters.read")}
          </CheckMenuItem>
          <DropdownMenu.Separator className="menu-separator" />
          <CheckMenuItem checked={filters.snoozed} onChange={(on) => setNotificationFilters(slug, { snoozed: on })}>
            {t("notifications.filters.snoozed")}
          </CheckMenuItem>
          <CheckMenuItem checked={filters.archived} onChange={(on) => setNotificationFilters(slug, { archived: on })}>
            {t("notifications.filters.archived")}
          </CheckMenuItem>
          {active ? (
            <>
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Item className="menu-item" onSelect={() => setNotificationFilters(slug, DEFAULT_FILTERS)}>
                {t("notifications.filters.clear")}
              </DropdownMenu.Item>
            </>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
