/**
 * Estimates API under /api/workspaces/:slug (calls-errors-sync §7 Projects):
 * - GET /estimates/: estimates of every project the caller is a member of;
 * - GET, POST /projects/:projectId/estimates/ — create takes
 *   {estimate: {name, description?, type}, estimate_points: [{key?, value, description?}]};
 * - GET, PATCH {name?, description?, is_active?}, DELETE /projects/:projectId/estimates/:estimateId/;
 * - POST (switch on) and DELETE (switch off) /projects/:projectId/estimates/:estimateId/activate/:
 *   the project's estimate setting (projects.estimate_id, shown as the project's `estimate`);
 * - POST .../estimates/:estimateId/estimate-points/ {key?, value, description?};
 * - PATCH, DELETE .../estimates/:estimateId/estimate-points/:pointId/ (DELETE may carry
 *   {new_estimate_point_id} to move the work items on that point).
 * Who (product-domain §6 "Project settings: estimates"): any project member reads; changes need
 * project admin, so members and guests get 403.
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { projectAccess, workspaceAccess } from "../../policies/access.ts";
import { presentEstimatePoint } from "./presenter.ts";
import {
  createEstimateBody,
  createPointBody,
  deletePointBody,
  emptyBody,
  updateEstimateBody,
  updatePointBody,
} from "./schema.ts";
import {
  addEstimatePoint,
  createEstimate,
  deleteEstimate,
  deleteEstimatePoint,
  listProjectEstimates,
  listWorkspaceEstimates,
  presentEstimateById,
  setEstimateActive,
  updateEstimate,
  updateEstimatePoint,
} from "./service.ts";

type SlugParams = { slug: string };
type ProjectParams = SlugParams & { projectId: string };
type EstimateParams = ProjectParams & { estimateId: string };
type PointParams = EstimateParams & { pointId: string };

const WS = "/api/workspaces/:slug";
const ESTIMATES = `${WS}/projects/:projectId/estimates`;
const ESTIMATE = `${ESTIMATES}/:estimateId`;

export async function estimatesRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  const asMember = (request: FastifyRequest<{ Params: ProjectParams }>, minRole: 5 | 15 | 20 = ROLE.guest) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, { minRole });

  app.get<{ Params: SlugParams }>(`${WS}/estimates/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return listWorkspaceEstimates(db, ws);
  });

  app.get<{ Params: ProjectParams }>(`${ESTIMATES}/`, async (request) => {
    const access = await asMember(request);
    return listProjectEstimates(db, access.project);
  });

  app.post<{ Params: ProjectParams }>(`${ESTIMATES}/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    const body = parse(createEstimateBody, request.body);
    return reply.status(201).send(await createEstimate(app.ctx, eventOrigin(request), access, body));
  });

  app.get<{ Params: EstimateParams }>(`${ESTIMATE}/`, async (request) => {
    const access = await asMember(request);
    return presentEstimateById(db, access.project, request.params.estimateId);
  });

  app.patch<{ Params: EstimateParams }>(`${ESTIMATE}/`, async (request) => {
    const access = await asMember(request, ROLE.admin);
    const body = parse(updateEstimateBody, request.body);
    return updateEstimate(app.ctx, eventOrigin(request), access, request.params.estimateId, body);
  });

  app.delete<{ Params: EstimateParams }>(`${ESTIMATE}/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    await deleteEstimate(app.ctx, eventOrigin(request), access, request.params.estimateId);
    return reply.status(204).send();
  });

  app.post<{ Params: EstimateParams }>(`${ESTIMATE}/activate/`, async (request) => {
    const access = await asMember(request, ROLE.admin);
    parse(emptyBody, request.body);
    return setEstimateActive(app.ctx, eventOrigin(request), access, request.params.estimateId, true);
  });

  app.delete<{ Params: EstimateParams }>(`${ESTIMATE}/activate/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    await setEstimateActive(app.ctx, eventOrigin(request), access, request.params.estimateId, false);
    return reply.status(204).send();
  });

  app.post<{ Params: EstimateParams }>(`${ESTIMATE}/estimate-points/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    const body = parse(createPointBody, request.body);
    const row = await addEstimatePoint(app.ctx, eventOrigin(request), access, request.params.estimateId, body);
    return reply.status(201).send(presentEstimatePoint(row));
  });

  app.patch<{ Params: PointParams }>(`${ESTIMATE}/estimate-points/:pointId/`, async (request) => {
    const access = await asMember(request, ROLE.admin);
    const body = parse(updatePointBody, request.body);
    const { estimateId, pointId } = request.params;
    return presentEstimatePoint(
      await updateEstimatePoint(app.ctx, eventOrigin(request), access, estimateId, pointId, body),
    );
  });

  app.delete<{ Params: PointParams }>(`${ESTIMATE}/estimate-points/:pointId/`, async (request, reply) => {
    const access = await asMember(request, ROLE.admin);
    const { new_estimate_point_id } = parse(deletePointBody, request.body);
    const { estimateId, pointId } = request.params;
    await deleteEstimatePoint(
      app.ctx,
      eventOrigin(request),
      access,
      estimateId,
      pointId,
      new_estimate_point_id ?? null,
    );
    return reply.status(204).send();
  });
}
