import { useVirtualizer } from "@tanstack/react-virtual";
import { isOverdue, PRIORITIES, type Priority, STATE_GROUPS, type StateGroup } from "@tideline/shared";
import clsx from "clsx";
import { Check, Inbox, ListFilter, X } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { type KeyboardEvent, useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, EmptyState, showDay, toDay } from "../../components/ui";
import { errorMessage } from "../../lib/api";
import { useIsNarrow } from "../../lib/use-media";
import { loadMemberIssues, memberProfile } from "../../stores/member-profile";
import { loadProjectMeta, projectMeta } from "../../stores/project-meta";
import { projects as projectsStore } from "../../stores/projects";
import type { WorkItem } from "../../stores/work-items";
import { PriorityIcon, StateIcon } from "../work-items/properties";
import { SkeletonRows } from "../workspace/components/skeleton";
import { useProfileOutlet } from "./member-profile-layout";
// The state and priority icons' colours live with the board's styles.
import "../work-items/work-items.css";
import { type IssueFilters, type IssueTab, listKey, toggleValue } from "./profile-logic";

/** Rows are one line on wide screens; on a phone the name gets its own line above the rest. */
const ROW_HEIGHT = 44;
const PHONE_ROW_HEIGHT = 60;

export function AssignedIssuesScreen() {
  return <ProfileIssues tab="assigned" />;
}
export function CreatedIssuesScreen() {
  return <ProfileIssues tab="created" />;
}
export function SubscribedIssuesScreen() {
  return <ProfileIssues tab="subscribed" />;
}

/** The filters in the address (`?priority=high,urgent&state_group=started`), so a link or reload keeps them. */
function useFilters(): [IssueFilters, (next: IssueFilters) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo<IssueFilters>(() => {
    const list = (name: string) => (params.get(name) ?? "").split(",").filter(Boolean);
    return {
      priority: PRIORITIES.filter((p) => list("priority").includes(p)),
      state_group: STATE_GROUPS.filter((g) => list("state_group").includes(g)),
    };
  }, [params]);
  const set = (next: IssueFilters) => {
    const search = new URLSearchParams();
    if (next.priority.length) search.set("priority", next.priority.join(","));
    if (next.state_group.length) search.set("state_group", next.state_group.join(","));
    setParams(search, { replace: true });
  };
  return [filters, set];
}

/**
 * A tab's work items across the workspace's projects (GET user-issues/?type=…), newest first,
 * fetched a page at a time as the list scrolls and rendered virtually. Each row is a link to the
 * item's page; ↑/↓ move between rows, Enter opens.
 */
