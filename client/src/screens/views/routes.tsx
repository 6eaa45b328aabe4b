import type { RouteObject } from "react-router";

/**
 * A project's saved views, mounted under the workspace shell (screens/workspace/routes.tsx): the
 * views list and one view's board. Each screen loads lazily.
 */
export const viewRoutes: RouteObject[] = [
  {
    path: "projects/:projectId/views/",
    lazy: async () => ({ Component: (await import("./views-screen")).ViewsScreen }),
  },
  {
    path: "projects/:projectId/views/archived/",
    lazy: async () => ({ Component: (await import("./archived-views-screen")).ArchivedViewsScreen }),
  },
  {
    path: "projects/:projectId/views/:viewId/",
    lazy: async () => ({ Component: (await import("./view-board-screen")).ViewBoardScreen }),
  },
];
