/**
 * The home's "Your work items": tabs Assigned, Created, Subscribed and Overdue with the counts of
 * the caller's profile summary (stores/member-profile.ts loadMemberStats, GET user-stats/) and
 * the first few items of each (the profile's list, GET user-issues/{me}/), each opening its
 * page; "View all" goes to the profile's tab ("Your work").
 */
import { isOverdue, type StateGroup } from "@tideline/shared";
import { SquareCheckBig } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSnapshot } from "valtio";
import { EmptyState, toDay } from "../../../components/ui";
import { home, loadMyWork, MY_WORK_TABS, type MyWorkTab, setMyWorkTab } from "../../../stores/home";
import { loadMemberStats, memberProfile, profileKey } from "../../../stores/member-profile";
import { projects } from "../../../stores/projects";
import { session } from "../../../stores/session";
import type { WorkItem } from "../../../stores/work-items";
import { STATE_GROUP_COLOR } from "../../member-profile/profile-logic";
import { formatDay } from "../../work-item/format";
import { PriorityIcon, StateIcon } from "../../work-item/state-icon";
import { LoadFailedState } from "../components/list-parts";
import { SkeletonRows } from "../components/skeleton";

const COUNT_OF = {
  assigned: "assigned_issues",
  created: "created_issues",
  subscribed: "subscribed_issues",
  overdue: "overdue_issues",
} as const;

export function MyWorkWidget({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const userId = useSnapshot(session).user?.id ?? "";
  const myWork = useSnapshot(home).bySlug[slug]?.myWork;
  const stats = useSnapshot(memberProfile).stats[profileKey(slug, userId)];
  const tab = myWork?.tab ?? "assigned";
  const list = myWork?.lists[tab];
  const headingId = useId();
  const tabIds = useId();
  const today = toDay(new Date());
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  useEffect(() => {
    if (!userId) return;
    void loadMemberStats(slug, userId);
  }, [slug, userId]);

  useEffect(() => {
    if (!userId) return;
    void loadMyWork(slug, userId, tab, today).catch(() => undefined);
  }, [slug, userId, tab, today]);

  const count = (t: MyWorkTab) => (stats?.status === "ready" ? stats.data?.[COUNT_OF[t]] : undefined);

  /** Arrow keys move between the tabs (the WAI tabs pattern). */
  function onTabKey(event: KeyboardEvent, index: number) {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = MY_WORK_TABS[(index + step + MY_WORK_TABS.length) % MY_WORK_TABS.length] as MyWorkTab;
    setMyWorkTab(slug, next);
    tabRefs.current[next]?.focus();
  }

  const items = (list?.items ?? []) as WorkItem[];
  const viewAll = `/${slug}/profile/${userId}/${tab === "overdue" ? "assigned" : tab}/`;

  return (
    <section className="home-widget" aria-labelledby={headingId}>
      <div className="home-widget-head">
        <h2 className="section-title" id={headingId}>
          {t("home.widgets.my_work_items")}
        </h2>
        <Link className="btn btn-ghost btn-sm" to={viewAll}>
          {t("home.myWork.viewAll")}
        </Link>
      </div>
      <div className="home-widget-box">
        <div className="home-tabs" role="tablist" aria-label={t("home.myWork.tabsLabel")}>
          {MY_WORK_TABS.map((x, index) => (
            <button
              key={x}
              ref={(el) => {
                tabRefs.current[x] = el;
              }}
              type="button"
              role="tab"
              id={`${tabIds}-${x}`}
              aria-selected={tab === x}
              aria-controls={`${tabIds}-panel`}
              tabIndex={tab === x ? 0 : -1}
              className="home-tab"
              onClick={() => setMyWorkTab(slug, x)}
              onKeyDown={(e) => onTabKey(e, index)}
            >
              {t(`home.myWork.tabs.${x}`)}
              <span className={x === "overdue" && (count(x) ?? 0) > 0 ? "home-tab-count is-alert" : "home-tab-count"}>
                {count(x) ?? "–"}
              </span>
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${tabIds}-panel`} aria-labelledby={`${tabIds}-${tab}`} className="home-tab-panel">
          {!list || (list.status === "loading" && items.length === 0) ? (
            <SkeletonRows count={4} height={40} />
          ) : list.status === "error" && items.length === 0 ? (
            <LoadFailedState
              icon={SquareCheckBig}
              title={t("home.myWork.loadFailed")}
              retryLabel={t("home.myWork.retry")}
              onRetry={() => void loadMyWork(slug, userId, tab, today).catch(() => undefined)}
            />
          ) : items.length === 0 ? (
            <EmptyState
              icon={SquareCheckBig}
              title={t(`home.myWork.empty.${tab}`)}
              description={t(`home.myWork.empty.${tab}Hint`)}
            />
          ) : (
            <ul className="home-rows">
              {items.map((item) => (
                <WorkRow key={item.id} slug={slug} item={item} today={today} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

function WorkRow({ slug, item, today }: { slug: string; item: WorkItem; today: string }) {
  const { t } = useTranslation();
  const identifier = useSnapshot(projects).bySlug[slug]?.find((p) => p.id === item.project_id)?.identifier;
  const key = identifier ? `${identifier}-${item.sequence_id}` : `#${item.sequence_id}`;
  const group = (item.state__group ?? null) as StateGroup | null;
  const overdue = isOverdue(item, today);
  const to = identifier ? `/${slug}/browse/${key}/` : `/${slug}/projects/${item.project_id}/issues/`;
  return (
    <li>
      <Link className="home-row" to={to}>
        <span className="home-row-mark">
          <StateIcon group={group} color={group ? STATE_GROUP_COLOR[group] : null} size={14} />
        </span>
        <span className="home-row-key">{key}</span>
        <span className="home-row-name">{item.name}</span>
        {item.priority !== "none" ? (
          <span className="home-row-priority" title={item.priority}>
            <PriorityIcon priority={item.priority} size={14} />
          </span>
        ) : null}
        {item.target_date ? (
          <span className={overdue ? "home-row-due is-overdue" : "home-row-due"}>
            {t("home.myWork.due", { date: formatDay(item.target_date) })}
          </span>
        ) : null}
      </Link>
    </li>
  );
}
