import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { Button } from "../../components/ui";
import {
  fetchNotificationPreferences,
  type NotificationPreferences,
  profileState,
  updateNotificationPreference,
} from "../../stores/profile";
import { SkeletonRows } from "../workspace/components/skeleton";
import { Toggle } from "../workspace/components/toggle";

const KEYS: (keyof NotificationPreferences)[] = [
  "property_change",
  "state_change",
  "comment",
  "mention",
  "issue_completed",
];

/** /profile/notifications/: which in-app notifications to receive (the service reads these preferences). */
export function ProfileNotifications() {
  const { t } = useTranslation();
  const prefs = useSnapshot(profileState).notificationPreferences;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    document.title = `${t("profile.notifications.title")} · Tideline`;
    fetchNotificationPreferences().catch(() => setFailed(true));
  }, [t]);

  return (
    <>
      <div className="settings-heading">
        <div>
          <h1>{t("profile.notifications.title")}</h1>
          <p className="muted">{t("profile.notifications.hint")}</p>
        </div>
      </div>
      <section className="settings-section">
        <div className="feature-list">
          {prefs ? (
            KEYS.map((key) => (
              <div key={key} className="setting-row">
                <div>
                  <span className="setting-row-title">{t(`profile.notifications.${key}.title`)}</span>
                  <span className="setting-row-hint">{t(`profile.notifications.${key}.hint`)}</span>
                </div>
                <Toggle
                  label={t(`profile.notifications.${key}.title`)}
                  checked={prefs[key]}
                  onCheckedChange={(value) => void updateNotificationPreference(key, value)}
                />
              </div>
            ))
          ) : failed ? (
            <div className="setting-row">
              <div>
                <span className="setting-row-title">{t("workspace.loadFailed")}</span>
              </div>
              <Button
                variant="secondary"
                onClick={() => {
                  setFailed(false);
                  fetchNotificationPreferences().catch(() => setFailed(true));
                }}
              >
                {t("workspace.common.retry")}
              </Button>
            </div>
          ) : (
            <SkeletonRows count={5} height={62} />
          )}
        </div>
      </section>
    </>
  );
}
