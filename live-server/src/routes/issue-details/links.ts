/**
 * Links on a work item: GET/POST {type}/:id/issue-links/ (epics: links/), PATCH/DELETE …/:linkId/.
 * Only http(s) URLs are kept (no javascript: or data: links reach other people's screens), and a
 * URL appears once per item (compared in normalised form, so "HTTPS://Example.com" repeats
 * "https://example.com/").
 */
import { and, asc, desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { issueLinks } from "../../db/schema.ts";
import { type EmitFn, eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { IssueAccess } from "../../policies/access.ts";
import {
  type ActorDetail,
  ITEM_TYPES,
  type ItemParams,
  type ItemType,
  itemAccess,
  loadActors,
  lockItems,
  PROJECT_PATH,
  recordItemActivity,
  scopeOf,
} from "./common.ts";

export const LINK_URL_MAX = 2048;

/** The URL's normalised form, or null when it isn't an absolute http(s) URL. */
export function normalizedHttpUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname) return null;
  return url.href;
}

const urlField = z
  .string("Enter a URL")
  .trim()
  .min(1, "Enter a URL")
  .max(LINK_URL_MAX, `A URL can have at most ${LINK_URL_MAX} characters`)
  .refine((value) => normalizedHttpUrl(value) !== null, "Enter a valid http:// or https:// URL");

/** Absent leaves the title as it is; null or "" means no title. */
const titleField = z.string().trim().max(255, "A title can have at most 255 characters").nullable().optional();

export const createLinkBody = z.object({ url: urlField, title: titleField });
export const updateLinkBody = z.object({ url: urlField.optional(), title: titleField });

export type LinkRow = typeof issueLinks.$inferSelect;
type LinkParams = ItemParams & { linkId: string };

export function presentLink(link: LinkRow, createdBy: ActorDetail | null) {
  return {
    id: link.id,
    url: link.url,
    title: link.title,
    metadata: link.metadata,
    issue: link.issueId,
    issue_id: link.issueId,
    project: link.projectId,
    workspace: link.workspaceId,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
    created_by: link.createdById,
    updated_by: link.updatedById,
    created_by_detail: createdBy,
  };
}

export async function presentLinks(db: DbOrTx, rows: LinkRow[]) {
  const actors = await loadActors(
    db,
    rows.map((r) => r.createdById),
  );
  return rows.map((r) => presentLink(r, (r.createdById && actors.get(r.createdById)) || null));
}

/** Refuse a URL another link of the item already has (400, nothing stored). */
async function assertUrlFree(db: DbOrTx, issueId: string, url: string, exceptId?: string) {
  const wanted = normalizedHttpUrl(url);
  const rows = await db
    .select({ id: issueLinks.id, url: issueLinks.url })
    .from(issueLinks)
    .where(eq(issueLinks.issueId, issueId));
  if (rows.some((r) => r.id !== exceptId && normalizedHttpUrl(r.url) === wanted)) {
    const message = "This URL is already linked to the work item.";
    throw badRequest(message, { url: [message] }, "LINK_EXISTS");
  }
}

export async function findLink(db: DbOrTx, access: IssueAccess, linkId: string): Promise<LinkRow> {
  if (!isUuid(linkId)) throw notFound("Link");
  const [row] = await db
    .select()
    .from(issueLinks)
    .where(and(eq(issueLinks.id, linkId), eq(issueLinks.issueId, access.issue.id)))
    .limit(1);
  if (!row) throw notFound("Link");
  return row;
}

/** Add a link to the item (a URL once per item, 400 LINK_EXISTS otherwise); history, link.created. */
export async function insertLink(
  tx: Tx,
  emit: EmitFn,
  access: IssueAccess,
  body: { url: string; title?: string | null },
): Promise<LinkRow> {
  await lockItems(tx, [access.issue.id]);
  await assertUrlFree(tx, access.issue.id, body.url);
  const [row] = await tx
    .insert(issueLinks)
    .values({
      workspaceId: access.workspace.id,
      projectId: access.project.id,
      issueId: access.issue.id,
      url: body.url,
      title: body.title || null,
      createdById: access.user.id,
      updatedById: access.user.id,
    })
    .returning();
  if (!row) throw new Error("link insert failed");
  await recordItemActivity(tx, access, {
    verb: "created",
    field: "link",
    newValue: row.url,
    newIdentifier: row.id,
  });
  const [presented] = await presentLinks(tx, [row]);
  emit("link.created", scopeOf(access, row.id), presented ?? {});
  return row;
}

