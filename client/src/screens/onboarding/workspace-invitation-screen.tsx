import { normalizeEmail, personFullName } from "@tideline/shared";
import { CircleCheck, MailX, UserX } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner, Button, EmptyState, ScreenLoader } from "../../components/ui";
import { errorMessage, signInPathFor } from "../../lib/api";
import {
  answerInvitation,
  fetchInvitation,
  fetchInvitationByLink,
  type Invitation,
  isEmailNotVerified,
} from "../../stores/invitations";
import { session, signOut } from "../../stores/session";
import { authLink } from "../auth/hooks";
import { WorkspaceLogo } from "../workspace/components/logos";
import { useRoleLabel } from "../workspace/components/role-select";
import { OnboardingFrame } from "./frame";
import { VerifyEmailPanel } from "./verify-email";

type State =
  | { kind: "loading" }
  | { kind: "incomplete" }
  | { kind: "other-email"; invited: string }
  | { kind: "gone" }
  | { kind: "verify" }
  | { kind: "answered"; invitation: Invitation }
  | { kind: "ready"; invitation: Invitation; existingUser: boolean | null };

/**
 * /workspace-invitations/?invitation_id&email&slug&token — the link in the invitation e-mail,
 * open to everyone who holds it (it is not behind sign-in):
 * - signed out: who invited you where, as what, and the way in — "Create account" (sign-up with
 *   the invited address filled in) for a new person, "Sign in" for an existing account; both
 *   come back here afterwards (next_path), and a sign-up carries the link so it proves the address;
 * - signed in as the invited address: Accept and Decline (the link's token proves the address of
 *   an account that signed up with a password);
 * - signed in as someone else: sign out and switch.
 * A link without its token (older mails) needs sign-in, and an unproven address the verify step.
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
  const token = params.get("token") ?? "";
  const [state, setState] = useState<State>({ kind: "loading" });
  const [busy, setBusy] = useState<"accept" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  const signedIn = Boolean(me.user);
  const myEmail = me.user?.email ?? "";
  const here = `/workspace-invitations/?${params.toString()}`;

  const load = useCallback(async (): Promise<State> => {
    if (token) {
      const result = await fetchInvitationByLink(slug, id, token);
      if (!("status" in result)) {
        return { kind: "ready", invitation: result.invitation, existingUser: result.invitation.existing_user };
      }
      // Answered or re-sent: the invited account may still read it (and see it was answered).
      if (!signedIn) return { kind: "gone" };
    }
    try {
      const result = await fetchInvitation(slug, id);
      if ("status" in result) return result.status === 403 ? { kind: "verify" } : { kind: "gone" };
      const invitation = result.invitation;
      if (invitation.accepted || invitation.responded_at) return { kind: "answered", invitation };
      return { kind: "ready", invitation, existingUser: true };
    } catch (err) {
      return (await isEmailNotVerified(err)) ? { kind: "verify" } : { kind: "gone" };
    }
  }, [id, slug, token, signedIn]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` re-runs the load after verifying
  useEffect(() => {
    document.title = `${t("onboarding.invitation.title")} · Tideline`;
    if (!id || !slug) {
      setState({ kind: "incomplete" });
      return;
    }
    if (signedIn && invited && normalizeEmail(invited) !== normalizeEmail(myEmail)) {
      setState({ kind: "other-email", invited });
      return;
    }
    if (!signedIn && !token) return;
    let alive = true;
    load()
      .then((next) => alive && setState(next))
      .catch(() => alive && setState({ kind: "gone" }));
    return () => {
      alive = false;
    };
  }, [id, slug, invited, token, signedIn, myEmail, load, t, reload]);

  // An older link without its token: only the invited account can read it, after signing in.
  if (!signedIn && !token && id && slug) return <Navigate to={signInPathFor(window.location)} replace />;

  const onboarded = me.profile?.is_onboarded;

  async function answer(accepted: boolean) {
    setBusy(accepted ? "accept" : "decline");
    setError(null);
    try {
      await answerInvitation(slug, id, accepted, token || undefined);
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
      if (await isEmailNotVerified(err)) setState({ kind: "verify" });
      else setError(await errorMessage(err));
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
    case "verify":
      content = (
        <div className="stack">
          <p className="muted">{t("onboarding.invitation.verifyFirst")}</p>
          <VerifyEmailPanel onVerified={() => setReload((n) => n + 1)} />
        </div>
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
      // Who invited you is introduced by their full name (personFullName).
      const inviter = inv.invited_by ? personFullName(inv.invited_by) : null;
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
          {signedIn ? (
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
          ) : (
            <div className="stack ob-invitation-signed-out">
              <p className="muted">
                {state.existingUser
                  ? t("onboarding.invitation.signInToAccept", { email: inv.email })
                  : t("onboarding.invitation.signUpToAccept", { email: inv.email })}
              </p>
              <div className="ob-invitation-actions">
                {state.existingUser ? (
                  <Link className="btn btn-primary btn-lg" to={authLink("/", inv.email, here)}>
                    {t("onboarding.invitation.signIn")}
                  </Link>
                ) : (
                  <Link className="btn btn-primary btn-lg" to={authLink("/sign-up/", inv.email, here)}>
                    {t("onboarding.invitation.createAccount")}
                  </Link>
                )}
              </div>
            </div>
          )}
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
