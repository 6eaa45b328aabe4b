import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document of every public route, served without a key", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.ApiKeyAuth).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
    const paths = Object.keys(doc.paths);
    for (const path of [
      "/api/v1/workspaces/{slug}/projects/",
      "/api/v1/workspaces/{slug}/projects/{projectId}/issues/{issueId}/",
      "/api/v1/workspaces/{slug}/issues/{identifier}/",
      "/api/v1/workspaces/{slug}/projects/{projectId}/issues/{issueId}/comments/",
      "/api/v1/workspaces/{slug}/projects/{projectId}/cycles/{cycleId}/cycle-issues/",
      "/api/v1/workspaces/{slug}/projects/{projectId}/modules/{moduleId}/module-issues/",
      "/api/v1/workspaces/{slug}/projects/{projectId}/intake-issues/{id}/",
    ]) {
      expect(paths).toContain(path);
    }
    // Request bodies come from the routes' zod schemas.
    const create = doc.paths["/api/v1/workspaces/{slug}/projects/{projectId}/issues/"].post;
    const schema = create.requestBody.content["application/json"].schema;
    expect(schema.required).toContain("name");
    expect(schema.properties.priority.enum).toEqual(expect.arrayContaining(["urgent", "none"]));
  });
});
