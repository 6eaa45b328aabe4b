/**
 * In place of a project's content for a workspace member who hasn't joined it (a public
 * project): say so and offer to join here, then show the project once joined.
 */
import { Lock } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, EmptyState } from "../../../components/ui";
import { fetchProject, joinProject } from "../../../stores/projects";

export function JoinProjectState({
  slug,
  projectId,
  workspaceRole,
}: {
  slug: string;
  projectId: string;
  workspaceRole: number;
}) {
  const { t } = useTranslation();
  const [joining, setJoining] = useState(false);
  return (
    <EmptyState
      icon={Lock}
      title={t("projects.settings.notMember")}
      description={t("projects.settings.notMemberHint")}
      action={
        <Button
          loading={joining}
          onClick={async () => {
            setJoining(true);
            if (await joinProject(slug, projectId, workspaceRole)) await fetchProject(slug, projectId);
            setJoining(false);
          }}
        >
          {t("projects.list.join")}
        </Button>
      }
    />
  );
}
