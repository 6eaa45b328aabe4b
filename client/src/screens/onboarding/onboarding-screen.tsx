import { personFullName, ROLE } from "@tideline/shared";
import { Check, Mail } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { afterOnboardingPath } from "../../app/onboarding-path";
import { Banner, Button, ScreenLoader, TextInput } from "../../components/ui";
import { errorMessage } from "../../lib/api";
import {
  acceptMyInvitations,
  fetchMyInvitations,
  type Invitation,
  invitations,
  sendInvitations,
} from "../../stores/invitations";
import { finishOnboarding, updateMe, updateProfile } from "../../stores/profile";
import { session } from "../../stores/session";
import { fetchMyWorkspaces, type Workspace, workspaces } from "../../stores/workspaces";
import { focusOnMount } from "../workspace/components/focus";
import { InviteRows } from "../workspace/components/invite-rows";
import { type InviteRow, newInviteRow, validateInviteRows } from "../workspace/components/invite-validation";
import { WorkspaceLogo } from "../workspace/components/logos";
import { useRoleLabel } from "../workspace/components/role-select";
import { SelectField } from "../workspace/components/select-field";
import { OnboardingFrame } from "./frame";
import { VerifyEmailPanel } from "./verify-email";
import { WorkspaceForm } from "./workspace-form";

type Step = "profile" | "workspace" | "invite";
const STEPS: Step[] = ["profile", "workspace", "invite"];
const USE_CASES = ["engineering", "product", "design", "marketing", "operations", "personal", "other"] as const;

/**
 * /onboarding/: profile → create or join a workspace → invite teammates (skippable). Progress
 * is kept in the profile's onboarding_step, so a reload resumes at the right step. The link that
 * brought the person here (next_path, set by the guards) is where finishing lands.
 */
export function OnboardingScreen() {
  const snap = useSnapshot(session);
  const next = useSearchParams()[0].get("next_path");
  const [step, setStep] = useState<Step | null>(null);
  const [target, setTarget] = useState<Workspace | null>(null);

  useEffect(() => {
    let alive = true;
    Promise.all([fetchMyWorkspaces(), fetchMyInvitations()])
      .then(([mine]) => {
        if (!alive) return;
        const progress = session.profile?.onboarding_step;
        const first = mine[0] ?? null;
        setTarget(first);
        if (!progress?.profile_complete) setStep("profile");
        else if (!first) setStep("workspace");
        else if (progress.workspace_create && !progress.workspace_invite) setStep("invite");
        else setStep("workspace");
      })
      .catch(() => alive && setStep("profile"));
    return () => {
      alive = false;
    };
  }, []);

  if (snap.profile?.is_onboarded) return <Navigate to={afterOnboardingPath(next)} replace />;

  return (
    <OnboardingFrame>
      {step === null ? (
        <ScreenLoader />
      ) : (
        <div className="ob-card">
          <StepDots step={step} />
          {step === "profile" ? <ProfileStep onDone={() => setStep("workspace")} /> : null}
          {step === "workspace" ? (
            <WorkspaceStep
              next={next}
              onCreated={(ws) => {
                setTarget(ws);
                setStep("invite");
              }}
            />
          ) : null}
          {step === "invite" && target ? <InviteStep workspace={target} next={next} /> : null}
        </div>
      )}
    </OnboardingFrame>
  );
}

function StepDots({ step }: { step: Step }) {
  const { t } = useTranslation();
  const index = STEPS.indexOf(step);
  return (
    <div className="ob-steps">
      <span className="ob-steps-text">{t("onboarding.stepOf", { n: index + 1, total: STEPS.length })}</span>
      <div className="ob-steps-bar" aria-hidden>
        {STEPS.map((s, i) => (
          <span key={s} className={i <= index ? "ob-step-dot done" : "ob-step-dot"} />
        ))}
      </div>
    </div>
  );
}

/** The display name unless it is still the one made from the address at sign-up. */
export function chosenDisplayName(displayName: string | undefined, email: string | undefined): string {
  if (!displayName) return "";
  const fromAddress = email?.split("@")[0];
  return fromAddress !== undefined && displayName.toLowerCase() === fromAddress.toLowerCase() ? "" : displayName;
}

