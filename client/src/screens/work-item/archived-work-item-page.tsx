/**
 * /:workspaceSlug/projects/:projectId/archives/issues/:issueId/ — an archived work item: the
 * same detail with a Restore button; inline edits stay allowed (product-domain §5).
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { Button, ScreenLoader } from "../../components/ui";
import { loadWorkItemDetail } from "../../stores/work-item-detail";
import { NavButton } from "../workspace/components/nav-button";
import { useProject } from "./use-detail";
import { WorkItemDetail } from "./work-item-detail";
import { NotFound } from "./work-item-page";

export function ArchivedWorkItemPage() {
  const { t } = useTranslation();
  const { workspaceSlug = "", projectId = "", issueId = "" } = useParams();
  const project = useProject(workspaceSlug, projectId);
  const [status, setStatus] = useState<"loading" | "ready" | "missing" | "error">("loading");
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the load on "Try again"
  useEffect(() => {
    let alive = true;
    setStatus("loading");
    loadWorkItemDetail(workspaceSlug, projectId, issueId, { archived: true })
      .then((result) => alive && setStatus(result.status))
      .catch(() => alive && setStatus("error"));
    return () => {
      alive = false;
    };
  }, [workspaceSlug, projectId, issueId, attempt]);

  if (status === "loading") return <ScreenLoader />;
  if (status === "missing") return <NotFound slug={workspaceSlug} />;
  if (status === "error") {
    return (
      <div className="full-center">
        <div className="stack" style={{ alignItems: "center" }}>
          <p className="muted">{t("workItem.loadFailed")}</p>
          <Button onClick={() => setAttempt((n) => n + 1)}>{t("workItem.retry")}</Button>
        </div>
      </div>
    );
  }
  return (
    <WorkItemDetail
      slug={workspaceSlug}
      projectId={projectId}
      workItemId={issueId}
      mode="page"
      archived
      lead={
        <>
          <NavButton />
          <nav className="wid-crumbs" aria-label="Breadcrumb">
            {project ? <span className="crumb">{project.name}</span> : null}
            <span className="crumb-sep">/</span>
            <Link to={`/${workspaceSlug}/projects/${projectId}/archives/issues/`}>{t("workItem.header.archives")}</Link>
            <span className="crumb-sep">/</span>
          </nav>
        </>
      }
    />
  );
}
