/**
 * "Verify your e-mail address": shown where invitations would appear (onboarding, /invitations/,
 * an invitation link opened without its token) to an account that signed up with a password.
 * Invitations addressed to an e-mail stay hidden until the account proves the address is its
 * own: it asks for a six-digit code mailed to the address, then enters it here.
 */
import { MailCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Banner, Button, TextInput } from "../../components/ui";
import { sendVerificationCode, verifyEmail } from "../../stores/auth";
import { session } from "../../stores/session";

export function VerifyEmailPanel({ onVerified, compact = false }: { onVerified: () => void; compact?: boolean }) {
  const { t } = useTranslation();
  const email = useSnapshot(session).user?.email ?? "";
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState<"send" | "verify" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function send() {
    setBusy("send");
    setError(null);
    const result = await sendVerificationCode();
    setBusy(null);
    if (!result.ok) return setError(result.error.message);
    setSent(true);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (code.length !== 6) return setError(t("auth.validation.codeLength"));
    setBusy("verify");
    setError(null);
    const result = await verifyEmail(code);
    setBusy(null);
    if (!result.ok) return setError(result.error.message);
    onVerified();
  }

  return (
    <section className={compact ? "ob-verify ob-verify-compact" : "ob-verify"} aria-labelledby="verify-email-title">
      <div className="ob-verify-head">
        <MailCheck size={compact ? 18 : 22} aria-hidden />
        <h2 id="verify-email-title">{t("onboarding.verifyEmail.title")}</h2>
      </div>
      <p className="muted">{t("onboarding.verifyEmail.description", { email })}</p>
      {error ? <Banner>{error}</Banner> : null}
      {sent ? (
        <form className="ob-verify-form" noValidate onSubmit={(event) => void submit(event)}>
          <p className="muted">{t("onboarding.verifyEmail.sent", { email })}</p>
          <TextInput
            label={t("onboarding.verifyEmail.code")}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="000000"
            value={code}
            onChange={(event) => {
              setCode(event.target.value.replace(/\D/g, "").slice(0, 6));
              if (error) setError(null);
            }}
          />
          <div className="row">
            <Button type="submit" loading={busy === "verify"} disabled={busy === "send"}>
              {t("onboarding.verifyEmail.verify")}
            </Button>
            <Button type="button" variant="ghost" loading={busy === "send"} onClick={() => void send()}>
              {t("onboarding.verifyEmail.resend")}
            </Button>
          </div>
        </form>
      ) : (
        <Button variant={compact ? "secondary" : "primary"} loading={busy === "send"} onClick={() => void send()}>
          {t("onboarding.verifyEmail.send")}
        </Button>
      )}
    </section>
  );
}
