/**
 * Sign-in and sign-up (calls-errors-sync §4): the email is checked first, then the person
 * continues with a password or with a six-digit code the server e-mails. The final step is an
 * HTML form post; a refusal comes back as a redirect to this screen with ?error_code=…, which
 * opens the step the code belongs to, with the email filled in and the banner shown there.
 * next_path rides along through every step and post.
 */
import { AUTH_ERROR, type AuthErrorCode } from "@tideline/shared";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { Banner } from "../../components/ui";
import { type AuthError, type AuthStep, authErrorMessage, authErrorStep } from "../../lib/auth-errors";
import {
  auth,
  checkEmail,
  type EmailCheck,
  RESEND_CODE_SECONDS,
  sendMagicCode,
  signInWithCode,
  signInWithPassword,
  signUpWithCode,
  signUpWithPassword,
} from "../../stores/auth";
import { session } from "../../stores/session";
import { AuthShell } from "./auth-shell";
import { authLink, invitationFromNextPath, useAuthQuery, useSecondsLeft } from "./hooks";
import { CodeSentTo, CodeStep, EmailStep, type Mode, PasswordStep } from "./steps";

type StepBanner = AuthError & { step: AuthStep };

const SIGN_IN_PATH = "/";
const SIGN_UP_PATH = "/sign-up/";

