/**
 * Workspace search under /api/workspaces/:slug (calls-errors-sync §7 "GET /search/ with params;
 * GET /entity-search/"; product-domain §3 "Search results groups", §9 "search default page 30";
 * the shapes of the reference's GlobalSearchEndpoint and SearchEndpoint — README.md):
 * - GET search/ ?search&workspace_search&project_id[&entities] → { results: { workspace,
 *   project, issue, cycle, module, issue_view, page } }, each group at most 30, best first —
 *   the command palette;
 * - GET entity-search/ ?query&query_type=a,b&count&project_id → { <type>: [...] } for each
 *   asked type (user_mention, project, issue, cycle, module, page) — mention and link pickers.
 * Who: every active member of the workspace, guests included; each sees only what the lists of
 * each domain show them (service.ts). 401 signed out, 404 for a workspace they are not in (and
 * for a project_id they cannot open), 400 naming a bad parameter.
 */
import type { FastifyInstance } from "fastify";
import { projectAccess, workspaceAccess } from "../../policies/access.ts";
import { parseEntitySearchQuery, parseSearchQuery } from "./schema.ts";
import { searchEntities, searchWorkspace } from "./service.ts";

type SlugParams = { slug: string };
type Request = { Params: SlugParams; Querystring: Record<string, unknown> };

const WS = "/api/workspaces/:slug";

export async function searchRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  app.get<Request>(`${WS}/search/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const query = parseSearchQuery(request.query);
    // A project the caller cannot open is a 404, as its own pages are (a public one not joined
    // yet answers, with nothing in it they could see).
    if (query.projectId)
      await projectAccess(db, request, request.params.slug, query.projectId, { allowNonMember: true });
    return { results: await searchWorkspace(db, access, query) };
  });

  app.get<Request>(`${WS}/entity-search/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const query = parseEntitySearchQuery(request.query);
    if (query.projectId)
      await projectAccess(db, request, request.params.slug, query.projectId, { allowNonMember: true });
    return searchEntities(db, access, query);
  });
}
