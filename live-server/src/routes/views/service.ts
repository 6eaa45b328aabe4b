/**
 * Saved views (product-domain §3 View, §4 view lock / favorite / publish; the reference's
 * IssueViewViewSet and WorkspaceViewViewSet). One service serves both kinds: a project's
 * views (scope.projectId set, roles are project roles) and the workspace's (projectId null,
 * roles are workspace roles). Routes check membership first and pass the scope they got;
 * every query here is bounded by the scope, so no view is reachable from another project or
 * workspace, and a private view of someone else is a 404 like a missing one.
 *
 * Rules:
 * - creating needs role member or above; reading, any member (guests too) — public views and
 *   the caller's own private ones;
 * - changing, deleting, locking, access, archiving: the owner or an admin (403 otherwise);
 *   publishing and unpublishing: an admin (the reference's rule; a public link exposes the
 *   project's items);
 * - a locked view refuses every PATCH (400 VIEW_LOCKED, the reference's rule) until unlocked;
 *   locking a locked view is 400 VIEW_ALREADY_LOCKED; unlocking an unlocked one is a no-op;
 * - an archived view refuses changes (400 VIEW_ARCHIVED) and loses its favorites;
 * - a private view cannot be published (400 VIEW_PRIVATE); turning a view private unpublishes it
 *   and removes other people's favorites of it;
 * - every change emits view.created / view.updated / view.deleted (presenter.ts viewEventData).
 */
import { ROLE } from "@tideline/shared";
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, or, type SQL } from "drizzle-orm";
import { randomToken } from "../../auth/crypto.ts";
import type { AppContext } from "../../context.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { issueViews, userFavorites } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, forbidden, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import {
  addFavorite as addUserFavorite,
  dropFavorites,
  removeFavorite as removeUserFavorite,
} from "../../services/favorites.ts";
import { applyUserPropertiesPatch, parseUserPropertiesPatch } from "../issues/user-properties-routes.ts";
import { type PresentedView, presentView, type ViewRow, viewEventData } from "./presenter.ts";
import { VIEW_ACCESS, type ViewInput } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

export const VIEW_FAVORITE = "view";

/** Who asks, and where: a project (projectId) or the workspace (projectId null). */
export type ViewScope = {
  workspaceId: string;
  projectId: string | null;
  userId: string;
  /** The caller's role where the view lives: project role, or workspace role. */
  role: number;
};

/** Workspace views open in the spreadsheet ordered by newest (product-domain §2). */
const WORKSPACE_DISPLAY_DEFAULTS = { layout: "spreadsheet", order_by: "-created_at" };

const viewNotFound = () => notFound("View");
const eventScope = (v: ViewRow) => ({ workspaceId: v.workspaceId, projectId: v.projectId, entityId: v.id });

function inScope(scope: ViewScope): SQL {
  const place = scope.projectId ? eq(issueViews.projectId, scope.projectId) : isNull(issueViews.projectId);
  const visible = or(eq(issueViews.access, VIEW_ACCESS.public), eq(issueViews.ownedById, scope.userId));
  return and(eq(issueViews.workspaceId, scope.workspaceId), place, visible) as SQL;
}

function requireOwnerOrAdmin(scope: ViewScope, view: ViewRow, action: string): void {
  if (view.ownedById !== scope.userId && scope.role < ROLE.admin) {
    throw forbidden(`Only the view's owner or an admin can ${action} it.`);
  }
}

/** Guests read views but change none: 403 before anything else is looked at. */
function requireMember(scope: ViewScope, message?: string): void {
  if (scope.role < ROLE.member) throw forbidden(message);
}

/** Every user's star on one view (they all go when it is archived or deleted). */
const favoritesOfView = (viewId: string) =>
  and(eq(userFavorites.entityType, VIEW_FAVORITE), eq(userFavorites.entityIdentifier, viewId));

function assertNotArchived(view: ViewRow): void {
  if (view.archivedAt) throw badRequest("This view is archived. Restore it first.", undefined, "VIEW_ARCHIVED");
}

// ───────────────────────────── reading ─────────────────────────────

