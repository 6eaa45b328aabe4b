/**
 * A project's analytics, in a modal from the work-items header (the reference's "Analytics"
 * peek): the project's totals and charts (the scope-and-demand tab for one project) and its
 * custom chart, over the project-level calls. The modal's code loads on first open.
 */
import { BarChart3 } from "lucide-react";
import { lazy, memo, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../components/ui";

const Body = lazy(() => import("./project-analytics-body").then((m) => ({ default: m.ProjectAnalyticsBody })));

// Memoised: the board re-renders on every filter change, which leaves this alone.
export const ProjectAnalyticsButton = memo(function ProjectAnalyticsButton({
  slug,
  projectId,
  projectName,
}: {
  slug: string;
  projectId: string;
  projectName: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="wi-icon-btn"
        aria-label={t("analytics.projectOpen")}
        title={t("analytics.projectOpen")}
        onClick={() => setOpen(true)}
        data-testid="project-analytics-open"
      >
        <BarChart3 size={15} aria-hidden />
      </button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        title={t("analytics.projectTitle", { project: projectName })}
        width={1040}
        className="an-modal"
      >
        {open ? (
          <Suspense fallback={<div className="burndown-placeholder" style={{ height: 480 }} aria-hidden />}>
            <Body slug={slug} projectId={projectId} />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
});
