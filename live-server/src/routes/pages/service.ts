/**
 * Pages of a project: list, create, change, lock, access, archive, delete, favorites,
 * duplicate, move, body over REST and versions. Routes check the caller first (policy.ts) and
 * pass what they got; every query here is scoped by the page or workspace ids that check
 * returned. Writes run in `transactionWithEvents` with the page row locked, and re-check the
 * locked row, so two requests never act on a stale page.
 */

import {
  PAGE_ACCESS,
  PAGE_COPY_SUFFIX,
  PAGE_NAME_MAX,
  type PageListType,
  pageDocumentName,
  ROLE,
} from "@tideline/shared";
import { and, desc, eq, ilike, inArray, isNotNull, isNull, ne, notInArray, or, type SQL } from "drizzle-orm";
import * as Y from "yjs";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { escapeLike } from "../../db/like.ts";
import {
  documentUpdates,
  pageProjects,
  pages,
  pageVersions,
  projectMembers,
  projects,
  userFavorites,
  workspaceMembers,
} from "../../db/schema.ts";
import type { EmitFn, EventOrigin } from "../../events/bus.ts";
import { badRequest, forbidden, notFound } from "../../http/errors.ts";
import { titleUpdateFor } from "../../live/schema.ts";
import type { ProjectAccess } from "../../policies/access.ts";
import { addFavorite, dropFavorites, type FavoriteCtx, removeFavorite } from "../../services/favorites.ts";
import { contentOfDoc, docFromState, stateFromHtml } from "./content.ts";
import {
  applyPageUpdate,
  currentPageState,
  lockPageRow,
  replacementFor,
  snapshotPageVersion,
  titleReplacementFor,
  type VersionRow,
} from "./document.ts";
import {
  assertChangeable,
  type PageAccess,
  type PageRow,
  pageNotFound,
  requireEditor,
  requireMemberPlus,
  requireOwnerOrAdmin,
} from "./policy.ts";
import { type PageFacts, presentPage, presentPageDetail, presentPageEvent, presentPageFavorite } from "./presenter.ts";
import type { CreatePageBody, UpdatePageBody } from "./schema.ts";

export const PAGE_FAVORITE = "page";
/** Deepest page tree walked when archiving, restoring or checking a new parent. */
const MAX_DEPTH = 100;

// ───────────────────────────── reading ─────────────────────────────

/** Projects and the caller's favorite flag of each page. */
async function pageFacts(db: DbOrTx, pageIds: string[], userId: string): Promise<Map<string, PageFacts>> {
  const facts = new Map<string, PageFacts>(pageIds.map((id) => [id, { projectIds: [], isFavorite: false }]));
  if (pageIds.length === 0) return facts;
  const links = await db
    .select({ pageId: pageProjects.pageId, projectId: pageProjects.projectId })
    .from(pageProjects)
    .where(inArray(pageProjects.pageId, pageIds))
    .orderBy(pageProjects.createdAt);
  for (const link of links) facts.get(link.pageId)?.projectIds.push(link.projectId);
  const favorites = await db
    .select({ id: userFavorites.entityIdentifier })
    .from(userFavorites)
    .where(
      and(
        eq(userFavorites.userId, userId),
        eq(userFavorites.entityType, PAGE_FAVORITE),
        inArray(userFavorites.entityIdentifier, pageIds),
      ),
    );
  for (const favorite of favorites) {
    const entry = favorite.id ? facts.get(favorite.id) : undefined;
    if (entry) entry.isFavorite = true;
  }
  return facts;
}

async function factsOf(db: DbOrTx, pageId: string, userId: string): Promise<PageFacts> {
  return (await pageFacts(db, [pageId], userId)).get(pageId) ?? { projectIds: [], isFavorite: false };
}

/**
 * Pages of the project the caller can see: public ones and their own private ones. `type`
 * public / private leaves archived pages out, archived keeps only them; without it, all.
 */