/** A view the caller may see in this scope, or 404. `archived`: true only archived, false only not, undefined either. */
export async function getView(
  db: DbOrTx,
  scope: ViewScope,
  viewId: string,
  options: { archived?: boolean; lock?: boolean } = {},
): Promise<ViewRow> {
  if (!isUuid(viewId)) throw viewNotFound();
  const conditions: SQL[] = [eq(issueViews.id, viewId), inScope(scope)];
  if (options.archived === true) conditions.push(isNotNull(issueViews.archivedAt));
  if (options.archived === false) conditions.push(isNull(issueViews.archivedAt));
  const query = db
    .select()
    .from(issueViews)
    .where(and(...conditions))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw viewNotFound();
  return row;
}

async function favoriteIds(db: DbOrTx, userId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: userFavorites.entityIdentifier })
    .from(userFavorites)
    .where(
      and(
        eq(userFavorites.userId, userId),
        eq(userFavorites.entityType, VIEW_FAVORITE),
        inArray(userFavorites.entityIdentifier, ids),
      ),
    );
  return new Set(rows.map((r) => r.id).filter((id): id is string => id !== null));
}

export async function presentViews(db: DbOrTx, rows: ViewRow[], userId: string): Promise<PresentedView[]> {
  const favorite = await favoriteIds(
    db,
    userId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => presentView(row, { isFavorite: favorite.has(row.id) }));
}

export async function presentOne(db: DbOrTx, row: ViewRow, userId: string): Promise<PresentedView> {
  const [out] = await presentViews(db, [row], userId);
  if (!out) throw new Error("view not presented");
  return out;
}

/**
 * The scope's views the caller may see. Project views: favorites first, then by name (the
 * reference's order); workspace views: newest first (the reference's default order_by).
 */
export async function listViews(db: DbOrTx, scope: ViewScope, archived: boolean): Promise<PresentedView[]> {
  const rows = await db
    .select()
    .from(issueViews)
    .where(and(inScope(scope), archived ? isNotNull(issueViews.archivedAt) : isNull(issueViews.archivedAt)) as SQL)
    .orderBy(
      ...(scope.projectId ? [asc(issueViews.name), asc(issueViews.createdAt)] : [desc(issueViews.createdAt)]),
      asc(issueViews.id),
    );
  const presented = await presentViews(db, rows, scope.userId);
  return scope.projectId ? presented.sort((a, b) => Number(b.is_favorite) - Number(a.is_favorite)) : presented;
}

// ───────────────────────────── changing ─────────────────────────────

/**
 * The filter columns a body sets, checked with the user-properties rules (400 naming the bad
 * key, before anything is stored). A view's PATCH replaces each of the three it sends whole
 * (as the reference's serializer does); `displayBase` are the defaults display filters start from.
 */
export function viewColumns(raw: unknown, displayBase: Record<string, unknown>) {
  const patch = parseUserPropertiesPatch(raw ?? {});
  const next = applyUserPropertiesPatch({ filters: {}, displayFilters: displayBase, displayProperties: {} }, patch);
  const out: Partial<Pick<ViewRow, "filters" | "displayFilters" | "displayProperties">> = {};
  if (patch.body.filters !== undefined) out.filters = next.filters;
  if (patch.body.display_filters !== undefined) out.displayFilters = next.displayFilters;
  if (patch.body.display_properties !== undefined) out.displayProperties = next.displayProperties;
  return out;
}

export const displayBaseOf = (scope: { projectId: string | null }) =>
  scope.projectId ? {} : WORKSPACE_DISPLAY_DEFAULTS;

function plainFields(input: ViewInput): Partial<typeof issueViews.$inferInsert> {
  const out: Partial<typeof issueViews.$inferInsert> = {};
  if (input.name !== undefined) out.name = input.name ?? "";
  if (input.description !== undefined) out.description = input.description ?? "";
  if (input.access !== undefined) out.access = input.access;
  if (input.logo_props !== undefined) out.logoProps = input.logo_props;
  if (input.sort_order !== undefined) out.sortOrder = input.sort_order;
  // A private view has no public link.
  if (input.access === VIEW_ACCESS.private) out.anchor = null;
  return out;
}

