/** Request bodies of the API-token calls (unknown keys dropped, as everywhere). */
import { z } from "zod";

export const createApiTokenBody = z.object({
  // The reference names an unlabelled token with a random hex label; an empty one is refused.
  label: z.string().trim().min(1, "Title is required.").max(255, "Title must be at most 255 characters.").optional(),
  description: z.string().max(5000, "Description must be at most 5000 characters.").optional().default(""),
  /** No expiry (null or absent) or an ISO date / date-time in the future. */
  expired_at: z
    .union([z.iso.datetime({ offset: true }), z.iso.date()])
    .nullable()
    .optional()
    .transform((v) => (v ? new Date(v.length === 10 ? `${v}T23:59:59.999Z` : v) : null))
    .refine((d) => d === null || d.getTime() > Date.now(), "Expiry must be in the future."),
});
export type CreateApiTokenBody = z.output<typeof createApiTokenBody>;
