/**
 * The OpenAPI 3.1 document of /api/v1, generated from the routes as they are registered:
 * each route declares its summary, tag and the zod schemas it parses (body, query), turned into
 * JSON Schema with zod's own toJSONSchema. Validation stays in the handlers (zod, the same 400s
 * as the rest of the API); this only describes them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import { z } from "zod";

export type Method = "get" | "post" | "patch" | "put" | "delete";

export type RouteDoc = {
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Status of success (200 unless told). */
  status?: number;
  /** The answer is a cursor page (paginate.ts). */
  paginated?: boolean;
  /** The answer is empty (204). */
  empty?: boolean;
};

type Registered = RouteDoc & { method: Method; url: string };

export class OpenApiRegistry {
  readonly routes: Registered[] = [];

  /** Register `handler` on `app` and remember its description. */
  add<P>(
    app: FastifyInstance,
    method: Method,
    url: string,
    doc: RouteDoc,
    handler: (
      request: FastifyRequest<{ Params: P; Querystring: Record<string, unknown> }>,
      reply: FastifyReply,
    ) => unknown,
  ): void {
    this.routes.push({ ...doc, method, url });
    app[method](url, handler as unknown as RouteHandlerMethod);
  }

  /** The whole document. */
  document(serverUrl: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const path = r.url.replace(/:([A-Za-z_]+)/g, "{$1}");
      const params = [...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
        name: m[1],
        in: "path",
        required: true,
        schema: { type: "string" },
      }));
      const query = r.query ? queryParams(r.query) : [];
      if (r.paginated) {
        query.push(
          {
            name: "cursor",
            in: "query",
            required: false,
            schema: { type: "string" },
            description: "per_page:page:is_prev",
          },
          { name: "per_page", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 1000 } },
        );
      }
      const status = String(r.empty ? 204 : (r.status ?? 200));
      const op: Record<string, unknown> = {
        operationId: `${r.method}_${path
          .replace(/[{}]/g, "")
          .replace(/[^A-Za-z0-9]+/g, "_")
          .replace(/^_|_$/g, "")}`,
        summary: r.summary,
        tags: [r.tag],
        security: [{ ApiKeyAuth: [] }],
        parameters: [...params, ...query],
        responses: {
          [status]: r.empty
            ? { description: "No content" }
            : {
                description: "OK",
                content: {
                  "application/json": {
                    schema: r.paginated ? { $ref: "#/components/schemas/Page" } : { type: "object" },
                  },
                },
              },
          "400": errorResponse("Invalid input"),
          "401": errorResponse("Missing, unknown, revoked or expired API key"),
          "403": errorResponse("The token's user may not do this"),
          "404": errorResponse("Not found (or not in the token's workspace)"),
          "429": errorResponse("Rate limit reached"),
        },
      };
      if (r.body) {
        op.requestBody = {
          required: true,
          content: { "application/json": { schema: toSchema(r.body) } },
        };
      }
      paths[path] ??= {};
      (paths[path] as Record<string, unknown>)[r.method] = op;
    }
    return {
      openapi: "3.1.0",
      info: {
        title: "Tideline public API",
        version: "1",
        description:
          "Workspaces, projects, work items, cycles, modules and intake, authenticated with a personal API token " +
          "(Settings → API tokens) sent in the X-API-Key header. Rate limited per token (X-RateLimit-* headers).",
      },
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: { ApiKeyAuth: { type: "apiKey", in: "header", name: "X-API-Key" } },
        schemas: {
          Error: {
            type: "object",
            properties: { error: { type: "string" }, detail: { type: "string" }, code: { type: "string" } },
          },
          Page: {
            type: "object",
            properties: {
              next_cursor: { type: "string" },
              prev_cursor: { type: "string" },
              next_page_results: { type: "boolean" },
              prev_page_results: { type: "boolean" },
              count: { type: "integer" },
              total_pages: { type: "integer" },
              total_results: { type: "integer" },
              extra_stats: { type: ["object", "null"] },
              results: { type: "array", items: { type: "object" } },
            },
          },
        },
      },
      paths,
    };
  }
}

function errorResponse(description: string) {
  return { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
}

function toSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function queryParams(schema: z.ZodType) {
  const json = toSchema(schema);
  const props = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: "query",
    required: false,
    schema: s,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
  }));
}
