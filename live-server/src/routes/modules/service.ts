/**
 * Modules (product-domain §3 Module, §4; the reference's module views). Routes check access
 * first and pass the rows they got back; every query here is scoped by the project (or, for the
 * workspace list, by the caller's project memberships), so no module is reachable by id from
 * another project or workspace. Every change runs in transactionWithEvents and emits module.*
 * with the module as the API presents it.
 *
 * Rules:
 * - names are unique per project (409 MODULE_NAME_TAKEN);
 * - the target date is not before the start date (400, nothing stored);
 * - lead and members are active members of the project (400 naming them);
 * - an archived module can't be changed (400 MODULE_ARCHIVED); only completed or cancelled
 *   modules are archived (400 NOT_ARCHIVABLE), which removes every favorite of it;
 * - deleting takes every work item out of it (history "removed from module X", issue.updated).
 */
import { ARCHIVABLE_MODULE_STATUSES, DEFAULT_MODULE_STATUS, type ModuleStatus, ROLE } from "@tideline/shared";
import { and, asc, desc, eq, inArray, isNotNull, isNull, type SQL } from "drizzle-orm";
import { htmlToPlainText, sanitizeRichText } from "../../content/sanitize.ts";
import type { AppContext } from "../../context.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { moduleIssues, moduleMembers, modules, projectMembers, projects, userFavorites } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, conflict, type FieldErrors, forbidden, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { ProjectAccess, WorkspaceAccess } from "../../policies/access.ts";
import {
  addFavorite as addUserFavorite,
  dropFavorites,
  removeFavorite as removeUserFavorite,
} from "../../services/favorites.ts";
import { recordActivity } from "../../services/issue-activity.ts";
import { restrictedProjects } from "../cycles/guest-scope.ts";
import { loadIssues } from "../issues/query.ts";
import { emitIssue } from "../issues/service.ts";
import { changeIssueModules } from "./membership.ts";
import { eventData, type ModuleRow, type PresentedModule, presentModule } from "./presenter.ts";
import { loadCounters } from "./progress.ts";
import type { CreateModuleInput, UpdateModuleInput } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

export const MODULE_FAVORITE = "module";

const scopeOf = (m: ModuleRow) => ({ workspaceId: m.workspaceId, projectId: m.projectId, entityId: m.id });

const nameTaken = (name: string) =>
  conflict(
    `A module named "${name}" already exists in this project.`,
    { name: ["This name is already taken."] },
    "MODULE_NAME_TAKEN",
  );

function rethrowAsConflict(error: unknown, name: string | undefined): never {
  if (uniqueViolation(error) === "modules_project_name_key" && name !== undefined) throw nameTaken(name);
  throw error;
}

// ───────────────────────────── reading ─────────────────────────────

/**
 * Present modules with their members, counters and the caller's favorites (a few batch queries).
 * A restricted guest's counters count only the work items they created (cycles/guest-scope.ts);
 * events (userId null) carry everyone's.
 */
export async function presentModules(db: DbOrTx, rows: ModuleRow[], userId: string | null): Promise<PresentedModule[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const members = await db
    .select({ moduleId: moduleMembers.moduleId, memberId: moduleMembers.memberId })
    .from(moduleMembers)
    .where(inArray(moduleMembers.moduleId, ids))
    .orderBy(asc(moduleMembers.createdAt), asc(moduleMembers.memberId));
  const restrictedIn = userId
    ? await restrictedProjects(
        db,
        userId,
        rows.map((r) => r.projectId),
      )
    : new Set<string>();
  const restricted = userId
    ? { userId, moduleIds: rows.filter((r) => restrictedIn.has(r.projectId)).map((r) => r.id) }
    : undefined;
  const counters = await loadCounters(db, ids, restricted);
  const favorites = userId
    ? await db
        .select({ id: userFavorites.entityIdentifier })
        .from(userFavorites)
        .where(
          and(
            eq(userFavorites.userId, userId),
            eq(userFavorites.entityType, MODULE_FAVORITE),
            inArray(userFavorites.entityIdentifier, ids),
          ),
        )
    : [];
  const favorite = new Set(favorites.map((f) => f.id));
  return rows.map((row) =>
    presentModule(row, {
      memberIds: members.filter((m) => m.moduleId === row.id).map((m) => m.memberId),
      counters: counters.get(row.id),
      isFavorite: favorite.has(row.id),
    }),
  );
}

