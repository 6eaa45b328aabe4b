/**
 * /:workspaceSlug/browse/:workItemKey/ — the full page of a work item, found by its key
 * (WEB-12) through GET /api/workspaces/:slug/work-items/WEB-12/; "Work item not found" on 404.
 */
import { FileQuestion } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useParams } from "react-router";
import { Button, EmptyState, ScreenLoader } from "../../components/ui";
import { loadWorkItemByKey } from "../../stores/work-item-detail";
import { useWorkItem } from "../../stores/work-items";
import { NavButton } from "../workspace/components/nav-button";
import { useProject } from "./use-detail";
import { WorkItemDetail } from "./work-item-detail";

type State =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "error" }
  | { status: "ready"; id: string; projectId: string };

export function WorkItemPage() {
  const { workspaceSlug = "", workItemKey = "" } = useParams();
  const [state, setState] = useState<State>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const { t } = useTranslation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the load on "Try again"
  useEffect(() => {
    let alive = true;
    setState({ status: "loading" });
    loadWorkItemByKey(workspaceSlug, workItemKey)
      .then((result) => {
        if (alive) setState(result.status === "ready" ? result : { status: "missing" });
      })
      .catch(() => alive && setState({ status: "error" }));
    return () => {
      alive = false;
    };
  }, [workspaceSlug, workItemKey, attempt]);

  if (state.status === "loading") return <ScreenLoader />;
  if (state.status === "missing") return <NotFound slug={workspaceSlug} />;
  if (state.status === "error") {
    return (
      <div className="full-center">
        <div className="stack" style={{ alignItems: "center" }}>
          <p className="muted">{t("workItem.loadFailed")}</p>
          <Button onClick={() => setAttempt((n) => n + 1)}>{t("workItem.retry")}</Button>
        </div>
      </div>
    );
  }
  return <Page slug={workspaceSlug} projectId={state.projectId} id={state.id} />;
}

function Page({ slug, projectId, id }: { slug: string; projectId: string; id: string }) {
  const { t } = useTranslation();
  const item = useWorkItem(id);
  const project = useProject(slug, projectId);
  useEffect(() => {
    if (item && project) document.title = `${project.identifier}-${item.sequence_id} ${item.name} · Tideline`;
  }, [item, project]);
  if (!item) return <NotFound slug={slug} />;
  // An epic has its own page (its children's progress, under the project's epics).
  if (item.is_epic) return <Navigate to={`/${slug}/projects/${projectId}/epics/${id}/`} replace />;
  return (
    <WorkItemDetail
      slug={slug}
      projectId={projectId}
      workItemId={id}
      mode="page"
      lead={
        <>
          <NavButton />
          <nav className="wid-crumbs" aria-label="Breadcrumb">
            {project ? <span className="crumb">{project.name}</span> : null}
            <span className="crumb-sep">/</span>
            <Link to={`/${slug}/projects/${projectId}/issues/`}>{t("workItem.header.workItems")}</Link>
            <span className="crumb-sep">/</span>
          </nav>
        </>
      }
    />
  );
}

export function NotFound({ slug }: { slug: string }) {
  const { t } = useTranslation();
  return (
    <div className="full-center">
      <EmptyState
        icon={FileQuestion}
        title={t("workItem.notFound.title")}
        description={t("workItem.notFound.description")}
        action={
          <Link className="btn btn-secondary" to={`/${slug}/projects/`}>
            {t("workItem.notFound.home")}
          </Link>
        }
      />
    </div>
  );
}
