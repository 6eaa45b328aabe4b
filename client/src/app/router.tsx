/**
 * All routes. Each screen group owns a `routes.tsx` that lists its routes (screens are loaded
 * lazily there); this file only places the groups under the right route-state guard.
 */
import { createBrowserRouter } from "react-router";
import { authRoutes, setPasswordRoutes } from "../screens/auth/routes";
import { godModeRoutes } from "../screens/god-mode/routes";
import { invitationLinkRoutes, onboardingRoutes } from "../screens/onboarding/routes";
import { profileRoutes } from "../screens/profile/routes";
import { workspaceRoutes } from "../screens/workspace/routes";
import { ErrorPage } from "./error-page";
import { NonAuthenticatedOnly, RequireOnboarded, RequireUser } from "./guards";
import { Root } from "./root";

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
          { element: <RequireOnboarded />, children: [...profileRoutes, ...workspaceRoutes] },
        ],
      },
      { path: "*", element: <ErrorPage notFound /> },
    ],
  },
]);