/** Change a link's URL or title; history for a new URL, link.updated. */
export async function editLink(
  tx: Tx,
  emit: EmitFn,
  access: IssueAccess,
  before: LinkRow,
  body: { url?: string; title?: string | null },
): Promise<LinkRow> {
  await lockItems(tx, [access.issue.id]);
  if (body.url !== undefined) await assertUrlFree(tx, access.issue.id, body.url, before.id);
  const changes: Partial<typeof issueLinks.$inferInsert> = { updatedById: access.user.id };
  if (body.url !== undefined) changes.url = body.url;
  if (body.title !== undefined) changes.title = body.title || null;
  const [row] = await tx
    .update(issueLinks)
    .set(changes)
    .where(and(eq(issueLinks.id, before.id), eq(issueLinks.issueId, access.issue.id)))
    .returning();
  if (!row) throw notFound("Link");
  // The reference records a link's new URL, not a new title.
  if (row.url !== before.url) {
    await recordItemActivity(tx, access, {
      verb: "updated",
      field: "link",
      oldValue: before.url,
      newValue: row.url,
      oldIdentifier: row.id,
      newIdentifier: row.id,
    });
  }
  const [presented] = await presentLinks(tx, [row]);
  emit("link.updated", scopeOf(access, row.id), presented ?? {});
  return row;
}

/** Delete a link; history keeps its URL, link.deleted carries it as it was. */
export async function removeLink(tx: Tx, emit: EmitFn, access: IssueAccess, before: LinkRow): Promise<void> {
  const [presented] = await presentLinks(tx, [before]);
  const deleted = await tx
    .delete(issueLinks)
    .where(and(eq(issueLinks.id, before.id), eq(issueLinks.issueId, access.issue.id)))
    .returning({ id: issueLinks.id });
  if (deleted.length === 0) throw notFound("Link");
  await recordItemActivity(tx, access, {
    // As the reference: the URL it was, no identifiers.
    verb: "deleted",
    field: "link",
    oldValue: before.url,
    newValue: "",
  });
  emit("link.deleted", scopeOf(access, before.id), presented ?? {});
}

export async function registerLinkRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;

  for (const type of ITEM_TYPES) {
    const segment = type === "epics" ? "links" : "issue-links";
    const base = `${PROJECT_PATH}/${type}/:issueId/${segment}`;
    const t: ItemType = type;

    app.get<{ Params: ItemParams }>(`${base}/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params);
      const rows = await db
        .select()
        .from(issueLinks)
        .where(eq(issueLinks.issueId, access.issue.id))
        .orderBy(desc(issueLinks.createdAt), asc(issueLinks.id));
      return presentLinks(db, rows);
    });

    app.post<{ Params: ItemParams }>(`${base}/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const body = parse(createLinkBody, request.body);
      const link = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const row = await insertLink(tx, emit, access, body);
        const [presented] = await presentLinks(tx, [row]);
        return presented;
      });
      return reply.status(201).send(link);
    });

    app.patch<{ Params: LinkParams }>(`${base}/:linkId/`, async (request) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const before = await findLink(db, access, request.params.linkId);
      const body = parse(updateLinkBody, request.body);
      return transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const row = await editLink(tx, emit, access, before, body);
        const [presented] = await presentLinks(tx, [row]);
        return presented;
      });
    });

    app.delete<{ Params: LinkParams }>(`${base}/:linkId/`, async (request, reply) => {
      const access = await itemAccess(db, request, t, request.params, true);
      const before = await findLink(db, access, request.params.linkId);
      await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        await removeLink(tx, emit, access, before);
      });
      return reply.status(204).send();
    });
  }
}
