import { StickyNote } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useShell } from "../workspace/use-workspace";

/**
 * The sidebar's "Stickies" row: opens the stickies list modal over the current screen (the shell
 * holds it; its code loads on first use). A button, not a link: the modal has no address.
 */
export function StickiesSidebarButton() {
  const { t } = useTranslation();
  const shell = useShell();
  const label = t("stickies.sidebar");
  return (
    <button
      type="button"
      className="sidebar-row sidebar-button"
      onClick={shell.openStickies}
      title={label}
      aria-haspopup="dialog"
    >
      <span className="sidebar-row-icon">
        <StickyNote size={16} aria-hidden />
      </span>
      <span className="sidebar-label">{label}</span>
    </button>
  );
}
