/**
 * Workspace, project and user assets (calls-errors-sync §7 "Assets"): logos, covers, avatars and
 * images inside rich text. Same flow as attachments — request a signed upload, upload, PATCH
 * is_uploaded — plus reading and deleting. Attachments have their own routes (attachments.ts);
 * these paths serve them for reading only.
 *
 * Where an asset lives decides who reads it: workspace assets (no project) every member of the
 * workspace; project assets the project's members, with the guest rule for work-item files;
 * user assets their owner and anyone sharing a workspace with them. Project covers are kept
 * workspace-wide, since project lists show them to members outside the project.
 */
import {
  ASSET_KINDS,
  type AssetKind,
  PROJECT_ASSET_KINDS,
  ROLE,
  type Role,
  USER_ASSET_KINDS,
  WORKSPACE_ASSET_KINDS,
} from "@tideline/shared";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { SessionUser } from "../../auth/sessions.ts";
import { fileAssets, workspaceMembers } from "../../db/schema.ts";
import { badRequest, forbidden, notFound, parse } from "../../http/errors.ts";
import { requireUuid } from "../../http/ids.ts";
import { issueAccess, projectAccess, requireRole, requireUser, workspaceAccess } from "../../policies/access.ts";
import type { Storage } from "../../storage/index.ts";
import { type AssetRow, assetUrl, presentAsset } from "./presenter.ts";
import {
  checkUploadRequest,
  confirmUpload,
  createAssetUpload,
  mayReadProjectAsset,
  sendAsset,
  uploadRequestFields,
} from "./service.ts";

const WS = "/api/assets/v2/workspaces/:slug/";
const PROJECT = "/api/assets/v2/workspaces/:slug/projects/:projectId/";
const USER = "/api/assets/v2/user-assets/";

type WsParams = { slug: string };
type ProjectParams = WsParams & { projectId: string };

const requestBody = z.object({
  ...uploadRequestFields,
  entity_type: z.enum(ASSET_KINDS),
  entity_identifier: z.union([z.guid(), z.literal("")]).nullish(),
});
const statusBody = z.object({ is_uploaded: z.literal(true) });

/** Lowest role that may upload each kind: workspace role at workspace level, project role in a project. */
const WORKSPACE_KIND_ROLE: Partial<Record<AssetKind, Role>> = {
  WORKSPACE_LOGO: ROLE.admin,
  PROJECT_COVER: ROLE.member,
  ISSUE_DESCRIPTION: ROLE.member,
  PAGE_DESCRIPTION: ROLE.member,
  COMMENT_DESCRIPTION: ROLE.guest,
};
const PROJECT_KIND_ROLE: Partial<Record<AssetKind, Role>> = {
  PROJECT_COVER: ROLE.admin,
  ISSUE_DESCRIPTION: ROLE.member,
  PAGE_DESCRIPTION: ROLE.member,
  COMMENT_DESCRIPTION: ROLE.guest,
};

function wrongPlace(kind: AssetKind): never {
  const where =
    kind === "ISSUE_ATTACHMENT"
      ? "Upload attachments through the work item's attachments endpoint."
      : USER_ASSET_KINDS.includes(kind)
        ? "Upload avatars and covers of your profile through user-assets."
        : "This kind of file cannot be uploaded here.";
  throw badRequest(where, { entity_type: [where] }, "INVALID_ENTITY_TYPE");
}

/** A live asset row by id, within the given workspace and project (null: workspace-wide). */
async function findAsset(
  app: FastifyInstance,
  assetId: string,
  where: { workspaceId: string; projectId: string | null },
): Promise<AssetRow> {
  const id = requireUuid(assetId, "Asset");
  const [asset] = await app.ctx.db
    .select()
    .from(fileAssets)
    .where(
      and(
        eq(fileAssets.id, id),
        eq(fileAssets.workspaceId, where.workspaceId),
        where.projectId ? eq(fileAssets.projectId, where.projectId) : isNull(fileAssets.projectId),
        isNull(fileAssets.deletedAt),
      ),
    )
    .limit(1);
  if (!asset) throw notFound("Asset");
  return asset;
}

/** Confirm the upload of a non-attachment asset (only its uploader may). */
async function markUploaded(app: FastifyInstance, storage: Storage, asset: AssetRow, user: SessionUser) {
  if (asset.entityType === "ISSUE_ATTACHMENT") throw notFound("Asset");
  if (asset.createdById !== user.id) throw forbidden("Only the person who uploaded the file can confirm it.");
  if (asset.isUploaded) return asset;
  const size = await confirmUpload(storage, asset);
  // Once only: a second (or concurrent) confirmation answers the row as the first one left it.
  const [row] = await app.ctx.db
    .update(fileAssets)
    .set({ isUploaded: true, uploadedAt: new Date(), size, updatedById: user.id })
    .where(and(eq(fileAssets.id, asset.id), eq(fileAssets.isUploaded, false), isNull(fileAssets.deletedAt)))
    .returning();
  if (row) return row;
  const [current] = await app.ctx.db
    .select()
    .from(fileAssets)
    .where(and(eq(fileAssets.id, asset.id), isNull(fileAssets.deletedAt)));
  if (!current) throw notFound("Asset");
  return current;
}

