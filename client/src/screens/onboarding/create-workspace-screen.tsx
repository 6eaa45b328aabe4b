import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { session } from "../../stores/session";
import { fetchMyWorkspaces, workspaces } from "../../stores/workspaces";
import { OnboardingFrame } from "./frame";
import { WorkspaceForm } from "./workspace-form";

/** /create-workspace/: a new workspace, then straight into it. */
export function CreateWorkspaceScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onboarded = useSnapshot(session).profile?.is_onboarded;
  const list = useSnapshot(workspaces).list;

  useEffect(() => {
    document.title = `${t("onboarding.createWorkspace.title")} · Tideline`;
    if (!workspaces.listLoaded) void fetchMyWorkspaces().catch(() => undefined);
  }, [t]);

  return (
    <OnboardingFrame>
      <div className="ob-card">
        {onboarded && list.length > 0 ? (
          <Link to="/" className="ob-back">
            <ArrowLeft size={14} aria-hidden />
            {t("onboarding.createWorkspace.back")}
          </Link>
        ) : null}
        <div className="ob-heading">
          <h1>{t("onboarding.createWorkspace.title")}</h1>
          <p className="muted">{t("onboarding.createWorkspace.subtitle")}</p>
        </div>
        <WorkspaceForm
          onCreated={(ws) => {
            toast.success(t("onboarding.createWorkspace.created", { name: ws.name }));
            navigate(onboarded ? `/${ws.slug}/` : "/onboarding/", { replace: true });
          }}
        />
      </div>
    </OnboardingFrame>
  );
}
