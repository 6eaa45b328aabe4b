/**
 * The caller's own home in a workspace (product-domain §2 home dashboard and quick links, §3
 * Workspace quick link and Home widget).
 * - Quick links: only the owner ever reads or changes one; another person's, like another
 *   workspace's, is a 404. An address already among the owner's links in the workspace is a
 *   400, as the reference refuses it. Newest first.
 * - Home widgets: one row per person, workspace and widget key, created with the default set
 *   (HOME_WIDGETS) on the first read or change, so everyone starts with every widget shown.
 * Every change runs in transactionWithEvents and emits `quick_link.*` / `home_preference.updated`
 * after commit; those are personal events (isPersonalEvent) that reach only the owner's
 * `user.{id}` channel, so their other tabs follow.
 */
import { and, desc, eq, ne } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { DbOrTx } from "../../db/client.ts";
import { workspaceHomePreferences, workspaceUserLinks } from "../../db/schema.ts";
import { type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import { type HomePreferenceRow, presentHomePreference, presentQuickLink, type QuickLinkRow } from "./presenter.ts";
import type { CreateQuickLinkBody, UpdateHomePreferenceBody, UpdateQuickLinkBody } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

/**
 * The home widgets this product has, in the reference's keys and default order (the reference
 * numbers them 1000 - position). Left out: `new_at_plane` and `quick_tutorial`, the reference's
 * own product news and tour, which this product does not have. Added after the reference's:
 * `my_work_items` (the caller's assigned / created / subscribed / overdue work items), numbered
 * the same way so existing homes get it last on their next read. The reference's web client
 * renders no component for a key it does not know (HOME_WIDGETS_LIST[key]?.component).
 */
export const HOME_WIDGETS = ["quick_links", "recents", "my_stickies", "my_work_items"] as const;
export type HomeWidgetKey = (typeof HOME_WIDGETS)[number];

export const isHomeWidgetKey = (key: string): key is HomeWidgetKey => (HOME_WIDGETS as readonly string[]).includes(key);

const DUPLICATE_URL = "URL already exists for this workspace and owner";

const linksOf = (access: WorkspaceAccess) =>
  and(eq(workspaceUserLinks.workspaceId, access.workspace.id), eq(workspaceUserLinks.ownerId, access.user.id));

const linkScope = (row: QuickLinkRow) => ({ workspaceId: row.workspaceId, projectId: null, entityId: row.id });

/** The caller's quick links in the workspace, newest first. */
export async function listQuickLinks(db: DbOrTx, access: WorkspaceAccess) {
  const rows = await db
    .select()
    .from(workspaceUserLinks)
    .where(linksOf(access))
    .orderBy(desc(workspaceUserLinks.createdAt), desc(workspaceUserLinks.id));
  return rows.map(presentQuickLink);
}

/** The caller's quick link, or a 404 (another person's and another workspace's alike). */
export async function getQuickLink(db: DbOrTx, access: WorkspaceAccess, id: string): Promise<QuickLinkRow> {
  if (!isUuid(id)) throw notFound("Quick link");
  const [row] = await db
    .select()
    .from(workspaceUserLinks)
    .where(and(linksOf(access), eq(workspaceUserLinks.id, id)))
    .limit(1);
  if (!row) throw notFound("Quick link");
  return row;
}

async function refuseDuplicateUrl(tx: DbOrTx, access: WorkspaceAccess, url: string, exceptId?: string) {
  const conditions = [linksOf(access), eq(workspaceUserLinks.url, url)];
  if (exceptId) conditions.push(ne(workspaceUserLinks.id, exceptId));
  const [taken] = await tx
    .select({ id: workspaceUserLinks.id })
    .from(workspaceUserLinks)
    .where(and(...conditions))
    .limit(1);
  if (taken) throw badRequest(DUPLICATE_URL, { url: [DUPLICATE_URL] }, "DUPLICATE_URL");
}

/** Adds a quick link owned by the caller. */
export async function createQuickLink(
  ctx: Ctx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  body: CreateQuickLinkBody,
) {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await refuseDuplicateUrl(tx, access, body.url);
    const [row] = await tx
      .insert(workspaceUserLinks)
      .values({
        workspaceId: access.workspace.id,
        ownerId: access.user.id,
        title: body.title ?? null,
        url: body.url,
        createdById: access.user.id,
        updatedById: access.user.id,
      })
      .returning();
    if (!row) throw new Error("quick link insert failed");
    emit("quick_link.created", linkScope(row), presentQuickLink(row));
    return row;
  });
}

