/**
 * "You're offline": a bar across the top of the workspace while the browser has no network, so
 * nobody mistakes the app for being in sync (the board's live dot alone went unnoticed). It says
 * that work goes on and how many changes wait to be sent, is announced to screen readers when it
 * appears (a status region), and goes away when the connection is back.
 */
import { CloudOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { outboxState } from "../../lib/offline/app-outbox";
import { useOnline } from "./use-online";
import "./offline.css";

export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  const { count } = useSnapshot(outboxState);
  return (
    // The region stays in the page (empty while online) so its message is announced when it fills.
    <div role="status" aria-live="polite" className="offline-banner-region">
      {online ? null : (
        <div className="offline-banner" data-testid="offline-banner">
          <CloudOff size={15} aria-hidden className="offline-banner-icon" />
          <strong className="offline-banner-title">{t("offline.banner.title")}</strong>
          <span className="offline-banner-body">{t("offline.banner.body")}</span>
          {count ? <span className="offline-banner-count">{t("offline.banner.pending", { count })}</span> : null}
        </div>
      )}
    </div>
  );
}