export async function listPages(
  db: DbOrTx,
  access: ProjectAccess,
  query: { type?: PageListType | undefined; search?: string | undefined },
) {
  const userId = access.user.id;
  const conditions: (SQL | undefined)[] = [
    eq(pageProjects.projectId, access.project.id),
    eq(pages.workspaceId, access.workspace.id),
    or(eq(pages.access, PAGE_ACCESS.public), eq(pages.ownedById, userId)),
  ];
  if (query.type === "public") conditions.push(eq(pages.access, PAGE_ACCESS.public), isNull(pages.archivedAt));
  if (query.type === "private") conditions.push(eq(pages.access, PAGE_ACCESS.private), isNull(pages.archivedAt));
  if (query.type === "archived") conditions.push(isNotNull(pages.archivedAt));
  const search = query.search?.trim();
  if (search) conditions.push(ilike(pages.name, `%${escapeLike(search)}%`));
  const rows = await db
    .select({ page: pages })
    .from(pages)
    .innerJoin(pageProjects, eq(pageProjects.pageId, pages.id))
    .where(and(...conditions))
    .orderBy(desc(pages.createdAt), desc(pages.id));
  const facts = await pageFacts(
    db,
    rows.map((r) => r.page.id),
    userId,
  );
  return rows.map(({ page }) => presentPage(page, facts.get(page.id) ?? { projectIds: [], isFavorite: false }));
}

/** One page as the caller sees it (their access was checked already). */
export async function pageDetail(db: DbOrTx, pageId: string, userId: string) {
  const [page] = await db.select().from(pages).where(eq(pages.id, pageId));
  if (!page) throw pageNotFound();
  return presentPageDetail(page, await factsOf(db, pageId, userId));
}

// ───────────────────────────── helpers for writes ─────────────────────────────

/** The page row locked, still readable by the caller (it may have turned private meanwhile). */
async function lockReadable(tx: Tx, access: PageAccess): Promise<PageRow> {
  const page = await lockPageRow(tx, access.page.id);
  if (page.access === PAGE_ACCESS.private && page.ownedById !== access.user.id) throw pageNotFound();
  return page;
}

/**
 * Emit `type` about `page` to each of its projects (or to `projectIds`: a move reaches both).
 * `page.updated` names the fields that changed, like `issue.updated`.
 */
async function emitPage(
  tx: DbOrTx,
  emit: EmitFn,
  type: Parameters<EmitFn>[0],
  page: PageRow,
  userId: string,
  options: { projectIds?: string[]; changedFields?: string[] } = {},
): Promise<void> {
  const facts = await factsOf(tx, page.id, userId);
  const data = {
    ...presentPageEvent(page, facts),
    ...(options.changedFields ? { changed_fields: options.changedFields } : {}),
  };
  for (const projectId of options.projectIds ?? facts.projectIds) {
    emit(type, { workspaceId: page.workspaceId, projectId, entityId: page.id }, data);
  }
}

/** Ids of the pages below `rootId` (children, their children, …), within the workspace. */
async function descendantIds(tx: DbOrTx, workspaceId: string, rootId: string): Promise<string[]> {
  const seen = new Set<string>([rootId]);
  let frontier = [rootId];
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    const children = await tx
      .select({ id: pages.id })
      .from(pages)
      .where(and(eq(pages.workspaceId, workspaceId), inArray(pages.parentId, frontier)));
    frontier = children.map((c) => c.id).filter((id) => !seen.has(id));
    for (const id of frontier) seen.add(id);
  }
  seen.delete(rootId);
  return [...seen];
}

/**
 * A page the caller may nest `pageId` under: readable, active, in the same project, and not
 * `pageId` itself or one of its descendants (which would make a loop).
 */
