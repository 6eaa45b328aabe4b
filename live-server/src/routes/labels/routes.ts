/**
 * Labels API under /api/workspaces/:slug (calls-errors-sync §7 Projects):
 * - GET, POST /projects/:projectId/issue-labels/;
 * - GET, PATCH, DELETE /projects/:projectId/issue-labels/:labelId/ (reorder and re-nest =
 *   PATCH {parent?, sort_order?}, the client computing sort_order with labelPosition());
 * - GET /labels/: labels of every project the caller is a member of.
 * Who (product-domain §6 "Project settings: labels"): any project member reads; changes need
 * project role member or above, so guests get 403.
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { parse } from "../../http/errors.ts";
import { projectAccess, workspaceAccess } from "../../policies/access.ts";
import { presentLabel } from "./presenter.ts";
import { createLabelBody, updateLabelBody } from "./schema.ts";
import { createLabel, deleteLabel, getLabel, listProjectLabels, listWorkspaceLabels, updateLabel } from "./service.ts";

type SlugParams = { slug: string };
type ProjectParams = SlugParams & { projectId: string };
type LabelParams = ProjectParams & { labelId: string };

const WS = "/api/workspaces/:slug";
const LABELS = `${WS}/projects/:projectId/issue-labels`;

export async function labelsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  const asMember = (request: FastifyRequest<{ Params: ProjectParams }>, minRole: 5 | 15 | 20 = ROLE.guest) =>
    projectAccess(db, request, request.params.slug, request.params.projectId, { minRole });

  app.get<{ Params: SlugParams }>(`${WS}/labels/`, async (request) => {
    const ws = await workspaceAccess(db, request, request.params.slug);
    return (await listWorkspaceLabels(db, ws)).map(presentLabel);
  });

  app.get<{ Params: ProjectParams }>(`${LABELS}/`, async (request) => {
    const access = await asMember(request);
    return (await listProjectLabels(db, access.project)).map(presentLabel);
  });

  app.post<{ Params: ProjectParams }>(`${LABELS}/`, async (request, reply) => {
    const access = await asMember(request, ROLE.member);
    const body = parse(createLabelBody, request.body);
    const row = await createLabel(app.ctx, eventOrigin(request), access, body);
    return reply.status(201).send(presentLabel(row));
  });

  app.get<{ Params: LabelParams }>(`${LABELS}/:labelId/`, async (request) => {
    const access = await asMember(request);
    return presentLabel(await getLabel(db, access.project, request.params.labelId));
  });

  app.patch<{ Params: LabelParams }>(`${LABELS}/:labelId/`, async (request) => {
    const access = await asMember(request, ROLE.member);
    const body = parse(updateLabelBody, request.body);
    return presentLabel(await updateLabel(app.ctx, eventOrigin(request), access, request.params.labelId, body));
  });

  app.delete<{ Params: LabelParams }>(`${LABELS}/:labelId/`, async (request, reply) => {
    const access = await asMember(request, ROLE.member);
    await deleteLabel(app.ctx, eventOrigin(request), access, request.params.labelId);
    return reply.status(204).send();
  });
}
