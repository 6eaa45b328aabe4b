/**
 * Projects (reading, settings, archive, joining) and project favorites; membership lives in
 * members.ts. Routes check who is calling (policies/access)
 * and pass the rows they got back; every query here is also scoped by workspace id, so nothing
 * is reachable by id alone from another workspace.
 *
 * "Active project member" means: the project_members row is active AND the person is still an
 * active member of the workspace. Someone who left the workspace stops counting everywhere
 * (lists, counts, last-admin checks) even before their project rows are cleaned up.
 */
import {
  checkProjectIdentifier,
  DEFAULT_STATES,
  isProjectFeatureAvailable,
  joinRoleFor,
  NETWORK,
  PROJECT_FEATURE_NAMES,
  PROJECT_FEATURES,
  type ProjectFeature,
  ROLE,
  sanitizeIdentifier,
} from "@tideline/shared";
import { and, asc, count, eq, inArray, isNotNull, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import { type Db, type DbOrTx, queryRows } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { cycles, modules, projectMembers, projects, states, userFavorites, workspaceMembers } from "../../db/schema.ts";
import { type EventBus, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { ApiError, badRequest, conflict, notFound } from "../../http/errors.ts";
import type { ProjectAccess, ProjectRow, WorkspaceAccess } from "../../policies/access.ts";
import { addFavorite, dropFavorites, type FavoriteCtx, removeFavorite } from "../../services/favorites.ts";
import { memberStillInWorkspace, upsertMembership, workspaceRoles } from "./members.ts";
import {
  type ProjectViewer,
  presentOwnMembership,
  presentProjectDetail,
  presentProjectEvent,
  presentProjectFavorite,
  presentProjectLite,
} from "./presenter.ts";
import type { CreateProjectBody, StatField, UpdateProjectBody } from "./schema.ts";

export const PROJECT_FAVORITE = "project";

// ───────────────────────────── helpers ─────────────────────────────

const identifierTaken = (identifier: string) =>
  conflict(
    `The identifier "${identifier}" is already used by another project in this workspace.`,
    { identifier: ["This identifier is already taken."] },
    "IDENTIFIER_TAKEN",
  );
const nameTaken = (name: string) =>
  conflict(
    `A project named "${name}" already exists in this workspace.`,
    { name: ["This name is already taken."] },
    "PROJECT_NAME_TAKEN",
  );

/** Turn a lost race on the unique indexes into the same 409 the pre-check gives. */
function rethrowAsConflict(error: unknown, values: { name?: string; identifier?: string }): never {
  const constraint = uniqueViolation(error);
  if (constraint === "projects_ws_identifier_key" && values.identifier) throw identifierTaken(values.identifier);
  if (constraint === "projects_ws_name_key" && values.name) throw nameTaken(values.name);
  throw error;
}

/** 409 when another project of the workspace has this name (any case) or identifier. */
async function assertNameAndIdentifierFree(
  db: DbOrTx,
  workspaceId: string,
  values: { name?: string; identifier?: string },
  exceptProjectId?: string,
): Promise<void> {
  const others = exceptProjectId ? ne(projects.id, exceptProjectId) : undefined;
  if (values.identifier !== undefined) {
    const [row] = await db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.workspaceId, workspaceId), eq(projects.identifier, values.identifier), others))
      .limit(1);
    if (row) throw identifierTaken(values.identifier);
  }
  if (values.name !== undefined) {
    const [row] = await db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.workspaceId, workspaceId), sql`lower(${projects.name}) = lower(${values.name})`, others))
      .limit(1);
    if (row) throw nameTaken(values.name);
  }
}

function sanitizedIdentifierOrThrow(raw: string): string {
  const check = checkProjectIdentifier(raw);
  if (!check.ok) throw badRequest(check.message, { identifier: [check.message] });
  return check.identifier;
}

// ───────────────────────────── reading projects ─────────────────────────────

type VisibleRow = {
  project: ProjectRow;
  memberRole: number | null;
  sortOrder: number | null;
  favoriteId: string | null;
};

/**
 * Projects of the workspace the user may see: the ones they are an active member of, plus the
 * public ones. Private projects of others stay invisible, whatever the workspace role.
 */