async function assertValidParent(tx: DbOrTx, access: ProjectAccess, parentId: string, pageId: string | null) {
  const fail = (message: string) => badRequest(message, { parent: [message] });
  const [parent] = await tx
    .select({ page: pages })
    .from(pages)
    .innerJoin(pageProjects, and(eq(pageProjects.pageId, pages.id), eq(pageProjects.projectId, access.project.id)))
    .where(
      and(
        eq(pages.id, parentId),
        eq(pages.workspaceId, access.workspace.id),
        or(eq(pages.access, PAGE_ACCESS.public), eq(pages.ownedById, access.user.id)),
      ),
    )
    .limit(1);
  if (!parent) throw fail("Parent page not found");
  if (parent.page.archivedAt) throw fail("The parent page is archived.");
  if (pageId && (parentId === pageId || (await descendantIds(tx, access.workspace.id, pageId)).includes(parentId))) {
    throw fail("A page can't be nested under itself or one of its sub-pages.");
  }
}

/** Body columns for a new page named `name` holding `html`: its Yjs state (with the title) and what derives from it. */
function bodyFromHtml(html: string, name: string) {
  const state = stateFromHtml(html, name);
  const content = contentOfDoc(docFromState(state));
  return { descriptionBinary: state, descriptionHtml: content.html, descriptionStripped: content.stripped };
}

// ───────────────────────────── create, update ─────────────────────────────

/** A new page in the caller's project, owned by the caller. */
export async function createPage(tx: Tx, emit: EmitFn, access: ProjectAccess, body: CreatePageBody): Promise<PageRow> {
  const userId = access.user.id;
  if (body.parent) await assertValidParent(tx, access, body.parent, null);
  const [page] = await tx
    .insert(pages)
    .values({
      workspaceId: access.workspace.id,
      ownedById: userId,
      name: body.name ?? "",
      access: body.access ?? PAGE_ACCESS.public,
      ...bodyFromHtml(body.description_html ?? "<p></p>", body.name ?? ""),
      logoProps: body.logo_props ?? {},
      color: body.color ?? "",
      viewProps: body.view_props ?? {},
      parentId: body.parent ?? null,
      createdById: userId,
      updatedById: userId,
    })
    .returning();
  if (!page) throw new Error("page insert failed");
  await tx
    .insert(pageProjects)
    .values({ pageId: page.id, projectId: access.project.id, workspaceId: access.workspace.id, createdById: userId });
  await emitPage(tx, emit, "page.created", page, userId);
  return page;
}

/**
 * Change the page's fields; `description_html` becomes the Yjs diff to that HTML, merged like a
 * live edit. Returns the update to hand to the live layer, if the body changed.
 */
export async function updatePage(
  tx: Tx,
  emit: EmitFn,
  access: PageAccess,
  body: UpdatePageBody,
): Promise<{ contentUpdate: Uint8Array | null }> {
  requireEditor(access);
  const userId = access.user.id;
  let page = await lockReadable(tx, access);
  assertChangeable(page, { lockedToo: true });
  if (body.parent) await assertValidParent(tx, access, body.parent, page.id);
  let contentUpdate: Uint8Array | null = null;
  if (body.description_html !== undefined) {
    contentUpdate = await replacementFor(tx, page, { html: body.description_html });
    page = await applyPageUpdate(tx, page, contentUpdate, userId);
  }
  // The document's title says the name (PAGE_TITLE_FIELD): a rename rewrites it, and the live
  // layer gets it with any body change.
  if (body.name !== undefined) {
    const titleUpdate = await titleReplacementFor(tx, page, body.name);
    if (titleUpdate) {
      page = await applyPageUpdate(tx, page, titleUpdate, userId);
      contentUpdate = contentUpdate ? Y.mergeUpdates([contentUpdate, titleUpdate]) : titleUpdate;
    }
  }
  const fields = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.logo_props !== undefined ? { logoProps: body.logo_props } : {}),
    ...(body.color !== undefined ? { color: body.color } : {}),
    ...(body.view_props !== undefined ? { viewProps: body.view_props } : {}),
    ...(body.parent !== undefined ? { parentId: body.parent } : {}),
  };
  if (Object.keys(fields).length > 0) {
    const [row] = await tx
      .update(pages)
      .set({ ...fields, updatedById: userId, updatedAt: new Date() })
      .where(eq(pages.id, page.id))
      .returning();
    if (row) page = row;
  }
  const changedFields = Object.keys(body).filter((key) => body[key as keyof UpdatePageBody] !== undefined);
  if (changedFields.length > 0) await emitPage(tx, emit, "page.updated", page, userId, { changedFields });
  return { contentUpdate };
}

