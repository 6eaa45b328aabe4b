import type { RouteObject } from "react-router";
import { analyticsRoutes } from "../analytics/routes";
import { cycleRoutes } from "../cycles/routes";
import { epicRoutes } from "../epics/routes";
import { intakeRoutes } from "../intake/routes";
import { memberProfileRoutes } from "../member-profile/routes";
import { moduleRoutes } from "../modules/routes";
import { pageRoutes } from "../pages/routes";
import { viewRoutes } from "../views/routes";
import { workspaceViewRoutes } from "../workspace-views/routes";

/**
 * The workspace app under /:workspaceSlug/. The shell (sidebar) is one chunk; each screen
 * loads lazily.
 */
export const workspaceRoutes: RouteObject[] = [
  {
    path: "/:workspaceSlug/",
    lazy: async () => ({ Component: (await import("./layout")).WorkspaceLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import("./home/home-screen")).HomeScreen }) },
      {
        path: "projects/",
        lazy: async () => ({ Component: (await import("./projects/projects-screen")).ProjectsScreen }),
      },
      {
        path: "projects/archives/",
        lazy: async () => ({ Component: (await import("./projects/projects-screen")).ArchivedProjectsScreen }),
      },
      {
        path: "projects/:projectId/issues/",
        lazy: async () => ({
          Component: (await import("../work-items/project-work-items-screen")).ProjectWorkItemsScreen,
        }),
      },
      {
        path: "projects/:projectId/archives/issues/",
        lazy: async () => ({
          Component: (await import("../work-items/archived-work-items-screen")).ArchivedWorkItemsScreen,
        }),
      },
      {
        path: "projects/:projectId/archives/issues/:issueId/",
        lazy: async () => ({ Component: (await import("../work-item/archived-work-item-page")).ArchivedWorkItemPage }),
      },
      ...pageRoutes,
      ...cycleRoutes,
      ...moduleRoutes,
      ...viewRoutes,
      ...workspaceViewRoutes,
      ...memberProfileRoutes,
      ...epicRoutes,
      ...intakeRoutes,
      ...analyticsRoutes,
      {
        path: "browse/:workItemKey/",
        lazy: async () => ({ Component: (await import("../work-item/work-item-page")).WorkItemPage }),
      },
      {
        path: "notifications/",
        lazy: async () => ({
          Component: (await import("../notifications/notifications-screen")).NotificationsScreen,
        }),
      },
      {
        path: "drafts/",
        lazy: async () => ({ Component: (await import("../work-items/drafts-screen")).DraftsScreen }),
      },
      {
        path: "projects/:projectId/settings/",
        lazy: async () => ({ Component: (await import("./project-settings/layout")).ProjectSettingsLayout }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import("./project-settings/general")).ProjectGeneralSettings }),
          },
          {
            path: "members/",
            lazy: async () => ({ Component: (await import("./project-settings/members")).ProjectMembersSettings }),
          },
          {
            path: "features/",
            lazy: async () => ({
              Component: (await import("./project-settings/features")).ProjectFeaturesSettings,
            }),
          },
          {
            path: "states/",
            lazy: async () => ({ Component: (await import("./project-settings/states")).ProjectStatesSettings }),
          },
          {
            path: "labels/",
            lazy: async () => ({ Component: (await import("./project-settings/labels")).ProjectLabelsSettings }),
          },
          {
            path: "estimates/",
            lazy: async () => ({ Component: (await import("./project-settings/estimates")).ProjectEstimatesSettings }),
          },
        ],
      },
      {
        path: "settings/",
        lazy: async () => ({ Component: (await import("./settings/layout")).WorkspaceSettingsLayout }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import("./settings/general")).WorkspaceGeneralSettings }),
          },
          {
            path: "members/",
            lazy: async () => ({ Component: (await import("./settings/members")).WorkspaceMembersSettings }),
          },
          {
            path: "webhooks/",
            lazy: async () => ({ Component: (await import("./settings/webhooks")).WorkspaceWebhooksSettings }),
          },
          {
            path: "webhooks/:webhookId/",
            lazy: async () => ({ Component: (await import("./settings/webhook-detail")).WorkspaceWebhookDetail }),
          },
          {
            path: "exports/",
            lazy: async () => ({ Component: (await import("./settings/exports")).WorkspaceExportsSettings }),
          },
          {
            path: "api-tokens/",
            lazy: async () => ({ Component: (await import("./settings/api-tokens")).WorkspaceApiTokensSettings }),
          },
          {
            path: "api-tokens/reference/",
            lazy: async () => ({ Component: (await import("./settings/api-reference")).WorkspaceApiReference }),
          },
        ],
      },
    ],
  },
];
