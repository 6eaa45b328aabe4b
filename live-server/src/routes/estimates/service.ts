/**
 * Project estimates (product-domain §3 Estimate, §5, §9). Routes check access first and pass
 * the rows they got back; every query here is also scoped by project id. Every change runs in
 * transactionWithEvents and emits estimate.* with the estimate (and all its points) as the API
 * presents it, point changes included (estimate.updated).
 *
 * Rules:
 * - an estimate has 2 to 6 points, values of at most 20 characters, numbers on a points scale,
 *   free text on a categories scale, no value twice; "time" is refused (enterprise edition);
 * - point keys order the points and are unique within an estimate; a point added without a
 *   key goes last;
 * - the project's estimate setting is projects.estimate_id: a new estimate becomes active when
 *   the project has none; POST/DELETE .../activate/ (or PATCH {is_active}) switch it on and
 *   off; activating marks it last_used and its siblings not;
 * - deleting an estimate switches estimates off if it was active and clears the estimate of
 *   every work item that used one of its points; deleting a point moves its work items to
 *   another point when asked (new_estimate_point_id), otherwise clears them.
 */
import {
  ESTIMATE_POINTS_MAX,
  ESTIMATE_POINTS_MIN,
  ESTIMATE_TIME_UNAVAILABLE,
  type EstimateType,
  estimatePointsProblem,
  estimatePointValueError,
  sameEstimateValue,
} from "@tideline/shared";
import { and, asc, eq, inArray, isNull, ne } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { DbOrTx, Tx } from "../../db/client.ts";
import { estimatePoints, estimates, issues, projectMembers, projects } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import type { ProjectAccess, ProjectRow, WorkspaceAccess } from "../../policies/access.ts";
import { type EstimatePointRow, type EstimateRow, type PresentedEstimate, presentEstimate } from "./presenter.ts";
import type { CreateEstimateBody, CreatePointBody, UpdateEstimateBody, UpdatePointBody } from "./schema.ts";

type Ctx = Pick<AppContext, "db" | "events">;

const scopeOf = (e: EstimateRow) => ({
  workspaceId: e.workspaceId,
  projectId: e.projectId,
  entityId: e.id,
});

export const TIME_UNAVAILABLE_CODE = "PAID_FEATURE";
export const POINTS_LIMIT_CODE = "ESTIMATE_POINTS_LIMIT";
export const TYPE_LOCKED_MESSAGE = "The type of an estimate can't be changed. Create a new estimate instead.";
export const TOO_FEW_POINTS_MESSAGE = `An estimate needs at least ${ESTIMATE_POINTS_MIN} points.`;
export const TOO_MANY_POINTS_MESSAGE = `An estimate can have at most ${ESTIMATE_POINTS_MAX} points.`;

const timeUnavailable = () =>
  badRequest(ESTIMATE_TIME_UNAVAILABLE, { type: [ESTIMATE_TIME_UNAVAILABLE] }, TIME_UNAVAILABLE_CODE);

// ───────────────────────────── reading ─────────────────────────────

async function pointsByEstimate(db: DbOrTx, estimateIds: string[]): Promise<Map<string, EstimatePointRow[]>> {
  const map = new Map<string, EstimatePointRow[]>();
  if (estimateIds.length === 0) return map;
  const rows = await db
    .select()
    .from(estimatePoints)
    .where(inArray(estimatePoints.estimateId, estimateIds))
    .orderBy(asc(estimatePoints.key));
  for (const row of rows) {
    const list = map.get(row.estimateId) ?? [];
    list.push(row);
    map.set(row.estimateId, list);
  }
  return map;
}

async function activeEstimateId(db: DbOrTx, projectId: string, lock = false): Promise<string | null> {
  const query = db.select({ estimateId: projects.estimateId }).from(projects).where(eq(projects.id, projectId));
  // "no key update" serialises estimate switches without blocking rows that reference the project.
  const [row] = lock ? await query.for("no key update") : await query;
  return row?.estimateId ?? null;
}