function ProfileIssues({ tab }: { tab: IssueTab }) {
  const { t } = useTranslation();
  const { slug, userId, projects, name, isMe } = useProfileOutlet();
  const [filters, setFilters] = useFilters();
  const snap = useSnapshot(memberProfile);
  const metaSnap = useSnapshot(projectMeta);
  const projectsSnap = useSnapshot(projectsStore);
  const key = listKey(slug, userId, tab, filters);
  const fresh = snap.lists[key];
  // While other filters' first page loads, the last list stays on screen (dimmed) instead of a
  // skeleton, so nothing jumps. Each tab is its own component, so this never shows another tab's list.
  const lastReady = useRef<typeof fresh>(undefined);
  if (fresh?.status === "ready") lastReady.current = fresh;
  const entry = fresh?.status === "loading" && lastReady.current ? lastReady.current : fresh;
  const stale = entry !== fresh;
  const items = (entry?.items ?? []) as readonly WorkItem[];
  const scrollRef = useRef<HTMLDivElement>(null);
  const narrow = useIsNarrow();
  const rowHeight = narrow ? PHONE_ROW_HEIGHT : ROW_HEIGHT;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for tab + filters
  useEffect(() => {
    loadMemberIssues(slug, userId, tab, filters).catch(async (error: unknown) =>
      toast.error(await errorMessage(error)),
    );
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [slug, userId, key]);

  // The states' names and colours live with each project: load those the rows need.
  const projectIds = useMemo(() => [...new Set(items.map((i) => i.project_id))], [items]);
  useEffect(() => {
    for (const id of projectIds) void loadProjectMeta(slug, id).catch(() => undefined);
  }, [slug, projectIds]);

  const identifiers = useMemo(() => {
    const map = new Map<string, { identifier: string; name: string }>();
    for (const p of projectsSnap.bySlug[slug] ?? []) map.set(p.id, { identifier: p.identifier, name: p.name });
    for (const p of projects) map.set(p.id, { identifier: p.identifier, name: p.name });
    return map;
  }, [projects, projectsSnap.bySlug, slug]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => items[index]?.id ?? index,
    overscan: 10,
  });
  // Row heights change when the width crosses the phone breakpoint.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure only on that change
  useEffect(() => {
    virtualizer.measure();
  }, [narrow]);
  const virtualItems = virtualizer.getVirtualItems();
  const lastShown = virtualItems[virtualItems.length - 1]?.index ?? -1;

  // Near the end of what is loaded, ask for the next page.
  useEffect(() => {
    if (entry?.status === "ready" && entry.hasMore && !entry.loadingMore && lastShown >= items.length - 10)
      void loadMemberIssues(slug, userId, tab, filters, true).catch(async (error: unknown) =>
        toast.error(await errorMessage(error)),
      );
  }, [entry?.status, entry?.hasMore, entry?.loadingMore, lastShown, items.length, slug, userId, tab, filters]);

  const today = toDay(new Date());
  const activeCount = filters.priority.length + filters.state_group.length;

  function onKeyDown(event: KeyboardEvent<HTMLAnchorElement>) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const target = event.target as HTMLElement;
    const index = Number(target.dataset.index ?? -1);
    const next = index < 0 ? 0 : index + (event.key === "ArrowDown" ? 1 : -1);
    if (next < 0 || next >= items.length) return;
    event.preventDefault();
    virtualizer.scrollToIndex(next, { align: "auto" });
    // The row may only exist after the scroll renders it.
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`[data-index="${next}"]`)?.focus({ preventScroll: true }),
    );
  }

  const emptyTitle =
    activeCount > 0
      ? t("memberProfile.list.noMatch")
      : t(`memberProfile.list.empty.${tab}`, { name: isMe ? t("memberProfile.you") : name });

  return (
    <div className="mp-list-screen">
      <div className="mp-list-toolbar">
        <FilterMenu filters={filters} onChange={setFilters} />
        {filters.state_group.map((g) => (
          <button
            key={g}
            type="button"
            className="mp-chip"
            onClick={() => setFilters({ ...filters, state_group: toggleValue(filters.state_group, g) })}
            aria-label={t("memberProfile.list.removeFilter", { value: t(`workItems.stateGroup.${g}`) })}
          >
            <StateIcon group={g} size={12} />
            {t(`workItems.stateGroup.${g}`)}
            <X size={12} aria-hidden />
          </button>
        ))}
        {filters.priority.map((p) => (
          <button
            key={p}
            type="button"
            className="mp-chip"
            onClick={() => setFilters({ ...filters, priority: toggleValue(filters.priority, p) })}
            aria-label={t("memberProfile.list.removeFilter", { value: t(`workItems.priority.${p}`) })}
          >
            <PriorityIcon priority={p} size={12} />
            {t(`workItems.priority.${p}`)}
            <X size={12} aria-hidden />
          </button>
        ))}
        {activeCount > 0 ? (
          <Button variant="ghost" size="sm" onClick={() => setFilters({ priority: [], state_group: [] })}>
            {t("memberProfile.list.clear")}
          </Button>
        ) : null}
        <span className="mp-list-count muted" data-testid="profile-list-count">
          {entry?.status === "ready" ? t("memberProfile.list.count", { count: entry.total }) : ""}
        </span>
      </div>

      {entry?.status === "error" && items.length === 0 ? (
        <Banner kind="error">{t("memberProfile.error")}</Banner>
      ) : !entry || (entry.status === "loading" && items.length === 0) ? (
        <SkeletonRows count={8} height={rowHeight} />
      ) : items.length === 0 ? (
        <EmptyState icon={Inbox} title={emptyTitle} />
      ) : (
        <div
          ref={scrollRef}
          className={clsx("mp-list-scroll", stale && "mp-list-stale")}
          aria-busy={stale || undefined}
          data-testid="profile-issues"
        >
          <ul
            className="mp-list"
            aria-label={t(`memberProfile.tabs.${tab}`)}
            style={{ height: virtualizer.getTotalSize() }}
          >
            {virtualItems.map((v) => {
              const item = items[v.index];
              if (!item) return null;
              const project = identifiers.get(item.project_id);
              const key = `${project?.identifier ?? "?"}-${item.sequence_id}`;
              const state = metaSnap.byProject[item.project_id]?.states.find((s) => s.id === item.state_id);
              const overdue = isOverdue(item, today);
              return (
                <li
                  key={v.key}
                  className="mp-row-wrap"
                  style={{
                    position: "absolute",
                    top: 0,
                    left: 0,
                    right: 0,
                    height: rowHeight,
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  <Link
                    to={`/${slug}/browse/${key}/`}
                    className="mp-row"
                    data-index={v.index}
                    onKeyDown={onKeyDown}
                    data-testid="profile-issue-row"
                  >
                    <span
                      className="mp-row-state"
                      title={state?.name ?? t(`workItems.stateGroup.${item.state__group ?? "backlog"}`)}
                    >
                      <StateIcon group={item.state__group} color={state?.color} />
                    </span>
                    <span className="mp-row-key">{key}</span>
                    <span className="mp-row-name">{item.name}</span>
                    <span className="mp-row-meta">
                      {item.target_date ? (
                        <span
                          className={clsx("mp-row-due", overdue && "mp-row-overdue")}
                          title={t("memberProfile.list.due")}
                        >
                          {showDay(item.target_date)}
                        </span>
                      ) : null}
                      <span className="mp-row-priority" title={t(`workItems.priority.${item.priority}`)}>
                        <PriorityIcon priority={item.priority} />
                      </span>
                      <span className="mp-row-project" title={project?.name}>
                        {project?.name ?? ""}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
          {entry.loadingMore ? <div className="mp-list-more muted">{t("memberProfile.list.loadingMore")}</div> : null}
        </div>
      )}
    </div>
  );
}

/** Priority and state-group filters (several values of one filter are alternatives). */
function FilterMenu({ filters, onChange }: { filters: IssueFilters; onChange: (next: IssueFilters) => void }) {
  const { t } = useTranslation();
  const count = filters.priority.length + filters.state_group.length;
  const groupItem = (g: StateGroup) => (
    <DropdownMenu.CheckboxItem
      key={g}
      className="menu-item"
      checked={filters.state_group.includes(g)}
      // Stay open: people usually pick several values.
      onSelect={(event) => event.preventDefault()}
      onCheckedChange={() => onChange({ ...filters, state_group: toggleValue(filters.state_group, g) })}
    >
      <StateIcon group={g} />
      <span className="mp-menu-label">{t(`workItems.stateGroup.${g}`)}</span>
      <DropdownMenu.ItemIndicator className="mp-menu-check">
        <Check size={14} />
      </DropdownMenu.ItemIndicator>
    </DropdownMenu.CheckboxItem>
  );
  const priorityItem = (p: Priority) => (
    <DropdownMenu.CheckboxItem
      key={p}
      className="menu-item"
      checked={filters.priority.includes(p)}
      onSelect={(event) => event.preventDefault()}
      onCheckedChange={() => onChange({ ...filters, priority: toggleValue(filters.priority, p) })}
    >
      <PriorityIcon priority={p} />
      <span className="mp-menu-label">{t(`workItems.priority.${p}`)}</span>
      <DropdownMenu.ItemIndicator className="mp-menu-check">
        <Check size={14} />
      </DropdownMenu.ItemIndicator>
    </DropdownMenu.CheckboxItem>
  );
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="secondary" size="sm" aria-label={t("memberProfile.list.filters")}>
          <ListFilter size={14} aria-hidden />
          {t("memberProfile.list.filters")}
          {count > 0 ? <span className="mp-filter-count">{count}</span> : null}
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu-content mp-filter-menu" align="start" sideOffset={4}>
          <DropdownMenu.Label className="mp-menu-heading">{t("memberProfile.list.stateGroup")}</DropdownMenu.Label>
          {STATE_GROUPS.map(groupItem)}
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Label className="mp-menu-heading">{t("memberProfile.list.priority")}</DropdownMenu.Label>
          {PRIORITIES.map(priorityItem)}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