export async function presentOne(db: DbOrTx, row: ModuleRow, userId: string | null): Promise<PresentedModule> {
  const [out] = await presentModules(db, [row], userId);
  if (!out) throw new Error("module not presented");
  return out;
}

/** Favorites first, then newest first (the reference's order). */
function sortModules(list: PresentedModule[]): PresentedModule[] {
  return list.sort((a, b) => Number(b.is_favorite) - Number(a.is_favorite) || b.created_at.localeCompare(a.created_at));
}

/** The project's modules, archived or not. */
export async function listProjectModules(db: DbOrTx, access: ProjectAccess, archived: boolean) {
  const rows = await db
    .select()
    .from(modules)
    .where(
      and(
        eq(modules.projectId, access.project.id),
        archived ? isNotNull(modules.archivedAt) : isNull(modules.archivedAt),
      ),
    )
    .orderBy(desc(modules.createdAt));
  return sortModules(await presentModules(db, rows, access.user.id));
}

/** Unarchived modules of every unarchived project of the workspace the caller is an active member of. */
export async function listWorkspaceModules(db: DbOrTx, ws: WorkspaceAccess) {
  const rows = await db
    .select({ module: modules })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, modules.projectId),
        eq(projectMembers.memberId, ws.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(and(eq(modules.workspaceId, ws.workspace.id), isNull(projects.archivedAt), isNull(modules.archivedAt)))
    .orderBy(desc(modules.createdAt));
  return sortModules(
    await presentModules(
      db,
      rows.map((r) => r.module),
      ws.user.id,
    ),
  );
}

/** A module of this project, or 404. `archived`: true = only archived, false = only unarchived, undefined = either. */
export async function getModule(
  db: DbOrTx,
  access: ProjectAccess,
  moduleId: string,
  options: { archived?: boolean; lock?: boolean } = {},
): Promise<ModuleRow> {
  if (!isUuid(moduleId)) throw notFound("Module");
  const conditions: SQL[] = [eq(modules.id, moduleId), eq(modules.projectId, access.project.id)];
  if (options.archived === true) conditions.push(isNotNull(modules.archivedAt));
  if (options.archived === false) conditions.push(isNull(modules.archivedAt));
  const query = db
    .select()
    .from(modules)
    .where(and(...conditions))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw notFound("Module");
  return row;
}

// ───────────────────────────── changing ─────────────────────────────

/** Check lead, members and dates against the project and the module as it would be; one 400 naming each bad field. */
async function validate(tx: Tx, access: ProjectAccess, input: UpdateModuleInput, current: ModuleRow | null) {
  const fields: FieldErrors = {};
  const add = (key: string, message: string) => {
    fields[key] = [...(fields[key] ?? []), message];
  };
  const people = [...new Set([...(input.member_ids ?? []), ...(input.lead_id ? [input.lead_id] : [])])];
  if (people.length) {
    const rows = await tx
      .select({ id: projectMembers.memberId })
      .from(projectMembers)
      .where(
        and(
          eq(projectMembers.projectId, access.project.id),
          eq(projectMembers.isActive, true),
          inArray(projectMembers.memberId, people),
        ),
      );
    const ok = new Set(rows.map((r) => r.id));
    if (input.lead_id && !ok.has(input.lead_id)) add("lead_id", "The lead must be a member of this project.");
    for (const id of input.member_ids ?? []) {
      if (!ok.has(id)) add("member_ids", `A member (${id}) is not a member of this project.`);
    }
  }
  const start = input.start_date !== undefined ? input.start_date : (current?.startDate ?? null);
  const target = input.target_date !== undefined ? input.target_date : (current?.targetDate ?? null);
  if (start && target && start > target) {
    add(
      input.target_date !== undefined ? "target_date" : "start_date",
      "The end date must be on or after the start date.",
    );
  }
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    // The first problem in words a person reads (the fields name each one for the form).
    throw badRequest(first?.[1][0] ?? "Invalid module", fields, "VALIDATION_ERROR");
  }
}

/** The reference's form sends the lead as `lead` or `lead_id`. */
function normalise<T extends UpdateModuleInput>(input: T): T {
  if (input.lead_id === undefined && input.lead !== undefined) return { ...input, lead_id: input.lead };
  return input;
}

