import type { RouteObject } from "react-router";

/** Workspace analytics under the workspace shell: /analytics/ opens the first tab. */
export const analyticsRoutes: RouteObject[] = [
  {
    path: "analytics/:tab?/",
    lazy: async () => ({ Component: (await import("./analytics-screen")).AnalyticsScreen }),
  },
];
