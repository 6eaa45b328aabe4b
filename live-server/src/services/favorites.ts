/**
 * A person's favorites (user_favorites, product-domain §3 Favorite, §4 favorites): one table
 * behind both the generic user-favorites/ API and the entity calls (user-favorite-projects,
 * -cycles, -modules, -views, favorite-pages), so a star set in one shows in the other.
 *
 * - A favorite points at a project, cycle, module, view or page, or is a folder (no entity,
 *   a name) holding favorites one level deep (`parent`).
 * - Adding one already favorited returns the existing one. A new favorite goes after the last
 *   one of its level: sequence = the largest there + FAVORITE_SEQUENCE_STEP.
 * - A favorite is shown only while its entity exists, is not archived and the owner can still
 *   see it (active project member; a view or page: public, or their own); the others are left
 *   out of every answer (visibleEntityData), so leaving a project hides its favorites without
 *   losing them should the person come back.
 * - Every change runs in transactionWithEvents and emits `favorite.*` with the owner in
 *   `owner`: personal events, sent only to the owner's user channel (isPersonalEvent).
 */
import {
  FAVORITE_FIRST_SEQUENCE,
  FAVORITE_SEQUENCE_STEP,
  type FavoriteEntityType,
  NETWORK,
  PAGE_ACCESS,
} from "@tideline/shared";
import { and, eq, inArray, isNotNull, isNull, max, or, type SQL } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import type { DbOrTx } from "../db/client.ts";
import {
  cycles,
  issueViews,
  modules,
  pageProjects,
  pages,
  projectMembers,
  projects,
  userFavorites,
} from "../db/schema.ts";
import { type EmitFn, type EventOrigin, transactionWithEvents } from "../events/bus.ts";
// Views number access the other way round from pages (0 private, 1 public).
import { VIEW_ACCESS } from "../routes/views/schema.ts";

export type FavoriteRow = typeof userFavorites.$inferSelect;
export type FavoriteCtx = Pick<AppContext, "db" | "events">;
/** What the answer shows of the favorite's entity (the reference's per-type lite serializers). */
export type EntityData = Record<string, unknown>;

/** The user's favorite of one entity. */
export type FavoriteKey = {
  workspaceId: string;
  userId: string;
  entityType: string;
  entityIdentifier: string;
};

/** A favorite as the API shows it; `entityData` is the entity's own summary (null for a folder). */
export function presentFavorite(favorite: FavoriteRow, entityData: EntityData | null) {
  return {
    id: favorite.id,
    entity_type: favorite.entityType,
    entity_identifier: favorite.entityIdentifier,
    entity_data: entityData,
    name: favorite.name,
    is_folder: favorite.isFolder,
    sequence: favorite.sequence,
    parent: favorite.parentId,
    workspace_id: favorite.workspaceId,
    project_id: favorite.projectId,
    created_at: favorite.createdAt,
  };
}

/** The event's data: the favorite as the API shows it, and whose it is (eventRecipientId). */
function eventData(row: FavoriteRow, entityData: EntityData | null) {
  return { ...presentFavorite(row, entityData), owner: row.userId };
}

const scopeOf = (row: FavoriteRow) => ({ workspaceId: row.workspaceId, projectId: row.projectId, entityId: row.id });

/** Emit `favorite.<kind>` for the row (within the caller's transaction). */
export function emitFavorite(
  emit: EmitFn,
  kind: "created" | "updated" | "deleted",
  row: FavoriteRow,
  entityData: EntityData | null,
): void {
  emit(`favorite.${kind}`, scopeOf(row), eventData(row, entityData));
}

// ───────────────────────────── what the owner may still see ─────────────────────────────

const memberOf = (userId: string) =>
  and(
    eq(projectMembers.projectId, projects.id),
    eq(projectMembers.memberId, userId),
    eq(projectMembers.isActive, true),
  );

