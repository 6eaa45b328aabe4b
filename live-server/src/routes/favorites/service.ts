/**
 * user-favorites/: the caller's own favorites in a workspace (services/favorites.ts holds the
 * rules shared with the entity calls). Only the owner ever reads or changes one: another
 * person's favorite, like another workspace's, is a 404.
 */
import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { userFavorites } from "../../db/schema.ts";
import { type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import {
  addFavorite,
  deleteFavoriteRows,
  emitFavorite,
  type FavoriteCtx,
  type FavoriteRow,
  nextSequence,
  presentFavorite,
  visibleEntity,
  visibleWithEntityData,
} from "../../services/favorites.ts";
import type { CreateFavoriteBody, UpdateFavoriteBody } from "./schema.ts";

const ownedBy = (access: WorkspaceAccess): SQL =>
  and(eq(userFavorites.workspaceId, access.workspace.id), eq(userFavorites.userId, access.user.id)) as SQL;

async function presentVisible(db: DbOrTx, rows: FavoriteRow[]) {
  return (await visibleWithEntityData(db, rows)).map(({ row, entityData }) => presentFavorite(row, entityData));
}

/** The caller's favorites in sequence order: the top level, or with `all` every one (folders' too). */
export async function listFavorites(db: DbOrTx, access: WorkspaceAccess, all: boolean) {
  const rows = await db
    .select()
    .from(userFavorites)
    .where(and(ownedBy(access), all ? undefined : isNull(userFavorites.parentId)))
    .orderBy(asc(userFavorites.sequence), asc(userFavorites.createdAt));
  return presentVisible(db, rows);
}

/** The caller's favorite, or a 404. */
export async function getOwnFavorite(db: DbOrTx, access: WorkspaceAccess, id: string): Promise<FavoriteRow> {
  if (!isUuid(id)) throw notFound("Favorite");
  const [row] = await db
    .select()
    .from(userFavorites)
    .where(and(ownedBy(access), eq(userFavorites.id, id)))
    .limit(1);
  if (!row) throw notFound("Favorite");
  return row;
}

/** What a folder holds (GET user-favorites/{id}/group/), in sequence order. */
export async function listGroup(db: DbOrTx, access: WorkspaceAccess, folderId: string) {
  const folder = await getOwnFavorite(db, access, folderId);
  const rows = await db
    .select()
    .from(userFavorites)
    .where(and(ownedBy(access), eq(userFavorites.parentId, folder.id)))
    .orderBy(asc(userFavorites.sequence), asc(userFavorites.createdAt));
  return presentVisible(db, rows);
}

/** A parent must be one of the caller's folders (else 400 on `parent`). */
async function requireFolder(db: DbOrTx, access: WorkspaceAccess, parentId: string): Promise<FavoriteRow> {
  const [folder] = await db
    .select()
    .from(userFavorites)
    .where(and(ownedBy(access), eq(userFavorites.id, parentId)))
    .limit(1);
  if (!folder?.isFolder) {
    throw badRequest("The parent must be one of your folders.", { parent: ["Not one of your folders"] });
  }
  return folder;
}

/**
 * Add a favorite (201), or return the one already there (200). The entity must be one the
 * caller can see, else 404, as for any other workspace's thing.
 */
export async function createFavorite(
  ctx: FavoriteCtx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  body: CreateFavoriteBody,
) {
  const owner = { workspaceId: access.workspace.id, userId: access.user.id };
  if (body.parent) await requireFolder(ctx.db, access, body.parent);
  if (body.entity_type === "folder") {
    return addFavorite(ctx, origin, {
      ...owner,
      entityType: "folder",
      entityIdentifier: null,
      projectId: null,
      name: body.name ?? null,
      parentId: null,
    });
  }
  const entityIdentifier = body.entity_identifier as string;
  const entity = await visibleEntity(ctx.db, owner, {
    entityType: body.entity_type,
    entityIdentifier,
    projectId: body.project_id ?? null,
  });
  if (!entity) throw notFound(entityLabel(body.entity_type));
  const projectId = body.entity_type === "project" ? entityIdentifier : ((entity.project_id as string | null) ?? null);
  return addFavorite(ctx, origin, {
    ...owner,
    entityType: body.entity_type,
    entityIdentifier,
    projectId,
    parentId: body.parent ?? null,
  });
}

function entityLabel(type: string): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

/** Rename a folder, file a favorite into or out of a folder, or move it (sequence); emits favorite.updated. */
export async function updateFavorite(
  ctx: FavoriteCtx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  id: string,
  body: UpdateFavoriteBody,
) {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getOwnFavorite(tx, access, id);
    const set: Partial<typeof userFavorites.$inferInsert> = { updatedById: access.user.id, updatedAt: new Date() };
    if (body.name !== undefined) {
      if (!current.isFolder) throw badRequest("Only folders can be renamed.", { name: ["Only folders have a name"] });
      set.name = body.name;
    }
    if (body.parent !== undefined && body.parent !== current.parentId) {
      if (body.parent !== null) {
        if (current.isFolder) {
          throw badRequest("Folders cannot be put in folders.", { parent: ["Folders cannot be put in folders"] });
        }
        await requireFolder(tx, access, body.parent);
      }
      set.parentId = body.parent;
      // Filed without a place: the end of its new level.
      if (body.sequence === undefined) set.sequence = await nextSequence(tx, current, body.parent);
    }
    if (body.sequence !== undefined) set.sequence = body.sequence;
    const [row] = await tx.update(userFavorites).set(set).where(eq(userFavorites.id, current.id)).returning();
    if (!row) throw notFound("Favorite");
    const [shown] = await visibleWithEntityData(tx, [row]);
    emitFavorite(emit, "updated", row, shown?.entityData ?? null);
    return presentFavorite(row, shown?.entityData ?? null);
  });
}

/** Remove a favorite; a folder goes with what it holds (as the reference cascades). */
export async function deleteFavorite(ctx: FavoriteCtx, origin: EventOrigin, access: WorkspaceAccess, id: string) {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getOwnFavorite(tx, access, id);
    await deleteFavoriteRows(tx, emit, [current]);
  });
}
