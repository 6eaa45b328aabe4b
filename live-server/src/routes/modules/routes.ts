/**
 * Modules API under /api/workspaces/:slug (calls-errors-sync §7 "Modules", product-domain §3
 * Module, §4 module status; shapes of the reference's module views):
 * - GET /modules/ (workspace: every module of the caller's projects);
 * - GET, POST /projects/:projectId/modules/; GET, PUT, PATCH, DELETE …/modules/:moduleId/
 *   (the detail adds link_module, sub_issues, distribution and estimate_distribution);
 * - POST, DELETE …/modules/:moduleId/archive/ (archive / restore); GET …/archived-modules/
 *   and …/archived-modules/:moduleId/;
 * - POST …/user-favorite-modules/ {module}; DELETE …/user-favorite-modules/:moduleId/;
 * - GET, PATCH …/modules/:moduleId/user-properties/ (the caller's filters, display filters and
 *   display properties of the module's work items);
 * - work items (issue-routes.ts) and links (links.ts).
 * Who: every project member reads (guests included); creating and changing needs project role
 * member or above (guests 403); deleting, a project admin or the module's creator. Another
 * workspace's or project's module is a 404. A restricted guest's counters, distributions and
 * charts count only the work items they created (cycles/guest-scope.ts).
 */
import { ROLE, readDisplayProperties, readSavedDisplayFilters } from "@tideline/shared";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { queryRows } from "../../db/client.ts";
import { moduleUserProperties } from "../../db/schema.ts";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { type ProjectAccess, projectAccess, workspaceAccess } from "../../policies/access.ts";
import { ownItemsOf } from "../cycles/guest-scope.ts";
import { PROJECT_PATH, type ProjectParams, WS_PATH } from "../issues/common.ts";
import { applyUserPropertiesPatch, parseUserPropertiesPatch } from "../issues/user-properties-routes.ts";
import { moduleIssueRoutes } from "./issue-routes.ts";
import { listLinks, moduleLinkRoutes } from "./links.ts";
import type { ModuleRow } from "./presenter.ts";
import { loadDistribution } from "./progress.ts";
import { createModuleBody, favoriteModuleBody, updateModuleBody } from "./schema.ts";
import {
  addFavoriteModule,
  archiveModule,
  createModule,
  deleteModule,
  getModule,
  listProjectModules,
  listWorkspaceModules,
  presentOne,
  removeFavoriteModule,
  restoreModule,
  updateModule,
} from "./service.ts";

type SlugParams = { slug: string };
type ModuleParams = ProjectParams & { moduleId: string };

const MODULES = `${PROJECT_PATH}/modules`;

