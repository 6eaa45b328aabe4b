import { useEffect, useRef } from "react";
import { keyBelongsElsewhere } from "./shortcuts";

/**
 * The workspace-wide keys (SHORTCUT_GROUPS "general"): Mod+K opens or closes the palette from
 * anywhere, fields and dialogs included (the palette is the way out of them too); `?` opens the
 * shortcut help when no field has the focus and nothing else is open.
 */
export function usePaletteKeys(handlers: { togglePalette: () => void; showShortcuts: () => void }): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const mod = event.metaKey || event.ctrlKey;
      if (mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        latest.current.togglePalette();
        return;
      }
      if (event.key === "?" && !mod && !event.altKey && !keyBelongsElsewhere(event)) {
        event.preventDefault();
        latest.current.showShortcuts();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
