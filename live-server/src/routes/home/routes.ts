/**
 * Home API under /api/workspaces/:slug: the caller's own quick links and home widgets
 * (product-domain §2 home dashboard and quick links, §3 Workspace quick link and Home widget;
 * calls-errors-sync: the workspace calls for quick links and home preferences).
 * - GET /quick-links/: the caller's links, newest first; POST /quick-links/ {url, title?}: 201;
 *   PATCH /quick-links/:linkId/ {url?, title?}; DELETE /quick-links/:linkId/: 204. The address is
 *   http or https only (typed without a scheme it gets http://, as the reference does); anything
 *   else is a 400 naming `url`, and an address the caller already has there is a 400 too.
 * - GET /home-preferences/: the caller's widgets [{key, is_enabled, config, sort_order}], made
 *   with the defaults on the first read; PATCH /home-preferences/:key/ {is_enabled?, sort_order?}
 *   answers {key, is_enabled, sort_order} as the reference does; an unknown key is a 404.
 *   Widgets kept: `quick_links`, `recents`, `my_stickies` (the reference's keys, default order
 *   and numbering) and this product's `my_work_items` after them; the reference's `new_at_plane`
 *   and `quick_tutorial` (its own news and tour) are not.
 * Who: every active workspace member, guests included, and only ever on their own data: another
 * person's link, like another workspace's, is a 404.
 */
import type { FastifyInstance } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { presentQuickLink } from "./presenter.ts";
import { createQuickLinkBody, updateHomePreferenceBody, updateQuickLinkBody } from "./schema.ts";
import {
  createQuickLink,
  deleteQuickLink,
  getQuickLink,
  listHomePreferences,
  listQuickLinks,
  updateHomePreference,
  updateQuickLink,
} from "./service.ts";

type SlugParams = { slug: string };
type LinkParams = SlugParams & { linkId: string };
type KeyParams = SlugParams & { key: string };

const WORKSPACE = "/api/workspaces/:slug";

export async function homeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const LINKS = `${WORKSPACE}/quick-links/`;
  const LINK = `${LINKS}:linkId/`;

  app.get<{ Params: SlugParams }>(LINKS, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return listQuickLinks(db, access);
  });

  app.post<{ Params: SlugParams }>(LINKS, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(createQuickLinkBody, request.body ?? {});
    const row = await createQuickLink(app.ctx, eventOrigin(request), access, body);
    return reply.status(201).send(presentQuickLink(row));
  });

  app.get<{ Params: LinkParams }>(LINK, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return presentQuickLink(await getQuickLink(db, access, request.params.linkId));
  });

  app.patch<{ Params: LinkParams }>(LINK, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(updateQuickLinkBody, request.body ?? {});
    const row = await updateQuickLink(app.ctx, eventOrigin(request), access, request.params.linkId, body);
    return presentQuickLink(row);
  });

  app.delete<{ Params: LinkParams }>(LINK, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    await deleteQuickLink(app.ctx, eventOrigin(request), access, request.params.linkId);
    return reply.status(204).send();
  });

  const PREFERENCES = `${WORKSPACE}/home-preferences/`;

  app.get<{ Params: SlugParams }>(PREFERENCES, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return listHomePreferences(db, access);
  });

  app.patch<{ Params: KeyParams }>(`${PREFERENCES}:key/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(updateHomePreferenceBody, request.body ?? {});
    const row = await updateHomePreference(app.ctx, eventOrigin(request), access, request.params.key, body);
    return { key: row.key, is_enabled: row.isEnabled, sort_order: row.sortOrder };
  });
}
