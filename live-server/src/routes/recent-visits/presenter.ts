/**
 * A recent visit as the reference answers it (WorkspaceRecentVisitSerializer): `id`,
 * `entity_name`, `entity_identifier`, `visited_at` and the visited entity's compact summary in
 * `entity_data` — per entity the fields of the reference's IssueRecentVisitSerializer,
 * PageRecentVisitSerializer and ProjectRecentVisitSerializer (packages/types home.ts
 * TIssueEntityData / TPageEntityData / TProjectEntityData).
 */
import type { userRecentVisits } from "../../db/schema.ts";

export type RecentVisitRow = typeof userRecentVisits.$inferSelect;

/** A work item: `state` is its state id, `assignees` the assignees' user ids, `type` null (no types here). */
export type IssueEntityData = {
  id: string;
  name: string;
  state: string | null;
  priority: string;
  assignees: string[];
  type: null;
  sequence_id: number;
  project_id: string;
  project_identifier: string;
  is_epic: boolean;
};

/** A page, with the project it is shown under (the one it was opened in while the caller is in it). */
export type PageEntityData = {
  id: string;
  name: string;
  logo_props: Record<string, unknown>;
  project_id: string;
  owned_by: string;
  project_identifier: string;
};

/** A project, with its active members' ids. */
export type ProjectEntityData = {
  id: string;
  name: string;
  logo_props: Record<string, unknown>;
  project_members: string[];
  identifier: string;
};

export type EntityData = IssueEntityData | PageEntityData | ProjectEntityData;

export function presentRecentVisit(row: RecentVisitRow, entityData: EntityData) {
  return {
    id: row.id,
    entity_name: row.entityName,
    entity_identifier: row.entityIdentifier,
    entity_data: entityData,
    visited_at: row.visitedAt.toISOString(),
  };
}
