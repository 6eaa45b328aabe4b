/**
 * /api/v1 cycles, modules and intake (the reference's cycle.py, module.py, intake.py):
 * - cycles/: GET (cursor pages; cycle_view = all, current, upcoming, completed, draft,
 *   incomplete), POST; cycles/:id/: GET, PATCH, DELETE; cycles/:id/cycle-issues/: GET (the
 *   cycle's work items, paged), POST {issues: [...]}; cycle-issues/:issueId/: DELETE;
 * - modules/: GET (paged), POST; modules/:id/: GET, PATCH, DELETE; modules/:id/module-issues/:
 *   GET (paged), POST {issues}; module-issues/:issueId/: DELETE;
 * - intake-issues/: GET (paged), POST {issue: {...}}; intake-issues/:id/: GET, PATCH, DELETE
 *   (404-free only while the project's intake is on, as the web API).
 * Reads: project members; writes: member and up (the services add their own rules: a completed
 * cycle is not edited, and so on). The services are the web API's, with their events.
 */
import { ROLE } from "@tideline/shared";
import { inArray, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { queryRows } from "../db/client.ts";
import { issues } from "../db/schema.ts";
import { eventOrigin } from "../events/bus.ts";
import { forbidden, parse } from "../http/errors.ts";
import { type ProjectAccess, projectAccess } from "../policies/access.ts";
import { projectToday } from "../routes/cycles/progress.ts";
import { createCycleBody, cycleIssuesBody, cycleViewQuery, updateCycleBody } from "../routes/cycles/schema.ts";
import {
  addCycleIssues,
  createCycle,
  deleteCycle,
  getCycleRow,
  listCycles,
  presentForUser,
  removeCycleIssue,
  updateCycle,
} from "../routes/cycles/service.ts";
import { createIntakeBody, updateIntakeBody } from "../routes/intake/schema.ts";
import {
  createRequest,
  deleteRequest,
  getRequest,
  listRequests,
  type PresentedIntakeIssue,
  requireIntakeOn,
  updateRequest,
} from "../routes/intake/service.ts";
import { singleQueryValue, visibleConditions } from "../routes/issues/common.ts";
import { addModuleIssues, inModule, removeModuleIssue } from "../routes/modules/issue-routes.ts";
import { createModuleBody, moduleIssuesBody, updateModuleBody } from "../routes/modules/schema.ts";
import {
  createModule,
  deleteModule,
  getModule,
  listProjectModules,
  presentOne,
  updateModule,
} from "../routes/modules/service.ts";
import { PROJECT, type ProjectParams, type V1 } from "./context.ts";
import { presentIssues } from "./issues.ts";
import { pageAnswer, paginateList, readPage } from "./paginate.ts";

type Query = Record<string, unknown>;

/** The web answer in the reference's public names: references without `_id`, members listed. */
export function publicize(obj: Record<string, unknown>): Record<string, unknown> {
  const renames: Record<string, string> = {
    project_id: "project",
    workspace_id: "workspace",
    owned_by_id: "owned_by",
    lead_id: "lead",
    member_ids: "members",
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key === "assignee_ids" || key === "is_favorite" || key === "progress_snapshot") continue;
    out[renames[key] ?? key] = value;
  }
  if (!("deleted_at" in out)) out.deleted_at = null;
  return out;
}

/** An intake request as the reference's IntakeIssueSerializer: `issue` an id, the item in issue_detail. */
function presentIntake(r: PresentedIntakeIssue) {
  const { issue, ...rest } = r;
  return { ...rest, issue: issue.id, issue_detail: issue, inbox: null, deleted_at: null };
}

