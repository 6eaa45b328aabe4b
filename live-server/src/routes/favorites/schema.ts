/**
 * Request shapes of user-favorites/. Unknown fields are ignored (http/errors.ts): the reference's
 * client sends `entity_data` with a new favorite, which the server reads from the entity itself.
 */
import { FAVORITE_ENTITY_TYPES, FAVORITE_NAME_MAX } from "@tideline/shared";
import { z } from "zod";

const id = z.guid("Expected an id");
const name = z
  .string("name must be text")
  .trim()
  .min(1, "A folder needs a name")
  .max(FAVORITE_NAME_MAX, `At most ${FAVORITE_NAME_MAX} characters`);

/** POST user-favorites/: an entity (entity_type + entity_identifier, project_id) or a folder (name). */
export const createFavoriteBody = z
  .object({
    entity_type: z.enum(FAVORITE_ENTITY_TYPES, `Must be one of: ${FAVORITE_ENTITY_TYPES.join(", ")}`),
    entity_identifier: id.nullish(),
    project_id: id.nullish(),
    name: name.nullish(),
    parent: id.nullish(),
    is_folder: z.boolean("is_folder must be true or false").optional(),
  })
  .superRefine((body, ctx) => {
    const folder = body.entity_type === "folder";
    if (body.is_folder !== undefined && body.is_folder !== folder) {
      ctx.addIssue({ code: "custom", path: ["is_folder"], message: "is_folder is true for folders only" });
    }
    if (folder && !body.name) ctx.addIssue({ code: "custom", path: ["name"], message: "A folder needs a name" });
    if (!folder && !body.entity_identifier) {
      ctx.addIssue({ code: "custom", path: ["entity_identifier"], message: "Name the favorited item" });
    }
    if (folder && body.parent) {
      ctx.addIssue({ code: "custom", path: ["parent"], message: "Folders cannot be put in folders" });
    }
  });
export type CreateFavoriteBody = z.output<typeof createFavoriteBody>;

/** PATCH user-favorites/{id}/: rename (folders), file into or out of a folder, reorder. */
export const updateFavoriteBody = z
  .object({
    name,
    parent: id.nullable(),
    sequence: z.number("sequence must be a number").finite("sequence must be a number"),
  })
  .partial();
export type UpdateFavoriteBody = z.output<typeof updateFavoriteBody>;
