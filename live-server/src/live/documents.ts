/**
 * Who may read and who may write each kind of live document. The page rules are shared with
 * the pages REST API (routes/pages), so a page is readable and editable under exactly the same
 * conditions over HTTP and over the WebSocket (product-domain §6):
 * - the role that counts is the highest active project role across the page's projects;
 * - access 0 (public): readable by any member of one of those projects (guests too), editable
 *   by member or above; access 1 (private): readable and editable by its owner only;
 * - content is editable only when the page is neither archived nor locked.
 * A page that belongs to no project falls back to the caller's workspace role (our choice: the
 * spec only describes project pages). Every rule also needs an active workspace membership.
 */
import { type LiveDocumentRef, ROLE } from "@tideline/shared";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { issues, pageProjects, pages, projectMembers, projects, workspaceMembers, workspaces } from "../db/schema.ts";
import { isUuid } from "../http/ids.ts";
import { COLLABORATION_DOCUMENT_TYPE, type CollaborationScope } from "./collaboration.ts";

export type PageRow = typeof pages.$inferSelect;

/** What a user may do with a page, with the facts the decision was made from. */
export type PagePermission = {
  page: PageRow;
  /** Highest project role across the page's projects (workspace role for a page without projects), 0 when none. */
  role: number;
  isOwner: boolean;
  canRead: boolean;
  /** May change the content right now (false while archived or locked). */
  canEdit: boolean;
};

/** The user's permission on a page, or null when the page does not exist or is not in one of their workspaces. */
export async function pagePermission(db: DbOrTx, userId: string, pageId: string): Promise<PagePermission | null> {
  if (!isUuid(pageId) || !isUuid(userId)) return null;
  const [row] = await db
    .select({ page: pages, workspaceRole: workspaceMembers.role })
    .from(pages)
    .innerJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, pages.workspaceId),
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .where(eq(pages.id, pageId))
    .limit(1);
  if (!row) return null;
  const { page } = row;
  const links = await db
    .select({ projectId: pageProjects.projectId, role: projectMembers.role })
    .from(pageProjects)
    .leftJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, pageProjects.projectId),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(eq(pageProjects.pageId, page.id));
  const role = links.length === 0 ? row.workspaceRole : links.reduce((max, link) => Math.max(max, link.role ?? 0), 0);
  const isOwner = page.ownedById === userId;
  const canRead = page.access === 1 ? isOwner : role >= ROLE.guest;
  const mayWrite = page.access === 1 ? isOwner : role >= ROLE.member;
  const canEdit = canRead && mayWrite && page.archivedAt === null && !page.isLocked;
  return { page, role, isOwner, canRead, canEdit };
}

/** True when `userId` may read page `pageId` (product-domain §6). */
export async function canReadPage(db: DbOrTx, userId: string, pageId: string): Promise<boolean> {
  return (await pagePermission(db, userId, pageId))?.canRead ?? false;
}

/** True when `userId` may change the content of page `pageId` now: readable, allowed, not archived, not locked. */
export async function canEditPage(db: DbOrTx, userId: string, pageId: string): Promise<boolean> {
  return (await pagePermission(db, userId, pageId))?.canEdit ?? false;
}

/**
 * What a connection to a live document may do; null means it may not connect.
 * `projectIds`: the projects whose changes can affect these rights (project deletion and
 * settings changes re-check them); `workspaceId`: the workspace the document lives in (its
 * deletion re-checks them; null for a user channel).
 * `ownItemsOnly`: a guest restricted to the work items they created (guest_view_all_features off):
 * on a project channel, they get only the events of those items.
 */
export type DocumentRights = {
  readOnly: boolean;
  projectIds: string[];
  workspaceId: string | null;
  ownItemsOnly: boolean;
  /** A project channel of someone with the guest role (intake.* events: only their own requests). */
  guest?: boolean;
  /** A workspace channel of one of its admins (export.* events go to admins only). */
  workspaceAdmin?: boolean;
} | null;

/**
 * A work item's description (`issue.{id}`): active members of the item's project; guests read
 * only, and a guest restricted to their own items (guest_view_all_features off) cannot open
 * anyone else's. Deleted items cannot be opened; archived ones are read-only.
 */
export async function issueDocumentRights(db: DbOrTx, userId: string, issueId: string): Promise<DocumentRights> {
  if (!isUuid(issueId) || !isUuid(userId)) return null;
  const [row] = await db
    .select({
      projectId: issues.projectId,
      workspaceId: issues.workspaceId,
      createdById: issues.createdById,
      archivedAt: issues.archivedAt,
      role: projectMembers.role,
      guestViewAllFeatures: projects.guestViewAllFeatures,
    })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, issues.projectId),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .innerJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, issues.workspaceId),
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .where(and(eq(issues.id, issueId), isNull(issues.deletedAt)))
    .limit(1);
  if (!row) return null;
  const isGuest = row.role < ROLE.member;
  if (isGuest && !row.guestViewAllFeatures && row.createdById !== userId) return null;
  return {
    readOnly: isGuest || row.archivedAt !== null,
    projectIds: [row.projectId],
    workspaceId: row.workspaceId,
    ownItemsOnly: false,
  };
}

