/**
 * Ref callback that focuses an element when it mounts (a stable function, so it runs once).
 * Used instead of the autoFocus attribute for the first field of a modal or a step.
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}
