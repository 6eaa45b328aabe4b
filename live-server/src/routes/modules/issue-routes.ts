/**
 * A module's work items:
 * - GET modules/{id}/issues/ — the work-item list (routes/issues/list.ts) with every parameter
 *   of GET issues/ (filters, group_by / sub_group_by, order_by, cursor, search…), limited to the
 *   module's items (issues and epics; not archived, deleted or drafts);
 * - POST modules/{id}/issues/ {issues: [...]} — add many (already-members are skipped);
 * - DELETE modules/{id}/issues/{issueId}/ — take one out (204; 404 when it is not in it);
 * - POST issues/{id}/modules/ {modules, removed_modules} — one item into and out of modules.
 * Ids that are not work items (or modules) of this project are a 400 naming them, nothing stored.
 * Each changed item gets history ("added to module X" / "removed from module X") and issue.updated
 * with its module_ids (changed_fields ["module_ids"]). Guests read the list; changes need member.
 */
import { ROLE } from "@tideline/shared";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";
import type { Tx } from "../../db/client.ts";
import { issues, moduleIssues } from "../../db/schema.ts";
import { type EmitFn, type EventOrigin, eventOrigin, transactionWithEvents } from "../../events/bus.ts";
import { badRequest, notFound, parse } from "../../http/errors.ts";
import { isUuid } from "../../http/ids.ts";
import { issueAccess, type ProjectAccess, projectAccess } from "../../policies/access.ts";
import { recordActivity } from "../../services/issue-activity.ts";
import { PROJECT_PATH, type ProjectParams, readListQuery, visibleConditions } from "../issues/common.ts";
import { listIssuePage } from "../issues/list.ts";
import { loadIssues } from "../issues/query.ts";
import { emitIssue } from "../issues/service.ts";
import { changeIssueModules, projectModules } from "./membership.ts";
import { issueModulesBody, moduleIssuesBody } from "./schema.ts";
import { getModule } from "./service.ts";

type ModuleParams = ProjectParams & { moduleId: string };

/** Condition on `i`: the item is in the module. */
export const inModule = (moduleId: string) =>
  sql`exists (select 1 from module_issues mi where mi.issue_id = i.id and mi.module_id = ${moduleId}::uuid)`;

/** Work items `ids` of the project (not deleted, not drafts, not epics), or a 400 naming the others. */
async function projectItems(tx: Tx, access: ProjectAccess, ids: readonly string[]) {
  const wanted = [...new Set(ids)];
  const rows = await tx
    .select()
    .from(issues)
    .where(
      and(
        inArray(issues.id, wanted),
        eq(issues.projectId, access.project.id),
        isNull(issues.deletedAt),
        eq(issues.isDraft, false),
        eq(issues.inIntake, false),
      ),
    );
  const found = new Set(rows.map((r) => r.id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) {
    throw badRequest(`issues: ${missing[0]} is not a work item of this project.`, {
      issues: missing.map((id) => `${id} is not a work item of this project.`),
    });
  }
  // An epic gathers work items (its children) and is no work item of a module board.
  const epics = rows.filter((r) => r.isEpic).map((r) => r.id);
  if (epics.length) {
    throw badRequest(
      `issues: ${epics[0]} is an epic; a module takes work items only.`,
      { issues: epics.map((id) => `${id} is an epic; a module takes work items only.`) },
      "ISSUE_IS_EPIC",
    );
  }
  return rows;
}

async function announce(tx: Tx, emit: EmitFn, changedIds: string[]) {
  for (const item of await loadIssues(tx, { ids: changedIds, includeDescription: true })) {
    emitIssue(emit, "issue.updated", item, { changed_fields: ["module_ids"] });
  }
}

type Ctx = Pick<AppContext, "db" | "events">;

/** Add work items to a module (members already in it skipped): history and issue.updated for each. */
export async function addModuleIssues(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  moduleId: string,
  issueIds: readonly string[],
): Promise<void> {
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const module = await getModule(tx, access, moduleId);
    const refs = await projectModules(tx, access.project.id, [module.id]);
    const rows = await projectItems(tx, access, issueIds);
    const changed: string[] = [];
    for (const row of rows) {
      const change = await changeIssueModules(tx, access.user.id, row, { add: [module.id] }, refs);
      if (change.added.length) {
        await recordActivity(tx, change.activity);
        changed.push(row.id);
      }
    }
    await announce(tx, emit, changed);
  });
}

