/**
 * All routes. Each screen group owns a `routes.tsx` that lists its routes (screens are loaded
 * lazily there); this file only places the groups under the right route-state guard.
 */
import { createBrowserRouter, type RouteObject } from "react-router";
import { authRoutes, setPasswordRoutes } from "../screens/auth/routes";
import { godModeRoutes } from "../screens/god-mode/routes";
import { invitationLinkRoutes, onboardingRoutes } from "../screens/onboarding/routes";
import { profileRoutes } from "../screens/profile/routes";
import { workspaceRoutes } from "../screens/workspace/routes";
import { ErrorPage } from "./error-page";
import { NonAuthenticatedOnly, RequireOnboarded, RequireUser } from "./guards";
import { Root } from "./root";

/**
 * A screen that fails (its code can't be fetched offline, or it throws) shows the error page
 * inside its layout, in place of the screen alone: the sidebar stays, so the person can go
 * elsewhere. The root's error page is left for what fails above the layouts.
 */
function errorsInsideLayouts(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) =>
    route.children ? { ...route, children: [{ errorElement: <ErrorPage />, children: route.children }] } : route,
  );
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <ErrorPage />,
    children: [
      ...godModeRoutes,
      ...invitationLinkRoutes,
      { element: <NonAuthenticatedOnly />, children: authRoutes },
      {
        element: <RequireUser />,
        children: [
          ...setPasswordRoutes,
          ...onboardingRoutes,
          {
            element: <RequireOnboarded />,
            children: errorsInsideLayouts([...profileRoutes, ...workspaceRoutes]),
          },
        ],
      },
      { path: "*", element: <ErrorPage notFound /> },
    ],
  },
]);
