/** Every route module of the API, registered in one place. */
import type { FastifyInstance } from "fastify";
import { assetsRoutes } from "./assets/routes.ts";
import { authRoutes } from "./auth/routes.ts";
import { cyclesRoutes } from "./cycles/routes.ts";
import { estimatesRoutes } from "./estimates/routes.ts";
import { favoritesRoutes } from "./favorites/routes.ts";
import { homeRoutes } from "./home/routes.ts";
import { instanceRoutes } from "./instances/routes.ts";
import { intakeRoutes } from "./intake/routes.ts";
import { issueDetailsRoutes } from "./issue-details/routes.ts";
import { issuesRoutes } from "./issues/routes.ts";
import { labelsRoutes } from "./labels/routes.ts";
import { modulesRoutes } from "./modules/routes.ts";
import { notificationsRoutes } from "./notifications/routes.ts";
import { pagesRoutes } from "./pages/routes.ts";
import { profileRoutes } from "./profile/routes.ts";
import { projectsRoutes } from "./projects/routes.ts";
import { statesRoutes } from "./states/routes.ts";
import { stickiesRoutes } from "./stickies/routes.ts";
import { timezonesRoutes } from "./timezones/routes.ts";
import { usersRoutes } from "./users/routes.ts";
import { viewsRoutes } from "./views/routes.ts";
import { workspacesRoutes } from "./workspaces/routes.ts";

export async function registerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(instanceRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(workspacesRoutes);
  await app.register(projectsRoutes);
  await app.register(statesRoutes);
  await app.register(labelsRoutes);
  await app.register(estimatesRoutes);
  await app.register(issuesRoutes);
  await app.register(issueDetailsRoutes);
  await app.register(cyclesRoutes);
  await app.register(modulesRoutes);
  await app.register(viewsRoutes);
  await app.register(favoritesRoutes);
  await app.register(assetsRoutes);
  await app.register(pagesRoutes);
  await app.register(profileRoutes);
  await app.register(notificationsRoutes);
  await app.register(timezonesRoutes);
  await app.register(stickiesRoutes);
  await app.register(intakeRoutes);
  await app.register(homeRoutes);
}
