/**
 * Work-item detail APIs under /api/workspaces/:slug/projects/:projectId/{issues|epics}/:issueId/:
 * sub-issues, relations, links, comments (and comment reactions), reactions, history and
 * description versions.
 * Reading needs any project role (guests see only what the guest rule lets them); writing needs
 * member or above. Every change records history in its transaction and emits its events after
 * the commit.
 */
import type { FastifyInstance } from "fastify";
import { registerCommentRoutes } from "./comments.ts";
import { registerDescriptionVersionRoutes } from "./description-versions.ts";
import { registerHistoryRoutes } from "./history.ts";
import { registerLinkRoutes } from "./links.ts";
import { registerReactionRoutes } from "./reactions.ts";
import { registerRelationRoutes } from "./relations.ts";
import { registerSubIssueRoutes } from "./sub-issues.ts";

export async function issueDetailsRoutes(app: FastifyInstance): Promise<void> {
  await registerSubIssueRoutes(app);
  await registerRelationRoutes(app);
  await registerLinkRoutes(app);
  await registerCommentRoutes(app);
  await registerReactionRoutes(app);
  await registerHistoryRoutes(app);
  await registerDescriptionVersionRoutes(app);
}
