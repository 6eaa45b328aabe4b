/**
 * Recent visits (product-domain §2 "Recent visits"; the reference's UserRecentVisit and its
 * recent_visited_task): what a person opened lately in a workspace, for the home's Recents.
 *
 * - Recording (recordRecentVisit): the detail reads call it once the read has succeeded — a work
 *   item (by id or by key), a page, a project. One row per person, workspace and entity; opening
 *   it again moves `visited_at` (and the project it was opened in). The newest RECENT_VISITS_KEPT
 *   per entity name are kept, older ones dropped in the same statement. The reference keeps 20
 *   per person and workspace across every kind; per kind here, so the Pages filter still has
 *   pages after a day of opening work items. A failure is logged and never fails the read.
 * - Listing (listRecentVisits): newest visit first, at most RECENT_VISITS_KEPT, and only what the
 *   caller may see now — a deleted or archived item, a page made private by someone else or
 *   archived, a project left or archived (and everything in it) is left out, though its row stays
 *   should the person get access back.
 */
import { PAGE_ACCESS } from "@tideline/shared";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type DbOrTx, queryRows } from "../../db/client.ts";
import { userRecentVisits } from "../../db/schema.ts";
import type { ProjectAccess, WorkspaceAccess } from "../../policies/access.ts";
import { itemVisibleTo, uuidIn } from "../issues/visibility.ts";
import {
  type EntityData,
  type IssueEntityData,
  type PageEntityData,
  type ProjectEntityData,
  presentRecentVisit,
  type RecentVisitRow,
} from "./presenter.ts";
import { RECENT_VISIT_ENTITIES, RECENT_VISITS_KEPT, type RecentVisitEntity } from "./schema.ts";

export type RecentVisit = {
  workspaceId: string;
  userId: string;
  /** The project the entity was opened in (a project's own id for a project). */
  projectId: string;
  entityName: RecentVisitEntity;
  entityIdentifier: string;
};

/**
 * Records that `visit.userId` opened an entity now (upsert + trim, one statement). Never throws:
 * a visit not recorded must not fail the read that opened it.
 */
export async function recordRecentVisit(db: DbOrTx, log: FastifyBaseLogger, visit: RecentVisit): Promise<void> {
  const { workspaceId, userId, projectId, entityName, entityIdentifier } = visit;
  try {
    // The trim reads the rows as they were before this statement: keep KEPT - 1 others besides this one.
    await db.execute(sql`
      with stale as (
        select id from user_recent_visits
        where user_id = ${userId}::uuid and workspace_id = ${workspaceId}::uuid and entity_name = ${entityName}
          and entity_identifier <> ${entityIdentifier}::uuid
        order by visited_at desc, id desc
        offset ${RECENT_VISITS_KEPT - 1}
      ), trimmed as (
        delete from user_recent_visits where id in (select id from stale)
      )
      insert into user_recent_visits
        (workspace_id, user_id, project_id, entity_name, entity_identifier, visited_at, created_by, updated_by)
      values (${workspaceId}::uuid, ${userId}::uuid, ${projectId}::uuid, ${entityName}, ${entityIdentifier}::uuid,
        clock_timestamp(), ${userId}::uuid, ${userId}::uuid)
      on conflict (user_id, workspace_id, entity_name, entity_identifier) do update
        set visited_at = excluded.visited_at, project_id = excluded.project_id,
          updated_at = excluded.visited_at, updated_by = excluded.updated_by`);
  } catch (error) {
    log.warn({ err: error, visit }, "recent visit not recorded");
  }
}

/** The caller's recent visits in the workspace (one kind, or every kind), newest first. */
export async function listRecentVisits(db: DbOrTx, access: WorkspaceAccess, entityName?: RecentVisitEntity) {
  const rows = await db
    .select()
    .from(userRecentVisits)
    .where(
      and(
        eq(userRecentVisits.workspaceId, access.workspace.id),
        eq(userRecentVisits.userId, access.user.id),
        inArray(userRecentVisits.entityName, entityName ? [entityName] : [...RECENT_VISIT_ENTITIES]),
      ),
    )
    .orderBy(desc(userRecentVisits.visitedAt), desc(userRecentVisits.id))
    // At most KEPT of each kind are stored; the limit only guards against a trim that lost a race.
    .limit(RECENT_VISITS_KEPT * RECENT_VISIT_ENTITIES.length);
  const idsOf = (kind: RecentVisitEntity) => rows.filter((r) => r.entityName === kind).map((r) => r.entityIdentifier);
  const [issueData, pageData, projectData] = await Promise.all([
    visibleIssues(db, access, idsOf("issue")),
    visiblePages(
      db,
      access,
      rows.filter((r) => r.entityName === "page"),
    ),
    visibleProjects(db, access, idsOf("project")),
  ]);
  const dataOf: Record<string, Map<string, EntityData>> = { issue: issueData, page: pageData, project: projectData };
  const out: ReturnType<typeof presentRecentVisit>[] = [];
  for (const row of rows) {
    const data = dataOf[row.entityName]?.get(row.entityIdentifier);
    if (!data) continue;
    out.push(presentRecentVisit(row, data));
    if (out.length === RECENT_VISITS_KEPT) break;
  }
  return out;
}

