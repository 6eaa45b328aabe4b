/**
 * Request shapes of the modules API (zod; unknown fields are ignored, see http/errors.ts).
 * Dates are yyyy-MM-dd (read from the first 10 characters); "" or null clears one. Lead and
 * members must be active members of the project, checked by the service (400 naming them).
 */
import { MODULE_DESCRIPTION_MAX, MODULE_NAME_MAX, MODULE_STATUSES } from "@tideline/shared";
import { z } from "zod";
import { LINK_URL_MAX, normalizedHttpUrl } from "../issue-details/links.ts";
import { dateField, optionalRef } from "../issues/schema.ts";

const id = z.guid("Expected an id");

const name = z
  .string("Name is required")
  .trim()
  .min(1, "Name is required")
  .max(MODULE_NAME_MAX, `Name must be at most ${MODULE_NAME_MAX} characters`);
const status = z.enum(MODULE_STATUSES, { error: `Status must be one of ${MODULE_STATUSES.join(", ")}` });
const jsonObject = z.record(z.string(), z.unknown());

const fields = {
  name,
  description: z.string().max(MODULE_DESCRIPTION_MAX, "Description is too long").nullable(),
  description_html: z.string().max(200_000, "Description is too long").nullable(),
  status,
  start_date: dateField,
  target_date: dateField,
  lead_id: optionalRef,
  /** The reference's form sends `lead` too. */
  lead: optionalRef,
  member_ids: z.array(id).max(500, "At most 500 members"),
  sort_order: z.number({ error: "Sort order must be a finite number" }),
  view_props: jsonObject,
  logo_props: jsonObject,
  external_source: z.string().max(255).nullable(),
  external_id: z.string().max(255).nullable(),
};

export const createModuleBody = z.object(fields).partial().required({ name: true });
export type CreateModuleInput = z.output<typeof createModuleBody>;

/** PUT and PATCH both change only what is sent (the reference's client sends whole forms with PUT). */
export const updateModuleBody = z.object(fields).partial();
export type UpdateModuleInput = z.output<typeof updateModuleBody>;

/** POST modules/{id}/issues/ */
export const moduleIssuesBody = z.object({
  issues: z.array(id, "Expected a list of work item ids").min(1, "Pick at least one work item").max(500),
});

/** POST issues/{id}/modules/ */
export const issueModulesBody = z.object({
  modules: z.array(id).max(100).default([]),
  removed_modules: z.array(id).max(100).default([]),
});

/** POST user-favorite-modules/ */
export const favoriteModuleBody = z.object({ module: id });

const urlField = z
  .string("Enter a URL")
  .trim()
  .min(1, "Enter a URL")
  .max(LINK_URL_MAX, `A URL can have at most ${LINK_URL_MAX} characters`)
  .refine((value) => normalizedHttpUrl(value) !== null, "Enter a valid http:// or https:// URL");
const titleField = z.string().trim().max(255, "A title can have at most 255 characters").nullable().optional();

export const createLinkBody = z.object({ url: urlField, title: titleField, metadata: jsonObject.optional() });
export const updateLinkBody = z.object({
  url: urlField.optional(),
  title: titleField,
  metadata: jsonObject.optional(),
});
export type LinkInput = z.output<typeof updateLinkBody>;
