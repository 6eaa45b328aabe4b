/**
 * Sidebar preferences API under /api/workspaces/:slug (product-domain §2 "Workspace menu";
 * calls-errors-sync "GET, PATCH /sidebar-preferences/{id}/"): the caller's own sidebar entries.
 * - GET /sidebar-preferences/: `{ views: { is_pinned, sort_order }, active_cycles: …, … }`, an
 *   object keyed by entry key in sort_order (the reference's answer), made with the defaults on
 *   the first read. Keys: views, active_cycles, analytics, drafts, your_work, archives, stickies.
 * - PATCH /sidebar-preferences/:key/ {is_pinned?, sort_order?}: answers {key, is_pinned,
 *   sort_order}, as the reference's serializer; a key that is not an entry is a 404.
 * - PATCH /sidebar-preferences/ [{key, is_pinned?, sort_order?}, …]: the reference's newer bulk
 *   form; unknown keys are skipped; answers {message: "Successfully updated"}.
 * A wrong type is a 400 naming the field, and nothing is stored.
 * Who: every active workspace member, guests included, and only ever on their own entries; the
 * client hides the entries a role may not open (product-domain §6), the server keeps them all.
 */
import type { FastifyInstance } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { presentSidebarPreference } from "./presenter.ts";
import { bulkSidebarPreferencesBody, updateSidebarPreferenceBody } from "./schema.ts";
import { listSidebarPreferences, updateSidebarPreference, updateSidebarPreferences } from "./service.ts";

type SlugParams = { slug: string };
type KeyParams = SlugParams & { key: string };

export async function sidebarPreferencesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const PREFERENCES = "/api/workspaces/:slug/sidebar-preferences/";

  app.get<{ Params: SlugParams }>(PREFERENCES, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    return listSidebarPreferences(db, access);
  });

  app.patch<{ Params: SlugParams }>(PREFERENCES, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(bulkSidebarPreferencesBody, request.body ?? null);
    await updateSidebarPreferences(app.ctx, eventOrigin(request), access, body);
    return { message: "Successfully updated" };
  });

  app.patch<{ Params: KeyParams }>(`${PREFERENCES}:key/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(updateSidebarPreferenceBody, request.body ?? {});
    const row = await updateSidebarPreference(app.ctx, eventOrigin(request), access, request.params.key, body);
    return presentSidebarPreference(row);
  });
}
