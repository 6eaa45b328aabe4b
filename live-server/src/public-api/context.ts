/** What every /api/v1 route module gets: the app, its context and the OpenAPI registry. */
import type { FastifyInstance } from "fastify";
import type { OpenApiRegistry } from "./openapi.ts";

export type V1 = { app: FastifyInstance; docs: OpenApiRegistry };

export const V1_PREFIX = "/api/v1";
export const WS = `${V1_PREFIX}/workspaces/:slug`;
export const PROJECT = `${WS}/projects/:projectId`;

export type SlugParams = { slug: string };
export type ProjectParams = SlugParams & { projectId: string };