/** Estimates of this project with their points, oldest first. */
export async function listProjectEstimates(db: DbOrTx, project: ProjectRow): Promise<PresentedEstimate[]> {
  const rows = await db
    .select()
    .from(estimates)
    .where(eq(estimates.projectId, project.id))
    .orderBy(asc(estimates.createdAt), asc(estimates.id));
  const points = await pointsByEstimate(
    db,
    rows.map((r) => r.id),
  );
  const active = await activeEstimateId(db, project.id);
  return rows.map((e) => presentEstimate(e, points.get(e.id) ?? [], active));
}

/** Estimates of every unarchived project of the workspace the caller is an active member of. */
export async function listWorkspaceEstimates(db: DbOrTx, ws: WorkspaceAccess): Promise<PresentedEstimate[]> {
  const rows = await db
    .select({ estimate: estimates, active: projects.estimateId })
    .from(estimates)
    .innerJoin(projects, eq(projects.id, estimates.projectId))
    .innerJoin(
      projectMembers,
      and(
        eq(projectMembers.projectId, estimates.projectId),
        eq(projectMembers.memberId, ws.user.id),
        eq(projectMembers.isActive, true),
      ),
    )
    .where(and(eq(estimates.workspaceId, ws.workspace.id), isNull(projects.archivedAt)))
    .orderBy(asc(estimates.projectId), asc(estimates.createdAt), asc(estimates.id));
  const points = await pointsByEstimate(
    db,
    rows.map((r) => r.estimate.id),
  );
  return rows.map((r) => presentEstimate(r.estimate, points.get(r.estimate.id) ?? [], r.active));
}

/** An estimate of this project, or 404; `lock` serialises changes to its points. */
export async function getEstimate(
  db: DbOrTx,
  project: ProjectRow,
  estimateId: string,
  lock = false,
): Promise<EstimateRow> {
  if (!isUuid(estimateId)) throw notFound("Estimate");
  const query = db
    .select()
    .from(estimates)
    .where(and(eq(estimates.id, estimateId), eq(estimates.projectId, project.id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Estimate");
  return row;
}

export async function presentEstimateById(db: DbOrTx, project: ProjectRow, estimateId: string) {
  const estimate = await getEstimate(db, project, estimateId);
  const points = await pointsByEstimate(db, [estimate.id]);
  return presentEstimate(estimate, points.get(estimate.id) ?? [], await activeEstimateId(db, project.id));
}

/** Emit estimate.updated for each estimate, as it is now (inside the transaction). */
async function emitUpdated(tx: Tx, emit: EmitFn, project: ProjectRow, ids: readonly string[]): Promise<void> {
  for (const id of new Set(ids)) {
    const presented = await presentEstimateById(tx, project, id);
    emit("estimate.updated", { workspaceId: project.workspaceId, projectId: project.id, entityId: id }, presented);
  }
}

// ───────────────────────────── estimates ─────────────────────────────

function pointsError(message: string, index: number | null, field: "value" | "key" = "value") {
  const key = index === null ? "estimate_points" : `estimate_points.${index}.${field}`;
  return badRequest(message, { [key]: [message] }, index === null ? POINTS_LIMIT_CODE : "VALIDATION_ERROR");
}

/** Make `estimateId` the project's estimate (or none); returns the estimates whose state changed. */
async function switchActive(tx: Tx, project: ProjectRow, estimateId: string, active: boolean): Promise<string[]> {
  const current = await activeEstimateId(tx, project.id, true);
  if (active) {
    if (current === estimateId) return [];
    await tx.update(projects).set({ estimateId }).where(eq(projects.id, project.id));
    await tx
      .update(estimates)
      .set({ lastUsed: false })
      .where(and(eq(estimates.projectId, project.id), ne(estimates.id, estimateId), eq(estimates.lastUsed, true)));
    await tx.update(estimates).set({ lastUsed: true }).where(eq(estimates.id, estimateId));
    return current ? [current, estimateId] : [estimateId];
  }
  if (current !== estimateId) return [];
  await tx.update(projects).set({ estimateId: null }).where(eq(projects.id, project.id));
  return [estimateId];
}

export async function createEstimate(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  body: CreateEstimateBody,
): Promise<PresentedEstimate> {
  const { project, user } = access;
  const type = body.estimate.type;
  if (type === "time") throw timeUnavailable();
  const problem = estimatePointsProblem(
    type,
    body.estimate_points.map((p) => p.value),
  );
  if (problem) throw pointsError(problem.message, problem.index);
  const keyed = body.estimate_points.map((p, i) => ({ ...p, key: p.key ?? i + 1 }));
  for (const [i, p] of keyed.entries()) {
    if (keyed.slice(0, i).some((q) => q.key === p.key)) {
      throw pointsError(`Two points can't share the key ${p.key}.`, i, "key");
    }
  }

  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const [estimate] = await tx
      .insert(estimates)
      .values({
        workspaceId: project.workspaceId,
        projectId: project.id,
        name: body.estimate.name,
        description: body.estimate.description ?? "",
        type,
        createdById: user.id,
        updatedById: user.id,
      })
      .returning();
    if (!estimate) throw new Error("estimate insert failed");
    await tx.insert(estimatePoints).values(
      keyed.map((p) => ({
        workspaceId: project.workspaceId,
        projectId: project.id,
        estimateId: estimate.id,
        key: p.key,
        value: p.value.trim(),
        description: p.description ?? "",
        createdById: user.id,
        updatedById: user.id,
      })),
    );
    // The first estimate of a project switches estimates on, so "enable estimates" is one call.
    if ((await activeEstimateId(tx, project.id, true)) === null) await switchActive(tx, project, estimate.id, true);
    const presented = await presentEstimateById(tx, project, estimate.id);
    emit("estimate.created", scopeOf(estimate), presented);
    return presented;
  });
}

export async function updateEstimate(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  estimateId: string,
  body: UpdateEstimateBody,
): Promise<PresentedEstimate> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getEstimate(tx, project, estimateId, true);
    if (body.type !== undefined && body.type !== current.type) {
      throw badRequest(TYPE_LOCKED_MESSAGE, { type: [TYPE_LOCKED_MESSAGE] }, "ESTIMATE_TYPE_LOCKED");
    }
    const changed: string[] = [];
    const set = Object.fromEntries(
      Object.entries({ name: body.name, description: body.description }).filter(([, v]) => v !== undefined),
    );
    if (Object.keys(set).length > 0) {
      await tx
        .update(estimates)
        .set({ ...set, updatedById: user.id })
        .where(eq(estimates.id, current.id));
      changed.push(current.id);
    }
    if (body.is_active !== undefined) changed.push(...(await switchActive(tx, project, current.id, body.is_active)));
    await emitUpdated(tx, emit, project, changed);
    return presentEstimateById(tx, project, current.id);
  });
}

