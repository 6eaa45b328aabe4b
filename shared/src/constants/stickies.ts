/**
 * Stickies (product-domain §3 Sticky, §4 sticky rules): a person's own notes in a workspace.
 * The colours are the reference product's keys, so a sticky written in either client shows the
 * same colour in the other; each client maps a key to its own theme's tint.
 */
export const STICKY_COLORS = ["gray", "peach", "pink", "orange", "green", "light-blue", "dark-blue", "purple"] as const;
export type StickyColor = (typeof STICKY_COLORS)[number];

/** A page of the stickies list when the caller names none (the reference's default). */
export const STICKY_PAGE_SIZE = 20;
/** The largest page a caller may ask for. */
export const STICKY_PAGE_SIZE_MAX = 100;
/** The gap between neighbours' sort_order, as the reference numbers stickies. */
export const STICKY_SORT_STEP = 10_000;
/** A sticky's name, and its body's HTML, at most. */
export const STICKY_NAME_MAX = 255;
export const STICKY_HTML_MAX = 200_000;
