/** How projects, their members and project favorites appear in API responses (snake_case). */
import { isProjectFeatureAvailable, type ProjectFeature } from "@tideline/shared";
import type { projectMembers, projects, users } from "../../db/schema.ts";
import { presentMemberUser } from "../../presenters/user.ts";
import { type FavoriteRow, presentFavorite } from "../../services/favorites.ts";

type ProjectRow = typeof projects.$inferSelect;
type ProjectMemberRow = typeof projectMembers.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** What the caller's own relation to a project adds to it. */
export type ProjectViewer = {
  memberRole: number | null;
  sortOrder: number | null;
  isFavorite: boolean;
};

/** Extra facts the detail view carries: the active members. */
export type ProjectMembersInfo = { memberIds: string[] };

/**
 * The feature flags as the project has them: a feature Tideline does not have yet is reported
 * off whatever is stored (AVAILABLE_PROJECT_FEATURES), so nothing claims it; the stored value
 * (the reference's default) shows once the feature is built.
 */
function featureFlags(p: ProjectRow): Record<ProjectFeature, boolean> {
  const stored: Record<ProjectFeature, boolean> = {
    cycle_view: p.cycleView,
    module_view: p.moduleView,
    issue_views_view: p.issueViewsView,
    page_view: p.pageView,
    inbox_view: p.inboxView,
    is_time_tracking_enabled: p.isTimeTrackingEnabled,
    is_epic_enabled: p.isEpicEnabled,
  };
  return Object.fromEntries(
    Object.entries(stored).map(([f, on]) => [f, on && isProjectFeatureAvailable(f as ProjectFeature)]),
  ) as Record<ProjectFeature, boolean>;
}

/** The list entry (sidebar, project pickers). */
export function presentProjectLite(p: ProjectRow, viewer: ProjectViewer) {
  return {
    id: p.id,
    workspace: p.workspaceId,
    name: p.name,
    identifier: p.identifier,
    logo_props: p.logoProps,
    cover_image: p.coverImage,
    network: p.network,
    archived_at: p.archivedAt,
    is_member: viewer.memberRole !== null,
    member_role: viewer.memberRole,
    sort_order: viewer.sortOrder,
    is_favorite: viewer.isFavorite,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    project_lead: p.projectLeadId,
    ...featureFlags(p),
  };
}

/** The project itself, no viewer's relation to it: the data of project.created (webhooks, the live layer). */
export function presentProjectEvent(p: ProjectRow) {
  return {
    id: p.id,
    workspace: p.workspaceId,
    name: p.name,
    identifier: p.identifier,
    description: p.description,
    network: p.network,
    logo_props: p.logoProps,
    cover_image: p.coverImage,
    project_lead: p.projectLeadId,
    archived_at: p.archivedAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    created_by: p.createdById,
    ...featureFlags(p),
  };
}

/** The full project: settings pages, the project list with details. */
export function presentProjectDetail(p: ProjectRow, viewer: ProjectViewer, info: ProjectMembersInfo) {
  return {
    ...presentProjectLite(p, viewer),
    description: p.description,
    default_assignee: p.defaultAssigneeId,
    timezone: p.timezone,
    archive_in: p.archiveIn,
    close_in: p.closeIn,
    guest_view_all_features: p.guestViewAllFeatures,
    estimate: p.estimateId,
    total_members: info.memberIds.length,
    members: info.memberIds,
    created_by: p.createdById,
    updated_by: p.updatedById,
  };
}

/**
 * A row of the project member list (list, add, detail, role change), in the reference's
 * membership shape: `member` is the person's user id — clients key members by it — and
 * `member_details` carries the person beside it so a list draws without a second call.
 * `original_role` is the stored role (the reference keeps it apart from an effective role).
 */
export function presentProjectMember(m: ProjectMemberRow, user: UserRow) {
  return {
    id: m.id,
    project: m.projectId,
    member: m.memberId,
    member_details: presentMemberUser(user),
    role: m.role,
    original_role: m.role,
    created_at: m.createdAt,
  };
}

/** The caller's own membership (GET project-members/me/, join): where the project role comes from. */
export function presentOwnMembership(m: ProjectMemberRow) {
  return {
    id: m.id,
    project: m.projectId,
    member: m.memberId,
    role: m.role,
    sort_order: m.sortOrder,
    view_props: m.viewProps,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

/** A project favorite, with enough of the project to draw it in the sidebar. */
export function presentProjectFavorite(f: FavoriteRow, p: ProjectRow) {
  return presentFavorite(f, {
    id: p.id,
    name: p.name,
    identifier: p.identifier,
    logo_props: p.logoProps,
    network: p.network,
  });
}
