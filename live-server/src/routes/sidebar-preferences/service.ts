/**
 * The caller's own sidebar entries in a workspace (product-domain §2 "Workspace menu"; the
 * reference's WorkspaceUserPreference): which entries are pinned in the sidebar and which wait
 * under "More", and their order.
 * - One row per person, workspace and key (SIDEBAR_PREFERENCE_KEYS), created on the first read
 *   or change with the reference's numbering (65535, then +10000 per key) and this product's
 *   default pins (SIDEBAR_PINNED_BY_DEFAULT); a key added later is created the same way.
 * - Only the owner ever reads or changes their rows: every query is scoped by the workspace the
 *   policy returned and the caller's id.
 * Every change runs in transactionWithEvents and emits `sidebar_preference.updated` after commit,
 * a personal event (isPersonalEvent) that reaches only the owner's `user.{id}` channel, so their
 * other tabs and browsers follow.
 */
import {
  isSidebarPreferenceKey,
  SIDEBAR_PINNED_BY_DEFAULT,
  SIDEBAR_PREFERENCE_KEYS,
  SIDEBAR_SORT_START,
  SIDEBAR_SORT_STEP,
  type SidebarPreferenceKey,
} from "@tideline/shared";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { DbOrTx } from "../../db/client.ts";
import { workspaceUserPreferences } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { notFound } from "../../http/errors.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import { presentSidebarPreference, presentSidebarPreferences, type SidebarPreferenceRow } from "./presenter.ts";
import type { BulkSidebarPreferencesBody, UpdateSidebarPreferenceBody } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

const rowsOf = (access: WorkspaceAccess) =>
  and(
    eq(workspaceUserPreferences.workspaceId, access.workspace.id),
    eq(workspaceUserPreferences.userId, access.user.id),
  );

async function readRows(db: DbOrTx, access: WorkspaceAccess): Promise<SidebarPreferenceRow[]> {
  const rows = await db
    .select()
    .from(workspaceUserPreferences)
    .where(rowsOf(access))
    .orderBy(asc(workspaceUserPreferences.sortOrder), asc(workspaceUserPreferences.key));
  // Only the entries this product knows, should a row of a dropped key remain.
  return rows.filter((row) => isSidebarPreferenceKey(row.key));
}

/** Creates the caller's missing entries with the defaults; true when it created any. */
async function ensureRows(db: DbOrTx, access: WorkspaceAccess, held: readonly SidebarPreferenceRow[]) {
  const have = new Set(held.map((row) => row.key));
  const missing = SIDEBAR_PREFERENCE_KEYS.filter((key) => !have.has(key));
  if (missing.length === 0) return false;
  await db
    .insert(workspaceUserPreferences)
    .values(
      missing.map((key) => ({
        workspaceId: access.workspace.id,
        userId: access.user.id,
        key,
        isPinned: SIDEBAR_PINNED_BY_DEFAULT.includes(key),
        sortOrder: SIDEBAR_SORT_START + SIDEBAR_PREFERENCE_KEYS.indexOf(key) * SIDEBAR_SORT_STEP,
        createdById: access.user.id,
        updatedById: access.user.id,
      })),
    )
    // Two first reads at once (two tabs): the second one's rows are already there.
    .onConflictDoNothing();
  return true;
}

/**
 * The caller's entries (made with the defaults on the first read) as the reference answers them:
 * `{ views: { is_pinned, sort_order }, … }` in sort_order.
 */
export async function listSidebarPreferences(db: DbOrTx, access: WorkspaceAccess) {
  const rows = await readRows(db, access);
  if (!(await ensureRows(db, access, rows))) return presentSidebarPreferences(rows);
  return presentSidebarPreferences(await readRows(db, access));
}

function emitUpdated(emit: EmitFn, row: SidebarPreferenceRow) {
  // The answer has no owner (the reference's shape); the event names them for the user channel.
  emit(
    "sidebar_preference.updated",
    { workspaceId: row.workspaceId, projectId: null, entityId: row.id },
    { ...presentSidebarPreference(row), user: row.userId },
  );
}

async function applyChange(
  tx: DbOrTx,
  emit: EmitFn,
  access: WorkspaceAccess,
  key: SidebarPreferenceKey,
  body: UpdateSidebarPreferenceBody,
): Promise<SidebarPreferenceRow | undefined> {
  const set: Partial<typeof workspaceUserPreferences.$inferInsert> = { updatedById: access.user.id };
  if (body.is_pinned !== undefined) set.isPinned = body.is_pinned;
  if (body.sort_order !== undefined) set.sortOrder = body.sort_order;
  const [row] = await tx
    .update(workspaceUserPreferences)
    .set(set)
    .where(and(rowsOf(access), eq(workspaceUserPreferences.key, key)))
    .returning();
  if (row) emitUpdated(emit, row);
  return row;
}

async function ensureInTx(tx: DbOrTx, access: WorkspaceAccess) {
  const held = await tx
    .select()
    .from(workspaceUserPreferences)
    .where(and(rowsOf(access), inArray(workspaceUserPreferences.key, [...SIDEBAR_PREFERENCE_KEYS])));
  await ensureRows(tx, access, held);
}

/** Pins, unpins or moves one of the caller's entries; a key that is not an entry is a 404. */
export async function updateSidebarPreference(
  ctx: Ctx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  key: string,
  body: UpdateSidebarPreferenceBody,
): Promise<SidebarPreferenceRow> {
  if (!isSidebarPreferenceKey(key)) throw notFound("Preference");
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await ensureInTx(tx, access);
    const row = await applyChange(tx, emit, access, key, body);
    if (!row) throw notFound("Preference");
    return row;
  });
}

/**
 * Several entries at once (the reference's newer client reorders this way): each item names its
 * key; items without one, or naming no entry, are skipped as the reference skips them. All or
 * nothing, in one transaction.
 */
export async function updateSidebarPreferences(
  ctx: Ctx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  items: BulkSidebarPreferencesBody,
): Promise<void> {
  const known = items.filter(
    (item): item is typeof item & { key: SidebarPreferenceKey } =>
      typeof item.key === "string" && isSidebarPreferenceKey(item.key),
  );
  if (known.length === 0) return;
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await ensureInTx(tx, access);
    for (const item of known) await applyChange(tx, emit, access, item.key, item);
  });
}