export async function modulesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  const asMember = (request: FastifyRequest<{ Params: ProjectParams }>, minRole: 5 | 15 | 20 = ROLE.guest) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, { minRole });

  /** The detail: the list shape plus links, sub-issue count and the distributions. */
  const detail = async (access: ProjectAccess, row: ModuleRow) => {
    const presented = await presentOne(db, row, access.user.id);
    const owner = ownItemsOf(access);
    const [sub] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from module_issues mi join issues i on i.id = mi.issue_id
          where mi.module_id = ${row.id}::uuid and i.parent_id is not null and i.deleted_at is null
            and i.archived_at is null and i.is_draft = false and i.in_intake = false
            ${owner ? sql`and i.created_by = ${owner}::uuid` : sql``}`,
    );
    return {
      ...presented,
      link_module: await listLinks(db, row.id),
      sub_issues: Number(sub?.n ?? 0),
      ...(await loadDistribution(db, row, access.project.timezone, owner)),
    };
  };

  app.get<{ Params: SlugParams }>(`${WS_PATH}/modules/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return listWorkspaceModules(db, ws);
  });

  app.get<{ Params: ProjectParams }>(`${MODULES}/`, async (request) => {
    return listProjectModules(db, await asMember(request), false);
  });

  app.post<{ Params: ProjectParams }>(`${MODULES}/`, async (request, reply) => {
    const access = await asMember(request, ROLE.member);
    const body = parse(createModuleBody, request.body);
    return reply.status(201).send(await createModule(app.ctx, eventOrigin(request), access, body));
  });

  app.get<{ Params: ModuleParams }>(`${MODULES}/:moduleId/`, async (request) => {
    const access = await asMember(request);
    return detail(access, await getModule(db, access, request.params.moduleId, { archived: false }));
  });

  for (const method of ["put", "patch"] as const) {
    app[method]<{ Params: ModuleParams }>(`${MODULES}/:moduleId/`, async (request) => {
      const access = await asMember(request, ROLE.member);
      const body = parse(updateModuleBody, request.body);
      return updateModule(app.ctx, eventOrigin(request), access, request.params.moduleId, body);
    });
  }

  app.delete<{ Params: ModuleParams }>(`${MODULES}/:moduleId/`, async (request, reply) => {
    const access = await asMember(request, ROLE.member);
    await deleteModule(app.ctx, eventOrigin(request), access, request.params.moduleId);
    return reply.status(204).send();
  });

  // ───────── archive ─────────

  app.post<{ Params: ModuleParams }>(`${MODULES}/:moduleId/archive/`, async (request) => {
    const access = await asMember(request, ROLE.member);
    return archiveModule(app.ctx, eventOrigin(request), access, request.params.moduleId);
  });

  app.delete<{ Params: ModuleParams }>(`${MODULES}/:moduleId/archive/`, async (request, reply) => {
    const access = await asMember(request, ROLE.member);
    await restoreModule(app.ctx, eventOrigin(request), access, request.params.moduleId);
    return reply.status(204).send();
  });

  app.get<{ Params: ProjectParams }>(`${PROJECT_PATH}/archived-modules/`, async (request) => {
    return listProjectModules(db, await asMember(request), true);
  });

  app.get<{ Params: ModuleParams }>(`${PROJECT_PATH}/archived-modules/:moduleId/`, async (request) => {
    const access = await asMember(request);
    return detail(access, await getModule(db, access, request.params.moduleId, { archived: true }));
  });

  // ───────── favorites ─────────

  app.post<{ Params: ProjectParams }>(`${PROJECT_PATH}/user-favorite-modules/`, async (request, reply) => {
    const access = await asMember(request);
    const { module } = parse(favoriteModuleBody, request.body);
    await addFavoriteModule(app.ctx, eventOrigin(request), access, module);
    // 204 with no body, as the reference answers all three entity calls (cycles, modules, views).
    return reply.status(204).send();
  });

  app.delete<{ Params: ModuleParams }>(`${PROJECT_PATH}/user-favorite-modules/:moduleId/`, async (request, reply) => {
    const access = await asMember(request);
    await removeFavoriteModule(app.ctx, eventOrigin(request), access, request.params.moduleId);
    return reply.status(204).send();
  });

  // ───────── user properties ─────────

  type PropsRow = typeof moduleUserProperties.$inferSelect;
  const presentProps = (row: PropsRow) => ({
    id: row.id,
    user: row.userId,
    module: row.moduleId,
    project: row.projectId,
    workspace: row.workspaceId,
    filters: row.filters,
    display_filters: readSavedDisplayFilters(row.displayFilters),
    display_properties: readDisplayProperties(row.displayProperties),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  });
  const ensureProps = async (access: ProjectAccess, module: ModuleRow): Promise<PropsRow> => {
    const where = and(eq(moduleUserProperties.moduleId, module.id), eq(moduleUserProperties.userId, access.user.id));
    const [row] = await db.select().from(moduleUserProperties).where(where).limit(1);
    if (row) return row;
    await db
      .insert(moduleUserProperties)
      .values({
        workspaceId: module.workspaceId,
        projectId: module.projectId,
        moduleId: module.id,
        userId: access.user.id,
      })
      .onConflictDoNothing();
    const [created] = await db.select().from(moduleUserProperties).where(where).limit(1);
    if (!created) throw new Error("module user properties row missing");
    return created;
  };

  app.get<{ Params: ModuleParams }>(`${MODULES}/:moduleId/user-properties/`, async (request) => {
    const access = await asMember(request);
    const module = await getModule(db, access, request.params.moduleId);
    return presentProps(await ensureProps(access, module));
  });

  app.patch<{ Params: ModuleParams }>(`${MODULES}/:moduleId/user-properties/`, async (request) => {
    const access = await asMember(request);
    const module = await getModule(db, access, request.params.moduleId);
    const patch = parseUserPropertiesPatch(request.body);
    const row = await ensureProps(access, module);
    const { filters, displayFilters, displayProperties } = applyUserPropertiesPatch(row, patch);
    const [updated] = await db
      .update(moduleUserProperties)
      .set({ filters, displayFilters, displayProperties, updatedById: access.user.id })
      .where(eq(moduleUserProperties.id, row.id))
      .returning();
    if (!updated) throw new Error("module user properties row missing");
    return presentProps(updated);
  });

  await moduleIssueRoutes(app);
  await moduleLinkRoutes(app);
}