/** POST/DELETE .../activate/: switch the project's estimates to this one, or off. */
export async function setEstimateActive(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  estimateId: string,
  active: boolean,
): Promise<PresentedEstimate> {
  const { project } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getEstimate(tx, project, estimateId, true);
    await emitUpdated(tx, emit, project, await switchActive(tx, project, current.id, active));
    return presentEstimateById(tx, project, current.id);
  });
}

export async function deleteEstimate(ctx: Ctx, origin: EventOrigin, access: ProjectAccess, estimateId: string) {
  const { project } = access;
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const current = await getEstimate(tx, project, estimateId, true);
    const before = await presentEstimateById(tx, project, current.id);
    const pointIds = before.points.map((p) => p.id);
    if (pointIds.length > 0) {
      await tx.update(issues).set({ estimatePointId: null }).where(inArray(issues.estimatePointId, pointIds));
    }
    await switchActive(tx, project, current.id, false);
    await tx.delete(estimates).where(eq(estimates.id, current.id));
    emit("estimate.deleted", scopeOf(current), before);
  });
}

// ───────────────────────────── points ─────────────────────────────

async function pointsOf(tx: DbOrTx, estimateId: string): Promise<EstimatePointRow[]> {
  return tx
    .select()
    .from(estimatePoints)
    .where(eq(estimatePoints.estimateId, estimateId))
    .orderBy(asc(estimatePoints.key));
}

