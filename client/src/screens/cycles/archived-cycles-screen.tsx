/**
 * /:ws/projects/:projectId/cycles/archived/ — the project's archived cycles, with their own
 * search box; each can be restored (back into the list) or deleted for good.
 */
import { ROLE } from "@tideline/shared";
import { Archive } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { EmptyState } from "../../components/ui";
import { type Cycle, cycles, deleteArchivedCycle, loadArchivedCycles, restoreCycle } from "../../stores/cycles";
import { watchProjectLive } from "../../stores/live-board";
import { ConfirmModal } from "../workspace/components/confirm-modal";
import {
  ListSearch,
  LoadFailedState,
  NoMatchState,
  RestoreButton,
  RowDeleteButton,
} from "../workspace/components/list-parts";
import { PageHeader } from "../workspace/components/page-header";
import { SkeletonRows } from "../workspace/components/skeleton";
import { matchesSearch, pickCounters } from "./cycle-logic";
import { CycleDates, ProgressRing } from "./cycle-parts";
import { CyclesBlocked, CyclesCrumbs } from "./cycles-chrome";
import { type CyclesProjectContext, useCyclesProject } from "./use-cycles";
import "./cycles.css";

export function ArchivedCyclesScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const ctx = useCyclesProject(projectId);
  const { slug, project, isMember } = ctx;
  const [search, setSearch] = useState("");
  const snap = useSnapshot(cycles);

  useEffect(() => {
    if (!isMember || !slug) return;
    void loadArchivedCycles(slug, projectId);
    // Archive/restore events from others keep this list live (applyCycleEvent).
    return watchProjectLive(slug, projectId);
  }, [slug, projectId, isMember]);

  useEffect(() => {
    if (project) document.title = `${t("cycles.archived.title")} · ${project.name}`;
  }, [project, t]);

  const entry = snap.archived[projectId];
  const list = (entry?.list ?? []) as readonly Cycle[];
  const shown = useMemo(
    () =>
      list
        .filter((c) => matchesSearch(c, search))
        .sort((a, b) => (b.archived_at ?? "").localeCompare(a.archived_at ?? "")),
    [list, search],
  );

  const header = (
    <PageHeader>
      <CyclesCrumbs slug={slug} project={project} cyclesLink />
      <h1 className="cy-h1">{t("cycles.archived.title")}</h1>
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
  if (!entry || (entry.status === "loading" && !list.length)) {
    body = (
      <div className="cy-rows-skeleton">
        <SkeletonRows count={4} height={56} />
      </div>
    );
  } else if (entry.status === "error" && !list.length) {
    body = (
      <LoadFailedState
        icon={Archive}
        title={t("cycles.loadFailed")}
        retryLabel={t("cycles.retry")}
        onRetry={() => void loadArchivedCycles(slug, projectId)}
      />
    );
  } else if (!shown.length) {
    body = search.trim() ? (
      <NoMatchState
        title={t("cycles.empty.noMatch", { search: search.trim() })}
        clearLabel={t("cycles.empty.clearSearch")}
        onClear={() => setSearch("")}
      />
    ) : (
      <EmptyState
        icon={Archive}
        title={t("cycles.archived.emptyTitle")}
        description={t("cycles.archived.emptyDescription")}
        action={
          <Link className="btn btn-secondary" to={`/${slug}/projects/${projectId}/cycles/?tab=completed`}>
            {t("cycles.archived.toCompleted")}
          </Link>
        }
      />
    );
  } else {
    body = (
      <ul className="cy-rows" aria-label={t("cycles.archived.title")}>
        {shown.map((c) => (
          <ArchivedRow key={c.id} cycle={c} ctx={ctx} />
        ))}
      </ul>
    );
  }

  return (
    <div className="cy-screen">
      {header}
      <div className="projects-toolbar cy-toolbar">
        <span className="cy-muted cy-archived-count">
          {entry?.status === "ready" ? t("cycles.archived.count", { count: list.length }) : ""}
        </span>
        <ListSearch
          className="cy-search"
          placeholder={t("cycles.archived.searchPlaceholder")}
          label={t("cycles.archived.search")}
          value={search}
          onChange={setSearch}
        />
      </div>
      {body}
    </div>
  );
}

function ArchivedRow({ cycle, ctx }: { cycle: Cycle; ctx: CyclesProjectContext }) {
  const { t } = useTranslation();
  const [deleteOpen, setDeleteOpen] = useState(false);
  const member = ctx.projectRole >= ROLE.member;
  const canDelete = ctx.projectRole >= ROLE.admin || (member && cycle.created_by === ctx.userId);
  const counters = pickCounters(cycle);
  return (
    <li className="cy-row" data-testid="archived-cycle-row">
      <Link className="cy-row-link" to={`/${ctx.slug}/projects/${cycle.project_id}/cycles/${cycle.id}/`}>
        <ProgressRing counters={counters} />
        <span className="cy-row-main">
          <span className="cy-row-name">{cycle.name}</span>
          <span className="cy-row-sub">
            <CycleDates cycle={cycle} />
          </span>
        </span>
      </Link>
      <span className="cy-row-meta">
        <span className="cy-row-count cy-hide-narrow">
          {t("cycles.row.items", { done: counters.completed_issues, total: counters.total_issues })}
        </span>
        {member ? (
          <RestoreButton
            label={t("cycles.archived.restore")}
            onRestore={async () => {
              if (await restoreCycle(ctx.slug, cycle.project_id, cycle.id))
                toast.success(t("cycles.archived.restored", { name: cycle.name }));
            }}
          />
        ) : null}
        {canDelete ? (
          <RowDeleteButton
            className="cy-icon-btn cy-danger"
            label={t("cycles.archived.deleteNamed", { name: cycle.name })}
            title={t("cycles.menu.delete")}
            onClick={() => setDeleteOpen(true)}
          />
        ) : null}
      </span>
      <ConfirmModal
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        title={t("cycles.deleteConfirm.title", { name: cycle.name })}
        description={t("cycles.deleteConfirm.description")}
        confirmLabel={t("cycles.menu.delete")}
        onConfirm={async () => {
          if (await deleteArchivedCycle(ctx.slug, cycle.project_id, cycle.id)) {
            setDeleteOpen(false);
            toast.success(t("cycles.deleteConfirm.done", { name: cycle.name }));
          }
        }}
      />
    </li>
  );
}