/** Apply a client's binary Yjs update to the body (clients without a WebSocket). */
export async function patchDescription(tx: Tx, emit: EmitFn, access: PageAccess, update: Uint8Array): Promise<void> {
  requireEditor(access);
  const page = await lockReadable(tx, access);
  assertChangeable(page, { lockedToo: true });
  const row = await applyPageUpdate(tx, page, update, access.user.id);
  const changedFields = row.name !== page.name ? ["description_html", "name"] : ["description_html"];
  await emitPage(tx, emit, "page.updated", row, access.user.id, { changedFields });
}

// ───────────────────────────── access, lock ─────────────────────────────

/** Set columns of a page this transaction locked, as changed by `userId` now. */
async function updateLockedPage(
  tx: Tx,
  page: PageRow,
  userId: string,
  set: Partial<typeof pages.$inferInsert>,
): Promise<PageRow> {
  const [row] = await tx
    .update(pages)
    .set({ ...set, updatedById: userId, updatedAt: new Date() })
    .where(eq(pages.id, page.id))
    .returning();
  if (!row) throw pageNotFound();
  return row;
}

/** Make the page public or private; going private drops other people's favorites of it. */
export async function setPageAccess(tx: Tx, emit: EmitFn, access: PageAccess, value: number): Promise<void> {
  requireOwnerOrAdmin(access, "change the access of");
  const page = await lockReadable(tx, access);
  assertChangeable(page, { lockedToo: false });
  if (page.access === value) return;
  const row = await updateLockedPage(tx, page, access.user.id, { access: value });
  if (value === PAGE_ACCESS.private) {
    await dropFavorites(
      tx,
      emit,
      and(
        eq(userFavorites.entityType, PAGE_FAVORITE),
        eq(userFavorites.entityIdentifier, page.id),
        ne(userFavorites.userId, row.ownedById),
      ),
    );
  }
  await emitPage(tx, emit, "page.updated", row, access.user.id, { changedFields: ["access"] });
}

/** Lock or unlock; setting the state it already has changes nothing. */
export async function setPageLocked(tx: Tx, emit: EmitFn, access: PageAccess, locked: boolean): Promise<void> {
  requireOwnerOrAdmin(access, locked ? "lock" : "unlock");
  const page = await lockReadable(tx, access);
  assertChangeable(page, { lockedToo: false });
  if (page.isLocked === locked) return;
  const row = await updateLockedPage(tx, page, access.user.id, { isLocked: locked });
  await emitPage(tx, emit, locked ? "page.locked" : "page.unlocked", row, access.user.id);
}

// ───────────────────────────── archive, restore, delete ─────────────────────────────

/**
 * Archive the page and its sub-pages (product-domain §4): a version of the body is saved
 * first, and favorites of the archived pages are removed. Returns archived_at.
 */
export async function archivePage(tx: Tx, emit: EmitFn, access: PageAccess): Promise<Date> {
  requireOwnerOrAdmin(access, "archive");
  const page = await lockReadable(tx, access);
  if (page.archivedAt) throw badRequest("This page is already archived.", undefined, "PAGE_ARCHIVED");
  await snapshotPageVersion(tx, page.id);
  const archivedAt = new Date();
  const ids = [page.id, ...(await descendantIds(tx, page.workspaceId, page.id))];
  const rows = await tx
    .update(pages)
    .set({ archivedAt, updatedById: access.user.id, updatedAt: archivedAt })
    .where(and(inArray(pages.id, ids), isNull(pages.archivedAt)))
    .returning();
  await dropFavorites(
    tx,
    emit,
    and(eq(userFavorites.entityType, PAGE_FAVORITE), inArray(userFavorites.entityIdentifier, ids)),
  );
  for (const row of rows) await emitPage(tx, emit, "page.archived", row, access.user.id);
  return archivedAt;
}