async function emitted(tx: Tx, emit: EmitFn, type: "view.created" | "view.updated", row: ViewRow, userId: string) {
  emit(type, eventScope(row), viewEventData(row));
  return presentOne(tx, row, userId);
}

export async function createView(
  ctx: Ctx,
  origin: EventOrigin,
  scope: ViewScope,
  input: ViewInput,
  raw: unknown,
): Promise<PresentedView> {
  requireMember(scope, "Guests cannot create views.");
  const base = displayBaseOf(scope);
  const columns = { filters: {}, displayFilters: viewColumns({ display_filters: {} }, base).displayFilters };
  Object.assign(columns, viewColumns(raw, base));
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const [row] = await tx
      .insert(issueViews)
      .values({
        workspaceId: scope.workspaceId,
        projectId: scope.projectId,
        ...columns,
        ...plainFields(input),
        ownedById: scope.userId,
        createdById: scope.userId,
        updatedById: scope.userId,
      })
      .returning();
    if (!row) throw new Error("view insert failed");
    return emitted(tx, emit, "view.created", row, scope.userId);
  });
}

/** One kind of change to a view (changeView). */
type ViewChange = {
  /** Named in the 403: "Only the view's owner or an admin can {action} it." */
  action: string;
  /** Publishing is for admins; every other change for the view's owner or an admin. */
  adminOnly?: boolean;
  /** Restoring and unpublishing also reach an archived view; every other change is 400 VIEW_ARCHIVED there. */
  archivedToo?: boolean;
  /** The columns to set, from the locked current row (null: nothing to change). */
  set: (current: ViewRow) => Partial<typeof issueViews.$inferInsert> | null;
};

/** Change a view the caller may edit, with its row locked; an unchanged view is answered as it is. */
async function changeView(
  ctx: Ctx,
  origin: EventOrigin,
  scope: ViewScope,
  viewId: string,
  change: ViewChange,
): Promise<PresentedView> {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getView(tx, scope, viewId, { lock: true });
    if (change.adminOnly) {
      if (scope.role < ROLE.admin) throw forbidden(`Only an admin can ${change.action} a view.`);
    } else requireOwnerOrAdmin(scope, current, change.action);
    if (!change.archivedToo) assertNotArchived(current);
    const set = change.set(current);
    if (!set) return presentOne(tx, current, scope.userId);
    const [row] = await tx
      .update(issueViews)
      .set({ ...set, updatedById: scope.userId, updatedAt: new Date() })
      .where(eq(issueViews.id, current.id))
      .returning();
    if (!row) throw viewNotFound();
    if (row.archivedAt && !current.archivedAt) {
      await dropFavorites(tx, emit, favoritesOfView(row.id));
    }
    if (row.access === VIEW_ACCESS.private && current.access !== VIEW_ACCESS.private) {
      // Others can no longer see it: their stars on it would point at nothing.
      const others = row.ownedById ? ne(userFavorites.userId, row.ownedById) : undefined;
      await dropFavorites(tx, emit, and(favoritesOfView(row.id), others));
    }
    // Turning a view private: members who held it learn it is gone for them (viewEventData).
    return emitted(tx, emit, "view.updated", row, scope.userId);
  });
}

export async function updateView(
  ctx: Ctx,
  origin: EventOrigin,
  scope: ViewScope,
  viewId: string,
  input: ViewInput,
  raw: unknown,
): Promise<PresentedView> {
  requireMember(scope, "Guests cannot change views.");
  const columns = viewColumns(raw, displayBaseOf(scope));
  return changeView(ctx, origin, scope, viewId, {
    action: "change",
    set: (current) => {
      if (current.isLocked) {
        throw badRequest("This view is locked. Unlock it to change it.", undefined, "VIEW_LOCKED");
      }
      return { ...columns, ...plainFields(input) };
    },
  });
}