/** Rows of entity ids (and their summaries) visible to `userId` in `workspaceId`, per type. */
async function visibleOfType(
  db: DbOrTx,
  userId: string,
  workspaceId: string,
  type: string,
  favorites: Pick<FavoriteRow, "entityIdentifier" | "projectId">[],
): Promise<Map<string, EntityData>> {
  const ids = [...new Set(favorites.map((f) => f.entityIdentifier).filter((id): id is string => id !== null))];
  const out = new Map<string, EntityData>();
  if (!ids.length) return out;
  const liveProject = and(eq(projects.workspaceId, workspaceId), isNull(projects.archivedAt)) as SQL;
  if (type === "project") {
    const rows = await db
      .select({ p: projects })
      .from(projects)
      .leftJoin(projectMembers, memberOf(userId))
      .where(
        and(
          inArray(projects.id, ids),
          liveProject,
          or(isNotNull(projectMembers.id), eq(projects.network, NETWORK.public)),
        ),
      );
    for (const { p } of rows) {
      out.set(p.id, { id: p.id, name: p.name, identifier: p.identifier, logo_props: p.logoProps, network: p.network });
    }
    return out;
  }
  if (type === "cycle" || type === "module") {
    const table = type === "cycle" ? cycles : modules;
    const rows = await db
      .select({ id: table.id, name: table.name, logoProps: table.logoProps, projectId: table.projectId })
      .from(table)
      .innerJoin(projects, eq(projects.id, table.projectId))
      .innerJoin(projectMembers, memberOf(userId))
      .where(and(inArray(table.id, ids), isNull(table.archivedAt), liveProject));
    for (const r of rows) out.set(r.id, { id: r.id, name: r.name, logo_props: r.logoProps, project_id: r.projectId });
    return out;
  }
  if (type === "view") {
    // Project views need membership of their project; workspace views (no project) only the workspace.
    const rows = await db
      .select({ v: issueViews, member: projectMembers.id, projectArchived: projects.archivedAt })
      .from(issueViews)
      .leftJoin(projects, eq(projects.id, issueViews.projectId))
      .leftJoin(projectMembers, memberOf(userId))
      .where(
        and(
          inArray(issueViews.id, ids),
          eq(issueViews.workspaceId, workspaceId),
          isNull(issueViews.archivedAt),
          or(eq(issueViews.access, VIEW_ACCESS.public), eq(issueViews.ownedById, userId)),
        ),
      );
    for (const { v, member, projectArchived } of rows) {
      if (v.projectId && (!member || projectArchived)) continue;
      out.set(v.id, { id: v.id, name: v.name, logo_props: v.logoProps, project_id: v.projectId });
    }
    return out;
  }
  if (type === "page") {
    const rows = await db
      .select({ p: pages, projectId: pageProjects.projectId })
      .from(pages)
      .innerJoin(pageProjects, eq(pageProjects.pageId, pages.id))
      .innerJoin(projects, eq(projects.id, pageProjects.projectId))
      .innerJoin(projectMembers, memberOf(userId))
      .where(
        and(
          inArray(pages.id, ids),
          isNull(pages.archivedAt),
          liveProject,
          or(eq(pages.access, PAGE_ACCESS.public), eq(pages.ownedById, userId)),
        ),
      );
    for (const { p, projectId } of rows) {
      // A page in several projects: the favorite's own project when the owner is in it.
      const favoriteProject = favorites.find((f) => f.entityIdentifier === p.id)?.projectId;
      if (out.has(p.id) && projectId !== favoriteProject) continue;
      out.set(p.id, { id: p.id, name: p.name, logo_props: p.logoProps, project_id: projectId, access: p.access });
    }
    return out;
  }
  return out;
}

/**
 * The favorites the owner may still see, each with its entity's summary (null for folders),
 * in the order given. A favorite filed in a folder is shown only while the folder is.
 */
export async function visibleWithEntityData(
  db: DbOrTx,
  rows: FavoriteRow[],
): Promise<{ row: FavoriteRow; entityData: EntityData | null }[]> {
  const first = rows[0];
  if (!first) return [];
  const byType = new Map<string, FavoriteRow[]>();
  for (const row of rows) {
    if (row.isFolder) continue;
    const list = byType.get(row.entityType) ?? [];
    list.push(row);
    byType.set(row.entityType, list);
  }
  const data = new Map<string, Map<string, EntityData>>();
  for (const [type, list] of byType) {
    data.set(type, await visibleOfType(db, first.userId, first.workspaceId, type, list));
  }
  const out: { row: FavoriteRow; entityData: EntityData | null }[] = [];
  for (const row of rows) {
    if (row.isFolder) {
      out.push({ row, entityData: null });
      continue;
    }
    const entity = row.entityIdentifier ? data.get(row.entityType)?.get(row.entityIdentifier) : undefined;
    if (entity) out.push({ row, entityData: entity });
  }
  return out;
}

/**
 * The summary of the entity a new favorite would point at, or undefined when the user cannot
 * see it (missing, archived, another workspace's, a project they are not in, someone's private page).
 */
export async function visibleEntity(
  db: DbOrTx,
  who: { userId: string; workspaceId: string },
  entity: { entityType: string; entityIdentifier: string; projectId: string | null },
): Promise<EntityData | undefined> {
  const found = await visibleOfType(db, who.userId, who.workspaceId, entity.entityType, [entity]);
  return found.get(entity.entityIdentifier);
}

/** One favorite's entity summary, or undefined when its owner can no longer see it. */
export async function entityDataOf(db: DbOrTx, row: FavoriteRow): Promise<EntityData | null | undefined> {
  const [shown] = await visibleWithEntityData(db, [row]);
  return shown ? shown.entityData : undefined;
}

// ───────────────────────────── changes ─────────────────────────────