/**
 * Restore the page and the sub-pages archived with it. A page whose parent is still archived
 * (or gone) comes back at the top level.
 */
export async function restorePage(tx: Tx, emit: EmitFn, access: PageAccess): Promise<void> {
  requireOwnerOrAdmin(access, "restore");
  const page = await lockReadable(tx, access);
  if (!page.archivedAt) throw badRequest("This page is not archived.", undefined, "PAGE_NOT_ARCHIVED");
  const below = await descendantIds(tx, page.workspaceId, page.id);
  const ids = [page.id, ...below];
  let detach = false;
  if (page.parentId) {
    const [parent] = await tx
      .select({ archivedAt: pages.archivedAt })
      .from(pages)
      .where(and(eq(pages.id, page.parentId), eq(pages.workspaceId, page.workspaceId)));
    detach = !parent || parent.archivedAt !== null;
  }
  if (detach) await tx.update(pages).set({ parentId: null }).where(eq(pages.id, page.id));
  const rows = await tx
    .update(pages)
    .set({ archivedAt: null, updatedById: access.user.id, updatedAt: new Date() })
    .where(and(inArray(pages.id, ids), eq(pages.archivedAt, page.archivedAt)))
    .returning();
  for (const row of rows) await emitPage(tx, emit, "page.restored", row, access.user.id);
}

/** Delete an archived page for good: its versions, log, favorites; sub-pages move to the top. */
export async function deletePage(tx: Tx, emit: EmitFn, access: PageAccess): Promise<void> {
  requireOwnerOrAdmin(access, "delete");
  const page = await lockReadable(tx, access);
  if (!page.archivedAt) {
    throw badRequest("Archive the page before deleting it.", undefined, "PAGE_NOT_ARCHIVED");
  }
  const facts = await factsOf(tx, page.id, access.user.id);
  await tx
    .update(pages)
    .set({ parentId: null })
    .where(and(eq(pages.workspaceId, page.workspaceId), eq(pages.parentId, page.id)));
  await dropFavorites(
    tx,
    emit,
    and(eq(userFavorites.entityType, PAGE_FAVORITE), eq(userFavorites.entityIdentifier, page.id)),
  );
  await tx.delete(documentUpdates).where(eq(documentUpdates.documentName, pageDocumentName(page.id)));
  await tx.delete(pages).where(eq(pages.id, page.id));
  const data = presentPageEvent(page, facts);
  for (const projectId of facts.projectIds) {
    emit("page.deleted", { workspaceId: page.workspaceId, projectId, entityId: page.id }, data);
  }
}

// ───────────────────────────── favorites ─────────────────────────────

/** Favorite the page for the caller (member and above); an existing favorite is returned as is. */
export async function addPageFavorite(ctx: FavoriteCtx, origin: EventOrigin, access: PageAccess) {
  requireMemberPlus(access, "favorite");
  const { page, user } = access;
  if (page.archivedAt) {
    throw badRequest("Archived pages can't be added to favorites.", undefined, "PAGE_ARCHIVED");
  }
  const { created, row } = await addFavorite(ctx, origin, {
    workspaceId: page.workspaceId,
    userId: user.id,
    entityType: PAGE_FAVORITE,
    entityIdentifier: page.id,
    projectId: access.project.id,
  });
  return { created, favorite: presentPageFavorite(row, page) };
}

/** Remove the caller's favorite of the page (any role may drop their own); 404 when there is none. */
export async function removePageFavorite(ctx: FavoriteCtx, origin: EventOrigin, access: PageAccess): Promise<void> {
  const removed = await removeFavorite(ctx, origin, {
    workspaceId: access.workspace.id,
    userId: access.user.id,
    entityType: PAGE_FAVORITE,
    entityIdentifier: access.page.id,
  });
  if (!removed) throw notFound("Favorite");
}

