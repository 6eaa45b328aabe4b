/**
 * /:ws/projects/:projectId/cycles/ — a project's cycles in tabs (Active by default, Upcoming,
 * Completed, All; ?tab= keeps the choice through a reload), searched by name. Active shows the
 * current cycle as a card (progress, burndown, assignee/label breakdown); the other tabs list
 * rows in the server's order. The archive is a screen of its own (archived-cycles-screen.tsx).
 */
import { personName, ROLE } from "@tideline/shared";
import { Archive, ArrowRight, CircleDashed, Plus } from "lucide-react";
import { type ReactNode, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { useSnapshot } from "valtio";
import { TabList } from "../../components/progress/tab-list";
import { Avatar, Button, EmptyState } from "../../components/ui";
import { useCreateIntent } from "../../lib/create-intent";
import { type Cycle, cycles, loadCycles } from "../../stores/cycles";
import { useCreateShortcut } from "../workspace/components/create-shortcut";
import { ListSearch, LoadFailedState, NoMatchState } from "../workspace/components/list-parts";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { CYCLE_TABS, type CycleTab, cycleActions, filterCycles, isCycleTab, tabCounts } from "./cycle-logic";
import { CycleMenu } from "./cycle-menu";
import { CycleModal } from "./cycle-modal";
import {
  AssigneeStack,
  CycleBreakdown,
  CycleBurndown,
  CycleDates,
  CycleProgress,
  DaysLeft,
  FavoriteStar,
  ProgressRing,
  StartsIn,
  StatusBadge,
} from "./cycle-parts";
import { CyclesBlocked, CyclesCrumbs } from "./cycles-chrome";
import {
  type CyclesProjectContext,
  refreshAnalytics,
  useCycleCounters,
  useCyclesLive,
  useCyclesProject,
  useCycleUnfinished,
} from "./use-cycles";
import "./cycles.css";

export function CyclesScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const ctx = useCyclesProject(projectId);
  const { slug, project, isMember } = ctx;
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get("tab");
  const tab: CycleTab = isCycleTab(tabParam) ? tabParam : "active";
  const [search, setSearch] = useState("");
  const [createOpen, setCreateOpen] = useState(false);
  const snap = useSnapshot(cycles);
  const onProgress = useCallback((id: string) => refreshAnalytics(slug, projectId, id), [slug, projectId]);
  useCyclesLive(slug, projectId, isMember && ctx.cyclesOn, onProgress);

  useEffect(() => {
    if (project) document.title = `${t("cycles.title")} · ${project.name}`;
  }, [project, t]);

  const entry = snap.byProject[projectId];
  const list = (entry?.list ?? []) as readonly Cycle[];
  const counts = useMemo(() => tabCounts(list), [list]);
  const shown = useMemo(() => filterCycles(list, tab, search), [list, tab, search]);
  const canCreate = ctx.projectRole >= ROLE.member && !project?.archived_at;

  // "q" opens the new-cycle form (the reference's key; "c" is the board's new work item).
  useCreateShortcut("q", canCreate, () => setCreateOpen(true));
  useCreateIntent("cycle", projectId, canCreate, () => setCreateOpen(true));

  const setTab = (next: CycleTab) =>
    setSearchParams(
      (params) => {
        const out = new URLSearchParams(params);
        if (next === "active") out.delete("tab");
        else out.set("tab", next);
        return out;
      },
      { replace: true },
    );

  const header = (
    <PageHeader
      actions={
        <>
          {isMember ? (
            <Link
              className="btn btn-ghost btn-sm"
              to={`/${slug}/projects/${projectId}/cycles/archived/`}
              aria-label={t("cycles.archived.title")}
              title={t("cycles.archived.title")}
            >
              <Archive size={14} aria-hidden />
              <span className="cy-hide-narrow">{t("cycles.archived.open")}</span>
            </Link>
          ) : null}
          {canCreate && isMember && ctx.cyclesOn ? (
            <Button size="sm" onClick={() => setCreateOpen(true)} title={t("cycles.createShortcut")}>
              <Plus size={14} aria-hidden />
              {t("cycles.create")}
            </Button>
          ) : null}
        </>
      }
    >
      <CyclesCrumbs slug={slug} project={project} />
      <h1 className="cy-h1">{t("cycles.title")}</h1>
    </PageHeader>
  );

  const blocked = CyclesBlocked({ ctx, t });
  if (blocked) {
    return (
      <div className="cy-screen">
        {header}
        {blocked}
      </div>
    );
  }

  let body: ReactNode;
  if (!entry || (entry.status === "loading" && list.length === 0)) {
    body =
      tab === "active" ? (
        <div className="cy-active-skeleton" aria-hidden>
          <div className="skeleton" style={{ height: 120, borderRadius: 10 }} />
          <div className="skeleton" style={{ height: 260, borderRadius: 10 }} />
        </div>
      ) : (
        <div className="cy-rows-skeleton">
          <SkeletonRows count={5} height={56} />
        </div>
      );
  } else if (entry.status === "error" && list.length === 0) {
    body = (
      <LoadFailedState
        icon={CircleDashed}
        title={t("cycles.loadFailed")}
        retryLabel={t("cycles.retry")}
        onRetry={() => void loadCycles(slug, projectId, true).catch(() => undefined)}
      />
    );
  } else if (shown.length === 0) {
    body = search.trim() ? (
      <NoMatchState
        title={t("cycles.empty.noMatch", { search: search.trim() })}
        clearLabel={t("cycles.empty.clearSearch")}
        onClear={() => setSearch("")}
      />
    ) : (
      <EmptyState
        icon={CircleDashed}
        title={t(`cycles.empty.${tab}.title`)}
        description={t(`cycles.empty.${tab}.description`)}
        action={
          canCreate && (tab === "active" || tab === "upcoming" || tab === "all") ? (
            <Button onClick={() => setCreateOpen(true)}>
              <Plus size={14} aria-hidden />
              {t("cycles.create")}
            </Button>
          ) : null
        }
      />
    );
  } else if (tab === "active") {
    body = (
      <div className="cy-active-list">
        {shown.map((c) => (
          <ActiveCycleCard key={c.id} cycle={c} ctx={ctx} />
        ))}
      </div>
    );
  } else {
    body = (
      <ul className="cy-rows" aria-label={t(`cycles.tabs.${tab}`)}>
        {shown.map((c) => (
          <CycleRow key={c.id} cycle={c} ctx={ctx} />
        ))}
      </ul>
    );
  }

  return (
    <div className="cy-screen">
      {header}
      <div className="projects-toolbar cy-toolbar">
        <TabList
          label={t("cycles.tabs.label")}
          tabClassName="cy-tab"
          value={tab}
          onChange={setTab}
          items={CYCLE_TABS.map((key) => ({
            key,
            label: (
              <>
                {t(`cycles.tabs.${key}`)}
                <span className="cy-tab-count">{entry?.status === "ready" ? counts[key] : ""}</span>
              </>
            ),
          }))}
        />
        <ListSearch
          className="cy-search"
          placeholder={t("cycles.searchPlaceholder")}
          label={t("cycles.search")}
          value={search}
          onChange={setSearch}
        />
      </div>
      {body}
      {canCreate && isMember ? (
        <CycleModal open={createOpen} onOpenChange={setCreateOpen} slug={slug} projectId={projectId} />
      ) : null}
    </div>
  );
}