async function visibleProjects(
  db: DbOrTx,
  workspaceId: string,
  userId: string,
  filter: { archived?: boolean; ids?: string[] } = {},
): Promise<VisibleRow[]> {
  const conditions: (SQL | undefined)[] = [
    eq(projects.workspaceId, workspaceId),
    or(isNotNull(projectMembers.id), eq(projects.network, NETWORK.public)),
  ];
  if (filter.archived === true) conditions.push(isNotNull(projects.archivedAt));
  if (filter.archived === false) conditions.push(isNull(projects.archivedAt));
  if (filter.ids) conditions.push(inArray(projects.id, filter.ids));
  return db
    .select({
      project: projects,
      memberRole: projectMembers.role,
      sortOrder: projectMembers.sortOrder,
      favoriteId: userFavorites.id,
    })
    .from(projects)
    .leftJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, projects.id),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .leftJoin(
      userFavorites,
      and(
        eq(userFavorites.userId, userId),
        eq(userFavorites.entityType, PROJECT_FAVORITE),
        eq(userFavorites.entityIdentifier, projects.id),
      ),
    )
    .where(and(...conditions))
    .orderBy(sql`${projectMembers.sortOrder} asc nulls last`, asc(projects.createdAt), asc(projects.id));
}

function viewerOf(row: VisibleRow): ProjectViewer {
  return { memberRole: row.memberRole, sortOrder: row.sortOrder, isFavorite: row.favoriteId !== null };
}

/** Ids of the active members of each project. */
async function activeMemberIds(db: DbOrTx, projectIds: string[]): Promise<Map<string, string[]>> {
  const byProject = new Map<string, string[]>(projectIds.map((id) => [id, []]));
  if (projectIds.length === 0) return byProject;
  const rows = await db
    .select({ projectId: projectMembers.projectId, memberId: projectMembers.memberId })
    .from(projectMembers)
    .innerJoin(workspaceMembers, memberStillInWorkspace)
    .where(and(inArray(projectMembers.projectId, projectIds), eq(projectMembers.isActive, true)))
    .orderBy(asc(projectMembers.createdAt), asc(projectMembers.id));
  for (const row of rows) byProject.get(row.projectId)?.push(row.memberId);
  return byProject;
}

export async function listProjects(db: DbOrTx, ws: WorkspaceAccess, archived: boolean) {
  const rows = await visibleProjects(db, ws.workspace.id, ws.user.id, { archived });
  return rows.map((row) => presentProjectLite(row.project, viewerOf(row)));
}

export async function listProjectDetails(db: DbOrTx, ws: WorkspaceAccess, archived: boolean) {
  const rows = await visibleProjects(db, ws.workspace.id, ws.user.id, { archived });
  const members = await activeMemberIds(
    db,
    rows.map((r) => r.project.id),
  );
  return rows.map((row) =>
    presentProjectDetail(row.project, viewerOf(row), { memberIds: members.get(row.project.id) ?? [] }),
  );
}

/** One project as the caller sees it (the caller's access was checked already). */
export async function projectDetail(db: DbOrTx, workspaceId: string, userId: string, projectId: string) {
  const [row] = await visibleProjects(db, workspaceId, userId, { ids: [projectId] });
  if (!row) throw notFound("Project");
  const members = await activeMemberIds(db, [projectId]);
  return presentProjectDetail(row.project, viewerOf(row), { memberIds: members.get(projectId) ?? [] });
}

/** Is the sanitised form of `name` already a project identifier here? */
export async function identifierStatus(db: DbOrTx, workspaceId: string, name: string) {
  const identifier = sanitizeIdentifier(name);
  if (!identifier) return { exists: 0, identifiers: [] as string[] };
  const rows = await db
    .select({ identifier: projects.identifier })
    .from(projects)
    .where(and(eq(projects.workspaceId, workspaceId), eq(projects.identifier, identifier)));
  return { exists: rows.length, identifiers: rows.map((r) => r.identifier) };
}

