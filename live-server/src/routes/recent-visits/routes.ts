/**
 * Recent visits API under /api/workspaces/:slug (product-domain §2 home "Recent visits";
 * calls-errors-sync: GET /recent-visits/ (entity_name)).
 * - GET /recent-visits/?entity_name=issue|page|project: the caller's recent visits, newest first,
 *   at most 20 — `{id, entity_name, entity_identifier, entity_data, visited_at}` as the reference
 *   answers (presenter.ts); no entity_name (or an empty one) lists every kind, another value is a
 *   400 naming entity_name. Only what the caller may open now (service.ts).
 * - Visits are recorded by the reads that open an entity (service.ts recordRecentVisit): a work
 *   item's detail (issues|epics/:id/, work-items/:key/), a page's detail (unless
 *   ?track_visit=false, as the reference), a project's detail (projects/:id/, as the reference)
 *   and its board's settings (projects/:id/user-properties/, which this product's board reads
 *   each time it opens a project).
 * Who: every active workspace member, guests included, and only ever their own visits.
 */
import type { FastifyInstance } from "fastify";
import { parse } from "../../http/errors.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { listRecentVisitsQuery } from "./schema.ts";
import { listRecentVisits } from "./service.ts";

type SlugParams = { slug: string };

export async function recentVisitsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<{ Params: SlugParams }>("/api/workspaces/:slug/recent-visits/", async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const query = parse(listRecentVisitsQuery, request.query);
    return listRecentVisits(db, access, query.entity_name);
  });
}
