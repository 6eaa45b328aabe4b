/**
 * Each member's own work (product-domain §2 profile; calls-errors-sync §7 "Current user and
 * workspaces"): user-stats/, user-profile/ (stats-routes.ts), user-activity/ + export/ and
 * /api/users/me/activities/ (activity-routes.ts), user-issues/ (issues-routes.ts). README.md
 * documents shapes and rules.
 */
import type { FastifyInstance } from "fastify";
import { profileActivityRoutes } from "./activity-routes.ts";
import { profileIssuesRoutes } from "./issues-routes.ts";
import { profileStatsRoutes } from "./stats-routes.ts";

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  await profileStatsRoutes(app);
  await profileActivityRoutes(app);
  await profileIssuesRoutes(app);
}
