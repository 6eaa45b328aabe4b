/**
 * Favorites API under /api/workspaces/:slug (calls-errors-sync §7 "Favorites", product-domain
 * §3 Favorite, §4 favorites, §9 favorite sequence):
 * - GET /user-favorites/: the caller's top-level favorites (folders and unfiled ones), as the
 *   reference; `all=true`: every one, folders' contents too. Sequence order, each with
 *   `entity_data` (the entity's name, logo_props, project_id; a project's identifier).
 * - POST /user-favorites/ {entity_type, entity_identifier, project_id, name, parent, is_folder}:
 *   201, or 200 with the existing favorite when the entity is already favorited.
 * - PATCH /user-favorites/:id/ {name (folders), parent (a folder or null), sequence}: 200.
 * - DELETE /user-favorites/:id/: 204 (a folder with what it holds).
 * - GET /user-favorites/:id/group/: what a folder holds.
 * Who: every active workspace member, guests included, on their own favorites only, of what
 * they can see (another person's favorite, like another workspace's, is a 404). Favorites of
 * entities deleted, archived or out of the caller's sight are left out of every answer.
 */
import type { FastifyInstance } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { presentFavorite } from "../../services/favorites.ts";
import { createFavoriteBody, updateFavoriteBody } from "./schema.ts";
import { createFavorite, deleteFavorite, listFavorites, listGroup, updateFavorite } from "./service.ts";

type SlugParams = { slug: string };
type FavoriteParams = SlugParams & { favoriteId: string };

const FAVORITES = "/api/workspaces/:slug/user-favorites";

export async function favoritesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: SlugParams; Querystring: Record<string, unknown> }>(`${FAVORITES}/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const all = request.query.all;
    return listFavorites(db, access, all === "true" || all === true);
  });

  app.post<{ Params: SlugParams }>(`${FAVORITES}/`, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(createFavoriteBody, request.body ?? {});
    const { created, row, entityData } = await createFavorite(app.ctx, eventOrigin(request), access, body);
    return reply.status(created ? 201 : 200).send(presentFavorite(row, entityData));
  });

  const FAVORITE = `${FAVORITES}/:favoriteId/`;

  app.patch<{ Params: FavoriteParams }>(FAVORITE, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(updateFavoriteBody, request.body ?? {});
    return updateFavorite(app.ctx, eventOrigin(request), access, request.params.favoriteId, body);
  });

  app.delete<{ Params: FavoriteParams }>(FAVORITE, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    await deleteFavorite(app.ctx, eventOrigin(request), access, request.params.favoriteId);
    return reply.status(204).send();
  });

  app.get<{ Params: FavoriteParams }>(`${FAVORITES}/:favoriteId/group/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return listGroup(db, access, request.params.favoriteId);
  });
}
