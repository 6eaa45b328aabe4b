import type { RouteObject } from "react-router";

/**
 * Signed-in screens outside any workspace: onboarding, creating a workspace, and answering
 * invitations (the list, and the link from the invitation e-mail).
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
  {
    path: "/workspace-invitations/",
    lazy: async () => ({ Component: (await import("./workspace-invitation-screen")).WorkspaceInvitationScreen }),
  },
];
