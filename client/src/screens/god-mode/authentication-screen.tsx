/**
 * "/god-mode/authentication/": who may sign up, and which sign-in methods are on. Each switch
 * saves at once (optimistically); the last sign-in method cannot be switched off.
 */
import { KeyRound, type LucideIcon, Mail, UserPlus } from "lucide-react";
import { Switch } from "radix-ui";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSnapshot } from "valtio";
import { Banner, ScreenLoader } from "../../components/ui";
import { type AuthSwitchPatch, instanceAdmin, updateAuthSwitches } from "../../stores/instance-admin";
import { session } from "../../stores/session";
import { PageHeader } from "./page-header";

type RowProps = {
  icon: LucideIcon;
  title: string;
  description: string;
  note?: string | null;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
};

function SettingRow({ icon: Icon, title, description, note, checked, disabled, onChange }: RowProps) {
  const id = useId();
  return (
    <div className="gm-setting">
      <span className="gm-setting-icon" aria-hidden>
        <Icon size={16} />
      </span>
      <div className="gm-setting-text">
        <label className="gm-setting-title" htmlFor={id}>
          {title}
        </label>
        <span className="gm-setting-description" id={`${id}-description`}>
          {description}
        </span>
        {note ? <span className="gm-setting-note">{note}</span> : null}
      </div>
      <Switch.Root
        id={id}
        className="gm-switch"
        checked={checked}
        disabled={disabled}
        onCheckedChange={onChange}
        aria-describedby={`${id}-description`}
      >
        <Switch.Thumb className="gm-switch-thumb" />
      </Switch.Root>
    </div>
  );
}

export function AuthenticationScreen() {
  const { t } = useTranslation();
  const { configuration, configurationError } = useSnapshot(instanceAdmin);
  const smtpConfigured = useSnapshot(session).instance?.config.is_smtp_configured ?? false;

  const header = (
    <PageHeader title={t("godMode.authentication.title")} description={t("godMode.authentication.description")} />
  );
  if (configurationError && !configuration) {
    return (
      <div className="gm-page">
        {header}
        <Banner>{configurationError}</Banner>
      </div>
    );
  }
  if (!configuration) return <ScreenLoader />;

  const password = configuration.is_email_password_enabled;
  const magic = configuration.is_magic_login_enabled;
  const lastMethod = t("godMode.authentication.lastMethod");
  const toggle = (patch: AuthSwitchPatch) => void updateAuthSwitches(patch);

  return (
    <div className="gm-page">
      {header}
      <section className="gm-section" aria-labelledby="gm-auth-signup">
        <h2 id="gm-auth-signup">{t("godMode.authentication.signUpSection")}</h2>
        <div className="gm-setting-list">
          <SettingRow
            icon={UserPlus}
            title={t("godMode.authentication.allowSignUp")}
            description={t("godMode.authentication.allowSignUpDescription")}
            checked={configuration.enable_signup}
            onChange={(checked) => toggle({ enable_signup: checked })}
          />
        </div>
      </section>
      <section className="gm-section" aria-labelledby="gm-auth-methods">
        <h2 id="gm-auth-methods">{t("godMode.authentication.methodsSection")}</h2>
        <div className="gm-setting-list">
          <SettingRow
            icon={KeyRound}
            title={t("godMode.authentication.passwordLogin")}
            description={t("godMode.authentication.passwordLoginDescription")}
            note={password && !magic ? lastMethod : null}
            checked={password}
            disabled={password && !magic}
            onChange={(checked) => toggle({ enable_email_password: checked })}
          />
          <SettingRow
            icon={Mail}
            title={t("godMode.authentication.magicLogin")}
            description={t("godMode.authentication.magicLoginDescription")}
            note={magic && !password ? lastMethod : null}
            checked={magic}
            disabled={magic && !password}
            onChange={(checked) => toggle({ enable_magic_login: checked })}
          />
        </div>
        {magic && !smtpConfigured ? (
          <Banner kind="warning">
            {t("godMode.authentication.noSmtp")}{" "}
            <Link to="/god-mode/email/">{t("godMode.authentication.setUpSmtp")}</Link>
          </Banner>
        ) : null}
      </section>
    </div>
  );
}
