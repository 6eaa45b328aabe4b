import { personFullName } from "@tideline/shared";
import { ArrowRight, Mail } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Button, EmptyState, ScreenLoader } from "../../components/ui";
import { errorMessage } from "../../lib/api";
import {
  acceptMyInvitations,
  answerInvitation,
  fetchMyInvitations,
  type Invitation,
  invitations,
} from "../../stores/invitations";
import { session } from "../../stores/session";
import { WorkspaceLogo } from "../workspace/components/logos";
import { useRoleLabel } from "../workspace/components/role-select";
import { OnboardingFrame } from "./frame";
import { VerifyEmailPanel } from "./verify-email";

/** /invitations/: the invitations waiting for me; accept or decline each. */
export function InvitationsScreen() {
  const { t } = useTranslation();
  const snap = useSnapshot(invitations);
  const onboarded = useSnapshot(session).profile?.is_onboarded;
  const [joined, setJoined] = useState<{ id: string; name: string; slug: string }[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    document.title = `${t("onboarding.invitations.title")} · Tideline`;
    fetchMyInvitations().catch(() => setFailed(true));
  }, [t]);

  const next = (slug: string) => (onboarded ? `/${slug}/` : "/onboarding/");

  return (
    <OnboardingFrame>
      <div className="ob-card ob-card-wide">
        <div className="ob-heading">
          <h1>{t("onboarding.invitations.title")}</h1>
          <p className="muted">{t("onboarding.invitations.subtitle")}</p>
        </div>
        {!snap.mineLoaded && !failed ? (
          <ScreenLoader />
        ) : (
          <div className="stack">
            {joined.map((j) => (
              <div key={j.id} className="ob-invite">
                <WorkspaceLogo name={j.name} size={32} />
                <div className="ob-invite-text">
                  <strong>{j.name}</strong>
                  <span className="muted">{t("onboarding.invitations.youJoined")}</span>
                </div>
                <Link className="btn btn-secondary btn-sm" to={next(j.slug)}>
                  {t("onboarding.invitations.open")}
                  <ArrowRight size={13} aria-hidden />
                </Link>
              </div>
            ))}
            {snap.mine.map((inv) => (
              <InvitationRow
                key={inv.id}
                invitation={inv}
                onJoined={() =>
                  setJoined((list) => [...list, { id: inv.id, name: inv.workspace.name, slug: inv.workspace.slug }])
                }
              />
            ))}
            {snap.needsVerification ? (
              <VerifyEmailPanel onVerified={() => void fetchMyInvitations().catch(() => setFailed(true))} />
            ) : null}
            {snap.mine.length === 0 && joined.length === 0 && !snap.needsVerification ? (
              <EmptyState
                icon={Mail}
                title={t("onboarding.invitations.none")}
                description={t("onboarding.invitations.noneHint")}
                action={
                  <div className="row">
                    <Link className="btn btn-secondary" to="/">
                      {t("onboarding.invitations.home")}
                    </Link>
                    <Link className="btn btn-primary" to="/create-workspace/">
                      {t("onboarding.invitations.createOne")}
                    </Link>
                  </div>
                }
              />
            ) : null}
          </div>
        )}
      </div>
    </OnboardingFrame>
  );
}

function InvitationRow({ invitation, onJoined }: { invitation: Invitation; onJoined: () => void }) {
  const { t } = useTranslation();
  const roleLabel = useRoleLabel();
  const [busy, setBusy] = useState<"accept" | "decline" | null>(null);
  const inviter = invitation.invited_by ? personFullName(invitation.invited_by) : null;
  return (
    <div className="ob-invite">
      <WorkspaceLogo name={invitation.workspace.name} url={invitation.workspace.logo_url} size={32} />
      <div className="ob-invite-text">
        <strong>{invitation.workspace.name}</strong>
        <span className="muted">
          {inviter
            ? t("onboarding.invitations.invitedBy", { name: inviter, role: roleLabel(invitation.role) })
            : t("onboarding.invitations.invitedAs", { role: roleLabel(invitation.role) })}
        </span>
      </div>
      <Button
        size="sm"
        variant="ghost"
        loading={busy === "decline"}
        disabled={busy === "accept"}
        onClick={async () => {
          setBusy("decline");
          try {
            await answerInvitation(invitation.workspace.slug, invitation.id, false);
          } catch (error) {
            toast.error(t("onboarding.invitations.declineFailed"), { description: await errorMessage(error) });
            setBusy(null);
          }
        }}
      >
        {t("onboarding.invitations.decline")}
      </Button>
      <Button
        size="sm"
        loading={busy === "accept"}
        disabled={busy === "decline"}
        onClick={async () => {
          setBusy("accept");
          if (await acceptMyInvitations([invitation.id])) onJoined();
          else setBusy(null);
        }}
      >
        {t("onboarding.invitations.accept")}
      </Button>
    </div>
  );
}
