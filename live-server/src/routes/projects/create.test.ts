import {
  DEFAULT_STATES,
  isProjectFeatureAvailable,
  NETWORK,
  PROJECT_COVERS,
  PROJECT_FEATURES,
  type ProjectFeature,
  ROLE,
} from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, createUser, type TestApp } from "../../../test/harness.ts";
import { projectMembers, projects, states } from "../../db/schema.ts";
import {
  countProjects,
  countStates,
  createProject,
  createWorld,
  membershipOf,
  uniqueIdentifier,
  uniqueName,
  type World,
} from "./test-support.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

const url = () => `/api/workspaces/${w.slug}/projects/`;

describe("POST /projects/", () => {
  it("creates the project with its creator as admin and the five default states", async () => {
    const res = await client(t.app, w.member).post(url(), {
      name: "Apollo",
      identifier: "apo",
      description: "To the moon",
      network: NETWORK.private,
      cover_image: PROJECT_COVERS[0],
      logo_props: { in_use: "emoji", emoji: { value: "🚀" } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: "Apollo",
      identifier: "APO",
      description: "To the moon",
      network: NETWORK.private,
      cover_image: PROJECT_COVERS[0],
      logo_props: { in_use: "emoji", emoji: { value: "🚀" } },
      is_member: true,
      member_role: ROLE.admin,
      is_favorite: false,
      archived_at: null,
      project_lead: null,
      total_members: 1,
      members: [w.member.id],
      timezone: "UTC",
      archive_in: 0,
      close_in: 0,
      guest_view_all_features: false,
      // The stored defaults, as reported: a feature the product does not have yet reads off.
      ...Object.fromEntries(
        Object.entries(PROJECT_FEATURES).map(([key, on]) => [
          key,
          on && isProjectFeatureAvailable(key as ProjectFeature),
        ]),
      ),
    });
    expect(typeof body.created_at).toBe("string");
    expect(typeof body.sort_order).toBe("number");

    const rows = await t.db.select().from(states).where(eq(states.projectId, body.id));
    expect(rows.map((s) => s.name).sort()).toEqual(DEFAULT_STATES.map((s) => s.name).sort());
    expect(rows.filter((s) => s.isDefault).map((s) => s.name)).toEqual(["Backlog"]);
    expect(rows.every((s) => s.workspaceId === w.workspaceId)).toBe(true);
    expect(new Set(rows.map((s) => s.group))).toEqual(
      new Set(["backlog", "unstarted", "started", "completed", "cancelled"]),
    );

    const creator = await membershipOf(t, body.id, w.member.id);
    expect(creator).toMatchObject({ role: ROLE.admin, isActive: true, workspaceId: w.workspaceId });
  });

  it("defaults to a public project with an empty description", async () => {
    const res = await client(t.app, w.admin).post(url(), { name: uniqueName(), identifier: uniqueIdentifier() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ network: NETWORK.public, description: "", cover_image: null, logo_props: {} });
  });

  it('sanitises the identifier ("my proj!" → "MYPROJ")', async () => {
    const res = await client(t.app, w.admin).post(url(), { name: uniqueName(), identifier: "my proj!" });
    expect(res.statusCode).toBe(201);
    expect(res.json().identifier).toBe("MYPROJ");
    expect((await t.db.select().from(projects).where(eq(projects.id, res.json().id)))[0]?.identifier).toBe("MYPROJ");
  });

  it("adds the lead as a member at their workspace role, once", async () => {
    const asLead = await createProject(t, w.admin, w.slug, { project_lead: w.member.id });
    expect(await membershipOf(t, asLead.id, w.member.id)).toMatchObject({ role: ROLE.member, isActive: true });
    const guestLead = await createProject(t, w.admin, w.slug, { project_lead: w.guest.id });
    expect(await membershipOf(t, guestLead.id, w.guest.id)).toMatchObject({ role: ROLE.guest });

    const self = await createProject(t, w.admin, w.slug, { project_lead: w.admin.id });
    const rows = await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, self.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.role).toBe(ROLE.admin);
  });

  it("puts the newest project first in the creator's list", async () => {
    const a = await createProject(t, w.outsider, w.slug, { network: NETWORK.private });
    const b = await createProject(t, w.outsider, w.slug, { network: NETWORK.private });
    const list = (await client(t.app, w.outsider).get(url())).json() as { id: string; sort_order: number }[];
    const ids = list.map((p) => p.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
  });

  it("refuses a duplicate identifier with 409 IDENTIFIER_TAKEN, storing nothing", async () => {
    const first = await createProject(t, w.admin, w.slug, { identifier: "DUPE" });
    const before = [await countProjects(t, w.workspaceId), await countStates(t, w.workspaceId)];
    const res = await client(t.app, w.admin).post(url(), { name: uniqueName(), identifier: "du-pe" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "IDENTIFIER_TAKEN" });
    expect(res.json().error).toContain("DUPE");
    expect([await countProjects(t, w.workspaceId), await countStates(t, w.workspaceId)]).toEqual(before);
    expect(first.identifier).toBe("DUPE");
  });

  it("refuses a duplicate name (any case) with 409 PROJECT_NAME_TAKEN", async () => {
    const first = await createProject(t, w.admin, w.slug, { name: "Mercury" });
    const before = await countProjects(t, w.workspaceId);
    const res = await client(t.app, w.admin).post(url(), { name: "mercury", identifier: uniqueIdentifier() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "PROJECT_NAME_TAKEN" });
    expect(await countProjects(t, w.workspaceId)).toBe(before);
    expect(first.name).toBe("Mercury");
  });

  it("keeps identifiers and names unique per workspace only", async () => {
    await createProject(t, w.admin, w.slug, { name: "Gemini", identifier: "GEM" });
    const other = await createProject(t, w.stranger, w.otherSlug, { name: "Gemini", identifier: "GEM" });
    expect(other.identifier).toBe("GEM");
  });

  it("gives one 201 and one 409 when two creations race for an identifier", async () => {
    const c = client(t.app, w.admin);
    const results = await Promise.all([
      c.post(url(), { name: uniqueName(), identifier: "RACE" }),
      c.post(url(), { name: uniqueName(), identifier: "RACE" }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json().code).toBe("IDENTIFIER_TAKEN");
    const rows = await t.db
      .select()
      .from(projects)
      .where(and(eq(projects.workspaceId, w.workspaceId), eq(projects.identifier, "RACE")));
    expect(rows).toHaveLength(1);
  });

  it("refuses bad input with 400 and stores nothing", async () => {
    const good = { name: uniqueName(), identifier: uniqueIdentifier() };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, identifier: "!!! 🚀" }, "identifier"],
      [{ ...good, identifier: "ABCDEFGHIJKLM" }, "identifier"],
      [{ ...good, name: "   " }, "name"],
      [{ identifier: "NONAME" }, "name"],
      [{ name: uniqueName() }, "identifier"],
      [{ ...good, network: 1 }, "network"],
      [{ ...good, project_lead: "not-a-uuid" }, "project_lead"],
      [{ ...good, project_lead: w.stranger.id }, "project_lead"],
      [{ ...good, cover_image: "javascript:alert(1)" }, "cover_image"],
      [{ ...good, logo_props: { in_use: "sticker" } }, "logo_props.in_use"],
      [{ ...good, description: 5 }, "description"],
    ];
    const before = [await countProjects(t, w.workspaceId), await countStates(t, w.workspaceId)];
    for (const [body, field] of cases) {
      const res = await client(t.app, w.admin).post(url(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect([await countProjects(t, w.workspaceId), await countStates(t, w.workspaceId)]).toEqual(before);
  });

  it("is refused to guests (403), anonymous callers (401) and other workspaces (404)", async () => {
    const body = { name: uniqueName(), identifier: uniqueIdentifier() };
    const before = await countProjects(t, w.workspaceId);
    expect((await client(t.app, w.guest).post(url(), body)).statusCode).toBe(403);
    expect((await client(t.app).post(url(), body)).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).post(url(), body)).statusCode).toBe(404);
    const loner = await createUser(t.db);
    expect((await client(t.app, loner).post(url(), body)).statusCode).toBe(404);
    expect(await countProjects(t, w.workspaceId)).toBe(before);
  });
});

describe("GET /project-identifiers/", () => {
  const idUrl = (name: string) => `/api/workspaces/${w.slug}/project-identifiers/?name=${encodeURIComponent(name)}`;

  it("says whether the sanitised identifier is taken", async () => {
    await createProject(t, w.admin, w.slug, { identifier: "TAKEN" });
    const taken = await client(t.app, w.member).get(idUrl("ta ken!"));
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ exists: 1, identifiers: ["TAKEN"] });
    const free = await client(t.app, w.member).get(idUrl("FREEONE"));
    expect(free.json()).toEqual({ exists: 0, identifiers: [] });
    // The spec spells it without the trailing slash too.
    const bare = await client(t.app, w.member).get(`/api/workspaces/${w.slug}/project-identifiers?name=TAKEN`);
    expect(bare.json().exists).toBe(1);
  });

  it("does not see identifiers of another workspace", async () => {
    await createProject(t, w.stranger, w.otherSlug, { identifier: "THEIRS" });
    expect((await client(t.app, w.member).get(idUrl("THEIRS"))).json().exists).toBe(0);
  });

  it("refuses a missing name (400), guests (403), anonymous (401), other workspaces (404)", async () => {
    expect((await client(t.app, w.member).get(`/api/workspaces/${w.slug}/project-identifiers/`)).statusCode).toBe(400);
    expect((await client(t.app, w.guest).get(idUrl("X"))).statusCode).toBe(403);
    expect((await client(t.app).get(idUrl("X"))).statusCode).toBe(401);
    expect((await client(t.app, w.stranger).get(idUrl("X"))).statusCode).toBe(404);
  });
});
