import { Navigate, type RouteObject } from "react-router";

/**
 * Workspace (global) views, mounted under the workspace shell (screens/workspace/routes.tsx):
 * `workspace-views/` leads to all-issues; `workspace-views/:viewId/` is a built-in view
 * (all-issues, assigned, created, subscribed) or a saved view's id. The screen loads lazily.
 */
export const workspaceViewRoutes: RouteObject[] = [
  { path: "workspace-views/", element: <Navigate to="all-issues/" replace /> },
  {
    path: "workspace-views/:viewId/",
    lazy: async () => ({ Component: (await import("./workspace-views-screen")).WorkspaceViewsScreen }),
  },
];
