import { Waves } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { useSnapshot } from "valtio";
import { session } from "../../stores/session";
import "./auth.css";

type Props = {
  /** The card's heading (also the document title, with the instance name). */
  title: ReactNode;
  /** A plain-text version of `title` for the document title. */
  documentTitle: string;
  description?: ReactNode;
  children: ReactNode;
  /** Links under the card (switch between sign-in and sign-up, back to sign-in). */
  footer?: ReactNode;
  /** A wider card, for forms with fields side by side. */
  wide?: boolean;
};

/**
 * The frame of every sign-in screen: the instance name as the page heading, then one card.
 * The card hangs from a fixed distance below the top (not vertically centred), so a step that
 * is taller or shorter than the previous one grows downwards and nothing above it moves.
 */
export function AuthShell({ title, documentTitle, description, children, footer, wide }: Props) {
  const snap = useSnapshot(session);
  const instanceName = snap.instance?.instance.instance_name || "Tideline";
  useEffect(() => {
    document.title = `${documentTitle} · ${instanceName}`;
  }, [documentTitle, instanceName]);
  return (
    <div className="auth-page">
      <header className="auth-brand">
        <span className="auth-logo" aria-hidden>
          <Waves size={20} strokeWidth={2.25} />
        </span>
        <h1 className="auth-instance-name">{instanceName}</h1>
      </header>
      <main className={wide ? "auth-card auth-card-wide" : "auth-card"}>
        <div className="auth-card-header">
          <h2>{title}</h2>
          {description ? <p className="muted">{description}</p> : null}
        </div>
        {children}
      </main>
      {footer ? <footer className="auth-footer">{footer}</footer> : null}
    </div>
  );
}
