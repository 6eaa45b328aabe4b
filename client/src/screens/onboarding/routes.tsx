import type { RouteObject } from "react-router";

/**
 * Signed-in screens outside any workspace: onboarding, creating a workspace, and answering
 * invitations (the list). The invitation e-mail's link is `invitationLinkRoutes`, open to all.
 */
export const onboardingRoutes: RouteObject[] = [
  {
    path: "/onboarding/",
    lazy: async () => ({ Component: (await import("./onboarding-screen")).OnboardingScreen }),
  },
  {
    path: "/create-workspace/",
    lazy: async () => ({ Component: (await import("./create-workspace-screen")).CreateWorkspaceScreen }),
  },
  {
    path: "/invitations/",
    lazy: async () => ({ Component: (await import("./invitations-screen")).InvitationsScreen }),
  },
];

/**
 * The link in the invitation e-mail: open to whoever holds it, signed in or not (a brand-new
 * person sees who invited them where, and goes on to sign up), so it sits outside the guards.
 */
export const invitationLinkRoutes: RouteObject[] = [
  {
    path: "/workspace-invitations/",
    lazy: async () => ({ Component: (await import("./workspace-invitation-screen")).WorkspaceInvitationScreen }),
  },
];
