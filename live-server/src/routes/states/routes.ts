/**
 * States API under /api/workspaces/:slug (calls-errors-sync §7 Projects, product-domain §4):
 * - GET, POST /projects/:projectId/states/;
 * - GET, PUT, PATCH, DELETE /projects/:projectId/states/:stateId/ (reorder = PATCH {sequence},
 *   the client computing it with statePosition());
 * - POST /projects/:projectId/states/:stateId/mark-default/ (empty body);
 * - GET /states/: states of every project the caller is a member of.
 * Who (product-domain §6 "Project settings: states"): any project member reads; changes need
 * project role member or above, so guests get 403.
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { projectAccess, workspaceAccess } from "../../policies/access.ts";
import { presentState } from "./presenter.ts";
import { createStateBody, markDefaultBody, replaceStateBody, updateStateBody } from "./schema.ts";
import {
  createState,
  deleteState,
  getState,
  listProjectStates,
  listWorkspaceStates,
  markDefaultState,
  updateState,
} from "./service.ts";

type SlugParams = { slug: string };
type ProjectParams = SlugParams & { projectId: string };
type StateParams = ProjectParams & { stateId: string };

const WS = "/api/workspaces/:slug";
const STATES = `${WS}/projects/:projectId/states`;

export async function statesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  const asMember = (request: FastifyRequest<{ Params: ProjectParams }>, minRole: 5 | 15 | 20 = ROLE.guest) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, { minRole });

  app.get<{ Params: SlugParams }>(`${WS}/states/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return (await listWorkspaceStates(db, ws)).map(presentState);
  });

  app.get<{ Params: ProjectParams }>(`${STATES}/`, async (request) => {
    const access = await asMember(request);
    return (await listProjectStates(db, access.project)).map(presentState);
  });

  app.post<{ Params: ProjectParams }>(`${STATES}/`, async (request, reply) => {
    const access = await asMember(request, ROLE.member);
    const body = parse(createStateBody, request.body);
    const row = await createState(app.ctx, eventOrigin(request), access, body);
    return reply.status(201).send(presentState(row));
  });

  app.get<{ Params: StateParams }>(`${STATES}/:stateId/`, async (request) => {
    const access = await asMember(request);
    return presentState(await getState(db, access.project, request.params.stateId));
  });

  for (const method of ["put", "patch"] as const) {
    app[method]<{ Params: StateParams }>(`${STATES}/:stateId/`, async (request) => {
      const access = await asMember(request, ROLE.member);
      const body = parse(method === "put" ? replaceStateBody : updateStateBody, request.body);
      const row = await updateState(app.ctx, eventOrigin(request), access, request.params.stateId, body);
      return presentState(row);
    });
  }

  app.delete<{ Params: StateParams }>(`${STATES}/:stateId/`, async (request, reply) => {
    const access = await asMember(request, ROLE.member);
    await deleteState(app.ctx, eventOrigin(request), access, request.params.stateId);
    return reply.status(204).send();
  });

  app.post<{ Params: StateParams }>(`${STATES}/:stateId/mark-default/`, async (request) => {
    const access = await asMember(request, ROLE.member);
    parse(markDefaultBody, request.body);
    const row = await markDefaultState(app.ctx, eventOrigin(request), access, request.params.stateId);
    return presentState(row);
  });
}
