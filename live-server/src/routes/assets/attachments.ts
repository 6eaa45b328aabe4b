/**
 * Work-item attachments (calls-errors-sync §7 "Work items"): request a signed upload, confirm
 * it (PATCH is_uploaded), list, delete. An attachment is a file_assets row of kind
 * ISSUE_ATTACHMENT whose entity_identifier is the work item; only confirmed ones are listed.
 * Confirming and deleting write the item's history and emit attachment.* events.
 */
import { ROLE } from "@tideline/shared";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { fileAssets } from "../../db/schema.ts";
import { eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { forbidden, notFound, parse } from "../../http/errors.ts";
import { requireUuid } from "../../http/ids.ts";
import { type IssueAccess, issueAccess } from "../../policies/access.ts";
import { recordActivity } from "../../services/issue-activity.ts";
import type { Storage } from "../../storage/index.ts";
import { type AssetRow, assetUrl, presentAttachment } from "./presenter.ts";
import { checkUploadRequest, confirmUpload, createAssetUpload, uploadRequestFields } from "./service.ts";

const BASE = "/api/assets/v2/workspaces/:slug/projects/:projectId/issues/:issueId/attachments/";

type IssueParams = { slug: string; projectId: string; issueId: string };
type AttachmentParams = IssueParams & { assetId: string };

const requestBody = z.object(uploadRequestFields);
const statusBody = z.object({ is_uploaded: z.literal(true) });

/** The attachment `assetId` of the work item, uploaded or not, unless deleted. */
async function findAttachment(app: FastifyInstance, access: IssueAccess, assetId: string): Promise<AssetRow> {
  const id = requireUuid(assetId, "Attachment");
  const [asset] = await app.ctx.db
    .select()
    .from(fileAssets)
    .where(
      and(
        eq(fileAssets.id, id),
        eq(fileAssets.workspaceId, access.workspace.id),
        eq(fileAssets.projectId, access.project.id),
        eq(fileAssets.entityType, "ISSUE_ATTACHMENT"),
        eq(fileAssets.entityIdentifier, access.issue.id),
        isNull(fileAssets.deletedAt),
      ),
    )
    .limit(1);
  if (!asset) throw notFound("Attachment");
  return asset;
}

export function attachmentRoutes(app: FastifyInstance, storage: Storage): void {
  const { db, events } = app.ctx;

  app.get<{ Params: IssueParams }>(BASE, async (request) => {
    const { slug, projectId, issueId } = request.params;
    const access = await issueAccess(db, request, slug, projectId, issueId);
    const rows = await db
      .select()
      .from(fileAssets)
      .where(
        and(
          eq(fileAssets.projectId, access.project.id),
          eq(fileAssets.entityType, "ISSUE_ATTACHMENT"),
          eq(fileAssets.entityIdentifier, access.issue.id),
          eq(fileAssets.isUploaded, true),
          isNull(fileAssets.deletedAt),
        ),
      )
      .orderBy(asc(fileAssets.createdAt));
    return rows.map((row) => presentAttachment(row, access.workspace.slug));
  });

  app.post<{ Params: IssueParams }>(BASE, async (request) => {
    const { slug, projectId, issueId } = request.params;
    const access = await issueAccess(db, request, slug, projectId, issueId, { minRole: ROLE.member });
    const upload = checkUploadRequest("ISSUE_ATTACHMENT", parse(requestBody, request.body));
    const created = await createAssetUpload(db, storage, {
      kind: "ISSUE_ATTACHMENT",
      request: upload,
      workspaceId: access.workspace.id,
      projectId: access.project.id,
      entityIdentifier: access.issue.id,
      userId: access.user.id,
    });
    return {
      upload_data: created.upload,
      asset_id: created.asset.id,
      attachment: presentAttachment(created.asset, access.workspace.slug),
    };
  });

  app.patch<{ Params: AttachmentParams }>(`${BASE}:assetId/`, async (request) => {
    const { slug, projectId, issueId, assetId } = request.params;
    const access = await issueAccess(db, request, slug, projectId, issueId, { minRole: ROLE.member });
    const asset = await findAttachment(app, access, assetId);
    parse(statusBody, request.body);
    if (asset.createdById !== access.user.id) throw forbidden("Only the person who uploaded the file can confirm it.");
    if (asset.isUploaded) return presentAttachment(asset, access.workspace.slug);

    const size = await confirmUpload(storage, asset);
    const updated = await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const [row] = await tx
        .update(fileAssets)
        .set({ isUploaded: true, uploadedAt: new Date(), size, updatedById: access.user.id })
        .where(and(eq(fileAssets.id, asset.id), eq(fileAssets.isUploaded, false), isNull(fileAssets.deletedAt)))
        .returning();
      // Confirmed concurrently by another request: that one wrote the history.
      if (!row) return null;
      await recordActivity(tx, {
        workspaceId: access.workspace.id,
        projectId: access.project.id,
        issueId: access.issue.id,
        actorId: access.user.id,
        // As the reference: the asset itself (where it is read) and its id.
        verb: "created",
        field: "attachment",
        newValue: assetUrl(row, access.workspace.slug),
        newIdentifier: row.id,
      });
      const data = presentAttachment(row, access.workspace.slug);
      emit(
        "attachment.created",
        { workspaceId: access.workspace.id, projectId: access.project.id, entityId: row.id },
        data,
      );
      return row;
    });
    return presentAttachment(updated ?? (await findAttachment(app, access, asset.id)), access.workspace.slug);
  });

  app.delete<{ Params: AttachmentParams }>(`${BASE}:assetId/`, async (request, reply) => {
    const { slug, projectId, issueId, assetId } = request.params;
    const access = await issueAccess(db, request, slug, projectId, issueId);
    const asset = await findAttachment(app, access, assetId);
    const isProjectAdmin = (access.projectMembership?.role ?? 0) >= ROLE.admin;
    if (asset.createdById !== access.user.id && !isProjectAdmin) {
      throw forbidden("Only the uploader or a project admin can delete this attachment.");
    }
    await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
      const [row] = await tx
        .update(fileAssets)
        .set({ deletedAt: new Date(), updatedById: access.user.id })
        .where(and(eq(fileAssets.id, asset.id), isNull(fileAssets.deletedAt)))
        .returning();
      // An upload never confirmed was never shown: nothing to record.
      if (!row?.isUploaded) return;
      await recordActivity(tx, {
        workspaceId: access.workspace.id,
        projectId: access.project.id,
        issueId: access.issue.id,
        actorId: access.user.id,
        // The reference records only that an attachment went.
        verb: "deleted",
        field: "attachment",
      });
      emit(
        "attachment.deleted",
        { workspaceId: access.workspace.id, projectId: access.project.id, entityId: row.id },
        presentAttachment(asset, access.workspace.slug),
      );
    });
    // After the commit: a failed removal leaves an orphan file, never a row without its file.
    await storage.delete(asset.storageKey).catch((err) => request.log.error({ err }, "attachment file not removed"));
    return reply.status(204).send();
  });
}
