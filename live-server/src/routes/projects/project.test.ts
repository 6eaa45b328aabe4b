import { NETWORK, PROJECT_COVERS, ROLE } from "@tideline/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { projectMembers, states, userFavorites } from "../../db/schema.ts";
import { PAID_FEATURE_MESSAGE } from "./service.ts";
import { createProject, createWorld, projectRow, projectWithTeam, type World } from "./test-support.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

describe("GET /projects/:id/", () => {
  it("returns the project to its members, guests included", async () => {
    const p = await projectWithTeam(t, w);
    for (const [user, role] of [
      [w.admin, ROLE.admin],
      [w.member, ROLE.member],
      [w.guest, ROLE.guest],
    ] as const) {
      const res = await client(t.app, user).get(`${p.url}/`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: p.id, identifier: p.identifier, member_role: role, total_members: 3 });
    }
  });

  it("previews a public project to a workspace member who has not joined", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.outsider).get(`${p.url}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, is_member: false, member_role: null });
  });

  it("is 404 for a private project to non-members, a workspace admin included", async () => {
    const p = await createProject(t, w.member, w.slug, { network: NETWORK.private });
    expect((await client(t.app, w.admin).get(`/api/workspaces/${w.slug}/projects/${p.id}/`)).statusCode).toBe(404);
    expect((await client(t.app, w.outsider).get(`/api/workspaces/${w.slug}/projects/${p.id}/`)).statusCode).toBe(404);
  });

  it("is 404 for another workspace's project, a bad id, another workspace's caller; 401 anonymous", async () => {
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    expect((await client(t.app, w.admin).get(`/api/workspaces/${w.slug}/projects/${foreign.id}/`)).statusCode).toBe(
      404,
    );
    expect((await client(t.app, w.admin).get(`/api/workspaces/${w.slug}/projects/nope/`)).statusCode).toBe(404);
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.stranger).get(`${p.url}/`)).statusCode).toBe(404);
    expect((await client(t.app).get(`${p.url}/`)).statusCode).toBe(401);
  });
});

describe("PATCH /projects/:id/", () => {
  it("lets the project admin change general settings", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.admin).patch(`${p.url}/`, {
      name: "Renamed",
      description: "New words",
      identifier: "re named",
      network: NETWORK.private,
      project_lead: w.member.id,
      default_assignee: w.member.id,
      cover_image: PROJECT_COVERS[3],
      logo_props: { in_use: "icon", icon: { name: "rocket", color: "#ff0000" } },
      timezone: "Europe/Istanbul",
      archive_in: 3,
      close_in: 12,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: "Renamed",
      description: "New words",
      identifier: "RENAMED",
      network: NETWORK.private,
      project_lead: w.member.id,
      default_assignee: w.member.id,
      cover_image: PROJECT_COVERS[3],
      logo_props: { in_use: "icon", icon: { name: "rocket", color: "#ff0000" } },
      timezone: "Europe/Istanbul",
      archive_in: 3,
      close_in: 12,
    });
    const row = await projectRow(t, p.id);
    expect(row).toMatchObject({ identifier: "RENAMED", updatedById: w.admin.id, timezone: "Europe/Istanbul" });
  });

  it("lets the project admin switch the features that exist (cycles, modules, pages) and guest visibility", async () => {
    const p = await projectWithTeam(t, w);
    const off = await client(t.app, w.admin).patch(`${p.url}/`, {
      page_view: false,
      cycle_view: false,
      module_view: false,
      is_time_tracking_enabled: false,
      guest_view_all_features: true,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({
      page_view: false,
      cycle_view: false,
      module_view: false,
      guest_view_all_features: true,
    });
    const on = await client(t.app, w.admin).patch(`${p.url}/`, { page_view: true, cycle_view: true });
    expect(on.json()).toMatchObject({ page_view: true, cycle_view: true, module_view: false });
    expect(await projectRow(t, p.id)).toMatchObject({
      pageView: true,
      cycleView: true,
      moduleView: false,
      guestViewAllFeatures: true,
    });
  });

  it("reports the features that don't exist yet as off, whatever is stored (a new project: cycles, modules, pages)", async () => {
    const p = await projectWithTeam(t, w);
    // The stored defaults are the reference's (cycles, modules, views on); views exist (issue 11).
    expect(await projectRow(t, p.id)).toMatchObject({ cycleView: true, moduleView: true, issueViewsView: true });
    const res = await client(t.app, w.admin).get(`${p.url}/`);
    expect(res.json()).toMatchObject({
      page_view: true,
      cycle_view: true,
      module_view: true,
      issue_views_view: true,
      inbox_view: false,
      is_epic_enabled: false,
      is_time_tracking_enabled: false,
    });
    const listed = await client(t.app, w.admin).get(`/api/workspaces/${w.slug}/projects/`);
    const entry = (
      listed.json() as { id: string; cycle_view: boolean; issue_views_view: boolean; page_view: boolean }[]
    ).find((x) => x.id === p.id);
    expect(entry).toMatchObject({ cycle_view: true, issue_views_view: true, page_view: true });
  });

  // Intake was the last feature refused as FEATURE_UNAVAILABLE; it exists now (routes/intake),
  // so the switch works and the intake paths follow it.
  it("turns intake on and off; the intake paths follow (400 INTAKE_DISABLED while off)", async () => {
    const p = await projectWithTeam(t, w);
    const off = await client(t.app, w.admin).get(`${p.url}/inbox-issues/`);
    expect(off.statusCode).toBe(400);
    expect(off.json()).toMatchObject({ code: "INTAKE_DISABLED" });
    const on = await client(t.app, w.admin).patch(`${p.url}/`, { inbox_view: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ inbox_view: true });
    expect(await projectRow(t, p.id)).toMatchObject({ inboxView: true });
    expect((await client(t.app, w.admin).get(`${p.url}/inbox-issues/`)).statusCode).toBe(200);
  });

  it("turns epics on and off (issue 11: the epics screens exist); the epics paths follow", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.admin).get(`${p.url}/epics/`)).statusCode).toBe(404);
    const on = await client(t.app, w.admin).patch(`${p.url}/`, { is_epic_enabled: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ is_epic_enabled: true });
    expect(await projectRow(t, p.id)).toMatchObject({ isEpicEnabled: true });
    expect((await client(t.app, w.admin).get(`${p.url}/epics/`)).statusCode).toBe(200);
    const off = await client(t.app, w.admin).patch(`${p.url}/`, { is_epic_enabled: false });
    expect(off.json()).toMatchObject({ is_epic_enabled: false });
    expect((await client(t.app, w.admin).get(`${p.url}/epics/`)).statusCode).toBe(404);
  });

  it("refuses to turn on time tracking (a paid feature), changing nothing", async () => {
    const p = await projectWithTeam(t, w);
    const before = await projectRow(t, p.id);
    const res = await client(t.app, w.admin).patch(`${p.url}/`, { is_time_tracking_enabled: true, cycle_view: false });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "PAID_FEATURE", error: PAID_FEATURE_MESSAGE });
    expect(await projectRow(t, p.id)).toEqual(before);
  });

  it("refuses a taken identifier or name with 409, changing nothing", async () => {
    const a = await createProject(t, w.admin, w.slug, { name: "Taken name", identifier: "TKN" });
    const p = await projectWithTeam(t, w);
    const before = await projectRow(t, p.id);
    const dupId = await client(t.app, w.admin).patch(`${p.url}/`, { identifier: "t-k-n", description: "x" });
    expect(dupId.statusCode).toBe(409);
    expect(dupId.json()).toMatchObject({ code: "IDENTIFIER_TAKEN" });
    expect(dupId.json().error).toContain("TKN");
    const dupName = await client(t.app, w.admin).patch(`${p.url}/`, { name: "TAKEN NAME" });
    expect(dupName.statusCode).toBe(409);
    expect(dupName.json()).toMatchObject({ code: "PROJECT_NAME_TAKEN" });
    expect(await projectRow(t, p.id)).toEqual(before);
    expect(a.identifier).toBe("TKN");
  });

  it("keeps its own identifier and name when they are sent unchanged", async () => {
    const p = await projectWithTeam(t, w);
    const res = await client(t.app, w.admin).patch(`${p.url}/`, { identifier: p.identifier, name: p.name });
    expect(res.statusCode).toBe(200);
  });

  it("refuses bad input with 400, changing nothing", async () => {
    const p = await projectWithTeam(t, w);
    const before = await projectRow(t, p.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, "name"],
      [{ identifier: "🚀" }, "identifier"],
      [{ network: 1 }, "network"],
      [{ archive_in: 2 }, "archive_in"],
      [{ close_in: 24 }, "close_in"],
      [{ timezone: "Mars/Olympus" }, "timezone"],
      [{ project_lead: w.outsider.id }, "project_lead"],
      [{ default_assignee: w.stranger.id }, "default_assignee"],
      [{ cover_image: "data:image/png;base64,AAAA" }, "cover_image"],
      [{ cycle_view: "yes" }, "cycle_view"],
      [{ name: 5 }, "name"],
    ];
    for (const [body, field] of cases) {
      const res = await client(t.app, w.admin).patch(`${p.url}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect(await projectRow(t, p.id)).toEqual(before);
  });

  it("refuses to edit an archived project until it is restored", async () => {
    const p = await projectWithTeam(t, w);
    await client(t.app, w.admin).post(`${p.url}/archive/`);
    const res = await client(t.app, w.admin).patch(`${p.url}/`, { description: "late" });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("PROJECT_ARCHIVED");
    expect((await projectRow(t, p.id))?.description).toBe("");
  });

  it("is refused to members and guests (403), non-members (403/404), others (404), anonymous (401)", async () => {
    const p = await projectWithTeam(t, w);
    const before = await projectRow(t, p.id);
    const body = { description: "hijack" };
    expect((await client(t.app, w.member).patch(`${p.url}/`, body)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).patch(`${p.url}/`, body)).statusCode).toBe(403);
    expect((await client(t.app, w.outsider).patch(`${p.url}/`, body)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).patch(`${p.url}/`, body)).statusCode).toBe(404);
    expect((await client(t.app).patch(`${p.url}/`, body)).statusCode).toBe(401);
    const priv = await createProject(t, w.member, w.slug, { network: NETWORK.private });
    const privUrl = `/api/workspaces/${w.slug}/projects/${priv.id}/`;
    expect((await client(t.app, w.admin).patch(privUrl, body)).statusCode).toBe(404);
    expect(await projectRow(t, p.id)).toEqual(before);
  });
});

