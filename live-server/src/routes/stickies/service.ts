/**
 * Stickies: a person's own notes in a workspace (product-domain §3 Sticky, §4 sticky rules).
 * - Only the owner ever reads or changes a sticky: another person's sticky, like another
 *   workspace's, is a 404 (never a 403 that would confirm it exists).
 * - A new sticky sorts first: its sort_order is the owner's highest in the workspace plus
 *   STICKY_SORT_STEP (65535 for the first), as the reference numbers them; the list is newest
 *   (highest) first.
 * - The body is the editor's HTML, sanitised as every rich text is, with its plain text kept
 *   for the list's search (`query` matches the text or the name, case-insensitively).
 * Every change runs in transactionWithEvents and emits `sticky.*` after commit; those events
 * are personal (isPersonalEvent): the live layer sends them only to the owner's user channel,
 * so the owner's other tabs and devices follow.
 */
import { STICKY_SORT_STEP } from "@tideline/shared";
import { and, desc, eq, ilike, max, or, type SQL, sql } from "drizzle-orm";
import { htmlToPlainText, sanitizeRichText } from "../../content/sanitize.ts";
import type { AppContext } from "../../context.ts";
import type { DbOrTx } from "../../db/client.ts";
import { escapeLike } from "../../db/like.ts";
import { stickies } from "../../db/schema.ts";
import { type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { WorkspaceAccess } from "../../policies/access.ts";
import { presentSticky, type StickyRow } from "./presenter.ts";
import type { CreateStickyBody, StickyListQuery, UpdateStickyBody } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

const FIRST_SORT_ORDER = 65_535;

const ownedBy = (access: WorkspaceAccess): SQL =>
  and(eq(stickies.workspaceId, access.workspace.id), eq(stickies.ownerId, access.user.id)) as SQL;

const scopeOf = (row: StickyRow) => ({ workspaceId: row.workspaceId, projectId: null, entityId: row.id });

/** The body's columns for stored HTML: sanitised, with its plain text for search. */
function bodyColumns(html: string) {
  const clean = sanitizeRichText(html);
  const text = htmlToPlainText(clean);
  return { descriptionHtml: clean, descriptionStripped: text === "" ? null : text };
}

/** One page of the caller's stickies, newest first, in the reference's paged answer. */
export async function listStickies(db: DbOrTx, access: WorkspaceAccess, q: StickyListQuery) {
  const conditions: SQL[] = [ownedBy(access)];
  if (q.query) {
    const pattern = `%${escapeLike(q.query)}%`;
    const match = or(ilike(stickies.descriptionStripped, pattern), ilike(stickies.name, pattern));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const start = q.pageIndex * q.perPage + q.offset;
  const rows = await db
    .select({ sticky: stickies, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(stickies)
    .where(where)
    .orderBy(desc(stickies.sortOrder), desc(stickies.createdAt), desc(stickies.id))
    .limit(q.perPage)
    .offset(start);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && start > 0) {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(stickies)
      .where(where);
    total = row?.n ?? 0;
  }
  const nextIndex = q.pageIndex + 1;
  return {
    grouped_by: null,
    sub_grouped_by: null,
    total_count: total,
    next_cursor: `${q.perPage}:${nextIndex}:0`,
    prev_cursor: `${q.perPage}:${Math.max(q.pageIndex - 1, 0)}:0`,
    next_page_results: total > start + rows.length,
    prev_page_results: start > 0,
    count: rows.length,
    total_pages: Math.ceil(total / q.perPage),
    total_results: total,
    extra_stats: null,
    results: rows.map((r) => presentSticky(r.sticky)),
  };
}

/** The caller's sticky, or a 404 (another person's and another workspace's alike). */
export async function getSticky(db: DbOrTx, access: WorkspaceAccess, id: string): Promise<StickyRow> {
  if (!isUuid(id)) throw notFound("Sticky");
  const [row] = await db
    .select()
    .from(stickies)
    .where(and(ownedBy(access), eq(stickies.id, id)))
    .limit(1);
  if (!row) throw notFound("Sticky");
  return row;
}

export async function createSticky(ctx: Ctx, origin: EventOrigin, access: WorkspaceAccess, body: CreateStickyBody) {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const [top] = await tx
      .select({ value: max(stickies.sortOrder) })
      .from(stickies)
      .where(ownedBy(access));
    const sortOrder = top?.value == null ? FIRST_SORT_ORDER : top.value + STICKY_SORT_STEP;
    const [row] = await tx
      .insert(stickies)
      .values({
        workspaceId: access.workspace.id,
        ownerId: access.user.id,
        name: body.name ?? null,
        ...bodyColumns(body.description_html ?? "<p></p>"),
        logoProps: body.logo_props ?? {},
        color: body.color ?? null,
        backgroundColor: body.background_color ?? null,
        sortOrder,
        createdById: access.user.id,
        updatedById: access.user.id,
      })
      .returning();
    if (!row) throw new Error("sticky insert failed");
    emit("sticky.created", scopeOf(row), presentSticky(row));
    return row;
  });
}

export async function updateSticky(
  ctx: Ctx,
  origin: EventOrigin,
  access: WorkspaceAccess,
  id: string,
  body: UpdateStickyBody,
) {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getSticky(tx, access, id);
    const set: Partial<typeof stickies.$inferInsert> = { updatedById: access.user.id };
    if (body.name !== undefined) set.name = body.name;
    if (body.description_html !== undefined) Object.assign(set, bodyColumns(body.description_html));
    if (body.logo_props !== undefined) set.logoProps = body.logo_props;
    if (body.color !== undefined) set.color = body.color;
    if (body.background_color !== undefined) set.backgroundColor = body.background_color;
    if (body.sort_order !== undefined) set.sortOrder = body.sort_order;
    const [row] = await tx.update(stickies).set(set).where(eq(stickies.id, current.id)).returning();
    if (!row) throw notFound("Sticky");
    emit("sticky.updated", scopeOf(row), presentSticky(row));
    return row;
  });
}

export async function deleteSticky(ctx: Ctx, origin: EventOrigin, access: WorkspaceAccess, id: string) {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getSticky(tx, access, id);
    await tx.delete(stickies).where(eq(stickies.id, current.id));
    emit("sticky.deleted", scopeOf(current), presentSticky(current));
  });
}
