/**
 * Request shapes of the stickies API. Unknown fields are ignored (http/errors.ts), so the
 * reference's client may send its `description` JSON beside the HTML: the HTML is what is kept.
 */
import {
  STICKY_COLORS,
  STICKY_HTML_MAX,
  STICKY_NAME_MAX,
  STICKY_PAGE_SIZE,
  STICKY_PAGE_SIZE_MAX,
} from "@tideline/shared";
import { z } from "zod";
import { badRequest } from "../../http/errors.ts";

const color = z.enum(STICKY_COLORS, `Must be one of: ${STICKY_COLORS.join(", ")}`).nullable();

/** An emoji or an icon, as the logo picker stores it (product-domain §3 Logo). */
const logoProps = z
  .object({
    in_use: z.enum(["emoji", "icon"]),
    emoji: z.object({ value: z.string().max(64), url: z.string().max(512) }).partial(),
    icon: z
      .object({ name: z.string().max(64), color: z.string().max(32), background_color: z.string().max(32) })
      .partial(),
  })
  .partial();

const fields = {
  name: z.string().trim().max(STICKY_NAME_MAX, `At most ${STICKY_NAME_MAX} characters`).nullable(),
  description_html: z.string().max(STICKY_HTML_MAX, "The note is too long"),
  background_color: color,
  color,
  logo_props: logoProps,
};

export const createStickyBody = z.object(fields).partial();
export type CreateStickyBody = z.output<typeof createStickyBody>;

export const updateStickyBody = z
  .object({
    ...fields,
    // Moving a sticky among the others (the reference's drag on home): a finite number.
    sort_order: z.number("sort_order must be a number").finite("sort_order must be a number"),
  })
  .partial();
export type UpdateStickyBody = z.output<typeof updateStickyBody>;

export type StickyListQuery = { perPage: number; pageIndex: number; offset: number; query: string | null };

/**
 * `cursor` is `per_page:page:offset` (the recent sticky is `1:0:0`); `per_page` beside it wins
 * over the cursor's own; `query` narrows to stickies whose text contains it.
 */
export function parseStickyListQuery(raw: Record<string, unknown>): StickyListQuery {
  const one = (value: unknown) => (Array.isArray(value) ? value[0] : value);
  let perPage = STICKY_PAGE_SIZE;
  let pageIndex = 0;
  let offset = 0;
  const cursor = one(raw.cursor);
  if (cursor !== undefined && cursor !== "") {
    const m = /^(\d{1,4}):(\d{1,7}):(\d{1,7})$/.exec(String(cursor));
    if (!m)
      throw badRequest("Invalid cursor: expected per_page:page:offset", { cursor: ["Expected per_page:page:offset"] });
    perPage = Number(m[1]) || STICKY_PAGE_SIZE;
    pageIndex = Number(m[2]);
    offset = Number(m[3]);
  }
  const perPageParam = one(raw.per_page);
  if (perPageParam !== undefined && perPageParam !== "") {
    const n = Number(perPageParam);
    if (!Number.isInteger(n) || n < 1)
      throw badRequest("per_page must be a positive whole number", { per_page: ["Invalid"] });
    perPage = n;
  }
  perPage = Math.min(perPage, STICKY_PAGE_SIZE_MAX);
  const query = one(raw.query);
  const text = typeof query === "string" ? query.trim() : "";
  return { perPage, pageIndex, offset, query: text ? text.slice(0, 200) : null };
}
