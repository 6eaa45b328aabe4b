/** How uploaded files appear in API responses and in attachment events. */
import type { fileAssets } from "../../db/schema.ts";

export type AssetRow = typeof fileAssets.$inferSelect;

/**
 * Where the browser reads an asset (product-domain §2): work-item and other project assets at
 * /api/assets/v2/workspaces/{slug}/projects/{projectId}/{assetId}/, workspace-wide ones (logos,
 * project covers) without the project part, avatars and profile covers under user-assets/.
 */
export function assetUrl(asset: Pick<AssetRow, "id" | "projectId" | "workspaceId">, slug: string | null): string {
  if (!asset.workspaceId || slug === null) return `/api/assets/v2/user-assets/${asset.id}/`;
  const project = asset.projectId ? `projects/${asset.projectId}/` : "";
  return `/api/assets/v2/workspaces/${slug}/${project}${asset.id}/`;
}

/** A work-item attachment (GET …/attachments/, and the data of attachment.* events). */
export function presentAttachment(asset: AssetRow, slug: string) {
  return {
    id: asset.id,
    attributes: { name: asset.name, size: asset.size, type: asset.mimeType },
    asset_url: assetUrl(asset, slug),
    issue_id: asset.entityIdentifier,
    project_id: asset.projectId,
    workspace_id: asset.workspaceId,
    created_by: asset.createdById,
    updated_by: asset.updatedById,
    created_at: asset.createdAt.toISOString(),
    updated_at: asset.updatedAt.toISOString(),
  };
}

/** Any other asset (logos, covers, avatars, images in rich text). */
export function presentAsset(asset: AssetRow, slug: string | null) {
  return {
    id: asset.id,
    asset_url: assetUrl(asset, slug),
    attributes: { name: asset.name, size: asset.size, type: asset.mimeType },
    entity_type: asset.entityType,
    entity_identifier: asset.entityIdentifier,
    is_uploaded: asset.isUploaded,
    workspace_id: asset.workspaceId,
    project_id: asset.projectId,
    created_by: asset.createdById,
    created_at: asset.createdAt.toISOString(),
    updated_at: asset.updatedAt.toISOString(),
  };
}