/** Changes the title and/or address of one of the caller's quick links. */
export async function updateQuickLink(
  ctx: Ctx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  id: string,
  body: UpdateQuickLinkBody,
) {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getQuickLink(tx, access, id);
    const set: Partial<typeof workspaceUserLinks.$inferInsert> = { updatedById: access.user.id };
    if (body.title !== undefined) set.title = body.title;
    if (body.url !== undefined) {
      await refuseDuplicateUrl(tx, access, body.url, current.id);
      set.url = body.url;
    }
    const [row] = await tx.update(workspaceUserLinks).set(set).where(eq(workspaceUserLinks.id, current.id)).returning();
    if (!row) throw notFound("Quick link");
    emit("quick_link.updated", linkScope(row), presentQuickLink(row));
    return row;
  });
}

/** Removes one of the caller's quick links. */
export async function deleteQuickLink(ctx: Ctx, origin: EventOrigin, access: WorkspaceAccess, id: string) {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getQuickLink(tx, access, id);
    await tx.delete(workspaceUserLinks).where(eq(workspaceUserLinks.id, current.id));
    emit("quick_link.deleted", linkScope(current), presentQuickLink(current));
  });
}

const preferencesOf = (access: WorkspaceAccess) =>
  and(
    eq(workspaceHomePreferences.workspaceId, access.workspace.id),
    eq(workspaceHomePreferences.userId, access.user.id),
  );

/** Creates the caller's missing widgets with the reference's defaults (shown, 1000 - position). */
async function ensureHomePreferences(db: DbOrTx, access: WorkspaceAccess) {
  await db
    .insert(workspaceHomePreferences)
    .values(
      HOME_WIDGETS.map((key, index) => ({
        workspaceId: access.workspace.id,
        userId: access.user.id,
        key,
        sortOrder: 1000 - (index + 1),
        createdById: access.user.id,
        updatedById: access.user.id,
      })),
    )
    .onConflictDoNothing();
}

/** The caller's home widgets (created with the defaults on the first read), first shown first. */
export async function listHomePreferences(db: DbOrTx, access: WorkspaceAccess) {
  await ensureHomePreferences(db, access);
  const rows = await db
    .select()
    .from(workspaceHomePreferences)
    .where(preferencesOf(access))
    .orderBy(desc(workspaceHomePreferences.sortOrder), workspaceHomePreferences.key);
  // Only the widgets this product has, should a row of a dropped one remain.
  return rows.filter((row) => isHomeWidgetKey(row.key)).map(presentHomePreference);
}

/** Shows/hides or moves one of the caller's widgets; an unknown key is a 404. */
export async function updateHomePreference(
  ctx: Ctx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  key: string,
  body: UpdateHomePreferenceBody,
): Promise<HomePreferenceRow> {
  if (!isHomeWidgetKey(key)) throw notFound("Preference");
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await ensureHomePreferences(tx, access);
    const set: Partial<typeof workspaceHomePreferences.$inferInsert> = { updatedById: access.user.id };
    if (body.is_enabled !== undefined) set.isEnabled = body.is_enabled;
    if (body.sort_order !== undefined) set.sortOrder = body.sort_order;
    const [row] = await tx
      .update(workspaceHomePreferences)
      .set(set)
      .where(and(preferencesOf(access), eq(workspaceHomePreferences.key, key)))
      .returning();
    if (!row) throw notFound("Preference");
    // The answer has no owner (the reference's shape); the event names them for the user channel.
    emit(
      "home_preference.updated",
      { workspaceId: row.workspaceId, projectId: null, entityId: row.id },
      { ...presentHomePreference(row), user: row.userId },
    );
    return row;
  });
}
