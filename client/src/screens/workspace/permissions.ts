/**
 * What the current person may see and do, by role (product-domain §6). The server enforces
 * every rule; these only decide what the UI offers, so nobody meets a button that can only fail.
 */
import { ROLE } from "@tideline/shared";

type Role = number | null | undefined;

export const can = {
  /** Workspace settings pages (general, members): admin and member. */
  seeWorkspaceSettings: (role: Role) => (role ?? 0) >= ROLE.member,
  /** Change name, logo, size; delete the workspace: admin only. */
  editWorkspace: (role: Role) => (role ?? 0) >= ROLE.admin,
  invite: (role: Role) => (role ?? 0) >= ROLE.member,
  /** Change members' roles and remove members: admin only (members and guests see the list read-only). */
  manageWorkspaceMembers: (role: Role) => (role ?? 0) >= ROLE.admin,
  /** Settings → Exports: workspace admins only (product-domain §6). */
  manageExports: (role: Role) => (role ?? 0) >= ROLE.admin,
  /** Settings → Webhooks: workspace admins only (product-domain §6). */
  manageWebhooks: (role: Role) => (role ?? 0) >= ROLE.admin,
  /** Settings → API tokens: admins only (product-domain §6). */
  manageApiTokens: (role: Role) => (role ?? 0) >= ROLE.admin,
  /** Create a project in the workspace: member or above. */
  createProject: (role: Role) => (role ?? 0) >= ROLE.member,
  /** Sidebar / menu: archives (and your work, analytics, drafts) are hidden from guests. */
  seeArchives: (role: Role) => (role ?? 0) >= ROLE.member,
  /** Project settings general and members are open to every project role; changing them: project admin. */
  editProject: (projectRole: Role) => (projectRole ?? 0) >= ROLE.admin,
  /** Project features (and estimates, automations): project admin only. */
  seeProjectFeatures: (projectRole: Role) => (projectRole ?? 0) >= ROLE.admin,
};
