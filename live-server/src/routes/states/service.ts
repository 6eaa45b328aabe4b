/**
 * Project states (product-domain §3 State, §4). Routes check access first and pass the rows
 * they got back; every query here is also scoped by project id, so no state is reachable by
 * id from another project or workspace. Every change runs in transactionWithEvents and emits
 * state.* with the state as the API presents it.
 *
 * Rules:
 * - names are unique per project, ignoring case (409);
 * - a new state, or one moved to another group without a sequence, goes after the last state
 *   of its group (statePosition);
 * - exactly one default per project: mark-default unsets the old one first in the same
 *   transaction (the partial unique index states_one_default_key backs this up);
 * - the default state, and a state that still has work items, can't be deleted (400).
 */
import { compareStates, statePosition } from "@tideline/shared";
import { and, count, eq, isNull, max, ne, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { DbOrTx } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { issues, projectMembers, projects, states } from "../../db/schema.ts";
import { type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { ProjectAccess, ProjectRow, WorkspaceAccess } from "../../policies/access.ts";
import { presentState, type StateRow } from "./presenter.ts";
import type { CreateStateBody, UpdateStateBody } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

const scopeOf = (s: StateRow) => ({ workspaceId: s.workspaceId, projectId: s.projectId, entityId: s.id });

const nameTaken = (name: string) =>
  conflict(
    `A state named "${name}" already exists in this project.`,
    { name: ["This name is already taken."] },
    "STATE_NAME_TAKEN",
  );

/** Turn a lost race on the name index into the same 409 the pre-check gives. */
function rethrowAsConflict(error: unknown, name: string | undefined): never {
  if (uniqueViolation(error) === "states_project_name_key" && name !== undefined) throw nameTaken(name);
  throw error;
}

async function assertNameFree(db: DbOrTx, projectId: string, name: string, exceptId?: string): Promise<void> {
  const [row] = await db
    .select({ id: states.id })
    .from(states)
    .where(
      and(
        eq(states.projectId, projectId),
        sql`lower(${states.name}) = lower(${name})`,
        exceptId ? ne(states.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (row) throw nameTaken(name);
}

/** Sequence that puts a state after the last one of `group`. */
async function endOfGroup(db: DbOrTx, projectId: string, group: string): Promise<number> {
  const [row] = await db
    .select({ last: max(states.sequence) })
    .from(states)
    .where(and(eq(states.projectId, projectId), eq(states.group, group)));
  return statePosition(row?.last ?? null, null);
}

/** Serialise default changes of one project (two concurrent mark-defaults must not collide). */
async function lockProjectStates(tx: DbOrTx, projectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`states:${projectId}`}, 0))`);
}

// ───────────────────────────── reading ─────────────────────────────

export async function listProjectStates(db: DbOrTx, project: ProjectRow): Promise<StateRow[]> {
  const rows = await db.select().from(states).where(eq(states.projectId, project.id));
  return rows.sort(compareStates);
}

/** States of every unarchived project of the workspace the caller is an active member of. */
export async function listWorkspaceStates(db: DbOrTx, ws: WorkspaceAccess): Promise<StateRow[]> {
  const rows = await db
    .select({ state: states })
    .from(states)
    .innerJoin(projects, eq(projects.id, states.projectId))
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, states.projectId),
        eq(projectMembers.memberId, ws.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(and(eq(states.workspaceId, ws.workspace.id), isNull(projects.archivedAt)));
  return rows.map((r) => r.state).sort((a, b) => a.projectId.localeCompare(b.projectId) || compareStates(a, b));
}

/** A state of this project, or 404. */
export async function getState(db: DbOrTx, project: ProjectRow, stateId: string, lock = false): Promise<StateRow> {
  if (!isUuid(stateId)) throw notFound("State");
  const query = db
    .select()
    .from(states)
    .where(and(eq(states.id, stateId), eq(states.projectId, project.id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("State");
  return row;
}

// ───────────────────────────── changing ─────────────────────────────

export async function createState(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  body: CreateStateBody,
): Promise<StateRow> {
  const { project, user } = access;
  try {
    return await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
      await assertNameFree(tx, project.id, body.name);
      const sequence = body.sequence ?? (await endOfGroup(tx, project.id, body.group));
      const [row] = await tx
        .insert(states)
        .values({
          workspaceId: project.workspaceId,
          projectId: project.id,
          name: body.name,
          description: body.description ?? "",
          color: body.color,
          group: body.group,
          sequence,
          isDefault: false,
          createdById: user.id,
          updatedById: user.id,
        })
        .returning();
      if (!row) throw new Error("state insert failed");
      emit("state.created", scopeOf(row), presentState(row));
      return row;
    });
  } catch (error) {
    rethrowAsConflict(error, body.name);
  }
}

/**
 * PATCH and PUT. Moving to another group without a sequence puts the state at the end of its
 * new group, so it never lands in the middle of unrelated neighbours.
 */
export async function updateState(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  stateId: string,
  body: UpdateStateBody,
): Promise<StateRow> {
  const { project, user } = access;
  try {
    return await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
      const current = await getState(tx, project, stateId, true);
      const renamed = body.name !== undefined && body.name !== current.name ? body.name : undefined;
      if (renamed !== undefined) await assertNameFree(tx, project.id, renamed, current.id);
      const regrouped = body.group !== undefined && body.group !== current.group ? body.group : undefined;
      const sequence =
        body.sequence ?? (regrouped !== undefined ? await endOfGroup(tx, project.id, regrouped) : undefined);
      const set: Partial<typeof states.$inferInsert> = {
        name: renamed,
        description: body.description,
        color: body.color,
        group: regrouped,
        sequence,
      };
      const changes = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined));
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx
        .update(states)
        .set({ ...changes, updatedById: user.id })
        .where(eq(states.id, current.id))
        .returning();
      if (!row) throw notFound("State");
      emit("state.updated", scopeOf(row), presentState(row));
      return row;
    });
  } catch (error) {
    rethrowAsConflict(error, body.name);
  }
}

export function stateInUseMessage(n: number): string {
  return `Move the ${n} work ${n === 1 ? "item" : "items"} in this state to another state first.`;
}

export const DEFAULT_STATE_DELETE_MESSAGE =
  "The default state can't be deleted. Mark another state as the default first.";

export async function deleteState(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, stateId: string) {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    // The row lock also waits for work items being created in this state right now (their
    // foreign-key check locks the row), so the count below sees them.
    const current = await getState(tx, access.project, stateId, true);
    if (current.isDefault) throw badRequest(DEFAULT_STATE_DELETE_MESSAGE, undefined, "STATE_IS_DEFAULT");
    const [used] = await tx
      .select({ n: count() })
      .from(issues)
      .where(and(eq(issues.stateId, current.id), isNull(issues.deletedAt)));
    const n = used?.n ?? 0;
    if (n > 0) throw badRequest(stateInUseMessage(n), undefined, "STATE_HAS_WORK_ITEMS");
    await tx.delete(states).where(eq(states.id, current.id));
    emit("state.deleted", scopeOf(current), presentState(current));
  });
}

/** Make this state the project's default; the previous default stops being one. */
export async function markDefaultState(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  stateId: string,
): Promise<StateRow> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    await lockProjectStates(tx, project.id);
    const target = await getState(tx, project, stateId, true);
    if (target.isDefault) return target;
    // Unset first: the partial unique index allows one default row per project at any moment.
    const previous = await tx
      .update(states)
      .set({ isDefault: false, updatedById: user.id })
      .where(and(eq(states.projectId, project.id), eq(states.isDefault, true)))
      .returning();
    const [row] = await tx
      .update(states)
      .set({ isDefault: true, updatedById: user.id })
      .where(eq(states.id, target.id))
      .returning();
    if (!row) throw notFound("State");
    for (const old of previous) emit("state.updated", scopeOf(old), presentState(old));
    emit("state.updated", scopeOf(row), presentState(row));
    return row;
  });
}
