/**
 * API tokens under /api/workspaces/:slug (calls-errors-sync §7 "GET, POST /api-tokens/; GET,
 * DELETE /api-tokens/{id}"; shapes: the reference's IApiToken):
 * - GET, POST /api-tokens/ — the caller's own tokens (never a secret); create answers the
 *   secret once, in `token`;
 * - GET, DELETE /api-tokens/:id/ — one of the caller's own tokens (anyone else's is 404).
 * Who: workspace admins (product-domain §6: the api-tokens settings screen is admin-only; the
 * reference lets members make tokens too). Members and guests get 403, non-members 404.
 * A token is used on /api/v1 (public-api/) as its user with that user's current roles.
 */
import { ROLE } from "@tideline/shared";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { parse } from "../../http/errors.ts";
import { workspaceAccess } from "../../policies/access.ts";
import { presentApiToken } from "./presenter.ts";
import { createApiTokenBody } from "./schema.ts";
import { createApiToken, deleteApiToken, getApiToken, listApiTokens } from "./service.ts";

type SlugParams = { slug: string };
type TokenParams = SlugParams & { id: string };

const BASE = "/api/workspaces/:slug/api-tokens";

export async function apiTokensRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const asAdmin = (request: FastifyRequest<{ Params: SlugParams }>) =>
    workspaceAccess(db, request, request.params.slug, ROLE.admin);

  app.get<{ Params: SlugParams }>(`${BASE}/`, async (request) => {
    const ws = await asAdmin(request);
    return (await listApiTokens(db, ws)).map((row) => presentApiToken(row));
  });

  app.post<{ Params: SlugParams }>(`${BASE}/`, async (request, reply) => {
    const ws = await asAdmin(request);
    const body = parse(createApiTokenBody, request.body);
    const { row, secret } = await createApiToken(db, ws, body);
    return reply.status(201).send(presentApiToken(row, secret));
  });

  app.get<{ Params: TokenParams }>(`${BASE}/:id/`, async (request) => {
    const ws = await asAdmin(request);
    return presentApiToken(await getApiToken(db, ws, request.params.id));
  });

  app.delete<{ Params: TokenParams }>(`${BASE}/:id/`, async (request, reply) => {
    const ws = await asAdmin(request);
    await deleteApiToken(db, ws, request.params.id);
    return reply.status(204).send();
  });
}
