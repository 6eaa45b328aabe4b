/**
 * Request shapes of the labels API. Unknown fields are ignored (http/errors.ts);
 * the tree rules (parent in the same project, no loops) and name uniqueness live in service.ts.
 */
import { isHexColor } from "@tideline/shared";
import { z } from "zod";

export const LABEL_NAME_MAX = 255;
export const LABEL_DESCRIPTION_MAX = 10_000;

const name = z.string().trim().min(1, "Label name is required").max(LABEL_NAME_MAX);
const description = z.string().max(LABEL_DESCRIPTION_MAX);
const color = z.string().trim().refine(isHexColor, "Colour must be a hex code such as #60646C");
const parent = z.uuid("Parent must be a label id").nullable();
/** The client computes it with labelPosition(); zod refuses NaN and ±Infinity. */
const sortOrder = z.number({ error: "Sort order must be a finite number" });

export const createLabelBody = z.object({
  name,
  color: color.optional(),
  description: description.optional(),
  parent: parent.optional(),
  sort_order: sortOrder.optional(),
});
export type CreateLabelBody = z.output<typeof createLabelBody>;

/** Edit and reorder: PATCH {parent?, sort_order} moves a label; without sort_order it goes last. */
export const updateLabelBody = z.object({ name, color, description, parent, sort_order: sortOrder }).partial();
export type UpdateLabelBody = z.output<typeof updateLabelBody>;
