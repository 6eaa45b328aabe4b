/** Where a project's views live in the app. */
export const viewsUrl = (slug: string, projectId: string) => `/${slug}/projects/${projectId}/views/`;
export const viewUrl = (slug: string, projectId: string, viewId: string) =>
  `/${slug}/projects/${projectId}/views/${viewId}/`;