function descriptionFields(input: UpdateModuleInput): Partial<typeof modules.$inferInsert> {
  if (input.description_html !== undefined) {
    const html = sanitizeRichText(input.description_html ?? "");
    return { descriptionHtml: html, description: input.description ?? htmlToPlainText(html) };
  }
  if (input.description !== undefined) return { description: input.description ?? "" };
  return {};
}

async function setMembers(tx: Tx, row: ModuleRow, memberIds: readonly string[], actorId: string): Promise<boolean> {
  const now = (
    await tx.select({ id: moduleMembers.memberId }).from(moduleMembers).where(eq(moduleMembers.moduleId, row.id))
  ).map((r) => r.id);
  const next = [...new Set(memberIds)];
  const added = next.filter((id) => !now.includes(id));
  const removed = now.filter((id) => !next.includes(id));
  if (removed.length) {
    await tx
      .delete(moduleMembers)
      .where(and(eq(moduleMembers.moduleId, row.id), inArray(moduleMembers.memberId, removed)));
  }
  if (added.length) {
    await tx.insert(moduleMembers).values(
      added.map((memberId) => ({
        moduleId: row.id,
        memberId,
        workspaceId: row.workspaceId,
        projectId: row.projectId,
        createdById: actorId,
      })),
    );
  }
  return added.length > 0 || removed.length > 0;
}

export async function createModule(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  raw: CreateModuleInput,
): Promise<PresentedModule> {
  const input = normalise(raw);
  const { project, user } = access;
  try {
    return await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
      await validate(tx, access, input, null);
      const [row] = await tx
        .insert(modules)
        .values({
          workspaceId: project.workspaceId,
          projectId: project.id,
          name: input.name,
          ...descriptionFields(input),
          status: (input.status ?? DEFAULT_MODULE_STATUS) as ModuleStatus,
          startDate: input.start_date ?? null,
          targetDate: input.target_date ?? null,
          leadId: input.lead_id ?? null,
          sortOrder: input.sort_order ?? 65535,
          viewProps: input.view_props ?? {},
          logoProps: input.logo_props ?? {},
          externalSource: input.external_source ?? null,
          externalId: input.external_id ?? null,
          createdById: user.id,
          updatedById: user.id,
        })
        .returning();
      if (!row) throw new Error("module insert failed");
      if (input.member_ids?.length) await setMembers(tx, row, input.member_ids, user.id);
      const presented = await presentOne(tx, row, user.id);
      emit("module.created", scopeOf(row), eventData(presented));
      return presented;
    });
  } catch (error) {
    rethrowAsConflict(error, input.name);
  }
}

export async function updateModule(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  moduleId: string,
  raw: UpdateModuleInput,
): Promise<PresentedModule> {
  const input = normalise(raw);
  const { user } = access;
  try {
    return await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
      const current = await getModule(tx, access, moduleId, { lock: true });
      if (current.archivedAt) {
        throw badRequest("An archived module can't be changed. Restore it first.", undefined, "MODULE_ARCHIVED");
      }
      await validate(tx, access, input, current);
      const set: Partial<typeof modules.$inferInsert> = {
        name: input.name,
        ...descriptionFields(input),
        status: input.status,
        startDate: input.start_date,
        targetDate: input.target_date,
        leadId: input.lead_id,
        sortOrder: input.sort_order,
        viewProps: input.view_props,
        logoProps: input.logo_props,
        externalSource: input.external_source,
        externalId: input.external_id,
      };
      const changes = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
      let row = current;
      if (Object.keys(changes).length) {
        const [updated] = await tx
          .update(modules)
          .set({ ...changes, updatedById: user.id, updatedAt: new Date() })
          .where(eq(modules.id, current.id))
          .returning();
        if (!updated) throw notFound("Module");
        row = updated;
      }
      const membersChanged = input.member_ids ? await setMembers(tx, row, input.member_ids, user.id) : false;
      const presented = await presentOne(tx, row, user.id);
      if (Object.keys(changes).length || membersChanged) emit("module.updated", scopeOf(row), eventData(presented));
      return presented;
    });
  } catch (error) {
    rethrowAsConflict(error, input.name);
  }
}

