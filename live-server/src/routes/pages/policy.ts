/**
 * Who may do what with a page (product-domain §6). The role that counts is the highest active
 * project role across the page's projects, and reading and editing the content follow the same
 * rules as the live layer: both use `pagePermission` from live/documents.ts.
 *
 * - A page is reached through one of its projects; the caller must be a member of that project.
 * - Private pages (access 1) exist for their owner only: anyone else, workspace and project
 *   admins included, gets 404. Admins can lock, archive, delete or move public pages only.
 * - Read: public page, any project role (guests too); private page, its owner.
 * - Edit (name, logo, body, versions): the owner, or member and above on a public page; never
 *   while the page is archived or locked (400, so the client can say why).
 * - Duplicate and favorite: member and above.
 * - Lock, access, archive, restore, delete, move: the owner or an admin.
 */
import { ROLE } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { pageProjects, type pages } from "../../db/schema.ts";
import { badRequest, forbidden, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { type PagePermission, pagePermission } from "../../live/documents.ts";
import { type ProjectAccess, projectAccess } from "../../policies/access.ts";

export type PageRow = typeof pages.$inferSelect;
export type PageAccess = ProjectAccess & PagePermission;

export const pageNotFound = () => notFound("Page");

/** The page `pageId` of project `projectId`, if the caller may read it; 404 otherwise. */
export async function pageAccess(
  db: DbOrTx,
  request: FastifyRequest,
  slug: string,
  projectId: string,
  pageId: string,
): Promise<PageAccess> {
  const access = await projectAccess(db, request, slug, projectId);
  if (!isUuid(pageId)) throw pageNotFound();
  const permission = await pagePermission(db, access.user.id, pageId);
  if (!permission?.canRead || permission.page.workspaceId !== access.workspace.id) throw pageNotFound();
  const [link] = await db
    .select({ pageId: pageProjects.pageId })
    .from(pageProjects)
    .where(and(eq(pageProjects.pageId, pageId), eq(pageProjects.projectId, access.project.id)))
    .limit(1);
  if (!link) throw pageNotFound();
  return { ...access, ...permission };
}

/** May write the page's fields and body (ignoring its archived/locked state). */
export function mayEdit(access: Pick<PagePermission, "isOwner" | "role">): boolean {
  // A private page is only ever readable by its owner, so "public with member+" covers the rest.
  return access.isOwner || access.role >= ROLE.member;
}

export function requireEditor(access: PageAccess): void {
  if (!mayEdit(access)) throw forbidden("Only the owner or members of the page's projects can edit this page.");
}

export function requireMemberPlus(access: PageAccess, what: string): void {
  if (access.role < ROLE.member) throw forbidden(`Only members can ${what} pages.`);
}

export function requireOwnerOrAdmin(access: PageAccess, what: string): void {
  if (!access.isOwner && access.role < ROLE.admin) {
    throw forbidden(`Only the owner of the page or an admin can ${what} it.`);
  }
}

/** Refuse a change to a page that is archived, or (for its fields and body) locked. */
export function assertChangeable(page: PageRow, options: { lockedToo: boolean }): void {
  if (page.archivedAt) {
    throw badRequest("This page is archived. Restore it to change it.", undefined, "PAGE_ARCHIVED");
  }
  if (options.lockedToo && page.isLocked) {
    throw badRequest("This page is locked. Unlock it to change it.", undefined, "PAGE_LOCKED");
  }
}
