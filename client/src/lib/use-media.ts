import { useSyncExternalStore } from "react";

/** Below this width the app is laid out for a phone: the sidebar is a drawer (see workspace/layout). */
export const NARROW_QUERY = "(max-width: 767px)";

/** Whether a media query matches now, following changes (read synchronously on first render: no layout jump). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** A phone-sized screen (under 768 px wide). */
export function useIsNarrow(): boolean {
  return useMediaQuery(NARROW_QUERY);
}