// ───────────────────────────── duplicate, move ─────────────────────────────

/** The name of a copy: "(copy)" appended, the original shortened to keep within the limit. */
export function copyName(name: string): string {
  return `${name.slice(0, PAGE_NAME_MAX - PAGE_COPY_SUFFIX.length)}${PAGE_COPY_SUFFIX}`;
}

/**
 * A copy of the page in the same project, owned by the caller: same body (state and HTML),
 * access, logo, colour and parent (when that parent is still active), not locked or archived.
 */
export async function duplicatePage(tx: Tx, emit: EmitFn, access: PageAccess): Promise<PageRow> {
  requireMemberPlus(access, "duplicate");
  // The copy is created in this project: that needs member here, not only in another project of the page.
  if ((access.projectMembership?.role ?? 0) < ROLE.member) throw forbidden("Only members can duplicate pages.");
  const userId = access.user.id;
  const page = await lockReadable(tx, access);
  const current = await currentPageState(tx, page);
  const content =
    current.updateIds.length === 0 && !current.built
      ? { html: page.descriptionHtml, stripped: page.descriptionStripped }
      : contentOfDoc(docFromState(current.state));
  let parentId: string | null = null;
  if (page.parentId) {
    const [parent] = await tx
      .select({ id: pages.id })
      .from(pages)
      .innerJoin(pageProjects, and(eq(pageProjects.pageId, pages.id), eq(pageProjects.projectId, access.project.id)))
      .where(and(eq(pages.id, page.parentId), isNull(pages.archivedAt)))
      .limit(1);
    parentId = parent?.id ?? null;
  }
  const name = copyName(page.name);
  // The copy's document says its own name in its title (PAGE_TITLE_FIELD).
  let titleUpdate: Uint8Array | null = null;
  try {
    titleUpdate = titleUpdateFor(current.state, name);
  } catch {
    // An unreadable state is copied as it is; a load or a rename sets the title later.
  }
  const [copy] = await tx
    .insert(pages)
    .values({
      workspaceId: page.workspaceId,
      ownedById: userId,
      name,
      access: page.access,
      descriptionBinary: titleUpdate ? Y.mergeUpdates([current.state, titleUpdate]) : current.state,
      descriptionHtml: content.html,
      descriptionStripped: content.stripped,
      color: page.color,
      logoProps: page.logoProps,
      viewProps: page.viewProps,
      parentId,
      sortOrder: page.sortOrder,
      createdById: userId,
      updatedById: userId,
    })
    .returning();
  if (!copy) throw new Error("page insert failed");
  await tx
    .insert(pageProjects)
    .values({ pageId: copy.id, projectId: access.project.id, workspaceId: page.workspaceId, createdById: userId });
  await emitPage(tx, emit, "page.created", copy, userId);
  return copy;
}

/**
 * Move the page from this project to `newProjectId` of the same workspace. The caller must be
 * the owner or an admin here (checked by the policy) and, in the target, a member (owner) or
 * an admin (anyone else). The page leaves its parent and its sub-pages stay behind at the top.
 */
