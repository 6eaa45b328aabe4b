/**
 * A user's favorite of one page or project (user_favorites): added at the end of their top
 * level, removed by what it points at, shown with the entity's own fields in entity_data.
 * Pages and projects follow the same rules; only what they check first and show differs.
 */
import { and, eq, isNull, max } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { userFavorites } from "../db/schema.ts";

/** Gap between sequences, so a favorite can later be moved between two others without renumbering. */
const FAVORITE_STEP = 10000;
const FIRST_SEQUENCE = 65535;

export type FavoriteRow = typeof userFavorites.$inferSelect;

/** The user's favorite of one entity. */
export type FavoriteKey = {
  workspaceId: string;
  userId: string;
  entityType: string;
  entityIdentifier: string;
};

async function findFavorite(db: DbOrTx, key: FavoriteKey): Promise<FavoriteRow | undefined> {
  const [row] = await db
    .select()
    .from(userFavorites)
    .where(
      and(
        eq(userFavorites.userId, key.userId),
        eq(userFavorites.entityType, key.entityType),
        eq(userFavorites.entityIdentifier, key.entityIdentifier),
      ),
    )
    .limit(1);
  return row;
}

/** Add the favorite after the user's last top-level one; an existing favorite is returned as it is. */
export async function addFavorite(
  db: Db,
  key: FavoriteKey & { projectId: string },
): Promise<{ created: boolean; row: FavoriteRow }> {
  const before = await findFavorite(db, key);
  if (before) return { created: false, row: before };
  const [last] = await db
    .select({ largest: max(userFavorites.sequence) })
    .from(userFavorites)
    .where(
      and(
        eq(userFavorites.workspaceId, key.workspaceId),
        eq(userFavorites.userId, key.userId),
        isNull(userFavorites.parentId),
      ),
    );
  const sequence =
    last?.largest === null || last?.largest === undefined ? FIRST_SEQUENCE : last.largest + FAVORITE_STEP;
  const [inserted] = await db
    .insert(userFavorites)
    .values({ ...key, sequence, createdById: key.userId, updatedById: key.userId })
    .onConflictDoNothing()
    .returning();
  // A concurrent request may have added it between the check and the insert.
  const row = inserted ?? (await findFavorite(db, key));
  if (!row) throw new Error("favorite insert failed");
  return { created: Boolean(inserted), row };
}

/** Remove the favorite; false when the user had none. */
export async function removeFavorite(db: DbOrTx, key: FavoriteKey): Promise<boolean> {
  const deleted = await db
    .delete(userFavorites)
    .where(
      and(
        eq(userFavorites.workspaceId, key.workspaceId),
        eq(userFavorites.userId, key.userId),
        eq(userFavorites.entityType, key.entityType),
        eq(userFavorites.entityIdentifier, key.entityIdentifier),
      ),
    )
    .returning({ id: userFavorites.id });
  return deleted.length > 0;
}

/** A favorite as the API shows it; `entityData` is the page's or project's own summary. */
export function presentFavorite<EntityData>(favorite: FavoriteRow, entityData: EntityData) {
  return {
    id: favorite.id,
    entity_type: favorite.entityType,
    entity_identifier: favorite.entityIdentifier,
    project_id: favorite.projectId,
    parent: favorite.parentId,
    is_folder: favorite.isFolder,
    sequence: favorite.sequence,
    name: favorite.name,
    entity_data: entityData,
    created_at: favorite.createdAt,
  };
}
