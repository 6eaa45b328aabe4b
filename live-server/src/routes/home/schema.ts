/**
 * Request shapes of the home API. Unknown fields are ignored (http/errors.ts): the reference's
 * client sends a quick link's `metadata` or a widget's `key` back, which are not written here.
 */
import { z } from "zod";

export const QUICK_LINK_TITLE_MAX = 255;
export const QUICK_LINK_URL_MAX = 4096;

const URL_MESSAGE = "Enter a web address starting with http:// or https://";

/**
 * A quick link's address: http or https only. As the reference does, an address typed without a
 * scheme ("example.com/a", "localhost:3000") gets `http://` in front; any other scheme
 * (javascript:, data:, mailto:, ftp:…) and anything that is not a web address with a host is
 * refused, so the home never renders a link that runs or downloads something.
 */
export function normalizeQuickLinkUrl(raw: string): string | null {
  const text = raw.trim();
  if (!text || /\s/.test(text)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(text);
  const withScheme = scheme ? text : `http://${text}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]/i.test(withScheme) || !parsed.hostname) return null;
  return withScheme;
}

const url = z
  .string("url must be a string")
  .max(QUICK_LINK_URL_MAX, `At most ${QUICK_LINK_URL_MAX} characters`)
  .transform((value, ctx) => {
    const normalized = normalizeQuickLinkUrl(value);
    if (normalized === null) {
      ctx.addIssue({ code: "custom", message: URL_MESSAGE });
      return z.NEVER;
    }
    return normalized;
  });

const title = z
  .string("title must be a string")
  .trim()
  .max(QUICK_LINK_TITLE_MAX, `At most ${QUICK_LINK_TITLE_MAX} characters`)
  .nullable()
  // An empty title is no title: the widget then shows the address.
  .transform((value) => (value === "" ? null : value));

export const createQuickLinkBody = z.object({ url, title: title.optional() });
export type CreateQuickLinkBody = z.output<typeof createQuickLinkBody>;

export const updateQuickLinkBody = z.object({ url, title }).partial();
export type UpdateQuickLinkBody = z.output<typeof updateQuickLinkBody>;

export const updateHomePreferenceBody = z
  .object({
    is_enabled: z.boolean("is_enabled must be true or false"),
    sort_order: z.number("sort_order must be a number").finite("sort_order must be a number"),
  })
  .partial();
export type UpdateHomePreferenceBody = z.output<typeof updateHomePreferenceBody>;
