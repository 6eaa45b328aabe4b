/**
 * /:ws/projects/:projectId/issues/ — every work item of the project: the work-items board
 * (work-items-board.tsx) with the project as its scope.
 */
import { useTranslation } from "react-i18next";
import { WorkItemsBoard } from "./work-items-board";

export function ProjectWorkItemsScreen() {
  const { t } = useTranslation();
  return <WorkItemsBoard scope={PROJECT_SCOPE} title={t("workItems.title")} />;
}

const PROJECT_SCOPE = { kind: "project" } as const;
