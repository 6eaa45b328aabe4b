/**
 * Request shapes of the recent visits API. `entity_name` picks one kind of entity; absent or
 * empty lists every kind (the reference's client leaves it out for "All").
 */
import { z } from "zod";

/** The kinds of entity whose visits are recorded and listed, in the reference's names. */
export const RECENT_VISIT_ENTITIES = ["issue", "page", "project"] as const;
export type RecentVisitEntity = (typeof RECENT_VISIT_ENTITIES)[number];

/** How many visits are kept per person, workspace and entity name (and listed at most). */
export const RECENT_VISITS_KEPT = 20;

export const listRecentVisitsQuery = z.object({
  entity_name: z
    .enum(["", ...RECENT_VISIT_ENTITIES], { error: "entity_name must be one of issue, page, project" })
    .optional()
    .transform((value) => (value ? value : undefined)),
});