function useRowFacts(cycle: Cycle, ctx: CyclesProjectContext) {
  const counters = useCycleCounters(cycle, ctx);
  const unfinished = useCycleUnfinished(cycle, ctx);
  const actions = cycleActions(cycle, { projectRole: ctx.projectRole, userId: ctx.userId, unfinished });
  return { counters, unfinished, actions };
}

function CycleRow({ cycle, ctx }: { cycle: Cycle; ctx: CyclesProjectContext }) {
  const { t } = useTranslation();
  const { counters, unfinished, actions } = useRowFacts(cycle, ctx);
  const to = `/${ctx.slug}/projects/${cycle.project_id}/cycles/${cycle.id}/`;
  return (
    <li className="cy-row" data-testid="cycle-row" data-cycle-id={cycle.id}>
      <Link className="cy-row-link" to={to}>
        {counters ? <ProgressRing counters={counters} /> : null}
        <span className="cy-row-main">
          <span className="cy-row-name">{cycle.name}</span>
          <span className="cy-row-sub">
            <CycleDates cycle={cycle} />
            <DaysLeft cycle={cycle} />
            <StartsIn cycle={cycle} today={ctx.today} />
          </span>
        </span>
      </Link>
      <span className="cy-row-meta">
        <span className="cy-row-count cy-hide-narrow" title={t("cycles.row.itemsTitle")}>
          {t("cycles.row.items", { done: counters?.completed_issues ?? 0, total: counters?.total_issues ?? 0 })}
        </span>
        <AssigneeStack ids={cycle.assignee_ids} members={ctx.members} />
        <StatusBadge status={cycle.status} />
        <FavoriteStar slug={ctx.slug} cycle={cycle} disabled={!actions.favorite} />
        <CycleMenu slug={ctx.slug} cycle={cycle} actions={actions} unfinished={unfinished} />
      </span>
    </li>
  );
}

/** The current cycle: what it is, how far along, the burndown and who holds the work. */
function ActiveCycleCard({ cycle, ctx }: { cycle: Cycle; ctx: CyclesProjectContext }) {
  const { t } = useTranslation();
  const { counters, unfinished, actions } = useRowFacts(cycle, ctx);
  const owner = ctx.members.find((m) => m.member === (cycle.owned_by_id ?? cycle.created_by))?.member_details;
  const to = `/${ctx.slug}/projects/${cycle.project_id}/cycles/${cycle.id}/`;
  if (!counters) return null;
  return (
    <article className="cy-card" aria-labelledby={`cy-card-${cycle.id}`} data-testid="active-cycle">
      <header className="cy-card-head">
        <div className="cy-card-title">
          <ProgressRing counters={counters} size={36} />
          <div>
            <h2 id={`cy-card-${cycle.id}`}>
              <Link to={to}>{cycle.name}</Link>
            </h2>
            <div className="cy-row-sub">
              <CycleDates cycle={cycle} />
              <DaysLeft cycle={cycle} />
              {owner ? (
                <span className="cy-owner">
                  <Avatar name={personName(owner)} src={owner.avatar_url} size={18} />
                  {personName(owner)}
                </span>
              ) : null}
            </div>
          </div>
        </div>
        <div className="cy-card-actions">
          <StatusBadge status={cycle.status} />
          <FavoriteStar slug={ctx.slug} cycle={cycle} disabled={!actions.favorite} />
          <CycleMenu slug={ctx.slug} cycle={cycle} actions={actions} unfinished={unfinished} />
        </div>
      </header>
      {cycle.description ? <p className="cy-card-description">{cycle.description}</p> : null}
      <div className="cy-card-grid">
        <CycleProgress counters={counters}>
          <Link className="cy-card-link" to={to}>
            {t("cycles.card.viewItems")}
            <ArrowRight size={14} aria-hidden />
          </Link>
        </CycleProgress>
        <CycleBurndown slug={ctx.slug} cycle={cycle} counters={counters} hasPoints={ctx.hasPoints} />
        <CycleBreakdown slug={ctx.slug} cycle={cycle} />
      </div>
    </article>
  );
}
