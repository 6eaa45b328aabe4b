/**
 * Views API under /api/workspaces/:slug (calls-errors-sync §7 "Views", "Current user and
 * workspaces"; product-domain §3 View, §4; the reference's view routes). README.md documents
 * every call, its shape and the choices where the spec is silent.
 *
 * Project views (…/projects/:projectId/):
 * - GET, POST views/; GET, PATCH (or PUT), DELETE views/:viewId/; GET views/:viewId/issues/;
 * - POST, DELETE views/:viewId/lock/ (lock / unlock); POST views/:viewId/access/ {access};
 * - POST, DELETE views/:viewId/publish/ (sets / clears anchor);
 * - POST, DELETE views/:viewId/archive/ (archive / restore); GET archived-views/;
 * - POST user-favorite-views/ {view} (204, no body, as the reference); DELETE user-favorite-views/:viewId/.
 * Workspace views (/api/workspaces/:slug/):
 * - GET, POST views/; GET, PATCH (or PUT), DELETE views/:viewId/; POST, DELETE views/:viewId/lock/;
 *   POST views/:viewId/access/;
 * - GET issues/ (every project the caller can see; the built-in views are filters on it);
 * - GET, POST workspace-views/ (the caller's own workspace view_props, as the reference);
 * - GET, PATCH workspace-views/:screen/user-properties/ (the caller's own settings per built-in
 *   workspace view and member-profile tab; screen-properties.ts).
 */
import { ROLE } from "@tideline/shared";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { workspaceMembers } from "../../db/schema.ts";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { type ProjectAccess, projectAccess, type WorkspaceAccess, workspaceAccess } from "../../policies/access.ts";
import { PROJECT_PATH, type ProjectParams, WS_PATH } from "../issues/common.ts";
import { parseUserPropertiesPatch } from "../issues/user-properties-routes.ts";
import { listProjectViewIssues, listWorkspaceIssues } from "./issues.ts";
import { accessBody, favoriteViewBody, viewBody } from "./schema.ts";
import { patchScreenProperties, presentScreenProperties, requireScreen } from "./screen-properties.ts";
import {
  addFavoriteView,
  createView,
  deleteView,
  displayBaseOf,
  getView,
  listViews,
  presentOne,
  publishView,
  removeFavoriteView,
  setViewAccess,
  setViewArchived,
  setViewLocked,
  unpublishView,
  updateView,
  type ViewScope,
  viewColumns,
} from "./service.ts";

type SlugParams = { slug: string };
type ProjectViewParams = ProjectParams & { viewId: string };
/** A view's path parameters at either level (projectId only under a project). */
type ViewParams = SlugParams & { projectId?: string; viewId: string };
type Query = Record<string, unknown>;

export function projectScope(access: ProjectAccess): ViewScope {
  return {
    workspaceId: access.workspace.id,
    projectId: access.project.id,
    userId: access.user.id,
    role: access.projectMembership?.role ?? 0,
  };
}

export function workspaceScope(ws: WorkspaceAccess): ViewScope {
  return { workspaceId: ws.workspace.id, projectId: null, userId: ws.user.id, role: ws.membership.role };
}