/** Delete (a project admin, or the module's creator): its work items leave it, with history and issue.updated. */
export async function deleteModule(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, moduleId: string) {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getModule(tx, access, moduleId, { lock: true });
    const isAdmin = (access.projectMembership?.role ?? 0) >= ROLE.admin;
    if (!isAdmin && current.createdById !== access.user.id) {
      throw forbidden("Only a project admin or the module's creator can delete it.");
    }
    const presented = await presentOne(tx, current, null);
    const members = await tx
      .select({ issueId: moduleIssues.issueId })
      .from(moduleIssues)
      .where(eq(moduleIssues.moduleId, current.id));
    const refs = new Map([[current.id, { id: current.id, name: current.name, archivedAt: current.archivedAt }]]);
    const issueIds = members.map((m) => m.issueId);
    const items = await loadIssues(tx, { ids: issueIds });
    for (const item of items) {
      const change = await changeIssueModules(
        tx,
        access.user.id,
        { id: item.id, workspaceId: item.workspace_id, projectId: item.project_id },
        { remove: [current.id] },
        refs,
      );
      if (!item.is_draft) await recordActivity(tx, change.activity);
    }
    await dropFavorites(
      tx,
      emit,
      and(eq(userFavorites.entityType, MODULE_FAVORITE), eq(userFavorites.entityIdentifier, current.id)),
    );
    await tx.delete(modules).where(eq(modules.id, current.id));
    for (const item of await loadIssues(tx, { ids: issueIds, includeDescription: true })) {
      if (!item.is_draft) emitIssue(emit, "issue.updated", item, { changed_fields: ["module_ids"] });
    }
    emit("module.deleted", scopeOf(current), eventData(presented));
  });
}

/** Archive a completed or cancelled module; every favorite of it goes. Answers {archived_at}. */
export async function archiveModule(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, moduleId: string) {
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getModule(tx, access, moduleId, { lock: true });
    if (current.archivedAt) throw badRequest("This module is already archived.", undefined, "ALREADY_ARCHIVED");
    if (!(ARCHIVABLE_MODULE_STATUSES as readonly string[]).includes(current.status)) {
      throw badRequest("Only completed or cancelled modules can be archived.", undefined, "NOT_ARCHIVABLE");
    }
    const now = new Date();
    const [row] = await tx
      .update(modules)
      .set({ archivedAt: now, updatedAt: now, updatedById: access.user.id })
      .where(eq(modules.id, current.id))
      .returning();
    if (!row) throw notFound("Module");
    await dropFavorites(
      tx,
      emit,
      and(eq(userFavorites.entityType, MODULE_FAVORITE), eq(userFavorites.entityIdentifier, current.id)),
    );
    emit("module.archived", scopeOf(row), eventData(await presentOne(tx, row, null)));
    return { archived_at: now.toISOString() };
  });
}

/** Restore an archived module (DELETE on the archive path). */
export async function restoreModule(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, moduleId: string) {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getModule(tx, access, moduleId, { lock: true });
    if (!current.archivedAt) throw badRequest("This module is not archived.", undefined, "NOT_ARCHIVED");
    const [row] = await tx
      .update(modules)
      .set({ archivedAt: null, updatedAt: new Date(), updatedById: access.user.id })
      .where(eq(modules.id, current.id))
      .returning();
    if (!row) throw notFound("Module");
    emit("module.restored", scopeOf(row), eventData(await presentOne(tx, row, null)));
  });
}

/** Star an unarchived module for the caller (a favorite already there stays as it is). */
export async function addFavoriteModule(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, moduleId: string) {
  const row = await getModule(ctx.db, access, moduleId, { archived: false });
  await addUserFavorite(ctx, origin, {
    workspaceId: row.workspaceId,
    userId: access.user.id,
    entityType: MODULE_FAVORITE,
    entityIdentifier: row.id,
    projectId: row.projectId,
  });
}

/** Remove the caller's star of a module; 404 when there is none. */
export async function removeFavoriteModule(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, moduleId: string) {
  if (!isUuid(moduleId)) throw notFound("Favorite");
  const removed = await removeUserFavorite(ctx, origin, {
    workspaceId: access.workspace.id,
    userId: access.user.id,
    entityType: MODULE_FAVORITE,
    entityIdentifier: moduleId,
    projectId: access.project.id,
  });
  if (!removed) throw notFound("Favorite");
}

export type { EmitFn };
