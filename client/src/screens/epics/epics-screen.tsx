/**
 * /:ws/projects/:projectId/epics/ — the project's epics: the shared board (WorkItemsBoard) scoped
 * to epics, with every layout, filters and display saved per user at epics-user-properties/, and
 * "Add epic" creating through POST epics/.
 *
 * Epics live in the project's local cache like work items: the v2 sync of `issues` leaves them
 * out, so this screen opts the project in (loadProjectEpics reads v2/epics/ and keeps them in
 * the project's later refreshes) and the scope keeps only them (board-scope.ts). That keeps one
 * pipeline for filtering, grouping and live changes rather than a second, server-paged list.
 */
import { Sparkles } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Button } from "../../components/ui";
import { epicsLoaded, loadProjectEpics } from "../../stores/work-items";
import { CyclesCrumbs } from "../cycles/cycles-chrome";
import { usePagesProject } from "../pages/use-pages";
import { WorkItemsBoard } from "../work-items/work-items-board";
import { PageHeader } from "../workspace/components/page-header";
import { EpicsBlocked } from "./epics-chrome";
import "./epics.css";

export function EpicsScreen() {
  const { t } = useTranslation();
  const { projectId = "" } = useParams();
  const ctx = usePagesProject(projectId);
  const { slug, project, isMember } = ctx;
  const epicsOn = Boolean(project?.is_epic_enabled);
  const [status, setStatus] = useState<"loading" | "ready" | "error">(() =>
    epicsLoaded(projectId) ? "ready" : "loading",
  );
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the load on "Try again"
  useEffect(() => {
    if (!slug || !isMember || !epicsOn) return;
    let alive = true;
    if (!epicsLoaded(projectId)) setStatus("loading");
    loadProjectEpics(slug, projectId)
      .then(() => alive && setStatus("ready"))
      .catch(() => alive && setStatus("error"));
    return () => {
      alive = false;
    };
  }, [slug, projectId, isMember, epicsOn, attempt]);

  useEffect(() => {
    document.title = project ? `${t("epics.title")} · ${project.name} · Tideline` : "Tideline";
  }, [project, t]);

  const blocked = EpicsBlocked({ ctx, t });
  if (blocked || !project || status !== "ready") {
    return (
      <div className="ep-screen">
        <PageHeader>
          <CyclesCrumbs slug={slug} project={project} />
          <span className="crumb">
            <Sparkles size={14} aria-hidden />
            {t("epics.title")}
          </span>
        </PageHeader>
        {blocked ??
          (status === "error" ? (
            <div className="ep-failed">
              <p className="muted">{t("epics.loadFailed")}</p>
              <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
                {t("epics.retry")}
              </Button>
            </div>
          ) : (
            <div className="ep-skeleton" aria-hidden>
              <div className="skeleton" style={{ height: 32, width: "30%", borderRadius: 6 }} />
              {[0, 1, 2, 3, 4].map((i) => (
                <div key={i} className="skeleton" style={{ height: 36, borderRadius: 6 }} />
              ))}
            </div>
          ))}
      </div>
    );
  }

  return (
    <WorkItemsBoard
      scope={{ kind: "epics" }}
      title={t("epics.title")}
      addLabel={t("epics.add")}
      canAdd={ctx.canCreate}
      empty={{
        title: t("epics.empty.title"),
        description: ctx.canCreate ? t("epics.empty.description") : t("epics.empty.descriptionGuest"),
      }}
    />
  );
}
