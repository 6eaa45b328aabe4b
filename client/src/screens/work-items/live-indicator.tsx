import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { connectionState } from "../../lib/live";

/** A dot in the header: are other people's changes arriving right now? */
export function LiveIndicator() {
  const { t } = useTranslation();
  const { status } = useSnapshot(connectionState);
  const label = t(`liveUpdates.${status}`);
  return <span className={`wi-live wi-live-${status}`} role="status" aria-label={label} title={label} />;
}
