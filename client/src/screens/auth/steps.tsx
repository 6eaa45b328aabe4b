/**
 * The three steps of the sign-in and sign-up screens: email, password, code. Each is a form,
 * so Enter submits; each focuses its field when it appears; errors of a field show under it,
 * errors of the step (from the server) in the banner the flow passes in.
 */
import { isValidEmail, PASSWORD_MESSAGES } from "@tideline/shared";
import { type FormEvent, type ReactNode, type Ref, useMemo, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PasswordInput } from "../../components/password/password-input";
import { PasswordStrengthMeter } from "../../components/password/password-strength-meter";
import { Button, TextInput } from "../../components/ui";
import { passwordStrength } from "../../lib/password-strength";
import { useFocusOnMount } from "./hooks";

export type Mode = "sign-in" | "sign-up";

/** "Email is required" / "Email is invalid", or null when the address is usable. */
export function emailProblem(email: string, t: (key: string, options: { defaultValue: string }) => string) {
  if (!email.trim()) return t("auth.validation.emailRequired", { defaultValue: PASSWORD_MESSAGES.emailRequired });
  if (!isValidEmail(email)) return t("auth.validation.emailInvalid", { defaultValue: PASSWORD_MESSAGES.emailInvalid });
  return null;
}

function submitting(handler: () => void) {
  return (event: FormEvent) => {
    event.preventDefault();
    handler();
  };
}