export function registerPlanningRoutes({ app, docs }: V1): void {
  const { db } = app.ctx;
  const member = (request: FastifyRequest<{ Params: ProjectParams }>, minRole?: 5 | 15 | 20) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, minRole ? { minRole } : {});

  /** One page of the project's visible work items matching `condition`, in the public shape. */
  async function itemPage(access: ProjectAccess, condition: ReturnType<typeof sql>, query: Query) {
    const page = readPage(query);
    const where = sql.join([...visibleConditions(access), sql`i.archived_at is null`, condition], sql` and `);
    const [idRows, countRows] = await Promise.all([
      queryRows<{ id: string }>(
        db,
        sql`select i.id::text as id from issues i where ${where} order by i.created_at desc, i.id
            limit ${page.perPage + 1} offset ${page.offset}`,
      ),
      queryRows<{ n: number }>(db, sql`select count(*)::int as n from issues i where ${where}`),
    ]);
    const ids = idRows.map((r) => r.id);
    const rows = ids.length ? await db.select().from(issues).where(inArray(issues.id, ids)) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const presented = await presentIssues(
      db,
      ids.flatMap((x) => byId.get(x) ?? []),
      null,
    );
    return pageAnswer(page, presented, countRows[0]?.n ?? 0);
  }

  // ── cycles ──
  type CycleParams = ProjectParams & { cycleId: string };
  const CYCLES = `${PROJECT}/cycles`;
  const ctag = "Cycles";
  const presentCycleRow = async (access: ProjectAccess, row: Awaited<ReturnType<typeof getCycleRow>>) => {
    const today = projectToday(access.project);
    const [out] = await presentForUser(db, access.user.id, [row], () => today);
    return publicize(out as unknown as Record<string, unknown>);
  };

  docs.add<ProjectParams>(
    app,
    "get",
    `${CYCLES}/`,
    { summary: "List cycles", tag: ctag, paginated: true },
    async (request) => {
      const access = await member(request);
      const raw = singleQueryValue(request.query.cycle_view);
      const view = raw === undefined || raw === "" ? "all" : parse(cycleViewQuery, raw);
      const list = await listCycles(db, access, view, false);
      return paginateList(
        request.query,
        list.map((c) => publicize(c as unknown as Record<string, unknown>)),
      );
    },
  );
  docs.add<ProjectParams>(
    app,
    "post",
    `${CYCLES}/`,
    { summary: "Create a cycle", tag: ctag, body: createCycleBody, status: 201 },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      const body = parse(createCycleBody, request.body);
      const row = await createCycle(app.ctx, eventOrigin(request), access, body);
      return reply.status(201).send(await presentCycleRow(access, row));
    },
  );
  docs.add<CycleParams>(app, "get", `${CYCLES}/:cycleId/`, { summary: "Get a cycle", tag: ctag }, async (request) => {
    const access = await member(request);
    return presentCycleRow(access, await getCycleRow(db, access.project, request.params.cycleId));
  });
  docs.add<CycleParams>(
    app,
    "patch",
    `${CYCLES}/:cycleId/`,
    { summary: "Update a cycle", tag: ctag, body: updateCycleBody },
    async (request) => {
      const access = await member(request, ROLE.member);
      const body = parse(updateCycleBody, request.body);
      const row = await updateCycle(app.ctx, eventOrigin(request), access, request.params.cycleId, body);
      return presentCycleRow(access, row);
    },
  );
  docs.add<CycleParams>(
    app,
    "delete",
    `${CYCLES}/:cycleId/`,
    { summary: "Delete a cycle", tag: ctag, empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await deleteCycle(app.ctx, eventOrigin(request), access, request.params.cycleId);
      return reply.status(204).send();
    },
  );
  docs.add<CycleParams>(
    app,
    "get",
    `${CYCLES}/:cycleId/cycle-issues/`,
    { summary: "List a cycle's work items", tag: ctag, paginated: true },
    async (request) => {
      const access = await member(request);
      const cycle = await getCycleRow(db, access.project, request.params.cycleId, { archived: "any" });
      return itemPage(
        access,
        sql`exists (select 1 from cycle_issues ci where ci.issue_id = i.id and ci.cycle_id = ${cycle.id}::uuid)`,
        request.query,
      );
    },
  );
  docs.add<CycleParams>(
    app,
    "post",
    `${CYCLES}/:cycleId/cycle-issues/`,
    { summary: "Add work items to a cycle (moved from their cycle)", tag: ctag, body: cycleIssuesBody },
    async (request) => {
      const access = await member(request, ROLE.member);
      const body = parse(cycleIssuesBody, request.body);
      await addCycleIssues(app.ctx, eventOrigin(request), access, request.params.cycleId, body.issues);
      const cycle = await getCycleRow(db, access.project, request.params.cycleId);
      return (
        await itemPage(
          access,
          sql`exists (select 1 from cycle_issues ci where ci.issue_id = i.id and ci.cycle_id = ${cycle.id}::uuid)`,
          {},
        )
      ).results;
    },
  );
  docs.add<CycleParams & { issueId: string }>(
    app,
    "delete",
    `${CYCLES}/:cycleId/cycle-issues/:issueId/`,
    { summary: "Take a work item out of a cycle", tag: ctag, empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await removeCycleIssue(app.ctx, eventOrigin(request), access, request.params.cycleId, request.params.issueId);
      return reply.status(204).send();
    },
  );

  // ── modules ──
  type ModuleParams = ProjectParams & { moduleId: string };
  const MODULES = `${PROJECT}/modules`;
  const mtag = "Modules";
  docs.add<ProjectParams>(
    app,
    "get",
    `${MODULES}/`,
    { summary: "List modules", tag: mtag, paginated: true },
    async (request) => {
      const access = await member(request);
      const list = await listProjectModules(db, access, false);
      return paginateList(
        request.query,
        list.map((m) => publicize(m as unknown as Record<string, unknown>)),
      );
    },
  );
  docs.add<ProjectParams>(
    app,
    "post",
    `${MODULES}/`,
    { summary: "Create a module", tag: mtag, body: createModuleBody, status: 201 },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      const body = parse(createModuleBody, request.body);
      const made = await createModule(app.ctx, eventOrigin(request), access, body);
      return reply.status(201).send(publicize(made as unknown as Record<string, unknown>));
    },
  );
  docs.add<ModuleParams>(
    app,
    "get",
    `${MODULES}/:moduleId/`,
    { summary: "Get a module", tag: mtag },
    async (request) => {
      const access = await member(request);
      const row = await getModule(db, access, request.params.moduleId, { archived: false });
      return publicize((await presentOne(db, row, access.user.id)) as unknown as Record<string, unknown>);
    },
  );
  docs.add<ModuleParams>(
    app,
    "patch",
    `${MODULES}/:moduleId/`,
    { summary: "Update a module", tag: mtag, body: updateModuleBody },
    async (request) => {
      const access = await member(request, ROLE.member);
      const body = parse(updateModuleBody, request.body);
      const out = await updateModule(app.ctx, eventOrigin(request), access, request.params.moduleId, body);
      return publicize(out as unknown as Record<string, unknown>);
    },
  );
  docs.add<ModuleParams>(
    app,
    "delete",
    `${MODULES}/:moduleId/`,
    { summary: "Delete a module", tag: mtag, empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await deleteModule(app.ctx, eventOrigin(request), access, request.params.moduleId);
      return reply.status(204).send();
    },
  );
  docs.add<ModuleParams>(
    app,
    "get",
    `${MODULES}/:moduleId/module-issues/`,
    { summary: "List a module's work items", tag: mtag, paginated: true },
    async (request) => {
      const access = await member(request);
      const module = await getModule(db, access, request.params.moduleId);
      return itemPage(access, inModule(module.id), request.query);
    },
  );
  docs.add<ModuleParams>(
    app,
    "post",
    `${MODULES}/:moduleId/module-issues/`,
    { summary: "Add work items to a module", tag: mtag, body: moduleIssuesBody },
    async (request) => {
      const access = await member(request, ROLE.member);
      const body = parse(moduleIssuesBody, request.body);
      await addModuleIssues(app.ctx, eventOrigin(request), access, request.params.moduleId, body.issues);
      return (await itemPage(access, inModule(request.params.moduleId), {})).results;
    },
  );
  docs.add<ModuleParams & { issueId: string }>(
    app,
    "delete",
    `${MODULES}/:moduleId/module-issues/:issueId/`,
    { summary: "Take a work item out of a module", tag: mtag, empty: true },
    async (request, reply) => {
      const access = await member(request, ROLE.member);
      await removeModuleIssue(app.ctx, eventOrigin(request), access, request.params.moduleId, request.params.issueId);
      return reply.status(204).send();
    },
  );

  // ── intake ──
  type RequestParams = ProjectParams & { id: string };
  const INTAKE = `${PROJECT}/intake-issues`;
  const itag = "Intake";
  const intake = async (request: FastifyRequest<{ Params: ProjectParams }>, minRole: number = ROLE.guest) => {
    const access = await member(request);
    requireIntakeOn(access);
    if ((access.projectMembership?.role ?? 0) < minRole)
      throw forbidden("Only project members can triage intake requests.");
    return access;
  };
  docs.add<ProjectParams>(
    app,
    "get",
    `${INTAKE}/`,
    { summary: "List intake requests", tag: itag, paginated: true },
    async (request) => {
      const access = await intake(request);
      const query = { ...request.query };
      if (query.status === undefined) query.status = "-2,-1,0,1,2";
      readPage(query); // the reference's per_page and cursor checks, before the intake list's own
      if (query.per_page === undefined) query.per_page = "1000";
      const page = await listRequests(db, access, query);
      return { ...page, grouped_by: null, sub_grouped_by: null, results: page.results.map(presentIntake) };
    },
  );
  docs.add<ProjectParams>(
    app,
    "post",
    `${INTAKE}/`,
    { summary: "Submit an intake request", tag: itag, body: createIntakeBody, status: 201 },
    async (request, reply) => {
      const access = await intake(request);
      const body = parse(createIntakeBody, request.body);
      return reply.status(201).send(presentIntake(await createRequest(app.ctx, eventOrigin(request), access, body)));
    },
  );
  docs.add<RequestParams>(
    app,
    "get",
    `${INTAKE}/:id/`,
    { summary: "Get an intake request", tag: itag },
    async (request) => {
      const access = await intake(request);
      return presentIntake(await getRequest(db, access, request.params.id));
    },
  );
  docs.add<RequestParams>(
    app,
    "patch",
    `${INTAKE}/:id/`,
    { summary: "Triage or edit an intake request", tag: itag, body: updateIntakeBody },
    async (request) => {
      const access = await intake(request);
      const body = parse(updateIntakeBody, request.body);
      return presentIntake(await updateRequest(app.ctx, eventOrigin(request), access, request.params.id, body));
    },
  );
  docs.add<RequestParams>(
    app,
    "delete",
    `${INTAKE}/:id/`,
    { summary: "Delete an intake request", tag: itag, empty: true },
    async (request, reply) => {
      const access = await intake(request, ROLE.member);
      await deleteRequest(app.ctx, eventOrigin(request), access, request.params.id);
      return reply.status(204).send();
    },
  );
}