/** Counts per visible project (archived ones included: the archives page shows them too). */
export async function projectStats(
  db: DbOrTx,
  ws: WorkspaceAccess,
  projectIds: string[] | undefined,
  fields: readonly StatField[],
) {
  const rows = await visibleProjects(db, ws.workspace.id, ws.user.id, projectIds ? { ids: projectIds } : {});
  const ids = rows.map((r) => r.project.id);
  const result = new Map<string, Record<string, number | string>>(ids.map((id) => [id, { id }]));
  if (ids.length === 0) return [];
  const set = (counts: Map<string, number>, field: StatField) => {
    for (const id of ids) {
      const entry = result.get(id);
      if (entry) entry[field] = counts.get(id) ?? 0;
    }
  };
  if (fields.includes("total_members")) {
    const members = await activeMemberIds(db, ids);
    set(new Map([...members].map(([id, list]) => [id, list.length])), "total_members");
  }
  if (fields.includes("total_states")) {
    const counts = await db
      .select({ projectId: states.projectId, n: count() })
      .from(states)
      .where(and(eq(states.workspaceId, ws.workspace.id), inArray(states.projectId, ids)))
      .groupBy(states.projectId);
    set(new Map(counts.map((c) => [c.projectId, c.n])), "total_states");
  }
  // Work items, cycles and modules count only where the caller may read them: projects they
  // are an active member of (a public project they have not joined counts 0).
  const memberOf = rows.filter((r) => r.memberRole !== null);
  const readable = memberOf.map((r) => r.project.id);
  if (fields.includes("total_issues") || fields.includes("completed_issues")) {
    // As the reference counts them: not deleted, archived or drafts, in a project not archived;
    // completed = a state of the completed or cancelled group. A restricted guest counts only
    // the items they created, the only ones they can see.
    const restricted = memberOf
      .filter((r) => (r.memberRole ?? 0) < ROLE.member && !r.project.guestViewAllFeatures)
      .map((r) => r.project.id);
    const counts = readable.length
      ? await queryRows<{ project_id: string; total: number; completed: number }>(
          db,
          sql`select i.project_id::text as project_id, count(*)::int as total,
                count(*) filter (where s."group" in ('completed', 'cancelled'))::int as completed
              from issues i
              join projects p on p.id = i.project_id and p.archived_at is null
              left join states s on s.id = i.state_id
              where i.workspace_id = ${ws.workspace.id}::uuid and i.project_id = any(${uuidArray(readable)})
                and i.deleted_at is null and i.archived_at is null and i.is_draft = false and i.in_intake = false
                and (not (i.project_id = any(${uuidArray(restricted)})) or i.created_by = ${ws.user.id}::uuid)
              group by i.project_id`,
        )
      : [];
    if (fields.includes("total_issues")) set(new Map(counts.map((c) => [c.project_id, c.total])), "total_issues");
    if (fields.includes("completed_issues")) {
      set(new Map(counts.map((c) => [c.project_id, c.completed])), "completed_issues");
    }
  }
  if (fields.includes("total_cycles")) {
    const counts = readable.length
      ? await db
          .select({ projectId: cycles.projectId, n: count() })
          .from(cycles)
          .where(and(eq(cycles.workspaceId, ws.workspace.id), inArray(cycles.projectId, readable)))
          .groupBy(cycles.projectId)
      : [];
    set(new Map(counts.map((c) => [c.projectId, c.n])), "total_cycles");
  }
  if (fields.includes("total_modules")) {
    const counts = readable.length
      ? await db
          .select({ projectId: modules.projectId, n: count() })
          .from(modules)
          .where(and(eq(modules.workspaceId, ws.workspace.id), inArray(modules.projectId, readable)))
          .groupBy(modules.projectId)
      : [];
    set(new Map(counts.map((c) => [c.projectId, c.n])), "total_modules");
  }
  return [...result.values()];
}

/** Ids as one uuid[] parameter. */
const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

// ───────────────────────────── writing projects ─────────────────────────────

/**
 * Create a project with its creator as admin, the lead (if another workspace member) as a
 * member at their workspace role, and the five default states — all or nothing.
 */
type Ctx = { db: Db; events: EventBus };

