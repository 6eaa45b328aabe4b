/**
 * Intake API under /api/workspaces/:slug/projects/:projectId (calls-errors-sync §7 "Intake",
 * product-domain §2–§4, §9). The reference serves the same calls at inbox-issues/ (its web
 * client) and intake-issues/; both are here:
 * - GET, POST {inbox|intake}-issues/: the paged list (status, work-item filters, order_by,
 *   per_page, cursor 10:0:0) and submitting a request ({ source: "IN_APP", issue: {…} });
 * - GET, PATCH, DELETE {inbox|intake}-issues/:id/ (the request's or its work item's id; GET
 *   takes ?expand=issue_inbox and always answers the request with its work item);
 * - GET intake-state/: the state new requests get; GET intake-count/: pending requests.
 * Who: any project member, guests included, submits and reads; a guest reads and edits only
 * their own requests (name, description, priority). Triage (status, snooze, duplicate),
 * editing others' requests and deleting need member or above (403). With the project's
 * intake switch (inbox_view) off every call is a 400 INTAKE_DISABLED.
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { eventOrigin } from "../../events/bus.ts";
import { forbidden, parse } from "../../http/errors.ts";
import { projectAccess } from "../../policies/access.ts";
import { presentState } from "../states/presenter.ts";
import { createIntakeBody, updateIntakeBody } from "./schema.ts";
import {
  createRequest,
  deleteRequest,
  getRequest,
  intakeState,
  listRequests,
  pendingCount,
  requireIntakeOn,
  updateRequest,
} from "./service.ts";

type ProjectParams = { slug: string; projectId: string };
type RequestParams = ProjectParams & { id: string };
type Query = Record<string, unknown>;

const PROJECT = "/api/workspaces/:slug/projects/:projectId";

export async function intakeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;

  const access = async (request: FastifyRequest<{ Params: ProjectParams }>, minRole: number = ROLE.guest) => {
    const a = await projectAccess(db, request, request.params.slug, request.params.projectId);
    requireIntakeOn(a);
    if (minRole > ROLE.guest) {
      const role = a.projectMembership?.role ?? 0;
      if (role < minRole) throw forbidden("Only project members can triage intake requests.");
    }
    return a;
  };

  for (const base of [`${PROJECT}/inbox-issues`, `${PROJECT}/intake-issues`]) {
    app.get<{ Params: ProjectParams; Querystring: Query }>(`${base}/`, async (request) => {
      const a = await access(request);
      return listRequests(db, a, request.query);
    });

    app.post<{ Params: ProjectParams }>(`${base}/`, async (request, reply) => {
      const a = await access(request);
      const body = parse(createIntakeBody, request.body);
      return reply.status(201).send(await createRequest(app.ctx, eventOrigin(request), a, body));
    });

    app.get<{ Params: RequestParams }>(`${base}/:id/`, async (request) => {
      const a = await access(request);
      return getRequest(db, a, request.params.id);
    });

    app.patch<{ Params: RequestParams }>(`${base}/:id/`, async (request) => {
      const a = await access(request);
      const body = parse(updateIntakeBody, request.body);
      return updateRequest(app.ctx, eventOrigin(request), a, request.params.id, body);
    });

    app.delete<{ Params: RequestParams }>(`${base}/:id/`, async (request, reply) => {
      const a = await access(request, ROLE.member);
      await deleteRequest(app.ctx, eventOrigin(request), a, request.params.id);
      return reply.status(204).send();
    });
  }

  app.get<{ Params: ProjectParams }>(`${PROJECT}/intake-state/`, async (request) => {
    const a = await access(request);
    return presentState(await intakeState(db, a));
  });

  app.get<{ Params: ProjectParams }>(`${PROJECT}/intake-count/`, async (request) => {
    const a = await access(request);
    return { pending_count: await pendingCount(db, a) };
  });
}
