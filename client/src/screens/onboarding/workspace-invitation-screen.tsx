import { normalizeEmail } from "@tideline/shared";
import { CircleCheck, MailX, UserX } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, EmptyState, ScreenLoader } from "../../components/ui";
import { errorMessage } from "../../lib/api";
import { answerInvitation, fetchInvitation, type Invitation } from "../../stores/invitations";
import { session, signOut } from "../../stores/session";
import { WorkspaceLogo } from "../workspace/components/logos";
import { useRoleLabel } from "../workspace/components/role-select";
import { OnboardingFrame } from "./frame";

type State =
  | { kind: "loading" }
  | { kind: "incomplete" }
  | { kind: "other-email"; invited: string }
  | { kind: "gone" }
  | { kind: "answered"; invitation: Invitation }
  | { kind: "ready"; invitation: Invitation };

/**
 * /workspace-invitations/?invitation_id&email&slug — the link in the invitation e-mail: shows
 * who invited you where, with Accept and Decline. The signed-in account must be the invited one.
 */
export function WorkspaceInvitationScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const me = useSnapshot(session);
  const roleLabel = useRoleLabel();
  const id = params.get("invitation_id") ?? "";
  const slug = params.get("slug") ?? "";
  const invited = params.get("email") ?? "";
  const [state, setState] = useState<State>({ kind: "loading" });
  const [busy, setBusy] = useState<"accept" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const myEmail = me.user?.email ?? "";
  useEffect(() => {
    document.title = `${t("onboarding.invitation.title")} · Tideline`;
    if (!id || !slug) {
      setState({ kind: "incomplete" });
      return;
    }
    if (invited && normalizeEmail(invited) !== normalizeEmail(myEmail)) {
      setState({ kind: "other-email", invited });
      return;
    }
    let alive = true;
    fetchInvitation(slug, id)
      .then((result) => {
        if (!alive) return;
        if ("status" in result) setState({ kind: "gone" });
        else if (result.invitation.accepted || result.invitation.responded_at)
          setState({ kind: "answered", invitation: result.invitation });
        else setState({ kind: "ready", invitation: result.invitation });
      })
      .catch(() => alive && setState({ kind: "gone" }));
    return () => {
      alive = false;
    };
  }, [id, slug, invited, myEmail, t]);

  const onboarded = me.profile?.is_onboarded;

  async function answer(accepted: boolean) {
    setBusy(accepted ? "accept" : "decline");
    setError(null);
    try {
      await answerInvitation(slug, id, accepted);
      if (accepted) {
        toast.success(
          t("onboarding.invitations.joined", { name: state.kind === "ready" ? state.invitation.workspace.name : slug }),
        );
        navigate(onboarded ? `/${slug}/` : "/onboarding/", { replace: true });
      } else {
        toast.success(t("onboarding.invitation.declined"));
        navigate("/", { replace: true });
      }
    } catch (err) {
      setError(await errorMessage(err));
      setBusy(null);
    }
  }

  let content: React.ReactNode;
  switch (state.kind) {
    case "loading":
      content = <ScreenLoader />;
      break;
    case "incomplete":
      content = (
        <EmptyState
          icon={MailX}
          title={t("onboarding.invitation.incomplete")}
          description={t("onboarding.invitation.incompleteHint")}
          action={
            <Link className="btn btn-secondary" to="/invitations/">
              {t("onboarding.invitation.seeAll")}
            </Link>
          }
        />
      );
      break;
    case "other-email":
      content = (
        <EmptyState
          icon={UserX}
          title={t("onboarding.invitation.otherEmail")}
          description={t("onboarding.invitation.otherEmailHint", { invited: state.invited, me: myEmail })}
          action={
            <Button
              variant="secondary"
              onClick={() => signOut().catch(() => toast.error(t("workspace.switcher.signOutFailed")))}
            >
              {t("onboarding.invitation.switchAccount")}
            </Button>
          }
        />
      );
      break;
    case "gone":
      content = (
        <EmptyState
          icon={MailX}
          title={t("onboarding.invitation.gone")}
          description={t("onboarding.invitation.goneHint")}
          action={
            <Link className="btn btn-secondary" to="/">
              {t("onboarding.invitations.home")}
            </Link>
          }
        />
      );
      break;
    case "answered":
      content = (
        <EmptyState
          icon={CircleCheck}
          title={t("onboarding.invitation.answered")}
          description={t("onboarding.invitation.answeredHint", { name: state.invitation.workspace.name })}
          action={
            <Link className="btn btn-primary" to={onboarded ? `/${state.invitation.workspace.slug}/` : "/onboarding/"}>
              {t("onboarding.invitation.goToWorkspace")}
            </Link>
          }
        />
      );
      break;
    case "ready": {
      const inv = state.invitation;
      const inviter = inv.invited_by
        ? `${inv.invited_by.first_name} ${inv.invited_by.last_name}`.trim() || inv.invited_by.display_name
        : null;
      content = (
        <div className="ob-invitation">
          <WorkspaceLogo name={inv.workspace.name} url={inv.workspace.logo_url} size={56} />
          <h1>
            {inviter
              ? t("onboarding.invitation.headline", { name: inviter, workspace: inv.workspace.name })
              : t("onboarding.invitation.headlineAnon", { workspace: inv.workspace.name })}
          </h1>
          <p className="muted">{t("onboarding.invitation.role", { role: roleLabel(inv.role), email: inv.email })}</p>
          {inv.message ? <blockquote className="ob-message">{inv.message}</blockquote> : null}
          {error ? <Banner>{error}</Banner> : null}
          <div className="ob-invitation-actions">
            <Button
              variant="secondary"
              size="lg"
              loading={busy === "decline"}
              disabled={busy === "accept"}
              onClick={() => void answer(false)}
            >
              {t("onboarding.invitations.decline")}
            </Button>
            <Button
              size="lg"
              loading={busy === "accept"}
              disabled={busy === "decline"}
              onClick={() => void answer(true)}
            >
              {t("onboarding.invitations.accept")}
            </Button>
          </div>
        </div>
      );
      break;
    }
  }

  return (
    <OnboardingFrame>
      <div className="ob-card">{content}</div>
    </OnboardingFrame>
  );
}