async function findFavorite(db: DbOrTx, key: FavoriteKey): Promise<FavoriteRow | undefined> {
  const [row] = await db
    .select()
    .from(userFavorites)
    .where(
      and(
        eq(userFavorites.workspaceId, key.workspaceId),
        eq(userFavorites.userId, key.userId),
        eq(userFavorites.entityType, key.entityType),
        eq(userFavorites.entityIdentifier, key.entityIdentifier),
      ),
    )
    .limit(1);
  return row;
}

/** The sequence after the owner's last favorite in `parentId` (their top level when null). */
export async function nextSequence(
  db: DbOrTx,
  owner: { workspaceId: string; userId: string },
  parentId: string | null,
): Promise<number> {
  const [last] = await db
    .select({ largest: max(userFavorites.sequence) })
    .from(userFavorites)
    .where(
      and(
        eq(userFavorites.workspaceId, owner.workspaceId),
        eq(userFavorites.userId, owner.userId),
        parentId ? eq(userFavorites.parentId, parentId) : isNull(userFavorites.parentId),
      ),
    );
  const largest = last?.largest;
  return largest === null || largest === undefined ? FAVORITE_FIRST_SEQUENCE : largest + FAVORITE_SEQUENCE_STEP;
}

export type NewFavorite = {
  workspaceId: string;
  userId: string;
  entityType: FavoriteEntityType;
  /** Null only for a folder. */
  entityIdentifier: string | null;
  projectId: string | null;
  name?: string | null;
  parentId?: string | null;
};

/**
 * Add the favorite at the end of its level and emit `favorite.created`; a favorite of an
 * entity already favorited is returned as it is (created: false, no event). The caller has
 * checked that the owner may see the entity.
 */
export async function addFavorite(
  ctx: FavoriteCtx,
  origin: EventOrigin,
  input: NewFavorite,
): Promise<{ created: boolean; row: FavoriteRow; entityData: EntityData | null }> {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const key = input.entityIdentifier ? { ...input, entityIdentifier: input.entityIdentifier } : null;
    const before = key ? await findFavorite(tx, key) : undefined;
    if (before) return { created: false, row: before, entityData: (await entityDataOf(tx, before)) ?? null };
    const parentId = input.parentId ?? null;
    const [inserted] = await tx
      .insert(userFavorites)
      .values({
        workspaceId: input.workspaceId,
        userId: input.userId,
        entityType: input.entityType,
        entityIdentifier: input.entityIdentifier,
        projectId: input.projectId,
        name: input.name ?? null,
        isFolder: input.entityType === "folder",
        parentId,
        sequence: await nextSequence(tx, input, parentId),
        createdById: input.userId,
        updatedById: input.userId,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) {
      // A concurrent request added it between the check and the insert.
      const row = key ? await findFavorite(tx, key) : undefined;
      if (!row) throw new Error("favorite insert failed");
      return { created: false, row, entityData: (await entityDataOf(tx, row)) ?? null };
    }
    const entityData = (await entityDataOf(tx, inserted)) ?? null;
    emitFavorite(emit, "created", inserted, entityData);
    return { created: true, row: inserted, entityData };
  });
}

/** Delete favorites (and, for a folder, what it holds, as the reference cascades) and emit `favorite.deleted` for each. */
export async function deleteFavoriteRows(tx: DbOrTx, emit: EmitFn, rows: FavoriteRow[]): Promise<void> {
  const folders = rows.filter((r) => r.isFolder).map((r) => r.id);
  const children = folders.length
    ? await tx.select().from(userFavorites).where(inArray(userFavorites.parentId, folders))
    : [];
  const all = [...children, ...rows];
  if (!all.length) return;
  await tx.delete(userFavorites).where(
    inArray(
      userFavorites.id,
      all.map((r) => r.id),
    ),
  );
  for (const row of all) emitFavorite(emit, "deleted", row, null);
}

/** Remove the owner's favorite of one entity and emit `favorite.deleted`; false when they had none. */
export async function removeFavorite(
  ctx: FavoriteCtx,
  origin: EventOrigin,
  key: FavoriteKey & { projectId?: string | null },
): Promise<boolean> {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const row = await findFavorite(tx, key);
    if (!row || (key.projectId !== undefined && row.projectId !== key.projectId)) return false;
    await deleteFavoriteRows(tx, emit, [row]);
    return true;
  });
}

/** Whether the user has favorited the entity (for the entity calls' own checks). */
export async function hasFavorite(db: DbOrTx, key: FavoriteKey): Promise<boolean> {
  return Boolean(await findFavorite(db, key));
}

/**
 * Delete every favorite matching `where` (an entity deleted or archived, a project left) and
 * emit `favorite.deleted` to each owner, so their sidebars drop it at once.
 */
export async function dropFavorites(tx: DbOrTx, emit: EmitFn, where: SQL | undefined): Promise<void> {
  const rows = await tx.select().from(userFavorites).where(where);
  await deleteFavoriteRows(tx, emit, rows);
}