function ProfileStep({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const user = useSnapshot(session).user;
  const profile = useSnapshot(session).profile;
  const [first, setFirst] = useState(user?.first_name ?? "");
  const [last, setLast] = useState(user?.last_name ?? "");
  // The server names a new account after its address ("ana" for Ana.Lima@…): not a name the
  // person chose, so the field starts empty and shows the first name they type, which it takes.
  const [display, setDisplay] = useState(() => chosenDisplayName(user?.display_name, user?.email));
  const [useCase, setUseCase] = useState(profile?.use_case ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!first.trim()) {
      setError(t("onboarding.profile.firstRequired"));
      return;
    }
    setBusy(true);
    const displayName = display.trim() || first.trim();
    const ok =
      (await updateMe({ first_name: first.trim(), last_name: last.trim(), display_name: displayName })) &&
      (await updateProfile({ use_case: useCase || null, onboarding_step: { profile_complete: true } }));
    setBusy(false);
    if (ok) onDone();
  }

  return (
    <>
      <div className="ob-heading">
        <h1>{t("onboarding.profile.title")}</h1>
        <p className="muted">{t("onboarding.profile.subtitle")}</p>
      </div>
      <form className="stack ob-form" onSubmit={submit} noValidate>
        <div className="ob-row-2">
          <TextInput
            ref={focusOnMount}
            label={t("onboarding.profile.firstName")}
            value={first}
            autoComplete="given-name"
            maxLength={255}
            error={error}
            onChange={(e) => {
              setFirst(e.target.value);
              setError(null);
            }}
          />
          <TextInput
            label={t("onboarding.profile.lastName")}
            value={last}
            autoComplete="family-name"
            maxLength={255}
            onChange={(e) => setLast(e.target.value)}
          />
        </div>
        <TextInput
          label={t("onboarding.profile.displayName")}
          value={display}
          placeholder={first.trim() || undefined}
          maxLength={255}
          hint={t("onboarding.profile.displayNameHint")}
          onChange={(e) => setDisplay(e.target.value)}
        />
        <SelectField
          label={t("onboarding.profile.useCase")}
          value={useCase}
          placeholder={t("onboarding.profile.useCasePlaceholder")}
          options={USE_CASES.map((u) => ({ value: u, label: t(`onboarding.profile.useCases.${u}`) }))}
          onValueChange={setUseCase}
        />
        <Button type="submit" size="lg" block loading={busy}>
          {t("onboarding.continue")}
        </Button>
      </form>
    </>
  );
}

