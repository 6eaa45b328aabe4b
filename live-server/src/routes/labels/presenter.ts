/** How a label appears in API responses and in label.* events (snake_case). */
import type { labels } from "../../db/schema.ts";

export type LabelRow = typeof labels.$inferSelect;

export function presentLabel(l: LabelRow) {
  return {
    id: l.id,
    name: l.name,
    color: l.color,
    description: l.description,
    parent: l.parentId,
    sort_order: l.sortOrder,
    project_id: l.projectId,
    workspace_id: l.workspaceId,
    created_at: l.createdAt.toISOString(),
    updated_at: l.updatedAt.toISOString(),
    created_by: l.createdById,
    updated_by: l.updatedById,
  };
}
