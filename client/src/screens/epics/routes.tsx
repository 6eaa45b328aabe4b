import type { RouteObject } from "react-router";

/**
 * A project's epics, mounted under the workspace shell (screens/workspace/routes.tsx): the epics
 * board and one epic's page. Each screen loads lazily.
 */
export const epicRoutes: RouteObject[] = [
  {
    path: "projects/:projectId/epics/",
    lazy: async () => ({ Component: (await import("./epics-screen")).EpicsScreen }),
  },
  {
    path: "projects/:projectId/epics/:issueId/",
    lazy: async () => ({ Component: (await import("./epic-page")).EpicPage }),
  },
];
