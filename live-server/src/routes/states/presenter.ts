/** How a state appears in API responses and in state.* events (snake_case). */
import type { states } from "../../db/schema.ts";

export type StateRow = typeof states.$inferSelect;

export function presentState(s: StateRow) {
  return {
    id: s.id,
    project_id: s.projectId,
    workspace_id: s.workspaceId,
    name: s.name,
    description: s.description,
    color: s.color,
    group: s.group,
    default: s.isDefault,
    sequence: s.sequence,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
    created_by: s.createdById,
    updated_by: s.updatedById,
  };
}

export type PresentedState = ReturnType<typeof presentState>;