describe("DELETE /projects/:id/", () => {
  it("deletes the project with its members, states and favorites", async () => {
    const p = await projectWithTeam(t, w);
    await client(t.app, w.member).post(`/api/workspaces/${w.slug}/user-favorite-projects/`, { project: p.id });
    const res = await client(t.app, w.admin).delete(`${p.url}/`);
    expect(res.statusCode).toBe(204);
    expect(await projectRow(t, p.id)).toBeUndefined();
    expect(await t.db.select().from(projectMembers).where(eq(projectMembers.projectId, p.id))).toEqual([]);
    expect(await t.db.select().from(states).where(eq(states.projectId, p.id))).toEqual([]);
    expect(await t.db.select().from(userFavorites).where(eq(userFavorites.projectId, p.id))).toEqual([]);
    expect((await client(t.app, w.admin).get(`${p.url}/`)).statusCode).toBe(404);
  });

  it("is refused to members (403), guests (403), others (404), anonymous (401)", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.member).delete(`${p.url}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.guest).delete(`${p.url}/`)).statusCode).toBe(403);
    expect((await client(t.app, w.stranger).delete(`${p.url}/`)).statusCode).toBe(404);
    expect((await client(t.app).delete(`${p.url}/`)).statusCode).toBe(401);
    expect(await projectRow(t, p.id)).toBeDefined();
  });
});

describe("POST and DELETE /projects/:id/archive/", () => {
  it("archives (leaving the list and favorites) and restores", async () => {
    const p = await projectWithTeam(t, w);
    const fav = await client(t.app, w.member).post(`/api/workspaces/${w.slug}/user-favorite-projects/`, {
      project: p.id,
    });
    expect(fav.statusCode).toBe(201);

    const res = await client(t.app, w.admin).post(`${p.url}/archive/`);
    expect(res.statusCode).toBe(200);
    const archivedAt = res.json().archived_at as string;
    expect(new Date(archivedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await projectRow(t, p.id))?.archivedAt?.toISOString()).toBe(archivedAt);

    const list = (await client(t.app, w.member).get(`/api/workspaces/${w.slug}/projects/`)).json() as { id: string }[];
    expect(list.map((x) => x.id)).not.toContain(p.id);
    expect(await t.db.select().from(userFavorites).where(eq(userFavorites.projectId, p.id))).toEqual([]);
    // Still readable by id, for the archives page.
    expect((await client(t.app, w.member).get(`${p.url}/`)).json().archived_at).toBe(archivedAt);

    expect((await client(t.app, w.admin).delete(`${p.url}/archive/`)).statusCode).toBe(204);
    expect((await projectRow(t, p.id))?.archivedAt).toBeNull();
    const after = (await client(t.app, w.member).get(`/api/workspaces/${w.slug}/projects/`)).json() as { id: string }[];
    expect(after.map((x) => x.id)).toContain(p.id);
  });

  it("refuses to archive twice or restore what is not archived (400)", async () => {
    const p = await projectWithTeam(t, w);
    expect((await client(t.app, w.admin).delete(`${p.url}/archive/`)).statusCode).toBe(400);
    await client(t.app, w.admin).post(`${p.url}/archive/`);
    const first = (await projectRow(t, p.id))?.archivedAt;
    const again = await client(t.app, w.admin).post(`${p.url}/archive/`);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("PROJECT_ARCHIVED");
    expect((await projectRow(t, p.id))?.archivedAt).toEqual(first);
  });

  it("is refused to members (403), guests (403), others (404), anonymous (401)", async () => {
    const p = await projectWithTeam(t, w);
    for (const method of ["post", "delete"] as const) {
      expect((await client(t.app, w.member)[method](`${p.url}/archive/`)).statusCode).toBe(403);
      expect((await client(t.app, w.guest)[method](`${p.url}/archive/`)).statusCode).toBe(403);
      expect((await client(t.app, w.stranger)[method](`${p.url}/archive/`)).statusCode).toBe(404);
      expect((await client(t.app)[method](`${p.url}/archive/`)).statusCode).toBe(401);
    }
    expect((await projectRow(t, p.id))?.archivedAt).toBeNull();
  });
});
