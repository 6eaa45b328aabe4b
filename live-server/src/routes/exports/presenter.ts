/**
 * An export as the API answers it: the reference's ExporterHistory (id, created_at, updated_at,
 * project, provider, status, url, initiated_by, initiated_by_detail, token, created_by,
 * updated_by) plus what our settings screen shows: progress, counts, reason, file name and
 * size, completed_at, expired_at / is_expired.
 */
import type { exporterHistory } from "../../db/schema.ts";
import type { ActorDetail } from "../issue-details/common.ts";

export type ExportRow = typeof exporterHistory.$inferSelect;

/** Where the file is downloaded (an authenticated call that streams it from the storage). */
export const downloadPath = (slug: string, id: string) => `/api/workspaces/${slug}/export-issues/${id}/download/`;

/** 0–100: written items over the items the export holds (100 once completed). */
export function progressOf(row: ExportRow): number {
  if (row.status === "completed") return 100;
  if (!row.totalItems) return 0;
  return Math.min(99, Math.floor((row.exportedItems * 100) / row.totalItems));
}

export function presentExport(row: ExportRow, slug: string, initiator: ActorDetail | undefined) {
  const available = row.status === "completed" && !row.expiredAt;
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    project: row.projectIds,
    provider: row.provider,
    multiple: row.multiple,
    status: row.status,
    reason: row.reason,
    progress: progressOf(row),
    exported_items: row.exportedItems,
    total_items: row.totalItems,
    url: available ? downloadPath(slug, row.id) : null,
    file_name: row.fileName,
    size: row.size,
    completed_at: row.completedAt ? row.completedAt.toISOString() : null,
    expired_at: row.expiredAt ? row.expiredAt.toISOString() : null,
    is_expired: Boolean(row.expiredAt),
    initiated_by: row.initiatedById,
    initiated_by_detail: initiator ?? null,
    token: row.token,
    workspace: row.workspaceId,
    created_by: row.createdById,
    updated_by: row.updatedById,
  };
}
export type ExportView = ReturnType<typeof presentExport>;
