import type { RouteObject } from "react-router";

/** Account settings under /profile/: general, security, appearance, notifications. */
export const profileRoutes: RouteObject[] = [
  {
    path: "/profile/",
    lazy: async () => ({ Component: (await import("./layout")).ProfileLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import("./general")).ProfileGeneral }) },
      { path: "security/", lazy: async () => ({ Component: (await import("./security")).ProfileSecurity }) },
      { path: "appearance/", lazy: async () => ({ Component: (await import("./appearance")).ProfileAppearance }) },
      {
        path: "notifications/",
        lazy: async () => ({ Component: (await import("./notifications")).ProfileNotifications }),
      },
    ],
  },
];
