/**
 * Uploaded files (calls-errors-sync §3, §4; product-domain §9). Every upload names its kind;
 * the kind decides where it may be requested, who may request it and which files it accepts.
 */

export const ASSET_KINDS = [
  "COMMENT_DESCRIPTION",
  "ISSUE_ATTACHMENT",
  "ISSUE_DESCRIPTION",
  "PAGE_DESCRIPTION",
  "PROJECT_COVER",
  "USER_AVATAR",
  "USER_COVER",
  "WORKSPACE_LOGO",
] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

export function isAssetKind(value: unknown): value is AssetKind {
  return typeof value === "string" && (ASSET_KINDS as readonly string[]).includes(value);
}

/** Work-item attachment limit: 5,242,880 bytes (5 MB). */
export const MAX_ATTACHMENT_SIZE = 5_242_880;

/** The one size limit every kind shares today; kinds may get their own later. */
export const ASSET_SIZE_LIMIT: Record<AssetKind, number> = {
  COMMENT_DESCRIPTION: MAX_ATTACHMENT_SIZE,
  ISSUE_ATTACHMENT: MAX_ATTACHMENT_SIZE,
  ISSUE_DESCRIPTION: MAX_ATTACHMENT_SIZE,
  PAGE_DESCRIPTION: MAX_ATTACHMENT_SIZE,
  PROJECT_COVER: MAX_ATTACHMENT_SIZE,
  USER_AVATAR: MAX_ATTACHMENT_SIZE,
  USER_COVER: MAX_ATTACHMENT_SIZE,
  WORKSPACE_LOGO: MAX_ATTACHMENT_SIZE,
};

/** The largest file any upload may carry (the server's hard ceiling). */
export const MAX_UPLOAD_SIZE = Math.max(...Object.values(ASSET_SIZE_LIMIT));

export const FILE_TOO_LARGE_MESSAGE = "File is larger than 5 MB.";

/** Kinds requested at /api/assets/v2/workspaces/{slug}/ (no project). */
export const WORKSPACE_ASSET_KINDS: readonly AssetKind[] = [
  "WORKSPACE_LOGO",
  "PROJECT_COVER",
  "ISSUE_DESCRIPTION",
  "COMMENT_DESCRIPTION",
  "PAGE_DESCRIPTION",
];
/** Kinds requested at /api/assets/v2/workspaces/{slug}/projects/{projectId}/. */
export const PROJECT_ASSET_KINDS: readonly AssetKind[] = [
  "PROJECT_COVER",
  "ISSUE_DESCRIPTION",
  "COMMENT_DESCRIPTION",
  "PAGE_DESCRIPTION",
];
/** Kinds requested at /api/assets/v2/user-assets/. */
export const USER_ASSET_KINDS: readonly AssetKind[] = ["USER_AVATAR", "USER_COVER"];

/**
 * Image types a browser may show inline from our origin. Everything except attachments must be
 * one of these (logos, covers, avatars and images in rich text are rendered with <img>). SVG is
 * left out on purpose: it can carry script.
 */
export const INLINE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"] as const;

/**
 * Types served inline on download; everything else is a download (Content-Disposition: attachment).
 * PDFs are downloads: Chromium's PDF viewer does not run under the sandboxing CSP every asset gets.
 */
export const INLINE_ASSET_TYPES: readonly string[] = [...INLINE_IMAGE_TYPES];
