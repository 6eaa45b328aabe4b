/**
 * Request shapes of the views API (zod; unknown fields are ignored, as elsewhere). filters,
 * display_filters and display_properties are checked separately with the user-properties
 * rules (issues/user-properties-routes.ts), so a view stores exactly what a board would.
 */
import { z } from "zod";

export const VIEW_NAME_MAX = 255;
export const VIEW_DESCRIPTION_MAX = 10_000;

/** access: 0 private (the owner only), 1 public (every member of the project or workspace). */
export const VIEW_ACCESS = { private: 0, public: 1 } as const;

const access = z.union([z.literal(0), z.literal(1)], { error: "Access must be 0 (private) or 1 (public)" });
const jsonObject = z.record(z.string(), z.unknown());

const fields = {
  /** May be empty or null (stored empty): clients show "Untitled". */
  name: z
    .string("Name must be text")
    .trim()
    .max(VIEW_NAME_MAX, `Name must be at most ${VIEW_NAME_MAX} characters`)
    .nullable(),
  description: z
    .string("Description must be text")
    .max(VIEW_DESCRIPTION_MAX, `Description must be at most ${VIEW_DESCRIPTION_MAX} characters`)
    .nullable(),
  access,
  logo_props: jsonObject,
  sort_order: z.number({ error: "Sort order must be a finite number" }),
};

export const viewBody = z.object(fields).partial();
export type ViewInput = z.output<typeof viewBody>;

/** POST views/{id}/access/ */
export const accessBody = z.object({ access });

/** POST user-favorite-views/ */
export const favoriteViewBody = z.object({ view: z.guid("Expected a view id") });