function WorkspaceStep({ next, onCreated }: { next: string | null; onCreated: (ws: Workspace) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const invSnap = useSnapshot(invitations);
  const wsSnap = useSnapshot(workspaces);
  const [mode, setMode] = useState<"join" | "create">("join");
  const [finishing, setFinishing] = useState(false);
  const pending = invSnap.mine;
  const joined = wsSnap.list;
  const hasChoice = pending.length > 0 || joined.length > 0;
  const showCreate = !hasChoice || mode === "create";

  async function finish() {
    setFinishing(true);
    if (await finishOnboarding()) navigate(afterOnboardingPath(next, joined[0]?.slug), { replace: true });
    else setFinishing(false);
  }

  return (
    <>
      <div className="ob-heading">
        <h1>{showCreate ? t("onboarding.workspace.title") : t("onboarding.workspace.joinTitle")}</h1>
        <p className="muted">
          {showCreate ? t("onboarding.workspace.subtitle") : t("onboarding.workspace.joinSubtitle")}
        </p>
      </div>
      {showCreate ? (
        <>
          <WorkspaceForm
            onCreated={(ws) => {
              void updateProfile({ onboarding_step: { workspace_create: true } });
              onCreated(ws);
            }}
          />
          {hasChoice ? (
            <button type="button" className="ob-switch link-btn" onClick={() => setMode("join")}>
              {t("onboarding.workspace.backToInvites")}
            </button>
          ) : null}
          {invSnap.needsVerification ? (
            <div className="ob-verify-aside">
              <p className="muted">{t("onboarding.verifyEmail.expecting")}</p>
              <VerifyEmailPanel compact onVerified={() => void fetchMyInvitations().catch(() => undefined)} />
            </div>
          ) : null}
        </>
      ) : (
        <div className="stack">
          {joined.map((ws) => (
            <div key={ws.id} className="ob-invite">
              <WorkspaceLogo name={ws.name} url={ws.logo_url} size={32} />
              <div className="ob-invite-text">
                <strong>{ws.name}</strong>
                <span className="muted">{t("onboarding.workspace.joined")}</span>
              </div>
              <span className="ob-joined">
                <Check size={14} aria-hidden /> {t("onboarding.workspace.member")}
              </span>
            </div>
          ))}
          {pending.map((inv) => (
            <PendingInvite key={inv.id} invitation={inv} />
          ))}
          {joined.length > 0 ? (
            <Button size="lg" block loading={finishing} onClick={() => void finish()}>
              {t("onboarding.continue")}
            </Button>
          ) : null}
          <div className="ob-divider">
            <span>{t("onboarding.or")}</span>
          </div>
          <Button variant="secondary" block onClick={() => setMode("create")}>
            {t("onboarding.workspace.createInstead")}
          </Button>
        </div>
      )}
    </>
  );
}

function PendingInvite({ invitation }: { invitation: Invitation }) {
  const { t } = useTranslation();
  const roleLabel = useRoleLabel();
  const [busy, setBusy] = useState(false);
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
        loading={busy}
        onClick={async () => {
          setBusy(true);
          const joined = await acceptMyInvitations([invitation.id]);
          if (joined) toast.success(t("onboarding.invitations.joined", { name: invitation.workspace.name }));
          else setBusy(false);
        }}
      >
        {t("onboarding.invitations.accept")}
      </Button>
    </div>
  );
}

function InviteStep({ workspace, next }: { workspace: Workspace; next: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [rows, setRows] = useState<InviteRow[]>(() => [newInviteRow(), newInviteRow(), newInviteRow()]);
  const [busy, setBusy] = useState<"send" | "skip" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function finish() {
    if (await finishOnboarding()) navigate(afterOnboardingPath(next, workspace.slug), { replace: true });
    else setBusy(null);
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = validateInviteRows(rows, {
      invalid: t("workspace.invite.invalidEmail"),
      duplicate: t("workspace.invite.duplicate"),
    });
    setRows(checked.rows);
    if (checked.rows.some((r) => r.error)) return;
    if (checked.entries.length === 0) {
      setError(t("workspace.invite.atLeastOne"));
      return;
    }
    setBusy("send");
    setError(null);
    try {
      const result = await sendInvitations(workspace.slug, checked.entries);
      toast.success(t("workspace.invite.sent", { count: result.invitations.length }));
      await updateProfile({ onboarding_step: { workspace_invite: true } });
      await finish();
    } catch (err) {
      setError(await errorMessage(err));
      setBusy(null);
    }
  }

  return (
    <>
      <div className="ob-heading">
        <h1>{t("onboarding.invite.title")}</h1>
        <p className="muted">{t("onboarding.invite.subtitle", { name: workspace.name })}</p>
      </div>
      <form className="stack ob-form" onSubmit={send} noValidate>
        {error ? <Banner>{error}</Banner> : null}
        <InviteRows rows={rows} onChange={setRows} maxRole={ROLE.admin} focusFirst />
        <Button type="submit" size="lg" block loading={busy === "send"} disabled={busy === "skip"}>
          <Mail size={15} aria-hidden />
          {t("workspace.invite.submit")}
        </Button>
        <Button
          variant="ghost"
          block
          loading={busy === "skip"}
          disabled={busy === "send"}
          onClick={() => {
            setBusy("skip");
            void finish();
          }}
        >
          {t("onboarding.invite.skip")}
        </Button>
      </form>
    </>
  );
}
