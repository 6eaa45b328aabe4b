/**
 * Request shapes of the pages API. Unknown fields are ignored (http/errors.ts);
 * rules that need the database (parent page, target project) live in service.ts.
 */
import { LIVE_LIMITS, PAGE_ACCESS, PAGE_ERRORS, PAGE_LIST_TYPES, PAGE_NAME_MAX } from "@tideline/shared";
import { z } from "zod";
import { badRequest, parse } from "../../http/errors.ts";

/** Rich text arriving over REST; the body is also bounded by the app's body limit. */
export const PAGE_HTML_MAX = 2_000_000;

const name = z.string().trim().max(PAGE_NAME_MAX);
const access = z.union([z.literal(PAGE_ACCESS.public), z.literal(PAGE_ACCESS.private)], {
  error: "access must be 0 (public) or 1 (private)",
});
const html = z.string().max(PAGE_HTML_MAX);
const color = z.string().regex(/^(#[0-9a-f]{3,8})?$/i, "Must be a hex colour such as #3f76ff, or empty");
const pageId = z.uuid("Must be a page id");

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

/** Display settings of the page (full width and the like): a few flat values. */
const viewProps = z
  .record(z.string().max(64), z.union([z.boolean(), z.number(), z.string().max(256)]))
  .refine((v) => Object.keys(v).length <= 20, "At most 20 view settings");

export const createPageBody = z.object({
  name: name.optional(),
  access: access.optional(),
  description_html: html.optional(),
  logo_props: logoProps.optional(),
  color: color.optional(),
  view_props: viewProps.optional(),
  parent: pageId.nullable().optional(),
});
export type CreatePageBody = z.output<typeof createPageBody>;

export const updatePageBody = z
  .object({
    name,
    logo_props: logoProps,
    color,
    view_props: viewProps,
    parent: pageId.nullable(),
    description_html: html,
  })
  .partial();
export type UpdatePageBody = z.output<typeof updatePageBody>;

export const accessBody = z.object({ access });
export const moveBody = z.object({ new_project_id: z.uuid("Must be a project id") });

export const listPagesQuery = z.object({
  type: z.enum(PAGE_LIST_TYPES, { error: `type must be one of ${PAGE_LIST_TYPES.join(", ")}` }).optional(),
  search: z.string().max(255).optional(),
});

/**
 * `parse`, except that a body lacking one of `required` answers the spec's page message
 * "Missing required fields." (calls-errors-sync §8) naming each missing field.
 */
export function parseRequired<S extends z.ZodType>(schema: S, body: unknown, required: readonly string[]): z.output<S> {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const missing = required.filter((key) => record[key] === undefined || record[key] === null);
  if (missing.length > 0) {
    throw badRequest(
      PAGE_ERRORS.missingFields,
      Object.fromEntries(missing.map((key) => [key, ["This field is required."]])),
      "MISSING_REQUIRED_FIELDS",
    );
  }
  return parse(schema, body);
}

/**
 * description/ as JSON, the reference client's save: `description_binary` is a Yjs update (its
 * whole document state, usually) in base64, `description_html` beside it. With a binary the
 * HTML is derived from the document, never taken from the request; HTML alone replaces the
 * body like PATCH pages/{id}/ does. `description` (the editor's JSON) is accepted and ignored.
 */
export const descriptionJsonBody = z.object({
  description_binary: z
    .string()
    .max(Math.ceil((LIVE_LIMITS.maxDocumentBytes * 4) / 3) + 4, "The page is too large.")
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, "Must be base64")
    .nullable()
    .optional(),
  description_html: html.nullable().optional(),
  description: z.unknown().optional(),
});
