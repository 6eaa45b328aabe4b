/**
 * Stickies API under /api/workspaces/:slug (calls-errors-sync §7 "Stickies", product-domain §3
 * Sticky and §4 sticky rules):
 * - GET /stickies/ (`cursor` per_page:page:offset, `per_page`, `query`): the caller's stickies,
 *   newest first, paged as the reference pages them (default 20; the recent sticky is `1:0:0`);
 * - POST /stickies/ {name?, description_html?, background_color?, color?, logo_props?}: 201;
 * - GET, PATCH (the same fields and `sort_order`), DELETE (204) /stickies/:stickyId/ (the
 *   reference's client leaves the trailing slash off some: the router ignores it).
 * Who: every active workspace member, guests included, and only ever on their own stickies;
 * anyone else's sticky is a 404.
 */
import type { FastifyInstance } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { presentSticky } from "./presenter.ts";
import { createStickyBody, parseStickyListQuery, updateStickyBody } from "./schema.ts";
import { createSticky, deleteSticky, getSticky, listStickies, updateSticky } from "./service.ts";

type SlugParams = { slug: string };
type StickyParams = SlugParams & { stickyId: string };

const STICKIES = "/api/workspaces/:slug/stickies";

export async function stickiesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: SlugParams; Querystring: Record<string, unknown> }>(`${STICKIES}/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return listStickies(db, access, parseStickyListQuery(request.query));
  });

  app.post<{ Params: SlugParams }>(`${STICKIES}/`, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(createStickyBody, request.body ?? {});
    const row = await createSticky(app.ctx, eventOrigin(request), access, body);
    return reply.status(201).send(presentSticky(row));
  });

  const STICKY = `${STICKIES}/:stickyId/`;

  app.get<{ Params: StickyParams }>(STICKY, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return presentSticky(await getSticky(db, access, request.params.stickyId));
  });

  app.patch<{ Params: StickyParams }>(STICKY, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(updateStickyBody, request.body ?? {});
    const row = await updateSticky(app.ctx, eventOrigin(request), access, request.params.stickyId, body);
    return presentSticky(row);
  });

  app.delete<{ Params: StickyParams }>(STICKY, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    await deleteSticky(app.ctx, eventOrigin(request), access, request.params.stickyId);
    return reply.status(204).send();
  });
}
