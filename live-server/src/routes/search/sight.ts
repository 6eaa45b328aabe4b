/**
 * The projects a search may look into, read once per request: the unarchived projects of the
 * workspace the caller is an active member of, with their switched-on features and whether the
 * caller is a guest restricted to their own work items there (policies/access.ts
 * guestSeesOwnOnly: project role below member, guest_view_all_features off).
 *
 * Why a list and not a join in every query: PostgreSQL plans a membership join inside each kind
 * of match again (six kinds of work-item match, pages, cycles…), and on PGlite planning those
 * joins cost more than running the search (20 ms of 30 on the bench machine; even a join to
 * `projects` for an identifier costs a few ms of planning). The list narrows each index scan,
 * identifiers and time zones are looked up in it; the work items that come out still pass the
 * lists' own predicate (issues/visibility.ts itemVisibleTo) before they are answered.
 */
import { ROLE } from "@tideline/shared";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, queryRows } from "../../db/client.ts";

export type ProjectInSight = {
  id: string;
  identifier: string;
  timezone: string;
  /** A guest restricted to the work items they created (guestSeesOwnOnly). */
  own_only: boolean;
  cycle_view: boolean;
  module_view: boolean;
  issue_views_view: boolean;
  page_view: boolean;
};

export type Sight = {
  workspaceId: string;
  userId: string;
  /** Every project in sight by id: identifiers and time zones come from here, not from joins. */
  byId: Map<string, ProjectInSight>;
  /** Every project in sight (a page lists all of its own that the caller is in). */
  all: ProjectInSight[];
  /** The projects searched: all of them, or the one asked for (workspace_search=false). */
  projects: ProjectInSight[];
};

/** The caller's projects in the workspace; `only` narrows the search to one of them. */
export async function projectsInSight(
  db: DbOrTx,
  workspaceId: string,
  userId: string,
  only: string | null,
): Promise<Sight> {
  const all = await queryRows<ProjectInSight>(
    db,
    sql`select p.id, p.identifier, p.timezone, p.cycle_view, p.module_view, p.issue_views_view, p.page_view,
        (pm.role < ${ROLE.member} and not p.guest_view_all_features) as own_only
      from projects p
      join project_members pm on pm.project_id = p.id and pm.member_id = ${userId}::uuid and pm.is_active
      where p.workspace_id = ${workspaceId}::uuid and p.archived_at is null
      order by p.id`,
  );
  return {
    workspaceId,
    userId,
    byId: new Map(all.map((p) => [p.id, p])),
    all,
    projects: only ? all.filter((p) => p.id === only) : all,
  };
}

/** `column = any('{…}'::uuid[])`, or false for no ids (ids come from the database). */
export function anyOf(column: SQL, ids: readonly string[]): SQL {
  if (!ids.length) return sql`false`;
  return sql`${column} = any(${`{${ids.join(",")}}`}::uuid[])`;
}

export type Feature = "cycle_view" | "module_view" | "issue_views_view" | "page_view";

/** Ids of the projects searched with `feature` switched on; `everywhere`: of all in sight. */
export function projectIds(sight: Sight, feature?: Feature, everywhere = false): string[] {
  return (everywhere ? sight.all : sight.projects).filter((p) => !feature || p[feature]).map((p) => p.id);
}
