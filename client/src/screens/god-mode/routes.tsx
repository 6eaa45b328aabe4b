/**
 * The instance administrator's area. No user guard: the sign-in and set-up pages are for
 * visitors, and the settings layout lets only the instance admin in. Screens load lazily.
 */
import type { RouteObject } from "react-router";

export const godModeRoutes: RouteObject[] = [
  {
    path: "god-mode",
    children: [
      { index: true, lazy: async () => ({ Component: (await import("./admin-sign-in-screen")).AdminSignInScreen }) },
      { path: "setup", lazy: async () => ({ Component: (await import("./setup-screen")).SetupScreen }) },
      {
        lazy: async () => ({ Component: (await import("./layout")).GodModeLayout }),
        children: [
          { path: "general", lazy: async () => ({ Component: (await import("./general-screen")).GeneralScreen }) },
          {
            path: "authentication",
            lazy: async () => ({ Component: (await import("./authentication-screen")).AuthenticationScreen }),
          },
          { path: "email", lazy: async () => ({ Component: (await import("./email-screen")).EmailScreen }) },
        ],
      },
    ],
  },
];
