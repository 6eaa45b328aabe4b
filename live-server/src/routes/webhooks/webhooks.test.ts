/**
 * Webhooks API (calls-errors-sync §7; product-domain §6 admin-only settings): every call's
 * success, 401 signed out, 404 for another workspace's webhook and for non-members, 403 for
 * members and guests, 400 (409 for a duplicate URL) with nothing stored; the secret only in the
 * create and regenerate answers; URL checks with WEBHOOK_ALLOW_PRIVATE off.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { jobs, webhookLogs, webhooks } from "../../db/schema.ts";
import { createWorld, type World } from "../projects/test-support.ts";

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const base = (slug = w.slug) => `/api/workspaces/${slug}/webhooks/`;
const as = (user: World["admin"] | null) => client(t.app, user);
let n = 0;
const hookUrl = () => `https://hooks.example.com/tideline/${n++}`;

async function create(body: Record<string, unknown> = {}, slug = w.slug, user = w.admin) {
  const res = await as(user).post(base(slug), { url: hookUrl(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const stored = async () => (await t.db.select().from(webhooks).where(eq(webhooks.workspaceId, w.workspaceId))).length;
const storedRow = async (id: string) => (await t.db.select().from(webhooks).where(eq(webhooks.id, id)))[0];

describe("POST /webhooks/", () => {
  it("creates a webhook in the reference's shape with its secret, shown this once", async () => {
    const url = hookUrl();
    const res = await as(w.admin).post(base(), {
      url,
      project: true,
      issue: true,
      module: false,
      cycle: true,
      issue_comment: true,
      // unknown keys the reference's client may send are dropped
      workspace: "x",
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      url,
      is_active: true,
      project: true,
      issue: true,
      module: false,
      cycle: true,
      issue_comment: true,
      intake: false,
      failing: false,
      last_failure_at: null,
      last_failure_reason: null,
    });
    expect(body.secret_key).toMatch(/^tideline_wh_[0-9a-f]{48}$/);
    expect(typeof body.created_at).toBe("string");

    const list = await as(w.admin).get(base());
    expect(list.statusCode).toBe(200);
    const listed = list.json().find((h: { id: string }) => h.id === body.id);
    expect(listed).toMatchObject({ url, project: true });
    expect(listed).not.toHaveProperty("secret_key");
    for (const h of list.json()) expect(h).not.toHaveProperty("secret_key");

    const one = await as(w.admin).get(`${base()}${body.id}/`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).not.toHaveProperty("secret_key");
    expect(one.json().id).toBe(body.id);
  });

  it("lists newest first", async () => {
    const a = await create();
    const b = await create();
    const ids = (await as(w.admin).get(base())).json().map((h: { id: string }) => h.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
  });

  it("refuses bad input with a 400 naming the field and stores nothing", async () => {
    const before = await stored();
    for (const [body, field] of [
      [{}, "url"],
      [{ url: "" }, "url"],
      [{ url: 42 }, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "ftp://example.com/x" }, "url"],
      [{ url: "javascript:alert(1)" }, "url"],
      [{ url: "https://user:pw@example.com/x" }, "url"],
      [{ url: `https://example.com/${"a".repeat(1100)}` }, "url"],
      [{ url: hookUrl(), issue: "yes" }, "issue"],
      [{ url: hookUrl(), is_active: 1 }, "is_active"],
    ] as const) {
      const res = await as(w.admin).post(base(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields).toHaveProperty(field);
      expect(res.json().error).toBeTruthy();
    }
    expect(await stored()).toBe(before);
  });

  it("refuses addresses the server must not call (WEBHOOK_ALLOW_PRIVATE off), storing nothing", async () => {
    const before = await stored();
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://10.0.0.1/hook",
      "http://192.168.1.10/hook",
      "http://172.16.5.4/hook",
      "http://100.64.0.1/hook",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]:3000/hook",
      "http://[fd00:ec2::254]/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
      "http://224.0.0.1/",
      "http://localhost:3000/hook",
    ]) {
      const res = await as(w.admin).post(base(), { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe("INVALID_WEBHOOK_URL");
      expect(res.json().error).toMatch(/not allowed/);
    }
    expect(await stored()).toBe(before);
  });

  it("refuses a URL the workspace already has (409, as the reference), another workspace may use it", async () => {
    const first = await create();
    const before = await stored();
    const res = await as(w.admin).post(base(), { url: first.url });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("URL already exists for the workspace");
    expect(await stored()).toBe(before);
    await create({ url: first.url }, w.otherSlug, w.stranger);
  });

  it("401 signed out, 403 for members and guests, 404 for non-members", async () => {
    const before = await stored();
    expect((await as(null).post(base(), { url: hookUrl() })).statusCode).toBe(401);
    expect((await as(w.member).post(base(), { url: hookUrl() })).statusCode).toBe(403);
    expect((await as(w.guest).post(base(), { url: hookUrl() })).statusCode).toBe(403);
    expect((await as(w.stranger).post(base(), { url: hookUrl() })).statusCode).toBe(404);
    expect((await as(null).get(base())).statusCode).toBe(401);
    expect((await as(w.member).get(base())).statusCode).toBe(403);
    expect((await as(w.guest).get(base())).statusCode).toBe(403);
    expect((await as(w.stranger).get(base())).statusCode).toBe(404);
    expect(await stored()).toBe(before);
  });
});

describe("GET, PATCH, DELETE /webhooks/:id/", () => {
  it("updates the URL, the active flag and the events; a bad change stores nothing", async () => {
    const hook = await create({ issue: true });
    const url = hookUrl();
    const res = await as(w.admin).patch(`${base()}${hook.id}/`, { url, is_active: false, intake: true, cycle: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ url, is_active: false, intake: true, cycle: true, issue: true });
    expect(res.json()).not.toHaveProperty("secret_key");

    const other = await create();
    const snapshot = await storedRow(hook.id);
    for (const [body, status] of [
      [{ url: "gopher://x" }, 400],
      [{ url: "http://10.1.2.3/" }, 400],
      [{ issue: "no" }, 400],
      [{ url: other.url }, 409],
    ] as const) {
      const bad = await as(w.admin).patch(`${base()}${hook.id}/`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(status);
    }
    expect(await storedRow(hook.id)).toEqual(snapshot);
  });

  it("answers 401, 403 and 404 (another workspace's webhook, a non-member, a bad id)", async () => {
    const hook = await create();
    const theirs = await create({}, w.otherSlug, w.stranger);
    const snapshot = await storedRow(hook.id);
    const one = `${base()}${hook.id}/`;
    expect((await as(null).get(one)).statusCode).toBe(401);
    expect((await as(null).patch(one, { is_active: false })).statusCode).toBe(401);
    expect((await as(null).delete(one)).statusCode).toBe(401);
    for (const user of [w.member, w.guest]) {
      expect((await as(user).get(one)).statusCode).toBe(403);
      expect((await as(user).patch(one, { is_active: false })).statusCode).toBe(403);
      expect((await as(user).delete(one)).statusCode).toBe(403);
    }
    expect((await as(w.stranger).get(one)).statusCode).toBe(404);
    expect((await as(w.stranger).patch(`${base(w.otherSlug)}${hook.id}/`, { is_active: false })).statusCode).toBe(404);
    // Their webhook through our workspace
    const cross = `${base()}${theirs.id}/`;
    expect((await as(w.admin).get(cross)).statusCode).toBe(404);
    expect((await as(w.admin).patch(cross, { is_active: false })).statusCode).toBe(404);
    expect((await as(w.admin).delete(cross)).statusCode).toBe(404);
    expect((await as(w.admin).post(`${cross}regenerate/`)).statusCode).toBe(404);
    expect((await as(w.admin).get(`${cross}logs/`)).statusCode).toBe(404);
    expect((await as(w.admin).get(`${base()}not-a-uuid/`)).statusCode).toBe(404);
    expect(await storedRow(hook.id)).toEqual(snapshot);
    expect((await storedRow(theirs.id))?.isActive).toBe(true);
  });

  it("deletes a webhook (204), then it is gone", async () => {
    const hook = await create();
    const res = await as(w.admin).delete(`${base()}${hook.id}/`);
    expect(res.statusCode).toBe(204);
    expect(await storedRow(hook.id)).toBeUndefined();
    expect((await as(w.admin).get(`${base()}${hook.id}/`)).statusCode).toBe(404);
    expect((await as(w.admin).delete(`${base()}${hook.id}/`)).statusCode).toBe(404);
  });
});

describe("POST /webhooks/:id/regenerate/", () => {
  it("answers a new secret once; 401, 403, 404 change nothing", async () => {
    const hook = await create();
    const path = `${base()}${hook.id}/regenerate/`;
    expect((await as(null).post(path)).statusCode).toBe(401);
    expect((await as(w.member).post(path)).statusCode).toBe(403);
    expect((await as(w.guest).post(path)).statusCode).toBe(403);
    expect((await as(w.stranger).post(path)).statusCode).toBe(404);
    expect((await storedRow(hook.id))?.secretKey).toBe(hook.secret_key);

    const res = await as(w.admin).post(path);
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(hook.id);
    expect(res.json().secret_key).toMatch(/^tideline_wh_/);
    expect(res.json().secret_key).not.toBe(hook.secret_key);
    expect((await storedRow(hook.id))?.secretKey).toBe(res.json().secret_key);
  });
});

describe("GET /webhooks/:id/logs/ and redeliver", () => {
  it("pages the log newest first; 401, 403, 404, 400 on a bad cursor", async () => {
    const hook = await create();
    const rows = Array.from({ length: 3 }, (_, i) => ({
      workspaceId: w.workspaceId,
      webhookId: hook.id,
      deliveryId: crypto.randomUUID(),
      event: "issue",
      action: "updated",
      status: i === 2 ? "failed" : "success",
      attempt: 1,
      durationMs: 12,
      responseStatus: i === 2 ? 500 : 200,
      responseBody: "ok",
      error: i === 2 ? "The receiver answered 500" : null,
      requestBody: `{"n":${i}}`,
      createdAt: new Date(Date.now() - (3 - i) * 1000),
    }));
    await t.db.insert(webhookLogs).values(rows);
    const path = `${base()}${hook.id}/logs/`;
    const first = await as(w.admin).get(`${path}?per_page=2`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ total_results: 3, count: 2, next_page_results: true, next_cursor: "2:1:0" });
    expect(first.json().results[0]).toMatchObject({
      status: "failed",
      response_status: 500,
      error: "The receiver answered 500",
      event: "issue",
      action: "updated",
      attempt: 1,
      duration_ms: 12,
      request_body: '{"n":2}',
    });
    const second = await as(w.admin).get(`${path}?cursor=2:1:0`);
    expect(second.json().results.map((r: { request_body: string }) => r.request_body)).toEqual(['{"n":0}']);
    expect((await as(w.admin).get(`${path}?cursor=bad`)).statusCode).toBe(400);
    expect((await as(null).get(path)).statusCode).toBe(401);
    expect((await as(w.member).get(path)).statusCode).toBe(403);
    expect((await as(w.stranger).get(path)).statusCode).toBe(404);
  });

  it("redeliver queues the same body; 401, 403, 404 and a switched-off webhook queue nothing", async () => {
    const hook = await create();
    const [log] = await t.db
      .insert(webhookLogs)
      .values({
        workspaceId: w.workspaceId,
        webhookId: hook.id,
        deliveryId: crypto.randomUUID(),
        event: "issue",
        action: "created",
        status: "failed",
        attempt: 1,
        durationMs: 5,
        error: "The receiver answered 500",
        requestBody: '{"event":"issue"}',
      })
      .returning();
    const path = `${base()}${hook.id}/logs/${log?.id}/redeliver/`;
    expect((await as(null).post(path)).statusCode).toBe(401);
    expect((await as(w.member).post(path)).statusCode).toBe(403);
    expect((await as(w.stranger).post(path)).statusCode).toBe(404);
    expect((await as(w.admin).post(`${base()}${hook.id}/logs/${crypto.randomUUID()}/redeliver/`)).statusCode).toBe(404);
    await as(w.admin).patch(`${base()}${hook.id}/`, { is_active: false });
    const off = await as(w.admin).post(path);
    expect(off.statusCode).toBe(400);
    expect(off.json().code).toBe("WEBHOOK_INACTIVE");
    await as(w.admin).patch(`${base()}${hook.id}/`, { is_active: true });
    const res = await as(w.admin).post(path);
    expect(res.statusCode).toBe(202);
    expect(res.json().delivery_id).toMatch(/^[0-9a-f-]{36}$/);
    const [job] = await t.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'delivery_id' = ${res.json().delivery_id}`);
    expect(job?.payload).toMatchObject({
      webhook_id: hook.id,
      body: '{"event":"issue"}',
      event: "issue",
      action: "created",
    });
  });
});
