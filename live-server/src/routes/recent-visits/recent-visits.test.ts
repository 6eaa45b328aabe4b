/**
 * Recent visits: recorded by the reads that open a work item, a page or a project; listed newest
 * first in the reference's shape; only the caller's own, and only what they may open now.
 */
import { NETWORK, PAGE_ACCESS } from "@tideline/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp, type TestUser } from "../../../test/harness.ts";
import { userRecentVisits } from "../../db/schema.ts";
import { addMember, createProject, createWorld, projectWithTeam, type World } from "../projects/test-support.ts";
import { RECENT_VISITS_KEPT } from "./schema.ts";

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t);
});
afterAll(() => t.close());

type Visit = {
  id: string;
  entity_name: string;
  entity_identifier: string;
  entity_data: Record<string, unknown>;
  visited_at: string;
};

const as = (user: TestUser | null) => client(t.app, user);
const recents = (slug = w.slug) => `/api/workspaces/${slug}/recent-visits/`;
type Team = Awaited<ReturnType<typeof projectWithTeam>>;

async function listOf(user: TestUser, entityName?: string): Promise<Visit[]> {
  const url = entityName === undefined ? recents() : `${recents()}?entity_name=${entityName}`;
  const res = await as(user).get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const idsOf = (list: Visit[]) => list.map((v) => v.entity_identifier);

async function createItem(user: TestUser, project: { url: string }, body: Record<string, unknown> = {}) {
  const res = await as(user).post(`${project.url}/issues/`, { name: "An item", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; sequence_id: number; project_id: string };
}

async function createPage(user: TestUser, project: { url: string }, body: Record<string, unknown> = {}) {
  const res = await as(user).post(`${project.url}/pages/`, { name: "A page", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}

async function open(user: TestUser, url: string) {
  const res = await as(user).get(url);
  expect(res.statusCode, res.body).toBe(200);
}

async function storedVisits(userId: string) {
  return t.db
    .select()
    .from(userRecentVisits)
    .where(and(eq(userRecentVisits.userId, userId), eq(userRecentVisits.workspaceId, w.workspaceId)));
}

describe("recording and listing", () => {
  let p: Team;
  let item: Awaited<ReturnType<typeof createItem>>;
  let page: Awaited<ReturnType<typeof createPage>>;

  beforeAll(async () => {
    p = await projectWithTeam(t, w, {
      network: NETWORK.private,
      logo_props: { in_use: "emoji", emoji: { value: "1F680" } },
    });
    item = await createItem(w.admin, p, { priority: "high", assignee_ids: [w.member.id] });
    page = await createPage(w.admin, p, { name: "Roadmap" });
  });

  it("starts empty and answers 401 without a session, 404 outside the caller's workspaces", async () => {
    expect(await listOf(w.outsider)).toEqual([]);
    expect((await as(null).get(recents())).statusCode).toBe(401);
    expect((await as(w.stranger).get(recents())).statusCode).toBe(404);
    expect((await as(w.member).get(recents(w.otherSlug))).statusCode).toBe(404);
    expect((await as(w.member).get(recents("no-such-workspace"))).statusCode).toBe(404);
  });

  it("records a work item, a page and a project when they are opened, newest first, in the reference's shape", async () => {
    await open(w.member, `${p.url}/issues/${item.id}/`);
    await open(w.member, `${p.url}/pages/${page.id}/`);
    await open(w.member, `${p.url}/`);

    const list = await listOf(w.member);
    expect(list.map((v) => v.entity_name)).toEqual(["project", "page", "issue"]);
    const [project, pageVisit, issue] = list as [Visit, Visit, Visit];
    for (const v of list) {
      expect(Object.keys(v).sort()).toEqual(["entity_data", "entity_identifier", "entity_name", "id", "visited_at"]);
      expect(Number.isNaN(Date.parse(v.visited_at))).toBe(false);
    }
    expect(Date.parse(project.visited_at)).toBeGreaterThanOrEqual(Date.parse(pageVisit.visited_at));
    expect(issue).toMatchObject({
      entity_identifier: item.id,
      entity_data: {
        id: item.id,
        name: "An item",
        priority: "high",
        assignees: [w.member.id],
        type: null,
        sequence_id: item.sequence_id,
        project_id: p.id,
        project_identifier: p.identifier,
        is_epic: false,
      },
    });
    expect(typeof issue.entity_data.state).toBe("string");
    expect(pageVisit).toMatchObject({
      entity_identifier: page.id,
      entity_data: {
        id: page.id,
        name: "Roadmap",
        project_id: p.id,
        owned_by: w.admin.id,
        project_identifier: p.identifier,
      },
    });
    expect(pageVisit.entity_data.logo_props).toEqual(expect.any(Object));
    expect(project).toMatchObject({
      entity_identifier: p.id,
      entity_data: { id: p.id, name: p.name, identifier: p.identifier, logo_props: { in_use: "emoji" } },
    });
    expect([...(project.entity_data.project_members as string[])].sort()).toEqual(
      [w.admin.id, w.member.id, w.guest.id].sort(),
    );
  });

  it("moves an entity opened again to the top without a second row; by key counts as opening it", async () => {
    await open(w.member, `/api/workspaces/${w.slug}/work-items/${p.identifier}-${item.sequence_id}/`);
    expect(idsOf(await listOf(w.member))).toEqual([item.id, p.id, page.id]);
    // The project board's settings read (what this product's board asks for each time it opens).
    await open(w.member, `${p.url}/user-properties/`);
    expect(idsOf(await listOf(w.member))).toEqual([p.id, item.id, page.id]);
    const rows = await storedVisits(w.member.id);
    expect(rows.filter((r) => r.entityIdentifier === item.id)).toHaveLength(1);
    expect(rows).toHaveLength(3);
  });

  it("filters by entity_name; empty lists every kind; any other value is a 400", async () => {
    expect(idsOf(await listOf(w.member, "issue"))).toEqual([item.id]);
    expect(idsOf(await listOf(w.member, "page"))).toEqual([page.id]);
    expect(idsOf(await listOf(w.member, "project"))).toEqual([p.id]);
    expect(await listOf(w.member, "")).toHaveLength(3);
    for (const bad of ["cycle", "ISSUE", "workspace_page", "issue&entity_name=page"]) {
      const res = await as(w.member).get(`${recents()}?entity_name=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields.entity_name, bad).toBeDefined();
    }
  });

  it("never shows another person's visits", async () => {
    expect(await listOf(w.admin)).toEqual([]);
    await open(w.admin, `${p.url}/issues/${item.id}/`);
    expect(idsOf(await listOf(w.admin))).toEqual([item.id]);
    expect(idsOf(await listOf(w.member))).toEqual([p.id, item.id, page.id]);
    expect(await listOf(w.guest)).toEqual([]);
  });

  it("records nothing for a read that failed, a page read with track_visit=false, or a non-member's look at a public project", async () => {
    const before = (await storedVisits(w.outsider.id)).length;
    expect((await as(w.outsider).get(`${p.url}/issues/${item.id}/`)).statusCode).toBe(404);
    expect((await as(w.outsider).get(`${p.url}/pages/${page.id}/`)).statusCode).toBe(404);
    const open2 = await createProject(t, w.admin, w.slug, { network: NETWORK.public });
    await open(w.outsider, `/api/workspaces/${w.slug}/projects/${open2.id}/`);
    expect(await storedVisits(w.outsider.id)).toHaveLength(before);

    const quiet = await createPage(w.admin, p, { name: "Quiet" });
    await open(w.member, `${p.url}/pages/${quiet.id}/?track_visit=false`);
    expect(idsOf(await listOf(w.member, "page"))).toEqual([page.id]);
  });
});

describe("only what the caller may open now", () => {
  it("leaves out a deleted work item", async () => {
    const p = await projectWithTeam(t, w);
    const item = await createItem(w.member, p);
    await open(w.member, `${p.url}/issues/${item.id}/`);
    expect(idsOf(await listOf(w.member, "issue"))).toContain(item.id);
    expect((await as(w.member).delete(`${p.url}/issues/${item.id}/`)).statusCode).toBe(204);
    expect(idsOf(await listOf(w.member, "issue"))).not.toContain(item.id);
  });

  it("leaves out a page its owner made private or archived", async () => {
    const p = await projectWithTeam(t, w);
    const secret = await createPage(w.admin, p, { name: "Soon private" });
    const old = await createPage(w.admin, p, { name: "Soon archived" });
    await open(w.member, `${p.url}/pages/${secret.id}/`);
    await open(w.member, `${p.url}/pages/${old.id}/`);
    await open(w.admin, `${p.url}/pages/${secret.id}/`);
    expect(idsOf(await listOf(w.member, "page"))).toEqual(expect.arrayContaining([secret.id, old.id]));

    const made = await as(w.admin).post(`${p.url}/pages/${secret.id}/access/`, { access: PAGE_ACCESS.private });
    expect(made.statusCode, made.body).toBe(200);
    const archived = await as(w.admin).post(`${p.url}/pages/${old.id}/archive/`);
    expect(archived.statusCode, archived.body).toBe(200);
    const mine = idsOf(await listOf(w.member, "page"));
    expect(mine).not.toContain(secret.id);
    expect(mine).not.toContain(old.id);
    // Its owner still sees it.
    expect(idsOf(await listOf(w.admin, "page"))).toContain(secret.id);
  });

  it("leaves out a private project the caller left, with its work items and pages, and shows them again on return", async () => {
    const p = await projectWithTeam(t, w, { network: NETWORK.private });
    const item = await createItem(w.admin, p);
    const page = await createPage(w.admin, p);
    await open(w.member, `${p.url}/issues/${item.id}/`);
    await open(w.member, `${p.url}/pages/${page.id}/`);
    await open(w.member, `${p.url}/`);
    expect(idsOf(await listOf(w.member))).toEqual(expect.arrayContaining([item.id, page.id, p.id]));

    expect((await as(w.member).post(`${p.url}/members/leave/`)).statusCode).toBe(204);
    const after = idsOf(await listOf(w.member));
    for (const id of [item.id, page.id, p.id]) expect(after).not.toContain(id);

    await addMember(t, w.admin, w.slug, p.id, w.member, 15);
    expect(idsOf(await listOf(w.member))).toEqual(expect.arrayContaining([item.id, page.id, p.id]));
  });

  it("leaves out an archived project and everything in it", async () => {
    const p = await projectWithTeam(t, w);
    const item = await createItem(w.admin, p);
    await open(w.member, `${p.url}/issues/${item.id}/`);
    await open(w.member, `${p.url}/`);
    const res = await as(w.admin).post(`${p.url}/archive/`);
    expect(res.statusCode, res.body).toBe(200);
    const after = idsOf(await listOf(w.member));
    expect(after).not.toContain(item.id);
    expect(after).not.toContain(p.id);
  });

  it("leaves out another's work item once a guest may see only their own", async () => {
    const p = await projectWithTeam(t, w);
    const opened = await as(w.admin).patch(`${p.url}/`, { guest_view_all_features: true });
    expect(opened.statusCode, opened.body).toBe(200);
    const theirs = await createItem(w.admin, p);
    await open(w.guest, `${p.url}/issues/${theirs.id}/`);
    expect(idsOf(await listOf(w.guest, "issue"))).toContain(theirs.id);
    const res = await as(w.admin).patch(`${p.url}/`, { guest_view_all_features: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(idsOf(await listOf(w.guest, "issue"))).not.toContain(theirs.id);
  });
});

describe("keeping the newest", () => {
  it(`keeps the ${RECENT_VISITS_KEPT} newest of each kind and lists ${RECENT_VISITS_KEPT} at most`, async () => {
    const p = await projectWithTeam(t, w);
    const items = [];
    for (let i = 0; i < RECENT_VISITS_KEPT + 2; i++) items.push(await createItem(w.admin, p, { name: `Item ${i}` }));
    for (const item of items) await open(w.admin, `${p.url}/issues/${item.id}/`);
    await open(w.admin, `${p.url}/`);

    const rows = (await storedVisits(w.admin.id)).filter((r) => r.entityName === "issue");
    expect(rows).toHaveLength(RECENT_VISITS_KEPT);
    const newest = items.slice(-RECENT_VISITS_KEPT).map((i) => i.id);
    expect(idsOf(await listOf(w.admin, "issue"))).toEqual(newest.reverse());
    // The project is still kept (per kind), and the whole list stops at the limit.
    expect(idsOf(await listOf(w.admin, "project"))).toEqual([p.id]);
    const all = await listOf(w.admin);
    expect(all).toHaveLength(RECENT_VISITS_KEPT);
    expect(all[0]?.entity_identifier).toBe(p.id);
  });
});
