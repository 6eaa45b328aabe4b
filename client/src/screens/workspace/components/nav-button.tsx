import { Menu } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useShell } from "../use-workspace";

/**
 * The phone's menu button (nothing on wider screens, where the sidebar is always there). Its own
 * file, with its styles in workspace.css (the shell's), because the error page a failed screen
 * shows inside the shell has it too and is part of the app's first chunk.
 */
export function NavButton() {
  const { t } = useTranslation();
  const { openNav } = useShell();
  if (!openNav) return null;
  return (
    <button
      type="button"
      className="nav-open-btn"
      aria-label={t("ui.nav.open")}
      title={t("ui.nav.open")}
      onClick={(event) => openNav(event.currentTarget)}
    >
      <Menu size={20} aria-hidden />
    </button>
  );
}