export async function createProject(
  ctx: Ctx,
  origin: EventOrigin,
  ws: WorkspaceAccess,
  body: CreateProjectBody,
): Promise<string> {
  const { db } = ctx;
  const identifier = sanitizedIdentifierOrThrow(body.identifier);
  const creatorId = ws.user.id;
  const leadId = body.project_lead ?? null;
  let leadRole: number | null = null;
  if (leadId && leadId !== creatorId) {
    leadRole = (await workspaceRoles(db, ws.workspace.id, [leadId])).get(leadId) ?? null;
    if (leadRole === null) {
      const message = `The project lead (${leadId}) is not an active member of this workspace.`;
      throw badRequest(message, { project_lead: [message] });
    }
  }
  await assertNameAndIdentifierFree(db, ws.workspace.id, { name: body.name, identifier });

  try {
    return await transactionWithEvents(db, ctx.events, origin, async (tx, emit) => {
      const [project] = await tx
        .insert(projects)
        .values({
          workspaceId: ws.workspace.id,
          name: body.name,
          identifier,
          description: body.description ?? "",
          network: body.network ?? NETWORK.public,
          projectLeadId: leadId,
          coverImage: body.cover_image ?? null,
          logoProps: body.logo_props ?? {},
          timezone: ws.workspace.timezone,
          createdById: creatorId,
          updatedById: creatorId,
        })
        .returning();
      if (!project) throw new Error("project insert failed");
      emit(
        "project.created",
        { workspaceId: project.workspaceId, projectId: project.id, entityId: project.id },
        presentProjectEvent(project),
      );
      await upsertMembership(tx, emit, project, creatorId, ROLE.admin, creatorId);
      if (leadId && leadRole !== null) {
        await upsertMembership(tx, emit, project, leadId, joinRoleFor(leadRole), creatorId);
      }
      await tx.insert(states).values(
        DEFAULT_STATES.map((s) => ({
          workspaceId: ws.workspace.id,
          projectId: project.id,
          name: s.name,
          color: s.color,
          group: s.group,
          sequence: s.sequence,
          isDefault: s.default,
          createdById: creatorId,
          updatedById: creatorId,
        })),
      );
      return project.id;
    });
  } catch (error) {
    rethrowAsConflict(error, { name: body.name, identifier });
  }
}

