/**
 * Cycles API under /api/workspaces/:slug (calls-errors-sync §7 "Cycles"; README.md beside this
 * file documents every call and shape). Reads: every project member, guests included (a
 * restricted guest sees only their own work items in cycle-issues/, and every counter,
 * distribution and chart over those items only: guest-scope.ts). Changes: project role
 * member or above (403 for guests); deleting: project admin or the cycle's creator. Favorites
 * and user-properties are the caller's own (member and above for favorites, like the reference).
 */
import { ROLE, readDisplayProperties, readSavedDisplayFilters } from "@tideline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { DbOrTx } from "../../db/client.ts";
import { cycleUserProperties } from "../../db/schema.ts";
import { eventOrigin } from "../../events/bus.ts";
import { badRequest, parse } from "../../http/errors.ts";
import { type ProjectAccess, projectAccess, workspaceAccess } from "../../policies/access.ts";
import { readListQuery, singleQueryValue, visibleConditions } from "../issues/common.ts";
import { listIssuePage, parseCursor } from "../issues/list.ts";
import { applyUserPropertiesPatch, parseUserPropertiesPatch } from "../issues/user-properties-routes.ts";
import { ownItemsOf } from "./guest-scope.ts";
import type { CycleRow } from "./presenter.ts";
import { cycleCounters, cycleProgress, freezeCompleted, projectToday } from "./progress.ts";
import {
  createCycleBody,
  cycleIssuesBody,
  cycleViewQuery,
  dateCheckBody,
  favoriteBody,
  transferBody,
  updateCycleBody,
} from "./schema.ts";
import {
  addCycleIssues,
  addFavorite,
  archiveCycle,
  createCycle,
  deleteCycle,
  getCycleRow,
  listActiveCycles,
  listArchivedCycles,
  listCycles,
  listWorkspaceCycles,
  overlapMessage,
  overlappingCycle,
  presentForUser,
  removeCycleIssue,
  removeFavorite,
  restoreCycle,
  transferIssues,
  updateCycle,
} from "./service.ts";

type SlugParams = { slug: string };
type ProjectParams = SlugParams & { projectId: string };
type CycleParams = ProjectParams & { cycleId: string };
type Query = Record<string, unknown>;

const WS = "/api/workspaces/:slug";
const PROJECT = `${WS}/projects/:projectId`;
const CYCLES = `${PROJECT}/cycles`;
const CYCLE = `${CYCLES}/:cycleId`;

