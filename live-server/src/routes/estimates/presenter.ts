/**
 * How estimates and their points appear in API responses and in estimate.* events. Field names
 * follow product-domain §3 Estimate (workspace, project, estimate); `is_active` says whether
 * this estimate is the project's current one (projects.estimate_id).
 */
import type { estimatePoints, estimates } from "../../db/schema.ts";

export type EstimateRow = typeof estimates.$inferSelect;
export type EstimatePointRow = typeof estimatePoints.$inferSelect;

export function presentEstimatePoint(p: EstimatePointRow) {
  return {
    id: p.id,
    key: p.key,
    value: p.value,
    description: p.description,
    workspace: p.workspaceId,
    project: p.projectId,
    estimate: p.estimateId,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    created_by: p.createdById,
    updated_by: p.updatedById,
  };
}

export function presentEstimate(e: EstimateRow, points: readonly EstimatePointRow[], activeEstimateId: string | null) {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    type: e.type,
    workspace: e.workspaceId,
    project: e.projectId,
    last_used: e.lastUsed,
    is_active: activeEstimateId === e.id,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
    created_by: e.createdById,
    updated_by: e.updatedById,
    points: [...points].sort((a, b) => a.key - b.key).map(presentEstimatePoint),
  };
}

export type PresentedEstimate = ReturnType<typeof presentEstimate>;
