import { LogOut, Waves } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useSnapshot } from "valtio";
import { session, signOut } from "../../stores/session";
import "./onboarding.css";

/**
 * The page around onboarding, workspace creation and invitation screens: the product mark,
 * who is signed in (with a way out), and a centred column for the content. The invitation link's
 * landing page uses it signed out too: then it shows neither.
 */
export function OnboardingFrame({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  const { t } = useTranslation();
  const user = useSnapshot(session).user;
  return (
    <div className="ob-page">
      <header className="ob-top">
        <span className="ob-brand">
          <span className="ob-brand-mark" aria-hidden>
            <Waves size={16} />
          </span>
          Tideline
        </span>
        <div className="ob-top-right">
          {aside}
          {user ? (
            <>
              <span className="ob-user" title={user.email}>
                {t("onboarding.signedInAs", { email: user.email })}
              </span>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => signOut().catch(() => toast.error(t("workspace.switcher.signOutFailed")))}
              >
                <LogOut size={14} aria-hidden />
                {t("workspace.switcher.signOut")}
              </button>
            </>
          ) : null}
        </div>
      </header>
      <main className="ob-main">{children}</main>
    </div>
  );
}
