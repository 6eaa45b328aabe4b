import type { RouteObject } from "react-router";

/**
 * A project's cycles, mounted under the workspace shell (screens/workspace/routes.tsx): the
 * cycles page, the archive, and one cycle's work items. Each screen loads lazily.
 */
export const cycleRoutes: RouteObject[] = [
  {
    path: "projects/:projectId/cycles/",
    lazy: async () => ({ Component: (await import("./cycles-screen")).CyclesScreen }),
  },
  {
    path: "projects/:projectId/cycles/archived/",
    lazy: async () => ({ Component: (await import("./archived-cycles-screen")).ArchivedCyclesScreen }),
  },
  {
    path: "projects/:projectId/cycles/:cycleId/",
    lazy: async () => ({ Component: (await import("./cycle-work-items-screen")).CycleWorkItemsScreen }),
  },
];