export async function viewsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const PV = `${PROJECT_PATH}/views`;
  const WV = `${WS_PATH}/views`;

  const inProject = async (request: FastifyRequest<{ Params: ProjectParams }>) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId);
    return { access, scope: projectScope(access) };
  };
  const inWorkspace = async (request: FastifyRequest<{ Params: SlugParams }>) =>
    workspaceScope(await workspaceAccess(db, request, request.params.slug));

  type P = ViewParams;
  /** The routes both kinds share, under `base` (…/views), given how to get the scope. */
  const shared = (base: string, scopeOf: (request: FastifyRequest<{ Params: P }>) => Promise<ViewScope>) => {
    app.get<{ Params: P }>(`${base}/:viewId/`, async (request) => {
      const scope = await scopeOf(request);
      return presentOne(db, await getView(db, scope, request.params.viewId), scope.userId);
    });

    // PUT as PATCH (the reference routes both to its update; only what is sent changes).
    for (const method of ["put", "patch"] as const) {
      app[method]<{ Params: P }>(`${base}/:viewId/`, async (request) => {
        const scope = await scopeOf(request);
        const body = parse(viewBody, request.body);
        return updateView(app.ctx, eventOrigin(request), scope, request.params.viewId, body, request.body);
      });
    }

    app.delete<{ Params: P }>(`${base}/:viewId/`, async (request, reply: FastifyReply) => {
      const scope = await scopeOf(request);
      await deleteView(app.ctx, eventOrigin(request), scope, request.params.viewId);
      return reply.status(204).send();
    });

    for (const [method, locked] of [
      ["post", true],
      ["delete", false],
    ] as const) {
      app[method]<{ Params: P }>(`${base}/:viewId/lock/`, async (request) => {
        const scope = await scopeOf(request);
        return setViewLocked(app.ctx, eventOrigin(request), scope, request.params.viewId, locked);
      });
    }

    app.post<{ Params: P }>(`${base}/:viewId/access/`, async (request) => {
      const scope = await scopeOf(request);
      const { access } = parse(accessBody, request.body);
      return setViewAccess(app.ctx, eventOrigin(request), scope, request.params.viewId, access);
    });
  };

  // ───────── project views ─────────

  app.get<{ Params: ProjectParams }>(`${PV}/`, async (request) => {
    const { scope } = await inProject(request);
    return listViews(db, scope, false);
  });

  app.post<{ Params: ProjectParams }>(`${PV}/`, async (request, reply) => {
    const { scope } = await inProject(request);
    const body = parse(viewBody, request.body);
    return reply.status(201).send(await createView(app.ctx, eventOrigin(request), scope, body, request.body));
  });

  shared(PV, async (request) => {
    const access = await projectAccess(db, request, request.params.slug, request.params.projectId ?? "");
    return projectScope(access);
  });

  app.get<{ Params: ProjectViewParams; Querystring: Query }>(`${PV}/:viewId/issues/`, async (request) => {
    const { access, scope } = await inProject(request);
    const view = await getView(db, scope, request.params.viewId);
    return listProjectViewIssues(db, access, view, request.query);
  });

  app.post<{ Params: ProjectViewParams }>(`${PV}/:viewId/publish/`, async (request) => {
    const { scope } = await inProject(request);
    return publishView(app.ctx, eventOrigin(request), scope, request.params.viewId);
  });

  app.delete<{ Params: ProjectViewParams }>(`${PV}/:viewId/publish/`, async (request, reply) => {
    const { scope } = await inProject(request);
    await unpublishView(app.ctx, eventOrigin(request), scope, request.params.viewId);
    return reply.status(204).send();
  });

  app.post<{ Params: ProjectViewParams }>(`${PV}/:viewId/archive/`, async (request) => {
    const { scope } = await inProject(request);
    const view = await setViewArchived(app.ctx, eventOrigin(request), scope, request.params.viewId, true);
    return { archived_at: view.archived_at };
  });

  app.delete<{ Params: ProjectViewParams }>(`${PV}/:viewId/archive/`, async (request, reply) => {
    const { scope } = await inProject(request);
    await setViewArchived(app.ctx, eventOrigin(request), scope, request.params.viewId, false);
    return reply.status(204).send();
  });

  app.get<{ Params: ProjectParams }>(`${PROJECT_PATH}/archived-views/`, async (request) => {
    const { scope } = await inProject(request);
    return listViews(db, scope, true);
  });

  app.post<{ Params: ProjectParams }>(`${PROJECT_PATH}/user-favorite-views/`, async (request, reply) => {
    const { scope } = await inProject(request);
    const { view } = parse(favoriteViewBody, request.body);
    await addFavoriteView(app.ctx, eventOrigin(request), scope, view);
    // 204 with no body, as the reference answers all three entity calls (cycles, modules, views).
    return reply.status(204).send();
  });

  app.delete<{ Params: ProjectViewParams }>(`${PROJECT_PATH}/user-favorite-views/:viewId/`, async (request, reply) => {
    const { scope } = await inProject(request);
    await removeFavoriteView(app.ctx, eventOrigin(request), scope, request.params.viewId);
    return reply.status(204).send();
  });

  // ───────── workspace views ─────────

  app.get<{ Params: SlugParams }>(`${WV}/`, async (request) => listViews(db, await inWorkspace(request), false));

  app.post<{ Params: SlugParams }>(`${WV}/`, async (request, reply) => {
    const scope = await inWorkspace(request);
    const body = parse(viewBody, request.body);
    return reply.status(201).send(await createView(app.ctx, eventOrigin(request), scope, body, request.body));
  });

  shared(WV, inWorkspace);

  app.get<{ Params: SlugParams; Querystring: Query }>(`${WS_PATH}/issues/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return listWorkspaceIssues(db, ws, request.query);
  });

  // ───────── the caller's workspace view properties (the reference's workspace-views/) ─────────

  const presentViewProps = (ws: WorkspaceAccess, stored: Record<string, unknown>) => {
    const base = displayBaseOf({ projectId: null });
    const saved = viewColumns({ display_filters: {} }, base);
    const props = (stored ?? {}) as { filters?: unknown; display_filters?: unknown; display_properties?: unknown };
    return {
      workspace: ws.workspace.id,
      user: ws.user.id,
      view_props: {
        filters: (props.filters as Record<string, unknown> | undefined) ?? {},
        display_filters: props.display_filters ?? saved.displayFilters,
        display_properties: props.display_properties ?? viewColumns({ display_properties: {} }, base).displayProperties,
      },
    };
  };

  app.get<{ Params: SlugParams }>(`${WS_PATH}/workspace-views/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return presentViewProps(ws, ws.membership.viewProps);
  });

  app.post<{ Params: SlugParams }>(`${WS_PATH}/workspace-views/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    const raw = (request.body ?? {}) as { view_props?: unknown };
    const incoming = raw.view_props ?? {};
    const current = presentViewProps(ws, ws.membership.viewProps).view_props;
    // Each of the three sent replaces the stored one, checked as a view's are.
    const columns = viewColumns(incoming, displayBaseOf({ projectId: null }));
    const next = {
      filters: columns.filters ?? current.filters,
      display_filters: columns.displayFilters ?? current.display_filters,
      display_properties: columns.displayProperties ?? current.display_properties,
    };
    // Only these three keys change (jsonb ||): the per-screen settings under `screens` stay.
    await db
      .update(workspaceMembers)
      .set({ viewProps: sql`coalesce(${workspaceMembers.viewProps}, '{}'::jsonb) || ${JSON.stringify(next)}::jsonb` })
      .where(eq(workspaceMembers.id, ws.membership.id));
    return presentViewProps(ws, next);
  });

  // ───────── the caller's settings per built-in workspace view and profile tab ─────────

  type ScreenParams = SlugParams & { screen: string };
  const SCREEN_PROPS = `${WS_PATH}/workspace-views/:screen/user-properties/`;

  app.get<{ Params: ScreenParams }>(SCREEN_PROPS, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    const screen = requireScreen(request.params.screen);
    return presentScreenProperties(ws, screen, ws.membership.viewProps);
  });

  app.patch<{ Params: ScreenParams }>(SCREEN_PROPS, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug, ROLE.guest);
    const screen = requireScreen(request.params.screen);
    return patchScreenProperties(db, ws, screen, parseUserPropertiesPatch(request.body));
  });
}