/** Delete a non-attachment asset: its uploader, or an admin of where it lives (`isAdmin`). */
async function removeAsset(
  app: FastifyInstance,
  storage: Storage,
  request: FastifyRequest,
  asset: AssetRow,
  user: SessionUser,
  isAdmin: boolean,
): Promise<void> {
  if (asset.entityType === "ISSUE_ATTACHMENT") throw notFound("Asset");
  if (asset.createdById !== user.id && !isAdmin) throw forbidden("Only the uploader or an admin can delete this file.");
  await app.ctx.db
    .update(fileAssets)
    .set({ deletedAt: new Date(), updatedById: user.id })
    .where(eq(fileAssets.id, asset.id));
  await storage.delete(asset.storageKey).catch((err) => request.log.error({ err }, "asset file not removed"));
}

export function genericAssetRoutes(app: FastifyInstance, storage: Storage): void {
  const { db } = app.ctx;

  // ── workspace level ──

  app.post<{ Params: WsParams }>(WS, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const body = parse(requestBody, request.body);
    const kind = body.entity_type;
    if (!WORKSPACE_ASSET_KINDS.includes(kind)) wrongPlace(kind);
    requireRole(access.membership.role, WORKSPACE_KIND_ROLE[kind] ?? ROLE.admin);
    const upload = checkUploadRequest(kind, body);
    const { asset, upload: uploadData } = await createAssetUpload(db, storage, {
      kind,
      request: upload,
      workspaceId: access.workspace.id,
      projectId: null,
      entityIdentifier: kind === "WORKSPACE_LOGO" ? access.workspace.id : body.entity_identifier || null,
      userId: access.user.id,
    });
    return { upload_data: uploadData, asset_id: asset.id, asset_url: assetUrl(asset, access.workspace.slug) };
  });

  app.get<{ Params: WsParams & { assetId: string } }>(`${WS}:assetId/`, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const asset = await findAsset(app, request.params.assetId, { workspaceId: access.workspace.id, projectId: null });
    if (!asset.isUploaded) throw notFound("Asset");
    return sendAsset(reply, storage, asset);
  });

  app.patch<{ Params: WsParams & { assetId: string } }>(`${WS}:assetId/`, async (request) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const asset = await findAsset(app, request.params.assetId, { workspaceId: access.workspace.id, projectId: null });
    parse(statusBody, request.body);
    return presentAsset(await markUploaded(app, storage, asset, access.user), access.workspace.slug);
  });

  app.delete<{ Params: WsParams & { assetId: string } }>(`${WS}:assetId/`, async (request, reply) => {
    const access = await workspaceAccess(db, request, request.params.slug);
    const asset = await findAsset(app, request.params.assetId, { workspaceId: access.workspace.id, projectId: null });
    await removeAsset(app, storage, request, asset, access.user, access.membership.role >= ROLE.admin);
    return reply.status(204).send();
  });

  // ── project level ──

  app.post<{ Params: ProjectParams }>(PROJECT, async (request) => {
    const { slug, projectId } = request.params;
    const access = await projectAccess(db, request, slug, projectId);
    const body = parse(requestBody, request.body);
    const kind = body.entity_type;
    if (!PROJECT_ASSET_KINDS.includes(kind)) wrongPlace(kind);
    requireRole(access.projectMembership?.role ?? 0, PROJECT_KIND_ROLE[kind] ?? ROLE.admin);
    const upload = checkUploadRequest(kind, body);
    let entityIdentifier = body.entity_identifier || null;
    // A description image names its work item: it must be one of this project's, visible to the caller.
    if (kind === "ISSUE_DESCRIPTION" && entityIdentifier) {
      await issueAccess(db, request, slug, access.project.id, entityIdentifier);
    }
    if (kind === "PROJECT_COVER") entityIdentifier = access.project.id;
    const { asset, upload: uploadData } = await createAssetUpload(db, storage, {
      kind,
      request: upload,
      workspaceId: access.workspace.id,
      projectId: kind === "PROJECT_COVER" ? null : access.project.id,
      entityIdentifier,
      userId: access.user.id,
    });
    return { upload_data: uploadData, asset_id: asset.id, asset_url: assetUrl(asset, access.workspace.slug) };
  });

  app.get<{ Params: ProjectParams & { assetId: string } }>(`${PROJECT}:assetId/`, async (request, reply) => {
    const { slug, projectId, assetId } = request.params;
    const access = await projectAccess(db, request, slug, projectId);
    const asset = await findAsset(app, assetId, { workspaceId: access.workspace.id, projectId: access.project.id });
    if (!asset.isUploaded || !(await mayReadProjectAsset(db, access, asset))) throw notFound("Asset");
    return sendAsset(reply, storage, asset);
  });

  app.patch<{ Params: ProjectParams & { assetId: string } }>(`${PROJECT}:assetId/`, async (request) => {
    const { slug, projectId, assetId } = request.params;
    const access = await projectAccess(db, request, slug, projectId);
    const asset = await findAsset(app, assetId, { workspaceId: access.workspace.id, projectId: access.project.id });
    parse(statusBody, request.body);
    return presentAsset(await markUploaded(app, storage, asset, access.user), access.workspace.slug);
  });

  app.delete<{ Params: ProjectParams & { assetId: string } }>(`${PROJECT}:assetId/`, async (request, reply) => {
    const { slug, projectId, assetId } = request.params;
    const access = await projectAccess(db, request, slug, projectId);
    const asset = await findAsset(app, assetId, { workspaceId: access.workspace.id, projectId: access.project.id });
    const isAdmin = (access.projectMembership?.role ?? 0) >= ROLE.admin;
    await removeAsset(app, storage, request, asset, access.user, isAdmin);
    return reply.status(204).send();
  });

  // ── user level (avatar, profile cover) ──

  /** The caller's own user asset by id. */
  async function ownUserAsset(user: SessionUser, assetId: string): Promise<AssetRow> {
    const id = requireUuid(assetId, "Asset");
    const [asset] = await db
      .select()
      .from(fileAssets)
      .where(
        and(
          eq(fileAssets.id, id),
          eq(fileAssets.createdById, user.id),
          isNull(fileAssets.workspaceId),
          inArray(fileAssets.entityType, [...USER_ASSET_KINDS]),
          isNull(fileAssets.deletedAt),
        ),
      )
      .limit(1);
    if (!asset) throw notFound("Asset");
    return asset;
  }

  app.post(USER, async (request) => {
    const user = requireUser(request);
    const body = parse(requestBody, request.body);
    const kind = body.entity_type;
    if (!USER_ASSET_KINDS.includes(kind)) wrongPlace(kind);
    const upload = checkUploadRequest(kind, body);
    const { asset, upload: uploadData } = await createAssetUpload(db, storage, {
      kind,
      request: upload,
      workspaceId: null,
      projectId: null,
      entityIdentifier: user.id,
      userId: user.id,
    });
    return { upload_data: uploadData, asset_id: asset.id, asset_url: assetUrl(asset, null) };
  });

  app.get<{ Params: { assetId: string } }>(`${USER}:assetId/`, async (request, reply) => {
    const user = requireUser(request);
    const id = requireUuid(request.params.assetId, "Asset");
    const [asset] = await db
      .select()
      .from(fileAssets)
      .where(
        and(
          eq(fileAssets.id, id),
          isNull(fileAssets.workspaceId),
          inArray(fileAssets.entityType, [...USER_ASSET_KINDS]),
          eq(fileAssets.isUploaded, true),
          isNull(fileAssets.deletedAt),
        ),
      )
      .limit(1);
    if (!asset?.createdById) throw notFound("Asset");
    if (asset.createdById !== user.id && !(await shareAWorkspace(app, asset.createdById, user.id))) {
      throw notFound("Asset");
    }
    return sendAsset(reply, storage, asset);
  });

  app.patch<{ Params: { assetId: string } }>(`${USER}:assetId/`, async (request) => {
    const user = requireUser(request);
    const asset = await ownUserAsset(user, request.params.assetId);
    parse(statusBody, request.body);
    return presentAsset(await markUploaded(app, storage, asset, user), null);
  });

  app.delete<{ Params: { assetId: string } }>(`${USER}:assetId/`, async (request, reply) => {
    const user = requireUser(request);
    const asset = await ownUserAsset(user, request.params.assetId);
    await removeAsset(app, storage, request, asset, user, false);
    return reply.status(204).send();
  });
}

/** Are both users active members of at least one common workspace? (Who may see an avatar.) */
async function shareAWorkspace(app: FastifyInstance, a: string, b: string): Promise<boolean> {
  const other = alias(workspaceMembers, "other_member");
  const [row] = await app.ctx.db
    .select({ id: workspaceMembers.id })
    .from(workspaceMembers)
    .innerJoin(other, eq(other.workspaceId, workspaceMembers.workspaceId))
    .where(
      and(
        eq(workspaceMembers.memberId, a),
        eq(workspaceMembers.isActive, true),
        eq(other.memberId, b),
        eq(other.isActive, true),
      ),
    )
    .limit(1);
  return Boolean(row);
}
