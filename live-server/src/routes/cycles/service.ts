/**
 * Cycles of a project (product-domain §3 Cycle, §4 "Cycle status", "Cycle list order").
 * Routes check access first; every query here is scoped by the project (or workspace) id the
 * policy returned, so another project's or workspace's cycle is a 404. Changes run in
 * transactionWithEvents and emit cycle.* with the cycle as the API presents it (without the
 * per-user is_favorite).
 *
 * Rules:
 * - dates: both or neither (neither = draft); the end on or after the start; dated cycles of a
 *   project never share a day (checked under a per-project lock, 400 CYCLE_DATES_OVERLAP);
 * - a completed cycle (its end date has passed) only takes sort_order changes; an archived one
 *   none (restore it first);
 * - only completed cycles are archived; archiving removes every favorite of it;
 * - deleting takes every work item out of the cycle first (history on each item).
 */
import { type CycleView, compareCycles, cycleDatesOverlap, cycleStatus, inCycleView, ROLE } from "@tideline/shared";
import { and, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { cycleIssues, cycles, issues, projectMembers, projects, userFavorites } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, forbidden, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { ProjectAccess, ProjectRow, WorkspaceAccess } from "../../policies/access.ts";
import {
  addFavorite as addUserFavorite,
  dropFavorites,
  removeFavorite as removeUserFavorite,
} from "../../services/favorites.ts";
import { loadIssues } from "../issues/query.ts";
import { emitIssue } from "../issues/service.ts";
import { assignableCycle, moveItemsToCycle } from "./membership.ts";
import { type CycleRow, EMPTY_COUNTERS, type PresentedCycle, presentCycle } from "./presenter.ts";
import { freezeCompleted, loadCounters, projectToday, readerCounters } from "./progress.ts";
import type { CreateCycleBody, UpdateCycleBody } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

const FAVORITE = "cycle";

const scopeOf = (c: CycleRow) => ({ workspaceId: c.workspaceId, projectId: c.projectId, entityId: c.id });

// ───────────────────────────── reading ─────────────────────────────

/** A cycle of this project (archived ones only when asked), or 404. */
export async function getCycleRow(
  db: DbOrTx,
  project: ProjectRow,
  cycleId: string,
  options: { archived?: boolean | "any"; lock?: boolean } = {},
): Promise<CycleRow> {
  if (!isUuid(cycleId)) throw notFound("Cycle");
  const archived = options.archived ?? false;
  const query = db
    .select()
    .from(cycles)
    .where(
      and(
        eq(cycles.id, cycleId),
        eq(cycles.projectId, project.id),
        archived === "any" ? undefined : archived ? isNotNull(cycles.archivedAt) : isNull(cycles.archivedAt),
      ),
    )
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw notFound("Cycle");
  return row;
}

/**
 * Present rows for this user: counters (live or frozen), assignee ids, is_favorite. A restricted
 * guest's are over their own work items (progress.ts readerCounters), snapshot included.
 */
export async function presentForUser(
  db: DbOrTx,
  userId: string,
  rows: CycleRow[],
  todayOf: (row: CycleRow) => string,
): Promise<PresentedCycle[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const extras = await readerCounters(db, userId, rows, todayOf);
  const favorites = await db
    .select({ id: userFavorites.entityIdentifier })
    .from(userFavorites)
    .where(
      and(
        eq(userFavorites.userId, userId),
        eq(userFavorites.entityType, FAVORITE),
        inArray(userFavorites.entityIdentifier, ids),
      ),
    );
  const fav = new Set(favorites.map((f) => f.id));
  return rows.map((row) => {
    const snapshot = extras.get(row.id)?.snapshot;
    return presentCycle(snapshot ? { ...row, progressSnapshot: snapshot } : row, todayOf(row), {
      counters: extras.get(row.id)?.counters ?? { ...EMPTY_COUNTERS },
      assigneeIds: extras.get(row.id)?.assigneeIds ?? [],
      isFavorite: fav.has(row.id),
    });
  });
}

/** The cycle as events carry it (no per-user field). */
async function presentForEvent(tx: DbOrTx, project: ProjectRow, row: CycleRow): Promise<PresentedCycle> {
  const extras = (await loadCounters(tx, [row.id])).get(row.id);
  return presentCycle(row, projectToday(project), {
    counters: extras?.counters ?? { ...EMPTY_COUNTERS },
    assigneeIds: extras?.assigneeIds ?? [],
  });
}

/**
 * The project's cycles (not archived) of a cycle_view, in the list order: current, upcoming
 * by start date, draft, completed, by name within each; or by sort_order.
 */
export async function listCycles(
  db: DbOrTx,
  access: ProjectAccess,
  view: CycleView,
  bySortOrder: boolean,
): Promise<PresentedCycle[]> {
  const today = projectToday(access.project);
  const stored = await db
    .select()
    .from(cycles)
    .where(and(eq(cycles.projectId, access.project.id), isNull(cycles.archivedAt)));
  const rows = (await freezeCompleted(db, access.project, stored, today))
    .filter((r) => inCycleView(view, { start_date: r.startDate, end_date: r.endDate, archived_at: null }, today))
    .sort((a, b) => compareCycles(asDates(a), asDates(b), today, bySortOrder));
  return presentForUser(db, access.user.id, rows, () => today);
}

const asDates = (r: CycleRow) => ({
  id: r.id,
  name: r.name,
  start_date: r.startDate,
  end_date: r.endDate,
  sort_order: r.sortOrder,
});

export async function listArchivedCycles(db: DbOrTx, access: ProjectAccess): Promise<PresentedCycle[]> {
  const today = projectToday(access.project);
  const rows = await db
    .select()
    .from(cycles)
    .where(and(eq(cycles.projectId, access.project.id), isNotNull(cycles.archivedAt)));
  rows.sort((a, b) => compareCycles(asDates(a), asDates(b), today));
  return presentForUser(db, access.user.id, rows, () => today);
}

/** Cycles of every unarchived project of the workspace the caller is an active member of. */
async function workspaceCycleRows(db: DbOrTx, ws: WorkspaceAccess) {
  return db
    .select({ cycle: cycles, project: projects })
    .from(cycles)
    .innerJoin(projects, eq(projects.id, cycles.projectId))
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, cycles.projectId),
        eq(projectMembers.memberId, ws.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(and(eq(cycles.workspaceId, ws.workspace.id), isNull(projects.archivedAt), isNull(cycles.archivedAt)));
}

export async function listWorkspaceCycles(db: DbOrTx, ws: WorkspaceAccess): Promise<PresentedCycle[]> {
  const rows = await workspaceCycleRows(db, ws);
  const tz = new Map(rows.map((r) => [r.cycle.projectId, r.project]));
  const todayOf = (c: CycleRow) => projectToday(tz.get(c.projectId) ?? { timezone: "UTC" });
  const list = rows.map((r) => r.cycle);
  list.sort((a, b) => a.projectId.localeCompare(b.projectId) || compareCycles(asDates(a), asDates(b), todayOf(a)));
  return presentForUser(db, ws.user.id, list, todayOf);
}

/** Current cycles of the caller's projects, paged like the reference (cursor "perPage:page:0"). */
export async function listActiveCycles(db: DbOrTx, ws: WorkspaceAccess, perPage: number, pageIndex: number) {
  const rows = await workspaceCycleRows(db, ws);
  const projectOf = new Map(rows.map((r) => [r.cycle.projectId, r.project]));
  const todayOf = (c: CycleRow) => projectToday(projectOf.get(c.projectId) ?? { timezone: "UTC" });
  const active = rows
    .map((r) => r.cycle)
    .filter((c) => cycleStatus({ start_date: c.startDate, end_date: c.endDate }, todayOf(c)) === "current")
    .sort((a, b) => (a.startDate ?? "").localeCompare(b.startDate ?? "") || a.name.localeCompare(b.name));
  const page = active.slice(pageIndex * perPage, (pageIndex + 1) * perPage);
  const presented = await presentForUser(db, ws.user.id, page, todayOf);
  const results = presented.map((c) => {
    const p = projectOf.get(c.project_id);
    return {
      ...c,
      project_detail: p ? { id: p.id, name: p.name, identifier: p.identifier, logo_props: p.logoProps } : null,
    };
  });
  const totalPages = Math.ceil(active.length / perPage);
  return {
    results,
    count: results.length,
    total_results: active.length,
    total_pages: totalPages,
    next_cursor: `${perPage}:${pageIndex + 1}:0`,
    prev_cursor: `${perPage}:${Math.max(pageIndex - 1, 0)}:0`,
    next_page_results: pageIndex + 1 < totalPages,
    prev_page_results: pageIndex > 0,
  };
}

// ───────────────────────────── rules ─────────────────────────────

/** Serialise date changes of one project's cycles (two creates must not both pass the overlap check). */
async function lockProjectCycles(tx: Tx, projectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`cycles:${projectId}`}, 0))`);
}

/** The dated cycle of the project (other than `exceptId`) sharing a day with these dates, if any. */
export async function overlappingCycle(
  db: DbOrTx,
  projectId: string,
  dates: { start_date: string | null; end_date: string | null },
  exceptId?: string | null,
): Promise<CycleRow | null> {
  if (!dates.start_date || !dates.end_date) return null;
  const rows = await db
    .select()
    .from(cycles)
    .where(
      and(
        eq(cycles.projectId, projectId),
        isNotNull(cycles.startDate),
        isNotNull(cycles.endDate),
        sql`${cycles.startDate} <= ${dates.end_date}::date and ${cycles.endDate} >= ${dates.start_date}::date`,
        exceptId && isUuid(exceptId) ? ne(cycles.id, exceptId) : undefined,
      ),
    )
    .orderBy(cycles.startDate)
    .limit(1);
  const row = rows[0];
  return row && cycleDatesOverlap(dates, { start_date: row.startDate, end_date: row.endDate }) ? row : null;
}

export const overlapMessage = (other: CycleRow) =>
  `These dates overlap the cycle "${other.name}" (${other.startDate} – ${other.endDate}). Pick other dates, or leave both empty for a draft cycle.`;

/** Both dates or neither, the end on or after the start, no overlap. Throws a 400 naming the field. */
async function checkDates(
  tx: DbOrTx,
  projectId: string,
  dates: { start_date: string | null; end_date: string | null },
  exceptId: string | null,
): Promise<void> {
  const { start_date, end_date } = dates;
  if ((start_date === null) !== (end_date === null)) {
    const missing = start_date === null ? "start_date" : "end_date";
    throw badRequest(
      "A cycle has both a start and an end date, or neither (a draft).",
      { [missing]: ["Set both dates, or clear both for a draft cycle."] },
      "CYCLE_DATES_INCOMPLETE",
    );
  }
  if (start_date && end_date && end_date < start_date) {
    throw badRequest(
      "The end date must be on or after the start date.",
      { end_date: ["The end date must be on or after the start date."] },
      "CYCLE_END_BEFORE_START",
    );
  }
  const other = await overlappingCycle(tx, projectId, dates, exceptId);
  if (other) {
    const message = overlapMessage(other);
    throw badRequest(message, { start_date: [message], end_date: [message] }, "CYCLE_DATES_OVERLAP");
  }
}

async function assertProjectMember(tx: DbOrTx, projectId: string, userId: string): Promise<void> {
  const [row] = await tx
    .select({ id: projectMembers.id })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        eq(projectMembers.memberId, userId),
        eq(projectMembers.isActive, true),
      ),
    )
    .limit(1);
  if (!row) throw badRequest("The owner must be a member of the project.", { owned_by_id: ["Not a project member"] });
}

// ───────────────────────────── changing ─────────────────────────────

export async function createCycle(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  body: CreateCycleBody,
): Promise<CycleRow> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await lockProjectCycles(tx, project.id);
    const dates = { start_date: body.start_date ?? null, end_date: body.end_date ?? null };
    await checkDates(tx, project.id, dates, null);
    if (body.owned_by_id) await assertProjectMember(tx, project.id, body.owned_by_id);
    const [row] = await tx
      .insert(cycles)
      .values({
        workspaceId: project.workspaceId,
        projectId: project.id,
        name: body.name,
        description: body.description ?? "",
        startDate: dates.start_date,
        endDate: dates.end_date,
        ownedById: body.owned_by_id ?? user.id,
        sortOrder: body.sort_order ?? 65535,
        viewProps: body.view_props ?? {},
        logoProps: body.logo_props ?? {},
        createdById: user.id,
        updatedById: user.id,
      })
      .returning();
    if (!row) throw new Error("cycle insert failed");
    emit("cycle.created", scopeOf(row), await presentForEvent(tx, project, row));
    return row;
  });
}

export async function updateCycle(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  cycleId: string,
  body: UpdateCycleBody,
): Promise<CycleRow> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const found = await getCycleRow(tx, project, cycleId, { archived: "any" });
    if (found.archivedAt) {
      throw badRequest("An archived cycle can't be changed. Restore it first.", undefined, "CYCLE_ARCHIVED");
    }
    const datesChange = body.start_date !== undefined || body.end_date !== undefined;
    if (datesChange) await lockProjectCycles(tx, project.id);
    const current = await getCycleRow(tx, project, cycleId, { lock: true });
    const today = projectToday(project);
    const completed = cycleStatus({ start_date: current.startDate, end_date: current.endDate }, today) === "completed";
    const others = Object.entries(body).filter(([k, v]) => v !== undefined && k !== "sort_order");
    if (completed && others.length) {
      throw badRequest(
        "This cycle is completed: only its position (sort_order) can change.",
        undefined,
        "CYCLE_COMPLETED",
      );
    }
    const dates = {
      start_date: body.start_date !== undefined ? body.start_date : current.startDate,
      end_date: body.end_date !== undefined ? body.end_date : current.endDate,
    };
    if (datesChange) await checkDates(tx, project.id, dates, current.id);
    if (body.owned_by_id) await assertProjectMember(tx, project.id, body.owned_by_id);
    const set: Partial<typeof cycles.$inferInsert> = {
      name: body.name,
      description: body.description,
      startDate: body.start_date,
      endDate: body.end_date,
      sortOrder: body.sort_order,
      viewProps: body.view_props,
      logoProps: body.logo_props,
      ownedById: body.owned_by_id,
    };
    const changes = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
    if (!Object.keys(changes).length) return current;
    const [row] = await tx
      .update(cycles)
      .set({ ...changes, updatedById: user.id })
      .where(eq(cycles.id, current.id))
      .returning();
    if (!row) throw notFound("Cycle");
    emit("cycle.updated", scopeOf(row), await presentForEvent(tx, project, row));
    return row;
  });
}

/** Project admins and the cycle's creator delete it; its work items leave it first (with history). */
export async function deleteCycle(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, cycleId: string) {
  const { project, user } = access;
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getCycleRow(tx, project, cycleId, { archived: "any", lock: true });
    const isAdmin = (access.projectMembership?.role ?? 0) >= ROLE.admin;
    if (!isAdmin && current.createdById !== user.id) {
      throw forbidden("Only a project admin or the cycle's creator can delete it.");
    }
    const presented = await presentForEvent(tx, project, current);
    await takeOutAll(tx, emit, access, current);
    await dropFavorites(
      tx,
      emit,
      and(eq(userFavorites.entityType, FAVORITE), eq(userFavorites.entityIdentifier, current.id)),
    );
    await tx.delete(cycles).where(eq(cycles.id, current.id));
    emit("cycle.deleted", scopeOf(current), presented);
  });
}

/** Every work item of the cycle out of it: history and issue.updated per item. */
async function takeOutAll(tx: Tx, emit: EmitFn, access: ProjectAccess, cycle: CycleRow) {
  const rows = await tx
    .select({ issue: issues })
    .from(cycleIssues)
    .innerJoin(issues, eq(issues.id, cycleIssues.issueId))
    .where(eq(cycleIssues.cycleId, cycle.id))
    .for("update", { of: issues });
  const items = rows.map((r) => r.issue);
  const moved = await moveItemsToCycle(
    tx,
    emit,
    { project: access.project, actorId: access.user.id },
    items.filter((i) => !i.isDraft && !i.deletedAt),
    null,
  );
  // Drafts and deleted items leave quietly.
  const quiet = items.filter((i) => i.isDraft || i.deletedAt);
  if (quiet.length) {
    await moveItemsToCycle(tx, emit, { project: access.project, actorId: access.user.id }, quiet, null, {
      quiet: true,
    });
  }
  await emitMoved(tx, emit, moved);
}

/** issue.updated (changed_fields: cycle_id) for items whose cycle changed. */
export async function emitMoved(tx: DbOrTx, emit: EmitFn, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  for (const issue of await loadIssues(tx, { ids, includeDescription: true })) {
    emitIssue(emit, "issue.updated", issue, { changed_fields: ["cycle_id"] });
  }
}

export async function archiveCycle(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, cycleId: string) {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const found = await getCycleRow(tx, project, cycleId, { archived: "any", lock: true });
    if (found.archivedAt) throw badRequest("This cycle is already archived.", undefined, "ALREADY_ARCHIVED");
    const today = projectToday(project);
    if (cycleStatus({ start_date: found.startDate, end_date: found.endDate }, today) !== "completed") {
      throw badRequest(
        "Only completed cycles can be archived: this cycle has not ended yet.",
        undefined,
        "CYCLE_NOT_COMPLETED",
      );
    }
    const [frozen] = await freezeCompleted(tx, project, [found], today);
    const now = new Date();
    const [row] = await tx
      .update(cycles)
      .set({ archivedAt: now, updatedById: user.id })
      .where(eq(cycles.id, (frozen ?? found).id))
      .returning();
    if (!row) throw notFound("Cycle");
    await dropFavorites(
      tx,
      emit,
      and(eq(userFavorites.entityType, FAVORITE), eq(userFavorites.entityIdentifier, row.id)),
    );
    emit("cycle.archived", scopeOf(row), await presentForEvent(tx, project, row));
    return row;
  });
}

export async function restoreCycle(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, cycleId: string) {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const found = await getCycleRow(tx, project, cycleId, { archived: "any", lock: true });
    if (!found.archivedAt) throw badRequest("This cycle is not archived.", undefined, "NOT_ARCHIVED");
    const [row] = await tx
      .update(cycles)
      .set({ archivedAt: null, updatedById: user.id })
      .where(eq(cycles.id, found.id))
      .returning();
    if (!row) throw notFound("Cycle");
    emit("cycle.restored", scopeOf(row), await presentForEvent(tx, project, row));
    return row;
  });
}

/** Add work items of this project to the cycle (moving them out of any other cycle). */
export async function addCycleIssues(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  cycleId: string,
  issueIds: readonly string[],
): Promise<string[]> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const cycle = await getCycleRow(tx, project, cycleId);
    const wanted = [...new Set(issueIds)];
    const rows = await tx
      .select()
      .from(issues)
      .where(
        and(
          inArray(issues.id, wanted),
          eq(issues.projectId, project.id),
          isNull(issues.deletedAt),
          eq(issues.isDraft, false),
          eq(issues.inIntake, false),
        ),
      )
      .orderBy(issues.id)
      .for("update");
    if (rows.length !== wanted.length) {
      const found = new Set(rows.map((r) => r.id));
      const missing = wanted.filter((id) => !found.has(id));
      throw badRequest(
        `issues: ${missing.length} of these are not work items of this project.`,
        { issues: missing.map((id) => `${id} is not a work item of this project.`) },
        "ISSUE_NOT_IN_PROJECT",
      );
    }
    // An epic gathers work items (its children) and is no work item of a cycle board.
    const epics = rows.filter((r) => r.isEpic).map((r) => r.id);
    if (epics.length) {
      throw badRequest(
        `issues: ${epics.length} of these are epics; a cycle takes work items only.`,
        { issues: epics.map((id) => `${id} is an epic; a cycle takes work items only.`) },
        "ISSUE_IS_EPIC",
      );
    }
    const target = await assignableCycle(tx, project, cycle.id, "cycle");
    const moved = await moveItemsToCycle(tx, emit, { project, actorId: user.id }, rows, cycle.id, { target });
    await emitMoved(tx, emit, moved);
    return moved;
  });
}

/** Take one work item out of the cycle (404 when it is not in it). */
export async function removeCycleIssue(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  cycleId: string,
  issueId: string,
): Promise<void> {
  const { project, user } = access;
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const cycle = await getCycleRow(tx, project, cycleId, { archived: "any" });
    if (!isUuid(issueId)) throw notFound("Work item");
    const [row] = await tx
      .select({ issue: issues })
      .from(cycleIssues)
      .innerJoin(issues, eq(issues.id, cycleIssues.issueId))
      .where(and(eq(cycleIssues.cycleId, cycle.id), eq(cycleIssues.issueId, issueId)))
      .for("update", { of: issues });
    if (!row) throw notFound("Work item");
    const quiet = row.issue.isDraft || Boolean(row.issue.deletedAt);
    const moved = await moveItemsToCycle(tx, emit, { project, actorId: user.id }, [row.issue], null, { quiet });
    if (!quiet) await emitMoved(tx, emit, moved);
  });
}

/**
 * Move the unfinished work items (not completed or cancelled) of a completed cycle to another
 * cycle of the project that is not completed. The old cycle's progress is frozen first.
 */
export async function transferIssues(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  cycleId: string,
  newCycleId: string,
): Promise<string[]> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const from = await getCycleRow(tx, project, cycleId, { archived: "any", lock: true });
    const today = projectToday(project);
    if (cycleStatus({ start_date: from.startDate, end_date: from.endDate }, today) !== "completed") {
      throw badRequest(
        "Only the work items of a completed cycle can be transferred.",
        undefined,
        "CYCLE_NOT_COMPLETED",
      );
    }
    if (newCycleId === from.id) {
      throw badRequest("Pick another cycle.", { new_cycle_id: ["Pick another cycle."] }, "SAME_CYCLE");
    }
    const target = await assignableCycle(tx, project, newCycleId, "new_cycle_id");
    await freezeCompleted(tx, project, [from], today);
    const rows = await tx
      .select({ issue: issues })
      .from(cycleIssues)
      .innerJoin(issues, eq(issues.id, cycleIssues.issueId))
      .leftJoin(sql`states s`, sql`s.id = ${issues.stateId}`)
      .where(
        and(
          eq(cycleIssues.cycleId, from.id),
          isNull(issues.deletedAt),
          isNull(issues.archivedAt),
          eq(issues.isDraft, false),
          eq(issues.inIntake, false),
          sql`(s."group" is null or s."group" not in ('completed', 'cancelled'))`,
        ),
      )
      .for("update", { of: issues });
    const moved = await moveItemsToCycle(
      tx,
      emit,
      { project, actorId: user.id },
      rows.map((r) => r.issue),
      target.id,
      { target },
    );
    await emitMoved(tx, emit, moved);
    return moved;
  });
}

// ───────────────────────────── favorites ─────────────────────────────

/** Star a cycle for the caller (a favorite already there stays as it is). */
export async function addFavorite(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  cycleId: string,
): Promise<void> {
  const cycle = await getCycleRow(ctx.db, access.project, cycleId);
  await addUserFavorite(ctx, origin, {
    workspaceId: access.workspace.id,
    userId: access.user.id,
    entityType: FAVORITE,
    entityIdentifier: cycle.id,
    projectId: access.project.id,
  });
}

/** Remove the caller's star of a cycle; 404 when there is none. */
export async function removeFavorite(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  cycleId: string,
): Promise<void> {
  if (!isUuid(cycleId)) throw notFound("Favorite");
  const removed = await removeUserFavorite(ctx, origin, {
    workspaceId: access.workspace.id,
    userId: access.user.id,
    entityType: FAVORITE,
    entityIdentifier: cycleId,
    projectId: access.project.id,
  });
  if (!removed) throw notFound("Favorite");
}