/** Work items the caller may open now: not deleted or archived, in a live project they are in, the guest rule. */
async function visibleIssues(db: DbOrTx, access: WorkspaceAccess, ids: string[]) {
  const out = new Map<string, EntityData>();
  if (!ids.length) return out;
  const rows = await queryRows<IssueEntityData>(
    db,
    sql`select i.id::text as id, i.name, i.state_id::text as state, i.priority, i.sequence_id,
          i.project_id::text as project_id, p.identifier as project_identifier, i.is_epic,
          coalesce((select json_agg(a.assignee_id::text order by a.created_at, a.assignee_id)
                    from issue_assignees a where a.issue_id = i.id), '[]'::json) as assignees
        from issues i join projects p on p.id = i.project_id
        where ${uuidIn(sql`i.id`, ids)} and i.workspace_id = ${access.workspace.id}::uuid
          and i.archived_at is null and (not i.is_epic or p.is_epic_enabled)
          and ${itemVisibleTo("i", access.user.id, { activeProjectsOnly: true })}`,
  );
  for (const r of rows) {
    out.set(r.id, {
      id: r.id,
      name: r.name,
      state: r.state,
      priority: r.priority,
      assignees: r.assignees,
      type: null,
      sequence_id: r.sequence_id,
      project_id: r.project_id,
      project_identifier: r.project_identifier,
      is_epic: r.is_epic,
    });
  }
  return out;
}

type PageRow = Omit<PageEntityData, "logo_props"> & { logo_props: Record<string, unknown> | null };

/**
 * Pages the caller may open now: not archived, public or their own, in a live project they are
 * in — shown under the project it was opened in while that is one of them, else the first.
 */
async function visiblePages(db: DbOrTx, access: WorkspaceAccess, visits: RecentVisitRow[]) {
  const out = new Map<string, EntityData>();
  if (!visits.length) return out;
  const openedIn = new Map(visits.map((v) => [v.entityIdentifier, v.projectId]));
  const rows = await queryRows<PageRow>(
    db,
    sql`select pg.id::text as id, pg.name, pg.logo_props, pg.owned_by_id::text as owned_by,
          pr.id::text as project_id, pr.identifier as project_identifier
        from pages pg
        join page_projects pp on pp.page_id = pg.id
        join projects pr on pr.id = pp.project_id and pr.archived_at is null
          and pr.workspace_id = ${access.workspace.id}::uuid
        join project_members pm on pm.project_id = pr.id and pm.member_id = ${access.user.id}::uuid and pm.is_active
        where ${uuidIn(
          sql`pg.id`,
          visits.map((v) => v.entityIdentifier),
        )} and pg.workspace_id = ${access.workspace.id}::uuid
          and pg.archived_at is null
          and (pg.access = ${PAGE_ACCESS.public} or pg.owned_by_id = ${access.user.id}::uuid)
        order by pr.identifier`,
  );
  for (const r of rows) {
    if (out.has(r.id) && r.project_id !== openedIn.get(r.id)) continue;
    out.set(r.id, {
      id: r.id,
      name: r.name,
      logo_props: r.logo_props ?? {},
      project_id: r.project_id,
      owned_by: r.owned_by,
      project_identifier: r.project_identifier,
    });
  }
  return out;
}

/** Projects the caller is an active member of, not archived, with their active (non-bot) members. */
async function visibleProjects(db: DbOrTx, access: WorkspaceAccess, ids: string[]) {
  const out = new Map<string, EntityData>();
  if (!ids.length) return out;
  const rows = await queryRows<ProjectEntityData>(
    db,
    sql`select p.id::text as id, p.name, p.logo_props, p.identifier,
          coalesce((select json_agg(m.member_id::text order by m.created_at, m.member_id)
                    from project_members m join users u on u.id = m.member_id
                    where m.project_id = p.id and m.is_active and not u.is_bot), '[]'::json) as project_members
        from projects p
        join project_members me on me.project_id = p.id and me.member_id = ${access.user.id}::uuid and me.is_active
        where ${uuidIn(sql`p.id`, ids)} and p.workspace_id = ${access.workspace.id}::uuid and p.archived_at is null`,
  );
  for (const r of rows) {
    out.set(r.id, {
      id: r.id,
      name: r.name,
      logo_props: r.logo_props ?? {},
      project_members: r.project_members,
      identifier: r.identifier,
    });
  }
  return out;
}

/** Records a project visit when the caller is an active member of the live project (not a non-member's peek). */
export async function recordProjectVisit(db: DbOrTx, log: FastifyBaseLogger, access: ProjectAccess): Promise<void> {
  if (!access.projectMembership || access.project.archivedAt) return;
  await recordRecentVisit(db, log, {
    workspaceId: access.workspace.id,
    userId: access.user.id,
    projectId: access.project.id,
    entityName: "project",
    entityIdentifier: access.project.id,
  });
}
