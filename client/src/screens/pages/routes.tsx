import type { RouteObject } from "react-router";

/**
 * A project's pages, mounted under the workspace shell (screens/workspace/routes.tsx):
 * the list (tabs Public / Private / Archived) and one page. Each screen loads lazily; the
 * page screen's editor is a further chunk of its own.
 */
export const pageRoutes: RouteObject[] = [
  {
    path: "projects/:projectId/pages/",
    lazy: async () => ({ Component: (await import("./pages-list-screen")).PagesListScreen }),
  },
  {
    path: "projects/:projectId/pages/:pageId/",
    lazy: async () => ({ Component: (await import("./page-screen")).PageScreen }),
  },
];