export async function movePage(tx: Tx, emit: EmitFn, access: PageAccess, newProjectId: string): Promise<void> {
  requireOwnerOrAdmin(access, "move");
  const userId = access.user.id;
  const fail = (message: string, code?: string) => badRequest(message, { new_project_id: [message] }, code);
  if (newProjectId === access.project.id) throw fail("The page is already in this project.");
  const [target] = await tx
    .select({ project: projects, role: projectMembers.role })
    .from(projects)
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, projects.id),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(and(eq(projects.id, newProjectId), eq(projects.workspaceId, access.workspace.id)))
    .limit(1);
  if (!target) throw fail("Project not found", "NOT_FOUND");
  const needed = access.isOwner ? ROLE.member : ROLE.admin;
  if (target.role < needed) {
    throw forbidden(
      access.isOwner
        ? "You need to be a member of the target project to move a page there."
        : "Only an admin of both projects can move someone else's page.",
    );
  }
  if (target.project.archivedAt) throw fail("The target project is archived.", "PROJECT_ARCHIVED");
  const page = await lockReadable(tx, access);
  assertChangeable(page, { lockedToo: false });
  const before = await factsOf(tx, page.id, userId);
  if (before.projectIds.includes(newProjectId)) throw fail("The page is already in that project.");

  await tx
    .delete(pageProjects)
    .where(and(eq(pageProjects.pageId, page.id), eq(pageProjects.projectId, access.project.id)));
  await tx
    .insert(pageProjects)
    .values({ pageId: page.id, projectId: newProjectId, workspaceId: page.workspaceId, createdById: userId });
  await tx
    .update(pages)
    .set({ parentId: null })
    .where(and(eq(pages.workspaceId, page.workspaceId), eq(pages.parentId, page.id)));
  const row = await updateLockedPage(tx, page, userId, { parentId: null });
  // Favorites follow the page; those of people who can't reach it any more go.
  await tx
    .update(userFavorites)
    .set({ projectId: newProjectId })
    .where(and(eq(userFavorites.entityType, PAGE_FAVORITE), eq(userFavorites.entityIdentifier, page.id)));
  const targetMembers = tx
    .select({ id: projectMembers.memberId })
    .from(projectMembers)
    .innerJoin(
      workspaceMembers,
      and(
        eq(workspaceMembers.workspaceId, projectMembers.workspaceId),
        eq(workspaceMembers.memberId, projectMembers.memberId),
        eq(workspaceMembers.isActive, true),
      ),
    )
    .where(and(eq(projectMembers.projectId, newProjectId), eq(projectMembers.isActive, true)));
  await dropFavorites(
    tx,
    emit,
    and(
      eq(userFavorites.entityType, PAGE_FAVORITE),
      eq(userFavorites.entityIdentifier, page.id),
      notInArray(userFavorites.userId, targetMembers),
    ),
  );
  // Both projects hear of it: the old one drops the page, the new one adds it.
  await emitPage(tx, emit, "page.moved", row, userId, {
    projectIds: [...new Set([...before.projectIds, newProjectId])],
  });
}

// ───────────────────────────── versions ─────────────────────────────

export async function listVersions(db: DbOrTx, pageId: string): Promise<VersionRow[]> {
  return db
    .select()
    .from(pageVersions)
    .where(eq(pageVersions.pageId, pageId))
    .orderBy(desc(pageVersions.lastSavedAt), desc(pageVersions.createdAt));
}

export async function getVersion(db: DbOrTx, pageId: string, versionId: string): Promise<VersionRow> {
  const [version] = await db
    .select()
    .from(pageVersions)
    .where(and(eq(pageVersions.id, versionId), eq(pageVersions.pageId, pageId)))
    .limit(1);
  if (!version) throw notFound("Version");
  return version;
}

/**
 * Bring the body back to a version (editors only): the current body is saved as a version
 * first, then the diff to the old body is applied like any edit. Returns that update.
 */
export async function restoreVersion(tx: Tx, emit: EmitFn, access: PageAccess, versionId: string): Promise<Uint8Array> {
  requireEditor(access);
  const page = await lockReadable(tx, access);
  assertChangeable(page, { lockedToo: true });
  const version = await getVersion(tx, page.id, versionId);
  await snapshotPageVersion(tx, page.id);
  const target = version.descriptionBinary ? { state: version.descriptionBinary } : { html: version.descriptionHtml };
  const update = await replacementFor(tx, page, target);
  const row = await applyPageUpdate(tx, page, update, access.user.id);
  await emitPage(tx, emit, "page.updated", row, access.user.id, { changedFields: ["description_html"] });
  return update;
}