/** Someone the project may name as lead or default assignee: an active project member. */
async function assertActiveProjectMember(db: DbOrTx, project: ProjectRow, userId: string, field: string) {
  const [row] = await db
    .select({ id: projectMembers.id })
    .from(projectMembers)
    .innerJoin(workspaceMembers, memberStillInWorkspace)
    .where(
      and(
        eq(projectMembers.projectId, project.id),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .limit(1);
  if (!row) {
    const message = `${field === "project_lead" ? "The project lead" : "The default assignee"} (${userId}) must be a member of this project.`;
    throw badRequest(message, { [field]: [message] });
  }
}

export const PAID_FEATURE_MESSAGE =
  "Time tracking is a paid feature and isn't available on this plan, so it can't be turned on.";

const unavailableMessage = (feature: ProjectFeature) =>
  `${PROJECT_FEATURE_NAMES[feature]} isn't available in Tideline yet, so it can't be turned on.`;

export async function updateProject(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  body: UpdateProjectBody,
): Promise<void> {
  const { db } = ctx;
  const { project, user } = access;
  if (project.archivedAt) {
    throw badRequest(
      "This project is archived. Restore it before changing its settings.",
      undefined,
      "PROJECT_ARCHIVED",
    );
  }
  if (body.is_time_tracking_enabled === true) {
    throw badRequest(PAID_FEATURE_MESSAGE, { is_time_tracking_enabled: [PAID_FEATURE_MESSAGE] }, "PAID_FEATURE");
  }
  // A feature Tideline does not have yet can't be switched on: nothing may claim it (switching
  // one off is accepted and kept, for when the feature is built).
  const unavailable = (Object.keys(PROJECT_FEATURES) as ProjectFeature[]).filter(
    (f) => body[f] === true && !isProjectFeatureAvailable(f),
  );
  if (unavailable.length > 0) {
    const fields = Object.fromEntries(unavailable.map((f) => [f, [unavailableMessage(f)]]));
    throw badRequest(unavailableMessage(unavailable[0] as ProjectFeature), fields, "FEATURE_UNAVAILABLE");
  }
  const identifier = body.identifier === undefined ? undefined : sanitizedIdentifierOrThrow(body.identifier);
  if (body.project_lead) await assertActiveProjectMember(db, project, body.project_lead, "project_lead");
  if (body.default_assignee) await assertActiveProjectMember(db, project, body.default_assignee, "default_assignee");
  const renamed = body.name !== undefined && body.name !== project.name ? body.name : undefined;
  const reidentified = identifier !== undefined && identifier !== project.identifier ? identifier : undefined;
  await assertNameAndIdentifierFree(db, project.workspaceId, { name: renamed, identifier: reidentified }, project.id);

  const set: Partial<typeof projects.$inferInsert> = {
    name: body.name,
    description: body.description,
    identifier,
    network: body.network,
    projectLeadId: body.project_lead,
    defaultAssigneeId: body.default_assignee,
    coverImage: body.cover_image,
    logoProps: body.logo_props,
    timezone: body.timezone,
    archiveIn: body.archive_in,
    closeIn: body.close_in,
    guestViewAllFeatures: body.guest_view_all_features,
    cycleView: body.cycle_view,
    moduleView: body.module_view,
    issueViewsView: body.issue_views_view,
    pageView: body.page_view,
    inboxView: body.inbox_view,
    isTimeTrackingEnabled: body.is_time_tracking_enabled,
    isEpicEnabled: body.is_epic_enabled,
  };
  const changes = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return;
  // What was sent (the live layer re-checks guests' connections when guest_view_all_features is among them).
  const sent = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  try {
    await transactionWithEvents(db, ctx.events, origin, async (tx, emit) => {
      await tx
        .update(projects)
        .set({ ...changes, updatedById: user.id })
        .where(and(eq(projects.id, project.id), eq(projects.workspaceId, project.workspaceId)));
      emit(
        "project.updated",
        { workspaceId: project.workspaceId, projectId: project.id, entityId: project.id },
        { id: project.id, ...sent, changed_fields: Object.keys(sent) },
      );
    });
  } catch (error) {
    rethrowAsConflict(error, { name: body.name, identifier });
  }
}

/**
 * Every favorite that leads into a project: the project's own star and those of its cycles,
 * modules, views and pages (they carry the project's id).
 */
function favoritesInProject(project: ProjectRow): SQL | undefined {
  return and(
    eq(userFavorites.workspaceId, project.workspaceId),
    or(
      and(eq(userFavorites.entityType, PROJECT_FAVORITE), eq(userFavorites.entityIdentifier, project.id)),
      eq(userFavorites.projectId, project.id),
    ),
  );
}

export async function deleteProject(ctx: Ctx, origin: EventOrigin, project: ProjectRow): Promise<void> {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    // Its favorites are deleted here rather than by the cascade, so that each owner's sidebars
    // hear favorite.deleted and drop them at once.
    await dropFavorites(tx, emit, favoritesInProject(project));
    // Members and states go with it (foreign keys cascade).
    await tx.delete(projects).where(and(eq(projects.id, project.id), eq(projects.workspaceId, project.workspaceId)));
    // Open live connections to its channel, items and pages are re-checked (and closed).
    emit(
      "project.deleted",
      { workspaceId: project.workspaceId, projectId: project.id, entityId: project.id },
      { id: project.id },
    );
  });
}

/**
 * Archive: hide from the project list. Every favorite leading into it goes, as the reference
 * deletes the project's favorites on archive, and each owner hears favorite.deleted, so a
 * member's open sidebar drops the star of a project someone else archived.
 */
export async function archiveProject(ctx: Ctx, origin: EventOrigin, access: ProjectAccess): Promise<Date> {
  const { project, user } = access;
  if (project.archivedAt) throw badRequest("This project is already archived.", undefined, "PROJECT_ARCHIVED");
  const archivedAt = new Date();
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await tx
      .update(projects)
      .set({ archivedAt, updatedById: user.id })
      .where(and(eq(projects.id, project.id), eq(projects.workspaceId, project.workspaceId)));
    await dropFavorites(tx, emit, favoritesInProject(project));
  });
  return archivedAt;
}

