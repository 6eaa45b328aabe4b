/**
 * Malformed input is a 400 (or the matching 4xx) with a clear message, never a 500, and stores
 * nothing (issue 9, security item 5): NUL and lone surrogates anywhere in a request
 * (http/input.ts), malformed or oversized bodies, and multipart bodies busboy cannot read.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, ORIGIN, type TestApp } from "../../test/harness.ts";
import { issueComments, projectUserProperties } from "../db/schema.ts";
import { countIssues, createFixture, createIssue, type Fixture } from "../routes/issues/test-support.ts";
import { databaseInputError, unstorableInput } from "./input.ts";

let t: TestApp;
let f: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
});

afterAll(async () => {
  await t?.close();
});

const admin = () => client(t.app, f.w.admin);

describe("NUL and lone surrogates", () => {
  it("refuse a NUL as a path parameter (the slug, an id) with 400 INVALID_INPUT, on every method", async () => {
    const patch = await admin().patch("/api/workspaces/%00/", { name: "x" });
    expect(patch.statusCode, patch.body).toBe(400);
    expect(patch.json()).toEqual({
      error: "Path parameter slug contains a NUL character.",
      code: "INVALID_INPUT",
      fields: { slug: ["Contains a NUL character."] },
    });
    const post = await admin().post(`/api/workspaces/${f.w.slug}%00/projects/`, { name: "x", identifier: "X" });
    expect(post.statusCode).toBe(400);
    expect(post.json().code).toBe("INVALID_INPUT");
    const get = await admin().get(`${f.project.url}/issues/ab%00cd/`);
    expect(get.statusCode).toBe(400);
    expect(get.json().fields).toEqual({ id: ["Contains a NUL character."] });
    const del = await admin().delete(`/api/workspaces/${f.w.slug}/projects/%00/`);
    expect(del.statusCode).toBe(400);
  });

  it("refuse a NUL in a body field, naming it, and store nothing", async () => {
    const before = await countIssues(t, f.project.id);
    const res = await admin().post(`${f.project.url}/issues/`, { name: "a\u0000b" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: "Field name contains a NUL character.",
      code: "INVALID_INPUT",
      fields: { name: ["Contains a NUL character."] },
    });
    const nested = await admin().post(`${f.project.url}/bulk-operation-issues/`, {
      issue_ids: [f.project.id],
      properties: { priority: "high\u0000" },
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().fields).toEqual({ "properties.priority": ["Contains a NUL character."] });
    expect(await countIssues(t, f.project.id)).toBe(before);
  });

  it("refuse a lone surrogate (it would be stored as U+FFFD) and store nothing", async () => {
    const item = await createIssue(t, f.w.admin, f.project.url);
    const res = await admin().post(`${f.project.url}/issues/${item.id}/comments/`, {
      comment_html: "<p>half an emoji \ud83d</p>",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "INVALID_INPUT", fields: { comment_html: [expect.any(String)] } });
    expect(res.json().error).toContain("lone surrogate");
    expect(await t.db.select().from(issueComments).where(eq(issueComments.issueId, item.id))).toEqual([]);
    // A whole emoji (a surrogate pair) is fine.
    const ok = await admin().post(`${f.project.url}/issues/${item.id}/comments/`, { comment_html: "<p>🚀</p>" });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("refuse a NUL in an object key (jsonb cannot store it) and keep the stored value", async () => {
    const url = `${f.project.url}/user-properties/`;
    expect((await admin().get(url)).statusCode).toBe(200);
    const before = await t.db
      .select()
      .from(projectUserProperties)
      .where(eq(projectUserProperties.projectId, f.project.id));
    const res = await admin().patch(url, { display_properties: { "key\u0000": true } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Field display_properties key "key\\u0000" contains a NUL character.');
    const after = await t.db
      .select()
      .from(projectUserProperties)
      .where(eq(projectUserProperties.projectId, f.project.id));
    expect(after).toEqual(before);
  });

  it("refuse a NUL in the query string", async () => {
    const res = await admin().get(`${f.project.url}/issues/?search=a%00b`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: "Query parameter search contains a NUL character.",
      code: "INVALID_INPUT",
    });
  });

  it("refuse a NUL in an HTML form post too", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/sign-in/",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      payload: "email=a%00@example.com&password=x",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("INVALID_INPUT");
  });

  it("refuse bodies nested deeper than 64 levels", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const res = await admin().post(`${f.project.url}/issues/`, { name: "deep", description_html: deep });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/nested more than 64 levels/);
  });

  it("finds the first problem in params, then query, then body", () => {
    expect(unstorableInput({ params: { a: "ok" }, query: {}, body: { list: ["ok", "\udc00x"] } })?.message).toBe(
      "Field list.1 is not well-formed Unicode (a lone surrogate).",
    );
    expect(unstorableInput({ params: { a: "ok" }, query: { q: "fine" }, body: { name: "🚀" } })).toBeNull();
  });
});

describe("bodies the parser cannot take", () => {
  it("answer 400 for malformed JSON, 415 for an unknown content type, 413 past the body limit", async () => {
    const url = `${f.project.url}/issues/`;
    const headers = { origin: ORIGIN, cookie: `session-id=${f.w.admin.token}` };
    const broken = await t.app.inject({
      method: "POST",
      url,
      headers: { ...headers, "content-type": "application/json" },
      payload: '{"name": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toMatch(/JSON/);
    const empty = await t.app.inject({
      method: "POST",
      url,
      headers: { ...headers, "content-type": "application/json" },
      payload: "",
    });
    expect(empty.statusCode).toBe(400);
    const xml = await t.app.inject({
      method: "POST",
      url,
      headers: { ...headers, "content-type": "application/xml" },
      payload: "<name>x</name>",
    });
    expect(xml.statusCode).toBe(415);
    const huge = await admin().post(url, { name: "x", description_html: "y".repeat(7 * 1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(await countIssues(t, f.project.id)).toBeGreaterThanOrEqual(0);
  });

  it("answer 400 for a multipart upload without a usable boundary or with a cut-off body", async () => {
    const post = (contentType: string, payload: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/assets/v2/upload/",
        headers: { origin: ORIGIN, "content-type": contentType },
        payload,
      });
    for (const contentType of [
      "multipart/form-data",
      "multipart/form-data; boundary=",
      `multipart/form-data; boundary=${"b".repeat(300)}`,
    ]) {
      const res = await post(contentType, "--x\r\n\r\n");
      expect(res.statusCode, contentType.slice(0, 40)).toBe(400);
      expect(res.json().code).toBe("INVALID_MULTIPART");
    }
    const cut = await post(
      "multipart/form-data; boundary=XyZ",
      '--XyZ\r\nContent-Disposition: form-data; name="key"\r\n\r\nvalue',
    );
    expect(cut.statusCode, cut.body).toBeGreaterThanOrEqual(400);
    expect(cut.statusCode, cut.body).toBeLessThan(500);
  });
});

describe("database errors caused by input", () => {
  it("are 400 INVALID_INPUT, found on the driver error Drizzle wraps", () => {
    for (const code of ["22021", "22P02", "22007", "22008", "22003", "22P05", "54000"]) {
      const wrapped = Object.assign(new Error("Failed query"), { cause: Object.assign(new Error("x"), { code }) });
      expect(databaseInputError(wrapped)?.status, code).toBe(400);
      expect(databaseInputError(wrapped)?.code).toBe("INVALID_INPUT");
    }
    expect(databaseInputError(Object.assign(new Error("dup"), { code: "23505" }))).toBeNull();
    expect(databaseInputError(new Error("boom"))).toBeNull();
  });
});
