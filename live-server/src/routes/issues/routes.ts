/**
 * Work items (calls-errors-sync §7 "Work items"), registered from here:
 * - crud-routes.ts: create, read, read by ids, update, delete, deleted ids, by key (WEB-12);
 * - list-routes.ts: the grouped list, the archive list, the sync list (v2);
 * - archive-routes.ts, draft-routes.ts, bulk-routes.ts, subscription-routes.ts,
 *   search-routes.ts, user-properties-routes.ts;
 * - extras-routes.ts: meta/, {type}-detail/, issue-display-properties/, epics-user-properties/
 *   (layout.ts: the list's layout and expand parameters).
 * Paths live under /api/workspaces/{slug}/projects/{projectId}/ with {type} = issues, or epics
 * when the project has epics on. Guests read (restricted guests only their own items) and
 * cannot change work items (403).
 */
import type { FastifyInstance } from "fastify";
import { issueArchiveRoutes } from "./archive-routes.ts";
import { issueBulkRoutes } from "./bulk-routes.ts";
import { issueCrudRoutes } from "./crud-routes.ts";
import { issueDraftRoutes } from "./draft-routes.ts";
import { issueExtrasRoutes } from "./extras-routes.ts";
import { issueListRoutes } from "./list-routes.ts";
import { issueSearchRoutes } from "./search-routes.ts";
import { issueSubscriptionRoutes } from "./subscription-routes.ts";
import { issueUserPropertiesRoutes } from "./user-properties-routes.ts";

export async function issuesRoutes(app: FastifyInstance): Promise<void> {
  await issueListRoutes(app);
  await issueCrudRoutes(app);
  await issueArchiveRoutes(app);
  await issueDraftRoutes(app);
  await issueBulkRoutes(app);
  await issueSubscriptionRoutes(app);
  await issueSearchRoutes(app);
  await issueUserPropertiesRoutes(app);
  await issueExtrasRoutes(app);
}
