import { ROLE } from "@tideline/shared";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { sha256 } from "../../auth/crypto.ts";
import { apiTokens, workspaceMembers } from "../../db/schema.ts";
import { createWorld, type World } from "../projects/test-support.ts";

let t: TestApp;
let w: World;
const url = (slug = w.slug) => `/api/workspaces/${slug}/api-tokens`;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

async function tokenCount(workspaceId = w.workspaceId) {
  const [row] = await t.db.select({ n: count() }).from(apiTokens).where(eq(apiTokens.workspaceId, workspaceId));
  return row?.n ?? 0;
}

describe("API tokens", () => {
  it("creates a token whose secret is shown once and stored only as a hash", async () => {
    const res = await client(t.app, w.admin).post(`${url()}/`, {
      label: "CI bot",
      description: "nightly sync",
      expired_at: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      label: "CI bot",
      description: "nightly sync",
      expired_at: null,
      is_active: true,
      last_used: null,
      user: w.admin.id,
      user_type: 0,
      workspace: w.workspaceId,
    });
    expect(body.token).toMatch(/^tideline_api_[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, body.id));
    expect(row?.tokenHash).toBe(sha256(body.token));
    expect(JSON.stringify(row)).not.toContain(body.token);

    const list = await client(t.app, w.admin).get(`${url()}/`);
    expect(list.statusCode).toBe(200);
    const listed = list.json().find((x: { id: string }) => x.id === body.id);
    expect(listed).toMatchObject({ label: "CI bot", is_active: true });
    expect(listed).not.toHaveProperty("token");
    const one = await client(t.app, w.admin).get(`${url()}/${body.id}/`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).not.toHaveProperty("token");
  });

  it("takes an expiry date (a date or a date-time) and defaults the label", async () => {
    const future = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const a = await client(t.app, w.admin).post(`${url()}/`, { label: "week", expired_at: future });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().expired_at).toBe(future);
    const b = await client(t.app, w.admin).post(`${url()}/`, { expired_at: "2999-01-31" });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().label).toMatch(/^[0-9a-f]{32}$/);
    expect(b.json().expired_at).toBe("2999-01-31T23:59:59.999Z");
  });

  it("refuses bad input with a 400 and stores nothing", async () => {
    const before = await tokenCount();
    for (const body of [
      { label: "" },
      { label: "x".repeat(256) },
      { label: 5 },
      { label: "past", expired_at: "2001-01-01T00:00:00Z" },
      { label: "bad date", expired_at: "tomorrow" },
      { label: "desc", description: ["no"] },
    ]) {
      const res = await client(t.app, w.admin).post(`${url()}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBeTruthy();
    }
    expect(await tokenCount()).toBe(before);
  });

  it("401 signed out, 403 below admin, 404 outside the workspace", async () => {
    expect((await client(t.app).get(`${url()}/`)).statusCode).toBe(401);
    expect((await client(t.app).post(`${url()}/`, { label: "x" })).statusCode).toBe(401);
    const before = await tokenCount();
    for (const user of [w.member, w.guest]) {
      expect((await client(t.app, user).get(`${url()}/`)).statusCode).toBe(403);
      expect((await client(t.app, user).post(`${url()}/`, { label: "x" })).statusCode).toBe(403);
    }
    expect((await client(t.app, w.stranger).get(`${url()}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).post(`${url()}/`, { label: "x" })).statusCode).toBe(404);
    expect(await tokenCount()).toBe(before);
  });

  it("a user sees and deletes only their own tokens, and only in that workspace", async () => {
    const mine = (await client(t.app, w.admin).post(`${url()}/`, { label: "mine" })).json();
    // A second admin of the workspace.
    await t.db
      .update(workspaceMembers)
      .set({ role: ROLE.admin })
      .where(and(eq(workspaceMembers.workspaceId, w.workspaceId), eq(workspaceMembers.memberId, w.outsider.id)));
    const theirs = await client(t.app, w.outsider).get(`${url()}/`);
    expect(theirs.json().map((x: { id: string }) => x.id)).not.toContain(mine.id);
    expect((await client(t.app, w.outsider).get(`${url()}/${mine.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.outsider).delete(`${url()}/${mine.id}/`)).statusCode).toBe(404);
    // The stranger's own workspace does not hold it either.
    expect((await client(t.app, w.stranger).get(`${url(w.otherSlug)}/${mine.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.stranger).delete(`${url(w.otherSlug)}/${mine.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.admin).get(`${url()}/not-a-uuid/`)).statusCode).toBe(404);
    const [still] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, mine.id));
    expect(still).toBeDefined();

    const del = await client(t.app, w.admin).delete(`${url()}/${mine.id}/`);
    expect(del.statusCode).toBe(204);
    expect((await client(t.app, w.admin).get(`${url()}/${mine.id}/`)).statusCode).toBe(404);
  });
});