function assertPointFits(
  type: EstimateType,
  others: readonly EstimatePointRow[],
  change: { value?: string; key?: number },
): void {
  if (change.value !== undefined) {
    const error = estimatePointValueError(type, change.value);
    if (error) throw badRequest(error, { value: [error] });
    const value = change.value;
    if (others.some((p) => sameEstimateValue(type, p.value, value))) {
      const message = `"${value.trim()}" is already a point of this estimate.`;
      throw badRequest(message, { value: [message] });
    }
  }
  if (change.key !== undefined && others.some((p) => p.key === change.key)) {
    const message = `Another point of this estimate already has the key ${change.key}.`;
    throw badRequest(message, { key: [message] });
  }
}

async function getPoint(tx: DbOrTx, estimate: EstimateRow, pointId: string): Promise<EstimatePointRow> {
  if (!isUuid(pointId)) throw notFound("Estimate point");
  const [row] = await tx
    .select()
    .from(estimatePoints)
    .where(and(eq(estimatePoints.id, pointId), eq(estimatePoints.estimateId, estimate.id)))
    .limit(1);
  if (!row) throw notFound("Estimate point");
  return row;
}

export async function addEstimatePoint(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  estimateId: string,
  body: CreatePointBody,
): Promise<EstimatePointRow> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    // The estimate row lock serialises point changes, so the count checks hold.
    const estimate = await getEstimate(tx, project, estimateId, true);
    const points = await pointsOf(tx, estimate.id);
    if (points.length >= ESTIMATE_POINTS_MAX) throw badRequest(TOO_MANY_POINTS_MESSAGE, undefined, POINTS_LIMIT_CODE);
    assertPointFits(estimate.type as EstimateType, points, body);
    const key = body.key ?? Math.max(0, ...points.map((p) => p.key)) + 1;
    const [row] = await tx
      .insert(estimatePoints)
      .values({
        workspaceId: project.workspaceId,
        projectId: project.id,
        estimateId: estimate.id,
        key,
        value: body.value.trim(),
        description: body.description ?? "",
        createdById: user.id,
        updatedById: user.id,
      })
      .returning();
    if (!row) throw new Error("estimate point insert failed");
    await tx.update(estimates).set({ updatedById: user.id }).where(eq(estimates.id, estimate.id));
    await emitUpdated(tx, emit, project, [estimate.id]);
    return row;
  });
}

export async function updateEstimatePoint(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  estimateId: string,
  pointId: string,
  body: UpdatePointBody,
): Promise<EstimatePointRow> {
  const { project, user } = access;
  return transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const estimate = await getEstimate(tx, project, estimateId, true);
    const point = await getPoint(tx, estimate, pointId);
    const others = (await pointsOf(tx, estimate.id)).filter((p) => p.id !== point.id);
    assertPointFits(estimate.type as EstimateType, others, body);
    const set = Object.fromEntries(
      Object.entries({ key: body.key, value: body.value?.trim(), description: body.description }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    if (Object.keys(set).length === 0) return point;
    const [row] = await tx
      .update(estimatePoints)
      .set({ ...set, updatedById: user.id })
      .where(eq(estimatePoints.id, point.id))
      .returning();
    if (!row) throw notFound("Estimate point");
    await tx.update(estimates).set({ updatedById: user.id }).where(eq(estimates.id, estimate.id));
    await emitUpdated(tx, emit, project, [estimate.id]);
    return row;
  });
}

export async function deleteEstimatePoint(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  estimateId: string,
  pointId: string,
  replacementId: string | null,
): Promise<void> {
  const { project, user } = access;
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const estimate = await getEstimate(tx, project, estimateId, true);
    const point = await getPoint(tx, estimate, pointId);
    const points = await pointsOf(tx, estimate.id);
    if (points.length <= ESTIMATE_POINTS_MIN) throw badRequest(TOO_FEW_POINTS_MESSAGE, undefined, POINTS_LIMIT_CODE);
    if (replacementId !== null && (replacementId === point.id || !points.some((p) => p.id === replacementId))) {
      const message = "Move the work items to another point of this estimate.";
      throw badRequest(message, { new_estimate_point_id: [message] });
    }
    await tx.update(issues).set({ estimatePointId: replacementId }).where(eq(issues.estimatePointId, point.id));
    await tx.delete(estimatePoints).where(eq(estimatePoints.id, point.id));
    await tx.update(estimates).set({ updatedById: user.id }).where(eq(estimates.id, estimate.id));
    await emitUpdated(tx, emit, project, [estimate.id]);
  });
}