/** A project's event channel (`project.{id}`): its active members, read-only (the server alone writes). */
export async function projectChannelRights(db: DbOrTx, userId: string, projectId: string): Promise<DocumentRights> {
  if (!isUuid(projectId) || !isUuid(userId)) return null;
  const [row] = await db
    .select({
      role: projectMembers.role,
      guestViewAllFeatures: projects.guestViewAllFeatures,
      workspaceId: projects.workspaceId,
    })
    .from(projects)
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, projects.id),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .innerJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, projects.workspaceId),
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .where(eq(projects.id, projectId))
    .limit(1);
  if (!row) return null;
  return {
    readOnly: true,
    projectIds: [projectId],
    workspaceId: row.workspaceId,
    ownItemsOnly: row.role < ROLE.member && !row.guestViewAllFeatures,
    guest: row.role < ROLE.member,
  };
}

/**
 * A workspace's event channel (`workspace.{id}`): its active members, guests too, read-only (the
 * server alone writes). What each connection then receives is narrowed per event (a private
 * view's events reach its owner only: extensions/events.ts `mayReceiveInWorkspace`).
 */
export async function workspaceChannelRights(db: DbOrTx, userId: string, workspaceId: string): Promise<DocumentRights> {
  if (!isUuid(workspaceId) || !isUuid(userId)) return null;
  const [row] = await db
    .select({ id: workspaceMembers.id, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.memberId, userId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .limit(1);
  if (!row) return null;
  return { readOnly: true, projectIds: [], workspaceId, ownItemsOnly: false, workspaceAdmin: row.role >= ROLE.admin };
}

/** Rights of `userId` on the document `ref` (see the table in shared/src/live/protocol.ts). */
export async function documentRights(db: DbOrTx, userId: string, ref: LiveDocumentRef): Promise<DocumentRights> {
  switch (ref.kind) {
    case "page": {
      const permission = await pagePermission(db, userId, ref.id);
      if (!permission?.canRead) return null;
      const links = await db
        .select({ projectId: pageProjects.projectId })
        .from(pageProjects)
        .where(eq(pageProjects.pageId, ref.id));
      return {
        readOnly: !permission.canEdit,
        projectIds: links.map((l) => l.projectId),
        workspaceId: permission.page.workspaceId,
        ownItemsOnly: false,
      };
    }
    case "issue":
      return issueDocumentRights(db, userId, ref.id);
    case "project":
      return projectChannelRights(db, userId, ref.id);
    case "workspace":
      return workspaceChannelRights(db, userId, ref.id);
    case "user":
      // Only its owner, and only to listen.
      return ref.id === userId ? { readOnly: true, projectIds: [], workspaceId: null, ownItemsOnly: false } : null;
  }
}

/**
 * Whether a /live/collaboration socket's query names the place of this page (collaboration.ts):
 * the reference's document type, the page's workspace by slug and one of the page's projects.
 * Its own live server reads the page through that project's API, so a page of another project
 * or workspace is not found there either.
 */
export async function collaborationScopeAllows(
  db: DbOrTx,
  pageId: string,
  scope: CollaborationScope,
): Promise<boolean> {
  const { documentType, projectId, workspaceSlug } = scope;
  if (documentType !== COLLABORATION_DOCUMENT_TYPE || !workspaceSlug || !projectId || !isUuid(projectId)) return false;
  if (!isUuid(pageId)) return false;
  const [row] = await db
    .select({ id: pages.id })
    .from(pages)
    .innerJoin(workspaces, eq(workspaces.id, pages.workspaceId))
    .innerJoin(pageProjects, and(eq(pageProjects.pageId, pages.id), eq(pageProjects.projectId, projectId)))
    .where(and(eq(pages.id, pageId), eq(workspaces.slug, workspaceSlug)))
    .limit(1);
  return row !== undefined;
}

/**
 * Rights of a connection: `documentRights`, and for a /live/collaboration socket only pages of
 * the workspace and project its query names (read at authentication and at every re-check).
 */
export async function connectionRights(
  db: DbOrTx,
  userId: string,
  ref: LiveDocumentRef,
  collaboration: CollaborationScope | undefined,
): Promise<DocumentRights> {
  if (collaboration && (ref.kind !== "page" || !(await collaborationScopeAllows(db, ref.id, collaboration)))) {
    return null;
  }
  return documentRights(db, userId, ref);
}
