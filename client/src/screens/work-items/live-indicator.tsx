import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { channelStates, connectionState } from "../../lib/live";
import { liveIndicatorStatus } from "../../lib/live-board-events";

/**
 * A dot in the header: are other people's changes arriving right now, and is the board up to
 * date? Green only when the socket is connected, the board's channel (`channel`, e.g.
 * `project.{id}`) is synced and the catch-up after it succeeded; otherwise it says what is wrong
 * (connecting, catching up, not up to date, no access, offline).
 */
export function LiveIndicator({ channel }: { channel: string }) {
  const { t } = useTranslation();
  const { status: socket } = useSnapshot(connectionState);
  const channels = useSnapshot(channelStates);
  const status = liveIndicatorStatus(socket, channels[channel]);
  const label = t(`liveUpdates.${status}`);
  return <span className={`wi-live wi-live-${status}`} role="status" aria-label={label} title={label} />;
}
