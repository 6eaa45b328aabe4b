import type { RouteObject } from "react-router";

/** A project's intake (its queue of requests), mounted under the workspace shell; loads lazily. */
export const intakeRoutes: RouteObject[] = [
  {
    path: "projects/:projectId/intake/",
    lazy: async () => ({ Component: (await import("./intake-screen")).IntakeScreen }),
  },
];
