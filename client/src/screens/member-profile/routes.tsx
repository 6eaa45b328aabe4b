import type { RouteObject } from "react-router";

/**
 * A workspace member's profile (product-domain §2 "Profile sub-tabs: summary (empty route),
 * assigned, created, subscribed, activity"), mounted under the workspace shell. The frame (the
 * member's card and the tabs) stays while the tabs change; each tab loads lazily.
 */
export const memberProfileRoutes: RouteObject[] = [
  {
    path: "profile/:userId/",
    lazy: async () => ({ Component: (await import("./member-profile-layout")).MemberProfileLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import("./summary-screen")).ProfileSummaryScreen }) },
      {
        path: "assigned/",
        lazy: async () => ({ Component: (await import("./issues-screen")).AssignedIssuesScreen }),
      },
      {
        path: "created/",
        lazy: async () => ({ Component: (await import("./issues-screen")).CreatedIssuesScreen }),
      },
      {
        path: "subscribed/",
        lazy: async () => ({ Component: (await import("./issues-screen")).SubscribedIssuesScreen }),
      },
      {
        path: "activity/",
        lazy: async () => ({ Component: (await import("./activity-screen")).ProfileActivityScreen }),
      },
    ],
  },
];