export async function setViewLocked(
  ctx: Ctx,
  origin: EventOrigin,
  scope: ViewScope,
  viewId: string,
  locked: boolean,
): Promise<PresentedView> {
  requireMember(scope);
  return changeView(ctx, origin, scope, viewId, {
    action: locked ? "lock" : "unlock",
    set: (current) => {
      if (locked && current.isLocked) {
        throw badRequest("This view is already locked.", undefined, "VIEW_ALREADY_LOCKED");
      }
      return current.isLocked === locked ? null : { isLocked: locked };
    },
  });
}

export async function setViewAccess(
  ctx: Ctx,
  origin: EventOrigin,
  scope: ViewScope,
  viewId: string,
  access: 0 | 1,
): Promise<PresentedView> {
  requireMember(scope);
  return changeView(ctx, origin, scope, viewId, {
    action: "change the access of",
    set: (current) => (current.access === access ? null : plainFields({ access })),
  });
}

/** Publish: give the view a public anchor (kept if it has one). A private view can't be published. */
export async function publishView(ctx: Ctx, origin: EventOrigin, scope: ViewScope, viewId: string) {
  return changeView(ctx, origin, scope, viewId, {
    action: "publish",
    adminOnly: true,
    set: (current) => {
      if (current.access === VIEW_ACCESS.private) {
        throw badRequest("A private view cannot be published. Make it public first.", undefined, "VIEW_PRIVATE");
      }
      return current.anchor ? null : { anchor: randomToken(16) };
    },
  });
}

export async function unpublishView(ctx: Ctx, origin: EventOrigin, scope: ViewScope, viewId: string) {
  return changeView(ctx, origin, scope, viewId, {
    action: "unpublish",
    adminOnly: true,
    archivedToo: true,
    set: (current) => (current.anchor ? { anchor: null } : null),
  });
}

/** Archive (its favorites go) or restore. Archiving an archived view is 400 VIEW_ARCHIVED. */
export async function setViewArchived(
  ctx: Ctx,
  origin: EventOrigin,
  scope: ViewScope,
  viewId: string,
  archived: boolean,
): Promise<PresentedView> {
  requireMember(scope);
  return changeView(ctx, origin, scope, viewId, {
    action: archived ? "archive" : "restore",
    archivedToo: !archived,
    set: (current) => {
      if (archived) return { archivedAt: new Date() };
      return current.archivedAt ? { archivedAt: null } : null;
    },
  });
}

export async function deleteView(ctx: Ctx, origin: EventOrigin, scope: ViewScope, viewId: string): Promise<void> {
  requireMember(scope, "Guests cannot delete views.");
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getView(tx, scope, viewId, { lock: true });
    requireOwnerOrAdmin(scope, current, "delete");
    await dropFavorites(tx, emit, favoritesOfView(current.id));
    await tx.delete(issueViews).where(eq(issueViews.id, current.id));
    emit("view.deleted", eventScope(current), viewEventData(current));
  });
}

// ───────────────────────────── favorites ─────────────────────────────

/** Star a view for the caller (a favorite already there stays as it is). Members and admins (the reference's rule). */
export async function addFavoriteView(ctx: Ctx, origin: EventOrigin, scope: ViewScope, viewId: string): Promise<void> {
  requireMember(scope, "Guests cannot favorite views.");
  const row = await getView(ctx.db, scope, viewId, { archived: false });
  await addUserFavorite(ctx, origin, {
    workspaceId: row.workspaceId,
    userId: scope.userId,
    entityType: VIEW_FAVORITE,
    entityIdentifier: row.id,
    projectId: row.projectId,
  });
}

/** Remove the caller's star of a view; 404 when there is none. */
export async function removeFavoriteView(
  ctx: Ctx,
  origin: EventOrigin,
  scope: ViewScope,
  viewId: string,
): Promise<void> {
  requireMember(scope, "Guests cannot favorite views.");
  if (!isUuid(viewId)) throw notFound("Favorite");
  const removed = await removeUserFavorite(ctx, origin, {
    workspaceId: scope.workspaceId,
    userId: scope.userId,
    entityType: VIEW_FAVORITE,
    entityIdentifier: viewId,
    projectId: scope.projectId,
  });
  if (!removed) throw notFound("Favorite");
}
