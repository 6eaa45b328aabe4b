/**
 * Request shapes of the cycles API (unknown fields ignored, see http/errors.ts). Dates are
 * calendar days (yyyy-MM-dd, read from the first 10 characters like work-item dates), so the
 * reference's timestamps ("2026-03-02T00:00:00Z") are accepted too; "" or null clears.
 */
import { CYCLE_VIEWS } from "@tideline/shared";
import { z } from "zod";
import { dateField } from "../issues/schema.ts";

export const CYCLE_NAME_MAX = 255;
export const CYCLE_DESCRIPTION_MAX = 10_000;

const id = z.guid("Expected an id");
const name = z
  .string("Name is required")
  .trim()
  .min(1, "Name is required")
  .max(CYCLE_NAME_MAX, `Name must be at most ${CYCLE_NAME_MAX} characters`);
const jsonObject = z.record(z.string(), z.unknown());

const fields = {
  name,
  description: z.string().max(CYCLE_DESCRIPTION_MAX, "Description is too long"),
  start_date: dateField,
  end_date: dateField,
  sort_order: z.number("Sort order must be a finite number"),
  view_props: jsonObject,
  logo_props: jsonObject,
  /** The owner must be a project member; defaults to the creator. */
  owned_by_id: id,
};

export const createCycleBody = z.object(fields).partial().required({ name: true });
export type CreateCycleBody = z.output<typeof createCycleBody>;

export const updateCycleBody = z.object(fields).partial();
export type UpdateCycleBody = z.output<typeof updateCycleBody>;

export const dateCheckBody = z.object({
  start_date: dateField,
  end_date: dateField,
  cycle_id: id.optional().nullable(),
});

export const cycleIssuesBody = z.object({
  issues: z.array(id, "issues must be a list of work-item ids").min(1, "Pick at least one work item").max(500),
});

export const transferBody = z.object({ new_cycle_id: id });

export const favoriteBody = z.object({ cycle: id });

export const cycleViewQuery = z.enum(CYCLE_VIEWS, { error: `cycle_view must be one of ${CYCLE_VIEWS.join(", ")}` });
