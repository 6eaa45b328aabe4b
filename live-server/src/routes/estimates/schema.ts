/**
 * Request shapes of the estimates API. Unknown fields are ignored (http/errors.ts).
 * Point values are only length-capped here; the scale rules (2–6 points, numbers for a points
 * scale, no value twice, "time" refused) live in service.ts with the shared helpers, so the
 * messages match the client's.
 */
import { ESTIMATE_NAME_MAX, ESTIMATE_TYPES } from "@tideline/shared";
import { z } from "zod";

export const ESTIMATE_DESCRIPTION_MAX = 10_000;
export const POINT_DESCRIPTION_MAX = 1_000;
/** Keys order the points; any whole number from 1 works, unique within one estimate. */
export const POINT_KEY_MAX = 1_000;

const name = z.string().trim().min(1, "Estimate name is required").max(ESTIMATE_NAME_MAX);
const description = z.string().max(ESTIMATE_DESCRIPTION_MAX);
/** Types are stored lowercased (product-domain §3). */
const type = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(ESTIMATE_TYPES, { error: `Type must be one of ${ESTIMATE_TYPES.join(", ")}` }));
const key = z
  .number({ error: "Key must be a whole number" })
  .int("Key must be a whole number")
  .min(1, "Key must be 1 or more")
  .max(POINT_KEY_MAX);
const value = z.string({ error: "Value must be text" }).max(200);
const pointDescription = z.string().max(POINT_DESCRIPTION_MAX);

const pointInput = z.object({ key: key.optional(), value, description: pointDescription.optional() });

export const createEstimateBody = z.object({
  estimate: z.object({ name, description: description.optional(), type }),
  // The 2–6 bound is checked in the service so the message is the spec's; this cap only
  // keeps absurd payloads out.
  estimate_points: z.array(pointInput).max(100),
});
export type CreateEstimateBody = z.output<typeof createEstimateBody>;

/** `type` may be sent back unchanged (forms post the whole estimate) but never changed. */
export const updateEstimateBody = z
  .object({ name, description, type, is_active: z.boolean({ error: "is_active must be true or false" }) })
  .partial();
export type UpdateEstimateBody = z.output<typeof updateEstimateBody>;

export const createPointBody = pointInput;
export type CreatePointBody = z.output<typeof createPointBody>;

export const updatePointBody = z.object({ key, value, description: pointDescription }).partial();
export type UpdatePointBody = z.output<typeof updatePointBody>;

/** Work items on the deleted point move to this point of the same estimate, or lose their estimate. */
export const deletePointBody = z
  .object({ new_estimate_point_id: z.uuid("Must be an estimate point id").nullable() })
  .partial();

export const emptyBody = z.object({});
