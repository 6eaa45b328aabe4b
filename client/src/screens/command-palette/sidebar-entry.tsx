import { Search } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useShell } from "../workspace/use-workspace";
import { keyLabel } from "./shortcuts";
import "./sidebar-entry.css";

/** The sidebar's Search row: opens the command palette (also Mod+K; on a phone, the only way in). */
export function SearchSidebarButton() {
  const { t } = useTranslation();
  const shell = useShell();
  const label = t("palette.open");
  return (
    <button
      type="button"
      className="sidebar-row sidebar-button"
      onClick={shell.openPalette}
      title={`${label} (${keyLabel("Mod")}+K)`}
      aria-haspopup="dialog"
      aria-keyshortcuts="Control+K Meta+K"
    >
      <span className="sidebar-row-icon">
        <Search size={16} aria-hidden />
      </span>
      <span className="sidebar-label">{label}</span>
      <kbd className="sidebar-kbd" aria-hidden>
        {keyLabel("Mod")} K
      </kbd>
    </button>
  );
}
