/** How workspaces, their members and their invitations appear in API responses (snake_case). */
import type { users, workspaceInvitations, workspaceMembers, workspaces } from "../db/schema.ts";
import { presentMemberUser } from "./user.ts";

type UserRow = typeof users.$inferSelect;
type WorkspaceRow = typeof workspaces.$inferSelect;
type MemberRow = typeof workspaceMembers.$inferSelect;
type InvitationRow = typeof workspaceInvitations.$inferSelect;

/** A person named on someone else's object (owner, inviter): no e-mail address. */
export function presentUserLite(user: UserRow | null | undefined) {
  if (!user) return null;
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    display_name: user.displayName,
    avatar: user.avatarUrl,
    avatar_url: user.avatarUrl,
    is_bot: user.isBot,
  };
}

/**
 * A workspace. `extra.role` is the caller's own role (present wherever the caller is a member),
 * `extra.total_members` the count of active non-bot members when the caller listed them.
 */
export function presentWorkspace(
  ws: WorkspaceRow,
  extra: { owner?: UserRow | null; role?: number; total_members?: number } = {},
) {
  return {
    id: ws.id,
    name: ws.name,
    slug: ws.slug,
    logo_url: ws.logoUrl,
    logo_props: ws.logoProps,
    organization_size: ws.organizationSize,
    timezone: ws.timezone,
    owner: extra.owner === undefined ? { id: ws.ownerId } : presentUserLite(extra.owner),
    owner_id: ws.ownerId,
    created_by: ws.createdById,
    updated_by: ws.updatedById,
    created_at: ws.createdAt,
    updated_at: ws.updatedAt,
    ...(extra.role === undefined ? {} : { role: extra.role }),
    ...(extra.total_members === undefined ? {} : { total_members: extra.total_members }),
  };
}

/** The short form carried inside invitations. */
export function presentWorkspaceLite(ws: WorkspaceRow) {
  return { id: ws.id, name: ws.name, slug: ws.slug, logo_url: ws.logoUrl, logo_props: ws.logoProps };
}

/** A workspace membership as the member list and `workspace-members/me/` show it. */
export function presentWorkspaceMember(membership: MemberRow, user: UserRow) {
  return {
    id: membership.id,
    workspace: membership.workspaceId,
    member: presentMemberUser(user),
    role: membership.role,
    is_active: membership.isActive,
    view_props: membership.viewProps,
    created_at: membership.createdAt,
    updated_at: membership.updatedAt,
  };
}

/** An invitation: who was invited, to what role, into which workspace and by whom. */
export function presentInvitation(invitation: InvitationRow, ws: WorkspaceRow, inviter?: UserRow | null) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    message: invitation.message,
    accepted: invitation.accepted,
    responded_at: invitation.respondedAt,
    workspace: presentWorkspaceLite(ws),
    invited_by: presentUserLite(inviter),
    created_by: invitation.createdById,
    created_at: invitation.createdAt,
    updated_at: invitation.updatedAt,
  };
}
