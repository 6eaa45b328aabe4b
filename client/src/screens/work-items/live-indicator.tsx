import { memo } from "react";
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
// Memoised: the board re-renders on every filter change, which leaves this alone.
export const LiveIndicator = memo(function LiveIndicator({ channel }: { channel: string }) {
  const { t } = useTranslation();
  const { status: socket } = useSnapshot(connectionState);
  const channels = useSnapshot(channelStates);
  const status = liveIndicatorStatus(socket, channels[channel]);
  const label = t(`liveUpdates.${status}`);
  // The board may show what the server no longer has: said in words too, not only by the dot.
  const note = status === "behind" ? t("liveUpdates.behindShort") : null;
  return (
    <span className={`wi-live-status wi-live-status-${status}`} role="status" aria-label={label} title={label}>
      <span className={`wi-live wi-live-${status}`} aria-hidden />
      {note ? (
        <span className="wi-live-note" aria-hidden>
          {note}
        </span>
      ) : null}
    </span>
  );
});