/** The account's email field, as the email step and the forgot-password screen ask for it. */
export function EmailField({
  ref,
  value,
  error,
  onChange,
}: {
  ref: Ref<HTMLInputElement>;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      ref={ref}
      label={t("auth.fields.email")}
      type="email"
      name="email"
      autoComplete="username email"
      inputMode="email"
      placeholder={t("auth.fields.emailPlaceholder")}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

type EmailStepProps = {
  email: string;
  onEmailChange: (email: string) => void;
  onSubmit: () => void;
  busy: boolean;
  banner: ReactNode;
};

export function EmailStep({ email, onEmailChange, onSubmit, busy, banner }: EmailStepProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  useFocusOnMount(input, true);
  return (
    <form
      className="auth-form"
      noValidate
      onSubmit={submitting(() => {
        const problem = emailProblem(email, t);
        setError(problem);
        if (problem) input.current?.focus();
        else onSubmit();
      })}
    >
      {banner}
      <EmailField
        ref={input}
        value={email}
        error={error}
        onChange={(value) => {
          onEmailChange(value);
          if (error) setError(null);
        }}
      />
      <div className="auth-actions">
        <Button type="submit" size="lg" block loading={busy}>
          {t("auth.actions.continue")}
        </Button>
      </div>
    </form>
  );
}

/** The address chosen in the email step, with a way back to change it. */
export function EmailChip({ email, onChange }: { email: string; onChange?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="auth-email-chip">
      <span className="auth-email-chip-address" title={email}>
        {email}
      </span>
      {onChange ? (
        <Button variant="ghost" size="sm" onClick={onChange}>
          {t("auth.actions.changeEmail")}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The chip of the address a password is for, with a hidden username field beside it so password
 * managers save the password under that address.
 */
export function AccountEmail({ email, onChange }: { email: string; onChange?: () => void }) {
  return (
    <>
      <EmailChip email={email} onChange={onChange} />
      <input
        className="auth-hidden-username"
        type="email"
        autoComplete="username"
        value={email}
        readOnly
        tabIndex={-1}
        aria-hidden
      />
    </>
  );
}

/**
 * "Sign in with a code instead": a link, not a button. Its address (…?method=code) opens this
 * screen on the code step, so it also works in a new tab; a plain click switches in place. As
 * a link it is never confused by name with the step's one primary button ("Sign in").
 */
function SwitchMethodLink({
  to,
  onActivate,
  disabled,
  label,
}: {
  to: string;
  onActivate: () => void;
  disabled: boolean;
  label: string;
}) {
  return (
    <Link
      to={to}
      replace
      className="btn btn-ghost btn-block"
      aria-disabled={disabled || undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
        event.preventDefault();
        if (!disabled) onActivate();
      }}
    >
      {label}
    </Link>
  );
}

type PasswordStepProps = {
  mode: Mode;
  email: string;
  onChangeEmail: () => void;
  onSubmit: (password: string) => void;
  /** Offered when code sign-in is on. */
  onUseCode: (() => void) | null;
  /** The address of the code step, for the "… with a code instead" link. */
  useCodeHref: string;
  forgotPasswordHref: string;
  busy: boolean;
  banner: ReactNode;
};

export function PasswordStep(props: PasswordStepProps) {
  return props.mode === "sign-in" ? <ExistingPasswordStep {...props} /> : <NewPasswordStep {...props} />;
}

/**
 * The frame of both password steps: the step's banner, the address with its way back, the
 * fields, the submit button and, when code sign-in is on, the link to it.
 */
function PasswordStepForm({
  email,
  onChangeEmail,
  onSubmit,
  submitLabel,
  useCode,
  busy,
  banner,
  children,
}: {
  email: string;
  onChangeEmail: () => void;
  onSubmit: () => void;
  submitLabel: string;
  useCode: { to: string; onActivate: () => void; label: string } | null;
  busy: boolean;
  banner: ReactNode;
  children: ReactNode;
}) {
  return (
    <form className="auth-form" noValidate onSubmit={submitting(onSubmit)}>
      {banner}
      <AccountEmail email={email} onChange={onChangeEmail} />
      {children}
      <div className="auth-actions">
        <Button type="submit" size="lg" block loading={busy}>
          {submitLabel}
        </Button>
        {useCode ? <SwitchMethodLink {...useCode} disabled={busy} /> : null}
      </div>
    </form>
  );
}

function ExistingPasswordStep({
  email,
  onChangeEmail,
  onSubmit,
  onUseCode,
  useCodeHref,
  forgotPasswordHref,
  busy,
  banner,
}: PasswordStepProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  useFocusOnMount(input);
  return (
    <PasswordStepForm
      email={email}
      onChangeEmail={onChangeEmail}
      onSubmit={() => {
        if (!password) {
          setError(t("auth.validation.enterPassword", { defaultValue: PASSWORD_MESSAGES.enterPassword }));
          input.current?.focus();
          return;
        }
        onSubmit(password);
      }}
      submitLabel={t("auth.actions.signIn")}
      useCode={onUseCode ? { to: useCodeHref, onActivate: onUseCode, label: t("auth.actions.useCodeSignIn") } : null}
      busy={busy}
      banner={banner}
    >
      <div className="auth-field-group">
        <PasswordInput
          ref={input}
          label={t("auth.fields.password")}
          name="password"
          autoComplete="current-password"
          placeholder={t("auth.fields.passwordPlaceholder")}
          value={password}
          error={error}
          onChange={(event) => {
            setPassword(event.target.value);
            if (error) setError(null);
          }}
        />
        <div className="auth-label-row">
          <span />
          <Link className="auth-inline-link" to={forgotPasswordHref}>
            {t("auth.actions.forgotPassword")}
          </Link>
        </div>
      </div>
    </PasswordStepForm>
  );
}

type NewPasswordFieldsProps = {
  email?: string;
  extraInputs?: string[];
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  passwordError: string | null;
  confirmError: string | null;
  passwordRef?: Ref<HTMLInputElement>;
  confirmRef?: Ref<HTMLInputElement>;
  /** Without a confirm field (god-mode set-up). */
  withConfirm?: boolean;
};

const NO_INPUTS: string[] = [];

/** Password (with the strength meter) and confirm: the fields of every "choose a password" form. */
export function NewPasswordFields({
  email,
  extraInputs = NO_INPUTS,
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  passwordError,
  confirmError,
  passwordRef,
  confirmRef,
  withConfirm = true,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  const inputs = useMemo(() => [email ?? "", ...extraInputs], [email, extraInputs]);
  const strength = useMemo(() => passwordStrength(password, inputs), [password, inputs]);
  return (
    <>
      <div className="auth-field-group">
        <PasswordInput
          ref={passwordRef}
          label={t("auth.fields.password")}
          name="password"
          autoComplete="new-password"
          placeholder={t("auth.fields.newPasswordPlaceholder")}
          value={password}
          // Too short or too weak: the meter right below already says so; only mark the field.
          error={strength.state === "empty" ? passwordError : null}
          aria-invalid={passwordError ? true : undefined}
          onChange={(event) => onPasswordChange(event.target.value)}
        />
        <PasswordStrengthMeter state={strength.state} score={strength.score} />
      </div>
      {withConfirm ? (
        <PasswordInput
          ref={confirmRef}
          label={t("auth.fields.confirmPassword")}
          name="confirm_password"
          autoComplete="new-password"
          value={confirm}
          error={confirmError}
          onChange={(event) => onConfirmChange(event.target.value)}
        />
      ) : null}
    </>
  );
}

type NewPasswordCheck = { password: string | null; confirm: string | null };

/** The rules of a new password (product-domain §5): long enough, strong, and confirmed. */
export function checkNewPassword(
  password: string,
  confirm: string | null,
  userInputs: string[],
  t: (key: string, options: { defaultValue: string }) => string,
): NewPasswordCheck {
  const { state } = passwordStrength(password, userInputs);
  let passwordError: string | null = null;
  if (state === "empty")
    passwordError = t("auth.validation.enterPassword", { defaultValue: PASSWORD_MESSAGES.enterPassword });
  else if (state === "length-not-valid")
    passwordError = t("auth.password.tooShort", { defaultValue: PASSWORD_MESSAGES.tooShort });
  else if (state === "strength-not-valid")
    passwordError = t("auth.password.setStrong", { defaultValue: PASSWORD_MESSAGES.setStrong });
  const confirmError =
    confirm !== null && !passwordError && confirm !== password
      ? t("auth.validation.mismatch", { defaultValue: PASSWORD_MESSAGES.mismatch })
      : null;
  return { password: passwordError, confirm: confirmError };
}

/** State and validation of a "choose a password" form, shared by sign-up, reset and set password. */
export function useNewPassword(userInputs: string[], withConfirm = true) {
  const { t } = useTranslation();
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<NewPasswordCheck>({ password: null, confirm: null });
  return {
    passwordRef,
    password,
    /** Validate; focus the first bad field and return false when something is wrong. */
    validate(): boolean {
      const found = checkNewPassword(password, withConfirm ? confirm : null, userInputs, t);
      setErrors(found);
      if (found.password) passwordRef.current?.focus();
      else if (found.confirm) confirmRef.current?.focus();
      return !found.password && !found.confirm;
    },
    fields: {
      password,
      confirm,
      passwordRef,
      confirmRef,
      withConfirm,
      passwordError: errors.password,
      confirmError: errors.confirm,
      onPasswordChange(value: string) {
        setPassword(value);
        if (errors.password || errors.confirm) setErrors({ password: null, confirm: null });
      },
      onConfirmChange(value: string) {
        setConfirm(value);
        if (errors.confirm) setErrors((e) => ({ ...e, confirm: null }));
      },
    },
  };
}

function NewPasswordStep({ email, onChangeEmail, onSubmit, onUseCode, useCodeHref, busy, banner }: PasswordStepProps) {
  const { t } = useTranslation();
  const inputs = useMemo(() => [email], [email]);
  const form = useNewPassword(inputs);
  useFocusOnMount(form.passwordRef);
  return (
    <PasswordStepForm
      email={email}
      onChangeEmail={onChangeEmail}
      onSubmit={() => {
        if (form.validate()) onSubmit(form.password);
      }}
      submitLabel={t("auth.actions.createAccount")}
      useCode={onUseCode ? { to: useCodeHref, onActivate: onUseCode, label: t("auth.actions.useCodeSignUp") } : null}
      busy={busy}
      banner={banner}
    >
      <NewPasswordFields email={email} {...form.fields} />
    </PasswordStepForm>
  );
}

type CodeStepProps = {
  mode: Mode;
  onChangeEmail: () => void;
  onSubmit: (code: string) => void;
  onResend: () => void;
  /** Seconds before "Resend code" is offered again. */
  resendIn: number;
  resending: boolean;
  /** Offered when password sign-in is on and the account can use it. */
  onUsePassword: (() => void) | null;
  busy: boolean;
  banner: ReactNode;
};

export function CodeStep({
  mode,
  onChangeEmail,
  onSubmit,
  onResend,
  resendIn,
  resending,
  onUsePassword,
  busy,
  banner,
}: CodeStepProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  useFocusOnMount(input);
  return (
    <form
      className="auth-form"
      noValidate
      onSubmit={submitting(() => {
        const problem = !code
          ? t("auth.validation.codeRequired")
          : code.length !== 6
            ? t("auth.validation.codeLength")
            : null;
        setError(problem);
        if (problem) input.current?.focus();
        else onSubmit(code);
      })}
    >
      {banner}
      <div className="auth-field-group">
        <TextInput
          ref={input}
          label={t("auth.fields.code")}
          name="code"
          className="input auth-code-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="000000"
          value={code}
          error={error}
          onChange={(event) => {
            setCode(event.target.value.replace(/\D/g, "").slice(0, 6));
            if (error) setError(null);
          }}
        />
        <div className="auth-resend">
          <span>{t("auth.code.didntGet")}</span>
          {resendIn > 0 ? (
            <span className="auth-resend-wait" aria-live="off">
              {t("auth.code.resendIn", { seconds: resendIn })}
            </span>
          ) : (
            <button type="button" className="auth-link-button" onClick={onResend} disabled={resending}>
              {resending ? t("auth.code.resending") : t("auth.actions.resendCode")}
            </button>
          )}
        </div>
      </div>
      <div className="auth-actions">
        <Button type="submit" size="lg" block loading={busy}>
          {mode === "sign-in" ? t("auth.actions.signIn") : t("auth.actions.createAccount")}
        </Button>
        {onUsePassword ? (
          <Button variant="ghost" block onClick={onUsePassword} disabled={busy}>
            {t("auth.actions.usePassword")}
          </Button>
        ) : null}
        <Button variant="ghost" block onClick={onChangeEmail} disabled={busy}>
          {t("auth.actions.useAnotherEmail")}
        </Button>
      </div>
    </form>
  );
}

/** "We sent a code to <email>". */
export function CodeSentTo({ email }: { email: string }) {
  return <Trans i18nKey="auth.code.sentTo" values={{ email }} components={{ strong: <strong /> }} />;
}
