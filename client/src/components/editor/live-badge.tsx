/**
 * Where a live document stands, in a word, next to its editor: saved, saving…, connecting…,
 * offline (changes are kept on this device and sent on reconnection; "waiting to sync" while
 * there are such changes), read-only, or not saved
 * (the server refused or closed it; the reason is the tooltip, and the editor shows it too).
 */
import { Check, CloudOff, CloudUpload, Loader, Lock, TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { LiveDocumentStatus } from "./types";

export function LiveDocumentBadge({
  status,
  className,
  quietUntilEdited = false,
}: {
  status: LiveDocumentStatus | null;
  className?: string;
  /**
   * Say nothing about saving until the person changes something (a work item's description
   * opening in the peek is not being saved): only a refusal, read-only or offline show before.
   */
  quietUntilEdited?: boolean;
}) {
  const { t } = useTranslation();
  if (!status) return null;
  if (quietUntilEdited && !status.edited) {
    if (!status.error && !status.readOnly && status.connection !== "offline") return null;
    // Offline before any edit: the document is kept on this device, nothing of this visit waits.
    if (!status.error && !status.readOnly) status = { ...status, synced: true };
  }
  const kind = status.error
    ? "error"
    : status.readOnly
      ? "readOnly"
      : status.connection === "offline"
        ? status.synced
          ? "offline"
          : // Edits made offline: the same "waiting to sync" as a work item's change in the outbox.
            "waiting"
        : !status.synced
          ? "saving"
          : status.connection === "connecting"
            ? "connecting"
            : "saved";
  const icon =
    kind === "error" ? (
      <TriangleAlert size={12} aria-hidden />
    ) : kind === "readOnly" ? (
      <Lock size={12} aria-hidden />
    ) : kind === "offline" ? (
      <CloudOff size={12} aria-hidden />
    ) : kind === "waiting" ? (
      <CloudUpload size={12} aria-hidden />
    ) : kind === "saving" || kind === "connecting" ? (
      <Loader size={12} aria-hidden className="live-badge-spin" />
    ) : (
      <Check size={12} aria-hidden />
    );
  return (
    <output
      className={`live-badge live-badge-${kind} ${className ?? ""}`}
      aria-live="polite"
      title={status.error ?? undefined}
      data-state={kind}
    >
      {icon}
      {kind === "waiting" ? t("offline.waiting") : t(`liveEditor.badge.${kind}`)}
    </output>
  );
}
