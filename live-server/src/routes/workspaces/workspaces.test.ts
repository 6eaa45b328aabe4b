import { ROLE } from "@tideline/shared";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createUser, createWorkspace, type TestApp } from "../../../test/harness.ts";
import { userProfiles, workspaceMembers, workspaces } from "../../db/schema.ts";
import { countMembers } from "./test-fixtures.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function countWorkspaces() {
  const [row] = await t.db.select({ n: count() }).from(workspaces);
  return row?.n ?? 0;
}

async function profileOf(userId: string) {
  const [row] = await t.db.select().from(userProfiles).where(eq(userProfiles.userId, userId));
  return row;
}

describe("POST /api/workspaces/", () => {
  it("creates the workspace with the creator as admin and remembers it as their last workspace", async () => {
    const user = await createUser(t.db);
    const res = await client(t.app, user).post("/api/workspaces/", {
      name: "Acme Inc.",
      slug: "Acme-Inc",
      organization_size: "2-10",
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ name: "Acme Inc.", slug: "acme-inc", organization_size: "2-10", role: ROLE.admin });
    expect(body.owner.id).toBe(user.id);
    const [membership] = await t.db.select().from(workspaceMembers).where(eq(workspaceMembers.workspaceId, body.id));
    expect(membership).toMatchObject({ memberId: user.id, role: ROLE.admin, isActive: true });
    expect((await profileOf(user.id))?.lastWorkspaceId).toBe(body.id);

    // A second workspace does not move the landing place.
    const second = await client(t.app, user).post("/api/workspaces/", {
      name: "Second",
      slug: "acme-second",
      organization_size: "Just myself",
    });
    expect(second.statusCode).toBe(201);
    expect((await profileOf(user.id))?.lastWorkspaceId).toBe(body.id);
  });

  it("refuses a reserved slug with SLUG_RESERVED and a taken one with 409 SLUG_TAKEN, storing nothing", async () => {
    const user = await createUser(t.db);
    await createWorkspace(t.db, user, [], { slug: "taken-slug" });
    const before = await countWorkspaces();
    const reserved = await client(t.app, user).post("/api/workspaces/", {
      name: "API",
      slug: "api",
      organization_size: "2-10",
    });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().code).toBe("SLUG_RESERVED");
    expect(reserved.json().error).toMatch(/reserved.*Choose another/);
    const taken = await client(t.app, user).post("/api/workspaces/", {
      name: "Taken",
      slug: "Taken-Slug",
      organization_size: "2-10",
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe("SLUG_TAKEN");
    expect(await countWorkspaces()).toBe(before);
  });

  it("refuses bad input (400) and anonymous callers (401), storing nothing", async () => {
    const user = await createUser(t.db);
    const before = await countWorkspaces();
    const cases = [
      { name: "", slug: "fine-slug", organization_size: "2-10" },
      { name: "X", slug: "-bad-", organization_size: "2-10" },
      { name: "X", slug: "has space", organization_size: "2-10" },
      { name: "X", slug: "fine-slug", organization_size: "huge" },
      { name: 5, slug: "fine-slug", organization_size: "2-10" },
      { name: "X", organization_size: "2-10" },
    ];
    for (const body of cases) {
      const res = await client(t.app, user).post("/api/workspaces/", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const anon = await client(t.app).post("/api/workspaces/", {
      name: "X",
      slug: "anon-ws",
      organization_size: "2-10",
    });
    expect(anon.statusCode).toBe(401);
    expect(await countWorkspaces()).toBe(before);
    expect((await profileOf(user.id))?.lastWorkspaceId).toBeNull();
  });
});

describe("GET /api/workspace-slug-check/", () => {
  it("says available for a free slug and unavailable for taken, reserved or invalid ones", async () => {
    const user = await createUser(t.db);
    await createWorkspace(t.db, user, [], { slug: "already-here" });
    const c = client(t.app, user);
    expect((await c.get("/api/workspace-slug-check/?slug=brand-new")).json()).toEqual({ status: true });
    expect((await c.get("/api/workspace-slug-check/?slug=already-here")).json()).toEqual({ status: false });
    expect((await c.get("/api/workspace-slug-check/?slug=Already-Here")).json()).toEqual({ status: false });
    expect((await c.get("/api/workspace-slug-check/?slug=god-mode")).json()).toEqual({ status: false });
    expect((await c.get("/api/workspace-slug-check/?slug=no%20spaces")).json()).toEqual({ status: false });
    expect((await c.get("/api/workspace-slug-check/")).statusCode).toBe(400);
    expect((await client(t.app).get("/api/workspace-slug-check/?slug=brand-new")).statusCode).toBe(401);
  });
});

describe("GET /api/workspaces/:slug/", () => {
  it("is readable by every member, guests included, with the caller's role", async () => {
    const owner = await createUser(t.db);
    const guest = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: guest, role: ROLE.guest }]);
    const res = await client(t.app, guest).get(`/api/workspaces/${ws.slug}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ws.id, slug: ws.slug, name: ws.name, role: ROLE.guest, total_members: 2 });
    expect(res.json().owner).toMatchObject({ id: owner.id });
    expect(res.json().owner.email).toBeUndefined();
  });

  it("is 404 for a user of another workspace and for an unknown slug, 401 anonymous", async () => {
    const owner = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner);
    await createWorkspace(t.db, outsider);
    expect((await client(t.app, outsider).get(`/api/workspaces/${ws.slug}/`)).statusCode).toBe(404);
    expect((await client(t.app, outsider).get("/api/workspaces/nope-nope/")).statusCode).toBe(404);
    expect((await client(t.app).get(`/api/workspaces/${ws.slug}/`)).statusCode).toBe(401);
  });
});

describe("PATCH /api/workspaces/:slug/", () => {
  it("lets an admin change name, logo, size and time zone", async () => {
    const owner = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner);
    const res = await client(t.app, owner).patch(`/api/workspaces/${ws.slug}/`, {
      name: "Renamed",
      logo_url: "/api/assets/v2/workspaces/x/logo/",
      logo_props: { in_use: "emoji", emoji: { value: "128640" } },
      organization_size: "11-50",
      timezone: "Europe/Paris",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Renamed",
      slug: ws.slug,
      logo_url: "/api/assets/v2/workspaces/x/logo/",
      logo_props: { in_use: "emoji", emoji: { value: "128640" } },
      organization_size: "11-50",
      timezone: "Europe/Paris",
    });
  });

  it("refuses members and guests (403), outsiders (404) and anonymous callers (401)", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const guest = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [
      { user: member, role: ROLE.member },
      { user: guest, role: ROLE.guest },
    ]);
    const url = `/api/workspaces/${ws.slug}/`;
    expect((await client(t.app, member).patch(url, { name: "Nope" })).statusCode).toBe(403);
    expect((await client(t.app, guest).patch(url, { name: "Nope" })).statusCode).toBe(403);
    expect((await client(t.app, outsider).patch(url, { name: "Nope" })).statusCode).toBe(404);
    expect((await client(t.app).patch(url, { name: "Nope" })).statusCode).toBe(401);
    const [row] = await t.db.select().from(workspaces).where(eq(workspaces.id, ws.id));
    expect(row?.name).toBe(ws.name);
  });

  it("refuses a slug change and bad values (400), changing nothing", async () => {
    const owner = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner);
    const url = `/api/workspaces/${ws.slug}/`;
    const slug = await client(t.app, owner).patch(url, { slug: "new-slug" });
    expect(slug.statusCode).toBe(400);
    expect(slug.json().fields.slug).toBeDefined();
    for (const body of [
      { name: "" },
      { timezone: "Mars/Olympus" },
      { organization_size: "1000000" },
      { logo_url: "javascript:alert(1)" },
      { logo_props: { in_use: "photo" } },
      { name: ["Ok"] },
    ]) {
      expect((await client(t.app, owner).patch(url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const [row] = await t.db.select().from(workspaces).where(eq(workspaces.id, ws.id));
    expect(row).toMatchObject({ name: ws.name, slug: ws.slug, timezone: "UTC", logoUrl: null });
  });
});

describe("DELETE /api/workspaces/:slug/", () => {
  it("lets an admin delete the workspace, its memberships and clears last_workspace_id pointing at it", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: member, role: ROLE.member }]);
    await t.db.update(userProfiles).set({ lastWorkspaceId: ws.id }).where(eq(userProfiles.userId, member.id));
    const res = await client(t.app, owner).delete(`/api/workspaces/${ws.slug}/`);
    expect(res.statusCode).toBe(204);
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, ws.id))).toHaveLength(0);
    expect(await countMembers(t.db, ws.id)).toBe(0);
    expect((await profileOf(member.id))?.lastWorkspaceId).toBeNull();
    expect((await client(t.app, owner).get(`/api/workspaces/${ws.slug}/`)).statusCode).toBe(404);
  });

  it("refuses members (403), outsiders (404) and anonymous callers (401), keeping the workspace", async () => {
    const owner = await createUser(t.db);
    const member = await createUser(t.db);
    const outsider = await createUser(t.db);
    const ws = await createWorkspace(t.db, owner, [{ user: member, role: ROLE.member }]);
    const url = `/api/workspaces/${ws.slug}/`;
    expect((await client(t.app, member).delete(url)).statusCode).toBe(403);
    expect((await client(t.app, outsider).delete(url)).statusCode).toBe(404);
    expect((await client(t.app).delete(url)).statusCode).toBe(401);
    expect(await t.db.select().from(workspaces).where(eq(workspaces.id, ws.id))).toHaveLength(1);
    expect(await countMembers(t.db, ws.id)).toBe(2);
  });
});
