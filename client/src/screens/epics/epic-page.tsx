/**
 * /:ws/projects/:projectId/epics/:issueId/ — an epic's page: the work-item detail (title,
 * description, properties, activity, comments, links, attachments) with an epic header (crumbs
 * back to the epics, an "Epic" badge) and its children's progress by state group above the child
 * work items (add an existing or a new child, remove one). The project stays live, so a child
 * completed elsewhere moves the progress here.
 */
import { Sparkles } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useParams } from "react-router";
import { Button, ScreenLoader } from "../../components/ui";
import { watchProjectLive } from "../../stores/live-board";
import { loadWorkItemDetail } from "../../stores/work-item-detail";
import { loadProjectEpics, loadProjectWorkItems, useWorkItem } from "../../stores/work-items";
import { usePagesProject } from "../pages/use-pages";
import { browsePath } from "../work-item/use-detail";
import { WorkItemDetail } from "../work-item/work-item-detail";
import { NotFound } from "../work-item/work-item-page";
import { NavButton } from "../workspace/components/nav-button";
import { PageHeader } from "../workspace/components/page-header";
import { epicsPath } from "./epic-logic";
import { EpicsBlocked } from "./epics-chrome";
import "./epics.css";

type Status = "loading" | "ready" | "missing" | "error";

export function EpicPage() {
  const { t } = useTranslation();
  const { projectId = "", issueId = "" } = useParams();
  const ctx = usePagesProject(projectId);
  const { slug, project, isMember } = ctx;
  const epicsOn = Boolean(project?.is_epic_enabled);
  const item = useWorkItem(issueId);
  const [status, setStatus] = useState<Status>("loading");
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the load on "Try again"
  useEffect(() => {
    if (!slug || !isMember || !epicsOn) return;
    let alive = true;
    setStatus("loading");
    loadWorkItemDetail(slug, projectId, issueId, { identifier: project?.identifier })
      .then((result) => alive && setStatus(result.status))
      .catch(() => alive && setStatus("error"));
    return () => {
      alive = false;
    };
  }, [slug, projectId, issueId, isMember, epicsOn, attempt]);

  // The project's items (children picked, created or changed elsewhere) and epics, kept live.
  useEffect(() => {
    if (!slug || !isMember || !epicsOn) return;
    void loadProjectWorkItems(slug, projectId).catch(() => undefined);
    void loadProjectEpics(slug, projectId).catch(() => undefined);
    return watchProjectLive(slug, projectId);
  }, [slug, projectId, isMember, epicsOn]);

  useEffect(() => {
    if (item && project) document.title = `${project.identifier}-${item.sequence_id} ${item.name} · Tideline`;
  }, [item, project]);

  const blocked = EpicsBlocked({ ctx, t });
  if (blocked) {
    return (
      <div className="ep-screen">
        <PageHeader>
          <span className="crumb">{t("epics.title")}</span>
        </PageHeader>
        {blocked}
      </div>
    );
  }
  if (status === "missing") return <NotFound slug={slug} />;
  if (status === "error") {
    return (
      <div className="full-center">
        <div className="stack" style={{ alignItems: "center" }}>
          <p className="muted">{t("epics.page.loadFailed")}</p>
          <Button onClick={() => setAttempt((n) => n + 1)}>{t("epics.retry")}</Button>
        </div>
      </div>
    );
  }
  if (!project || status === "loading" || !item) return <ScreenLoader />;
  // A work item that is not an epic has its own page.
  if (!item.is_epic) {
    return <Navigate to={browsePath(slug, `${project.identifier}-${item.sequence_id}`)} replace />;
  }
  const list = epicsPath(slug, projectId);
  return (
    <WorkItemDetail
      slug={slug}
      projectId={projectId}
      workItemId={issueId}
      mode="page"
      lead={
        <>
          <NavButton />
          <nav className="wid-crumbs" aria-label="Breadcrumb">
            <span className="crumb">{project.name}</span>
            <span className="crumb-sep">/</span>
            <Link to={list}>{t("epics.title")}</Link>
            <span className="crumb-sep">/</span>
          </nav>
          <span className="ep-badge">
            <Sparkles size={11} aria-hidden />
            {t("epics.page.badge")}
          </span>
        </>
      }
    />
  );
}
