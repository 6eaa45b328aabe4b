/**
 * /:ws/projects/:projectId/cycles/:cycleId/ — one cycle's work items: the shared board
 * (WorkItemsBoard, scoped to the cycle: layouts, filters saved per user and cycle, quick add into
 * the cycle) with the cycle's panel at its right and "Add existing work items". A completed cycle
 * takes no new items. An unknown cycle (deleted, another project's) shows a way back.
 */
import { CircleDashed, ListPlus, Plus } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { useSnapshot } from "valtio";
import { Button, EmptyState } from "../../components/ui";
import { useDropPrepaint } from "../../lib/prepaint";
import { type Cycle, cycles, loadCycleDetail } from "../../stores/cycles";
import { projectMeta } from "../../stores/project-meta";
import { WorkItemsBoard } from "../work-items/work-items-board";
import { PageHeader } from "../workspace/components/page-header";
import { AddExistingModal } from "./add-existing-modal";
import { CyclePanel } from "./cycle-panel";
import { CyclesBlocked, CyclesCrumbs } from "./cycles-chrome";
import { refreshAnalytics, useCyclesLive, useCyclesProject } from "./use-cycles";
import "./cycles.css";

export function CycleWorkItemsScreen() {
  const { t } = useTranslation();
  const { projectId = "", cycleId = "" } = useParams();
  const ctx = useCyclesProject(projectId);
  const { slug, project, isMember } = ctx;
  const snap = useSnapshot(cycles);
  const metaSnap = useSnapshot(projectMeta);
  const [addOpen, setAddOpen] = useState(false);
  const onProgress = useCallback(
    (id: string) => {
      if (id === "*" || id === cycleId) refreshAnalytics(slug, projectId, cycleId);
    },
    [slug, projectId, cycleId],
  );
  useCyclesLive(slug, projectId, isMember && ctx.cyclesOn, onProgress);

  const entry = snap.byProject[projectId];
  const listed = entry?.list.find((c) => c.id === cycleId) as Cycle | undefined;
  const detail = snap.details[cycleId];
  const detailCycle = detail?.cycle?.project_id === projectId ? (detail.cycle as Cycle) : undefined;
  const cycle = listed ?? detailCycle;
  // Not in the project's list (archived, deleted, another project's, or the list failed): ask for it alone.
  const notListed = Boolean(entry && entry.status !== "loading" && !listed);
  useEffect(() => {
    if (notListed && isMember && slug) void loadCycleDetail(slug, projectId, cycleId);
  }, [notListed, isMember, slug, projectId, cycleId]);

  const header = (
    <PageHeader>
      <CyclesCrumbs slug={slug} project={project} cyclesLink />
    </PageHeader>
  );
  const blocked = CyclesBlocked({ ctx, t });
  const missing =
    notListed && (detail?.status === "missing" || (detail?.cycle && detail.cycle.project_id !== projectId));
  // Not the board: the picture of it from the last visit goes (lib/prepaint.ts).
  useDropPrepaint(Boolean(blocked || missing));
  if (blocked) {
    return (
      <div className="cy-screen">
        {header}
        {blocked}
      </div>
    );
  }
  if (missing) {
    return (
      <div className="cy-screen">
        {header}
        <EmptyState
          icon={CircleDashed}
          title={t("cycles.notFound.title")}
          description={t("cycles.notFound.description")}
          action={
            <Link className="btn btn-secondary" to={`/${slug}/projects/${projectId}/cycles/`}>
              {t("cycles.notFound.back")}
            </Link>
          }
        />
      </div>
    );
  }
  if (!cycle) {
    return (
      <div className="cy-screen">
        {header}
        <div className="cy-rows-skeleton" aria-hidden>
          <div className="skeleton" style={{ height: 40, width: "40%", borderRadius: 6 }} />
          <div className="skeleton" style={{ height: 240, borderRadius: 10, marginTop: 12 }} />
        </div>
      </div>
    );
  }

  const archived = Boolean(cycle.archived_at);
  const canAdd = cycle.status !== "completed" && !archived && ctx.canCreate;
  const states = metaSnap.byProject[projectId]?.states ?? [];
  const stateColor = (id: string | null) => states.find((s) => s.id === id)?.color;
  return (
    <>
      <WorkItemsBoard
        scope={{ kind: "cycle", cycleId }}
        title={cycle.name}
        crumbs={
          <Link className="crumb" to={`/${slug}/projects/${projectId}/cycles/`}>
            <CircleDashed size={14} aria-hidden />
            {t("cycles.title")}
          </Link>
        }
        actions={
          canAdd ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setAddOpen(true)}
              data-testid="add-existing"
              aria-label={t("cycles.addExisting.open")}
              title={t("cycles.addExisting.open")}
            >
              <ListPlus size={14} aria-hidden />
              <span className="cy-hide-narrow">{t("cycles.addExisting.short")}</span>
            </Button>
          ) : null
        }
        panel={<CyclePanel cycle={cycle} ctx={ctx} />}
        canAdd={canAdd}
        empty={{
          title: t("cycles.board.emptyTitle"),
          description: canAdd ? t("cycles.board.emptyDescription") : t("cycles.board.emptyClosed"),
          action: canAdd ? (
            <Button onClick={() => setAddOpen(true)}>
              <Plus size={14} aria-hidden />
              {t("cycles.addExisting.open")}
            </Button>
          ) : undefined,
        }}
      />
      {canAdd ? (
        <AddExistingModal
          open={addOpen}
          onOpenChange={setAddOpen}
          slug={slug}
          cycle={cycle}
          identifier={project?.identifier ?? ""}
          stateColor={stateColor}
        />
      ) : null}
    </>
  );
}
