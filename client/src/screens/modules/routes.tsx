import type { RouteObject } from "react-router";

/**
 * A project's modules, mounted under the workspace shell (screens/workspace/routes.tsx): the
 * modules page, the archived modules and one module's work items. Each screen loads lazily.
 */
export const moduleRoutes: RouteObject[] = [
  {
    path: "projects/:projectId/modules/",
    lazy: async () => ({ Component: (await import("./modules-screen")).ModulesScreen }),
  },
  {
    path: "projects/:projectId/modules/archived/",
    lazy: async () => ({ Component: (await import("./archived-modules-screen")).ArchivedModulesScreen }),
  },
  {
    path: "projects/:projectId/modules/:moduleId/",
    lazy: async () => ({ Component: (await import("./module-work-items-screen")).ModuleWorkItemsScreen }),
  },
];
