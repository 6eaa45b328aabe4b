/**
 * "Waiting to sync" (issue 12): a change made offline is shown at once and waits in the outbox
 * (lib/offline/outbox.ts) until the network is back. A mark on the changed object (a row, a card,
 * the peek; a live document with unsent edits) and a chip counting every waiting change.
 */
import { CloudUpload } from "lucide-react";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { useSnapshot } from "valtio";
import { outboxState, useWaitingToSync } from "../../lib/offline/app-outbox";
import "./offline.css";

/** The mark itself: an icon, with the words when `label` is asked for. */
export function WaitingToSyncMark({ label = false }: { label?: boolean }) {
  const { t } = useTranslation();
  const text = t("offline.waiting");
  return (
    <span className="sync-waiting" title={text} aria-label={label ? undefined : text} role="img" data-waiting-to-sync>
      <CloudUpload size={13} aria-hidden />
      {label ? <span>{text}</span> : null}
    </span>
  );
}

/** The mark on one object, while a change of it waits. */
export function WaitingToSync({ id, label = false }: { id: string; label?: boolean }) {
  return useWaitingToSync(id) ? <WaitingToSyncMark label={label} /> : null;
}

/**
 * "N changes waiting to sync", while any wait. It sits in a header beside the breadcrumb, which
 * keeps its room: on narrow headers the chip is its icon and count (the words are its name and
 * tooltip, and the offline banner says them in full).
 */
// Memoised: the board re-renders on every filter change, which leaves this alone.
export const OutboxChip = memo(function OutboxChip() {
  const { t } = useTranslation();
  const { count } = useSnapshot(outboxState);
  if (!count) return null;
  const text = t("offline.waitingCount", { count });
  return (
    <output className="sync-chip" aria-live="polite" aria-label={text} title={text} data-outbox-count={count}>
      <CloudUpload size={13} aria-hidden />
      <span className="sync-chip-count" aria-hidden>
        {count}
      </span>
      <span className="sync-chip-text" aria-hidden>
        {text}
      </span>
    </output>
  );
});