export async function restoreProject(db: DbOrTx, access: ProjectAccess): Promise<void> {
  const { project, user } = access;
  if (!project.archivedAt) throw badRequest("This project is not archived.", undefined, "PROJECT_NOT_ARCHIVED");
  await db
    .update(projects)
    .set({ archivedAt: null, updatedById: user.id })
    .where(and(eq(projects.id, project.id), eq(projects.workspaceId, project.workspaceId)));
}

/**
 * Join public projects of the workspace at the caller's workspace role. A private project the
 * caller is not in is 404, as everywhere. Current memberships are left as they are.
 *
 * A former member (left, or removed) comes back at the lower of that role and the role the old
 * membership kept: leaving and re-joining never undoes a demotion (a member an admin made a
 * guest stays a guest). Only a project admin's change raises it again.
 */
export async function joinProjects(ctx: Ctx, origin: EventOrigin, ws: WorkspaceAccess, projectIds: string[]) {
  const { db } = ctx;
  const unique = [...new Set(projectIds)];
  const rows = await visibleProjects(db, ws.workspace.id, ws.user.id, { ids: unique });
  const found = new Map(rows.map((r) => [r.project.id, r]));
  const missing = unique.find((id) => !found.has(id));
  if (missing) throw new ApiError(404, `Project ${missing} not found`, { code: "NOT_FOUND" });
  const role = joinRoleFor(ws.membership.role);
  return transactionWithEvents(db, ctx.events, origin, async (tx, emit) => {
    const memberships = [];
    for (const id of unique) {
      const row = found.get(id);
      if (!row) continue;
      if (row.memberRole !== null) {
        const [own] = await tx
          .select()
          .from(projectMembers)
          .where(and(eq(projectMembers.projectId, id), eq(projectMembers.memberId, ws.user.id)));
        if (own) memberships.push(own);
        continue;
      }
      const [former] = await tx
        .select({ role: projectMembers.role })
        .from(projectMembers)
        .where(and(eq(projectMembers.projectId, id), eq(projectMembers.memberId, ws.user.id)));
      const kept = former ? Math.min(former.role, role) : role;
      memberships.push(await upsertMembership(tx, emit, row.project, ws.user.id, kept, ws.user.id));
    }
    return memberships.map(presentOwnMembership);
  });
}

// ───────────────────────────── favorites ─────────────────────────────

export async function listFavoriteProjects(db: DbOrTx, ws: WorkspaceAccess) {
  const rows = await db
    .select({ favorite: userFavorites, project: projects })
    .from(userFavorites)
    .innerJoin(
      projects,
      and(eq(projects.id, userFavorites.entityIdentifier), eq(projects.workspaceId, userFavorites.workspaceId)),
    )
    .leftJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, projects.id),
        eq(projectMembers.memberId, ws.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(
      and(
        eq(userFavorites.workspaceId, ws.workspace.id),
        eq(userFavorites.userId, ws.user.id),
        eq(userFavorites.entityType, PROJECT_FAVORITE),
        or(isNotNull(projectMembers.id), eq(projects.network, NETWORK.public)),
      ),
    )
    .orderBy(asc(userFavorites.sequence), asc(userFavorites.createdAt));
  return rows.map((r) => presentProjectFavorite(r.favorite, r.project));
}

/** Add a project favorite; an existing one is returned as it is (created: false). */
export async function addFavoriteProject(ctx: FavoriteCtx, origin: EventOrigin, access: ProjectAccess) {
  const { project, user } = access;
  if (project.archivedAt) {
    throw badRequest("Archived projects can't be added to favorites.", undefined, "PROJECT_ARCHIVED");
  }
  const { created, row } = await addFavorite(ctx, origin, {
    workspaceId: project.workspaceId,
    userId: user.id,
    entityType: PROJECT_FAVORITE,
    entityIdentifier: project.id,
    projectId: project.id,
  });
  return { created, favorite: presentProjectFavorite(row, project) };
}

export async function removeFavoriteProject(
  ctx: FavoriteCtx,
  origin: EventOrigin,
  ws: WorkspaceAccess,
  projectId: string,
): Promise<void> {
  const removed = await removeFavorite(ctx, origin, {
    workspaceId: ws.workspace.id,
    userId: ws.user.id,
    entityType: PROJECT_FAVORITE,
    entityIdentifier: projectId,
  });
  if (!removed) throw notFound("Favorite");
}
