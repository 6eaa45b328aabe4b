import { useEffect, useRef } from "react";

/**
 * A one-letter key that opens a list screen's "new" form, as on the reference's lists: only when
 * `enabled` (the caller may create), no modifier is held, no field has the focus and no dialog or
 * popover is open (the key belongs to them then).
 */
export function useCreateShortcut(key: string, enabled: boolean, onPress: () => void): void {
  // The latest callback, so the listener isn't re-added on every render.
  const press = useRef(onPress);
  press.current = onPress;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey || event.key !== key) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (document.querySelector("[role=dialog], [data-radix-popper-content-wrapper]")) return;
      event.preventDefault();
      press.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [key, enabled]);
}