/** Take one work item out of a module (404 when it is not in it): history and issue.updated. */
export async function removeModuleIssue(
  ctx: Ctx,
  origin: EventOrigin,
  access: ProjectAccess,
  moduleId: string,
  issueId: string,
): Promise<void> {
  if (!isUuid(issueId)) throw notFound("Work item");
  await transactionWithEvents(ctx.db, ctx.events, origin, async (tx, emit) => {
    const module = await getModule(tx, access, moduleId);
    const [row] = await tx
      .select()
      .from(issues)
      .innerJoin(moduleIssues, eq(moduleIssues.issueId, issues.id))
      .where(and(eq(issues.id, issueId), eq(issues.projectId, access.project.id), eq(moduleIssues.moduleId, module.id)))
      .limit(1);
    if (!row) throw notFound("Work item");
    const refs = await projectModules(tx, access.project.id, [module.id]);
    const change = await changeIssueModules(tx, access.user.id, row.issues, { remove: [module.id] }, refs);
    if (!row.issues.isDraft && !row.issues.deletedAt) {
      await recordActivity(tx, change.activity);
      await announce(tx, emit, [row.issues.id]);
    }
  });
}

export async function moduleIssueRoutes(app: FastifyInstance): Promise<void> {
  const { db, events } = app.ctx;
  const MODULE = `${PROJECT_PATH}/modules/:moduleId`;

  app.get<{ Params: ModuleParams; Querystring: Record<string, unknown> }>(`${MODULE}/issues/`, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    const module = await getModule(db, access, request.params.moduleId);
    const options = readListQuery(request.query, access);
    return listIssuePage(db, {
      where: [...visibleConditions(access), sql`i.archived_at is null`, inModule(module.id), ...options.conditions],
      projectId: access.project.id,
      groupBy: options.groupBy,
      subGroupBy: options.subGroupBy,
      orderBy: options.orderBy,
      cursor: options.cursor,
    });
  });

  app.post<{ Params: ModuleParams }>(`${MODULE}/issues/`, async (request, reply) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
      minRole: ROLE.member,
    });
    const body = parse(moduleIssuesBody, request.body);
    await addModuleIssues(app.ctx, eventOrigin(request), access, request.params.moduleId, body.issues);
    return reply.status(201).send({ message: "success" });
  });

  app.delete<{ Params: ModuleParams & { issueId: string } }>(`${MODULE}/issues/:issueId/`, async (request, reply) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId, {
      minRole: ROLE.member,
    });
    if (!isUuid(request.params.issueId)) throw notFound("Work item");
    await removeModuleIssue(app.ctx, eventOrigin(request), access, request.params.moduleId, request.params.issueId);
    return reply.status(204).send();
  });

  app.post<{ Params: ProjectParams & { issueId: string } }>(
    `${PROJECT_PATH}/issues/:issueId/modules/`,
    async (request, reply) => {
      const access = await issueAccess(
        db,
        request,
        request.params.slug,
        request.params.projectId,
        request.params.issueId,
        {
          minRole: ROLE.member,
          includeDrafts: false,
        },
      );
      const body = parse(issueModulesBody, request.body);
      await transactionWithEvents(db, events, eventOrigin(request), async (tx, emit) => {
        const refs = await projectModules(tx, access.project.id, [...body.modules, ...body.removed_modules], "modules");
        const change = await changeIssueModules(
          tx,
          access.user.id,
          access.issue,
          { add: body.modules, remove: body.removed_modules },
          refs,
        );
        if (change.added.length || change.removed.length) {
          await recordActivity(tx, change.activity);
          await announce(tx, emit, [access.issue.id]);
        }
      });
      return reply.status(201).send({ message: "success" });
    },
  );
}