export async function cyclesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  const access = (request: FastifyRequest<{ Params: ProjectParams }>, minRole?: 5 | 15 | 20) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, minRole ? { minRole } : {});

  /** The cycle as this user sees it; a completed one's progress is frozen on first read. */
  const present = async (a: ProjectAccess, row: CycleRow) => {
    const today = projectToday(a.project);
    const [frozen] = await freezeCompleted(db, a.project, [row], today);
    const [out] = await presentForUser(db, a.user.id, [frozen ?? row], () => today);
    return { out: out as NonNullable<typeof out>, row: frozen ?? row, today };
  };

  // ───────────── workspace lists ─────────────

  app.get<{ Params: SlugParams }>(`${WS}/cycles/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return listWorkspaceCycles(db, ws);
  });

  app.get<{ Params: SlugParams; Querystring: Query }>(`${WS}/active-cycles/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    const cursor = parseCursor(singleQueryValue(request.query.cursor), singleQueryValue(request.query.per_page));
    return listActiveCycles(db, ws, cursor.perPage, cursor.pageIndex);
  });

  // ───────────── project cycles ─────────────

  app.get<{ Params: ProjectParams; Querystring: Query }>(`${CYCLES}/`, async (request) => {
    const a = await access(request);
    const raw = singleQueryValue(request.query.cycle_view);
    const view = raw === undefined || raw === "" ? "all" : parse(cycleViewQuery, raw);
    const order = singleQueryValue(request.query.order_by);
    if (order !== undefined && order !== "" && order !== "sort_order") {
      throw badRequest("order_by must be sort_order or left out", { order_by: ["Use sort_order"] });
    }
    return listCycles(db, a, view, order === "sort_order");
  });

  app.post<{ Params: ProjectParams }>(`${CYCLES}/`, async (request, reply) => {
    const a = await access(request, ROLE.member);
    const body = parse(createCycleBody, request.body);
    const row = await createCycle(app.ctx, eventOrigin(request), a, body);
    return reply.status(201).send((await present(a, row)).out);
  });

  /** { status: true } when the dates are free; { status: false, error } when they overlap a cycle. */
  app.post<{ Params: ProjectParams }>(`${CYCLES}/date-check/`, async (request) => {
    const a = await access(request, ROLE.member);
    const body = parse(dateCheckBody, request.body);
    if (!body.start_date || !body.end_date) {
      throw badRequest("Start date and end date are both required.", {
        ...(body.start_date ? {} : { start_date: ["Required"] }),
        ...(body.end_date ? {} : { end_date: ["Required"] }),
      });
    }
    if (body.end_date < body.start_date) {
      throw badRequest(
        "The end date must be on or after the start date.",
        { end_date: ["The end date must be on or after the start date."] },
        "CYCLE_END_BEFORE_START",
      );
    }
    const other = await overlappingCycle(db, a.project.id, body, body.cycle_id ?? null);
    return other
      ? { status: false, error: overlapMessage(other), cycle_id: other.id, code: "CYCLE_DATES_OVERLAP" }
      : { status: true };
  });

  app.get<{ Params: CycleParams }>(`${CYCLE}/`, async (request) => {
    const a = await access(request);
    const { out, row, today } = await present(a, await getCycleRow(db, a.project, request.params.cycleId));
    const progress = await cycleProgress(db, a.project, row, today, ownItemsOf(a));
    return {
      ...out,
      distribution: progress.distribution,
      estimate_distribution: progress.estimate_distribution,
    };
  });

  app.patch<{ Params: CycleParams }>(`${CYCLE}/`, async (request) => {
    const a = await access(request, ROLE.member);
    const body = parse(updateCycleBody, request.body);
    const row = await updateCycle(app.ctx, eventOrigin(request), a, request.params.cycleId, body);
    return (await present(a, row)).out;
  });

  app.delete<{ Params: CycleParams }>(`${CYCLE}/`, async (request, reply) => {
    const a = await access(request, ROLE.member);
    await deleteCycle(app.ctx, eventOrigin(request), a, request.params.cycleId);
    return reply.status(204).send();
  });

  // ───────────── progress ─────────────

  /** Counters per state group, work items and estimate points (TProgressSnapshot). */
  app.get<{ Params: CycleParams }>(`${CYCLE}/progress/`, async (request) => {
    const a = await access(request);
    const { row, today } = await present(
      a,
      await getCycleRow(db, a.project, request.params.cycleId, { archived: "any" }),
    );
    return cycleCounters(db, a.project, row, today, ownItemsOf(a));
  });

  /** The counters with both distributions and their charts. */
  app.get<{ Params: CycleParams }>(`${CYCLE}/cycle-progress/`, async (request) => {
    const a = await access(request);
    const { row, today } = await present(
      a,
      await getCycleRow(db, a.project, request.params.cycleId, { archived: "any" }),
    );
    return cycleProgress(db, a.project, row, today, ownItemsOf(a));
  });

  /** ?type=issues (default) → distribution; ?type=points → estimate_distribution. */
  app.get<{ Params: CycleParams; Querystring: Query }>(`${CYCLE}/analytics/`, async (request) => {
    const a = await access(request);
    const type = singleQueryValue(request.query.type) ?? "issues";
    if (type !== "issues" && type !== "points") {
      throw badRequest("type must be issues or points", { type: ["Use issues or points"] });
    }
    const { row, today } = await present(
      a,
      await getCycleRow(db, a.project, request.params.cycleId, { archived: "any" }),
    );
    const progress = await cycleProgress(db, a.project, row, today, ownItemsOf(a));
    return type === "points" ? progress.estimate_distribution : progress.distribution;
  });

  // ───────────── work items ─────────────

  /** The cycle's work items with every parameter of the work-item list (issues/list.ts). */
  app.get<{ Params: CycleParams; Querystring: Query }>(`${CYCLE}/cycle-issues/`, async (request) => {
    const a = await access(request);
    const cycle = await getCycleRow(db, a.project, request.params.cycleId, { archived: "any" });
    const options = readListQuery(request.query, a);
    return listIssuePage(db, {
      where: [
        ...visibleConditions(a),
        sql`i.archived_at is null`,
        sql`exists (select 1 from cycle_issues ci where ci.issue_id = i.id and ci.cycle_id = ${cycle.id}::uuid)`,
        ...options.conditions,
      ],
      projectId: a.project.id,
      groupBy: options.groupBy,
      subGroupBy: options.subGroupBy,
      orderBy: options.orderBy,
      cursor: options.cursor,
    });
  });

  app.post<{ Params: CycleParams }>(`${CYCLE}/cycle-issues/`, async (request) => {
    const a = await access(request, ROLE.member);
    const body = parse(cycleIssuesBody, request.body);
    const moved = await addCycleIssues(app.ctx, eventOrigin(request), a, request.params.cycleId, body.issues);
    return { issues: body.issues, moved };
  });

  app.delete<{ Params: CycleParams & { issueId: string } }>(
    `${CYCLE}/cycle-issues/:issueId/`,
    async (request, reply) => {
      const a = await access(request, ROLE.member);
      await removeCycleIssue(app.ctx, eventOrigin(request), a, request.params.cycleId, request.params.issueId);
      return reply.status(204).send();
    },
  );

  app.post<{ Params: CycleParams }>(`${CYCLE}/transfer-issues/`, async (request) => {
    const a = await access(request, ROLE.member);
    const body = parse(transferBody, request.body);
    const moved = await transferIssues(app.ctx, eventOrigin(request), a, request.params.cycleId, body.new_cycle_id);
    return { message: "Success", transferred: moved.length, issues: moved };
  });

  // ───────────── archive ─────────────

  app.post<{ Params: CycleParams }>(`${CYCLE}/archive/`, async (request) => {
    const a = await access(request, ROLE.member);
    const row = await archiveCycle(app.ctx, eventOrigin(request), a, request.params.cycleId);
    return { archived_at: row.archivedAt?.toISOString() ?? null };
  });

  app.delete<{ Params: CycleParams }>(`${CYCLE}/archive/`, async (request, reply) => {
    const a = await access(request, ROLE.member);
    await restoreCycle(app.ctx, eventOrigin(request), a, request.params.cycleId);
    return reply.status(204).send();
  });

  app.get<{ Params: ProjectParams }>(`${PROJECT}/archived-cycles/`, async (request) => {
    const a = await access(request);
    return listArchivedCycles(db, a);
  });

  app.get<{ Params: CycleParams }>(`${PROJECT}/archived-cycles/:cycleId/`, async (request) => {
    const a = await access(request);
    const { out, row, today } = await present(
      a,
      await getCycleRow(db, a.project, request.params.cycleId, { archived: true }),
    );
    const progress = await cycleProgress(db, a.project, row, today, ownItemsOf(a));
    return { ...out, distribution: progress.distribution, estimate_distribution: progress.estimate_distribution };
  });

  // ───────────── favorites ─────────────

  app.post<{ Params: ProjectParams }>(`${PROJECT}/user-favorite-cycles/`, async (request, reply) => {
    const a = await access(request, ROLE.member);
    const body = parse(favoriteBody, request.body);
    await addFavorite(app.ctx, eventOrigin(request), a, body.cycle);
    return reply.status(204).send();
  });

  app.delete<{ Params: CycleParams }>(`${PROJECT}/user-favorite-cycles/:cycleId/`, async (request, reply) => {
    const a = await access(request, ROLE.member);
    await removeFavorite(app.ctx, eventOrigin(request), a, request.params.cycleId);
    return reply.status(204).send();
  });

  // ───────────── user properties ─────────────

  const ensureProperties = async (a: ProjectAccess, cycle: CycleRow) => {
    const where = and(eq(cycleUserProperties.cycleId, cycle.id), eq(cycleUserProperties.userId, a.user.id));
    const [row] = await db.select().from(cycleUserProperties).where(where).limit(1);
    if (row) return row;
    await db
      .insert(cycleUserProperties)
      .values({ workspaceId: a.workspace.id, projectId: a.project.id, cycleId: cycle.id, userId: a.user.id })
      .onConflictDoNothing();
    const [created] = await db.select().from(cycleUserProperties).where(where).limit(1);
    if (!created) throw new Error("cycle user properties row missing");
    return created;
  };
  const presentProperties = (row: typeof cycleUserProperties.$inferSelect) => ({
    id: row.id,
    user: row.userId,
    cycle: row.cycleId,
    project: row.projectId,
    workspace: row.workspaceId,
    filters: row.filters,
    display_filters: readSavedDisplayFilters(row.displayFilters),
    display_properties: readDisplayProperties(row.displayProperties),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });

  app.get<{ Params: CycleParams }>(`${CYCLE}/user-properties/`, async (request) => {
    const a = await access(request);
    const cycle = await getCycleRow(db, a.project, request.params.cycleId, { archived: "any" });
    return presentProperties(await ensureProperties(a, cycle));
  });

  app.patch<{ Params: CycleParams }>(`${CYCLE}/user-properties/`, async (request) => {
    const a = await access(request);
    const cycle = await getCycleRow(db, a.project, request.params.cycleId, { archived: "any" });
    const patch = parseUserPropertiesPatch(request.body);
    const row = await ensureProperties(a, cycle);
    const { filters, displayFilters, displayProperties } = applyUserPropertiesPatch(row, patch);
    const [updated] = await (db as DbOrTx)
      .update(cycleUserProperties)
      .set({ filters, displayFilters, displayProperties, updatedById: a.user.id })
      .where(eq(cycleUserProperties.id, row.id))
      .returning();
    if (!updated) throw new Error("cycle user properties row missing");
    return presentProperties(updated);
  });
}