export function AuthFlow({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const codeSent = useSnapshot(auth).codeSent;
  const config = snap.instance?.config;
  const passwordEnabled = config?.is_email_password_enabled ?? true;
  const magicEnabled = config?.is_magic_login_enabled ?? true;
  const signupEnabled = config?.enable_signup ?? true;
  const query = useAuthQuery();
  // Arrived from an invitation link: the sign-up carries it (it proves the invited address).
  const invitation = invitationFromNextPath(query.nextPath);

  const [email, setEmail] = useState(query.email);
  const [step, setStep] = useState<AuthStep>(() => {
    if (!query.error || !query.email) return "email";
    const wanted = authErrorStep(query.error.code);
    // A step whose method is switched off cannot be used: show the banner on the email step.
    if (wanted === "password" && !passwordEnabled) return "email";
    if (wanted === "code" && !magicEnabled) return "email";
    return wanted;
  });
  const [banner, setBanner] = useState<StepBanner | null>(() => (query.error ? { ...query.error, step } : null));
  const [checked, setChecked] = useState<EmailCheck | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);

  const normalized = email.trim().toLowerCase();
  const resendDeadline = codeSent && codeSent.email === normalized ? codeSent.at + RESEND_CODE_SECONDS * 1000 : null;
  const resendIn = useSecondsLeft(resendDeadline);

  // Back from a form post through the browser's back/forward cache: the button must work again.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => event.persisted && setBusy(false);
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);

  // Arrived through a "… with a code instead" link (e.g. opened in a new tab): send the code now.
  const arrivedForCode = useRef(query.method === "code" && !query.error && Boolean(query.email));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    if (!arrivedForCode.current || !magicEnabled) return;
    arrivedForCode.current = false;
    void switchToCode();
  }, []);

  const goTo = useCallback((next: AuthStep) => {
    setBanner(null);
    setStep(next);
  }, []);

  const fail = (error: AuthError, at: AuthStep = step) => {
    setBusy(false);
    setBanner({ ...error, step: at });
  };

  const refusal = (code: AuthErrorCode): AuthError => ({ code, message: authErrorMessage(code) });

  async function sendCodeThenShowStep() {
    const sent = await sendMagicCode(normalized);
    if (!sent.ok) return fail(sent.error);
    setBusy(false);
    goTo("code");
  }

  async function submitEmail() {
    setBusy(true);
    setBanner(null);
    const result = await checkEmail(normalized, invitation);
    if (!result.ok) return fail(result.error, "email");
    const { existing, status } = result.value;
    if (mode === "sign-in" && !existing) return fail(refusal(AUTH_ERROR.USER_DOES_NOT_EXIST), "email");
    if (mode === "sign-up" && existing) return fail(refusal(AUTH_ERROR.USER_ALREADY_EXIST), "email");
    setChecked(result.value);
    if (status === "CREDENTIAL") {
      setBusy(false);
      goTo("password");
      return;
    }
    await sendCodeThenShowStep();
  }

  async function switchToCode() {
    setBusy(true);
    setBanner(null);
    await sendCodeThenShowStep();
  }

  async function resendCode() {
    setResending(true);
    const sent = await sendMagicCode(normalized);
    setResending(false);
    if (!sent.ok) return fail(sent.error, "code");
    setBanner(null);
    toast.success(t("auth.code.resent", { email: normalized }));
  }

  async function submitPassword(password: string) {
    setBusy(true);
    setBanner(null);
    const form = { email: normalized, password, nextPath: query.nextPath, invitation };
    const posted = mode === "sign-in" ? await signInWithPassword(form) : await signUpWithPassword(form);
    if (!posted.ok) fail(posted.error, "password");
  }

  async function submitCode(code: string) {
    setBusy(true);
    setBanner(null);
    const form = { email: normalized, code, nextPath: query.nextPath };
    const posted = mode === "sign-in" ? await signInWithCode(form) : await signUpWithCode(form);
    if (!posted.ok) fail(posted.error, "code");
  }

  const modePath = mode === "sign-in" ? SIGN_IN_PATH : SIGN_UP_PATH;
  const otherMode = mode === "sign-in" ? SIGN_UP_PATH : SIGN_IN_PATH;
  const bannerAction = (code: AuthErrorCode | null): ReactNode => {
    if (code === AUTH_ERROR.USER_DOES_NOT_EXIST && mode === "sign-in" && signupEnabled) {
      return (
        <Link className="auth-banner-action" to={authLink(SIGN_UP_PATH, normalized, query.nextPath)}>
          {t("auth.actions.createAccountInstead")}
        </Link>
      );
    }
    if (code === AUTH_ERROR.USER_ALREADY_EXIST && mode === "sign-up") {
      return (
        <Link className="auth-banner-action" to={authLink(SIGN_IN_PATH, normalized, query.nextPath)}>
          {t("auth.actions.signInInstead")}
        </Link>
      );
    }
    return null;
  };
  const stepBanner =
    banner && banner.step === step ? (
      <Banner>
        {banner.message}
        {bannerAction(banner.code) ? <div>{bannerAction(banner.code)}</div> : null}
      </Banner>
    ) : null;

  const titles: Record<Mode, Record<AuthStep, string>> = {
    "sign-in": {
      email: t("auth.signIn.title"),
      password: t("auth.signIn.passwordTitle"),
      code: t("auth.code.title"),
    },
    "sign-up": {
      email: t("auth.signUp.title"),
      password: t("auth.signUp.passwordTitle"),
      code: t("auth.code.title"),
    },
  };
  const descriptions: Record<AuthStep, ReactNode> = {
    email: mode === "sign-in" ? t("auth.signIn.description") : t("auth.signUp.description"),
    password: mode === "sign-in" ? t("auth.signIn.passwordDescription") : t("auth.signUp.passwordDescription"),
    code: <CodeSentTo email={normalized} />,
  };

  const backToEmail = () => {
    setChecked(null);
    goTo("email");
  };

  let body: ReactNode;
  if (step === "email") {
    body = <EmailStep email={email} onEmailChange={setEmail} onSubmit={submitEmail} busy={busy} banner={stepBanner} />;
  } else if (step === "password") {
    body = (
      <PasswordStep
        mode={mode}
        email={normalized}
        onChangeEmail={backToEmail}
        onSubmit={submitPassword}
        onUseCode={magicEnabled ? switchToCode : null}
        useCodeHref={authLink(modePath, normalized, query.nextPath, { method: "code" })}
        forgotPasswordHref={authLink("/accounts/forgot-password/", normalized, query.nextPath)}
        busy={busy}
        banner={stepBanner}
      />
    );
  } else {
    // An account that got MAGIC_CODE from the email check has no password it could use.
    const canUsePassword = passwordEnabled && (checked === null || checked.status === "CREDENTIAL");
    body = (
      <CodeStep
        mode={mode}
        onChangeEmail={backToEmail}
        onSubmit={submitCode}
        onResend={resendCode}
        resendIn={resendIn}
        resending={resending}
        onUsePassword={canUsePassword ? () => goTo("password") : null}
        busy={busy}
        banner={stepBanner}
      />
    );
  }

  const footer =
    mode === "sign-in" ? (
      signupEnabled ? (
        <>
          {t("auth.signIn.noAccount")}{" "}
          <Link to={authLink(otherMode, normalized, query.nextPath)}>{t("auth.signIn.toSignUp")}</Link>
        </>
      ) : null
    ) : (
      <>
        {t("auth.signUp.haveAccount")}{" "}
        <Link to={authLink(otherMode, normalized, query.nextPath)}>{t("auth.signUp.toSignIn")}</Link>
      </>
    );

  return (
    <AuthShell
      title={titles[mode][step]}
      documentTitle={mode === "sign-in" ? t("auth.signIn.title") : t("auth.signUp.title")}
      description={descriptions[step]}
      footer={footer}
    >
      {body}
    </AuthShell>
  );
}
