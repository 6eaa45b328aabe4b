/**
 * Pages (product-domain §3 Page, §4, §6). The spec gives two readings of `access`; this
 * project's contract is 0 = public (every member of the page's projects may read it) and
 * 1 = private (its owner alone), the same values the database stores.
 */

export const PAGE_ACCESS = { public: 0, private: 1 } as const;
export type PageAccess = (typeof PAGE_ACCESS)[keyof typeof PAGE_ACCESS];
export const PAGE_ACCESS_VALUES = [PAGE_ACCESS.public, PAGE_ACCESS.private] as const;

/** The page list's `type` filter: public and private pages leave out archived ones. */
export const PAGE_LIST_TYPES = ["public", "private", "archived"] as const;
export type PageListType = (typeof PAGE_LIST_TYPES)[number];

export const PAGE_NAME_MAX = 255;
/** What a page without a name is shown as. */
export const PAGE_UNTITLED = "Untitled";
/** Appended to the name of a duplicated page. */
export const PAGE_COPY_SUFFIX = " (copy)";

/**
 * While a page is being edited, one person's edits within this interval of their version's
 * start go into that version; someone else's edits, or later ones, start a new version.
 */
export const PAGE_VERSION_INTERVAL_MS = 10 * 60 * 1000;
/** Versions kept per page; older ones are dropped when a new one is saved. */
export const PAGE_VERSIONS_KEPT = 20;

/** Client-side messages of the pages store (calls-errors-sync §8). */
export const PAGE_ERRORS = {
  missingFields: "Missing required fields.",
  failed: "Failed",
  fetchPages: "Failed to fetch the pages",
  fetchPage: "Failed to fetch the page",
  createPage: "Failed to create a page",
  deletePage: "Failed to delete a page",
  tryAgain: "Please try again later.",
} as const;

/**
 * The Y.Doc field holding a page's title, beside the body (DOCUMENT_FIELD), as the reference's
 * editor keeps it: one level-1 heading whose text is the page's name. The server keeps it in
 * step with pages.name both ways (live/schema.ts titleOf / setTitle).
 */
export const PAGE_TITLE_FIELD = "title";
