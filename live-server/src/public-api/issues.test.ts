import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { issues, states } from "../db/schema.ts";
import { createProject, createWorld, projectWithTeam, type World } from "../routes/projects/test-support.ts";
import { eventsDuring, tokenFor, v1 } from "./test-support.ts";

let t: TestApp;
let w: World;
let team: Awaited<ReturnType<typeof projectWithTeam>>;
let keys: { admin: string; member: string; guest: string; stranger: string };
let url: string;

beforeAll(async () => {
  t = await createTestApp({ API_KEY_RATE_LIMIT: "1000/minute" });
  w = await createWorld(t);
  team = await projectWithTeam(t, w);
  keys = {
    admin: (await tokenFor(t, w.admin, w.workspaceId)).key,
    member: (await tokenFor(t, w.member, w.workspaceId)).key,
    guest: (await tokenFor(t, w.guest, w.workspaceId)).key,
    stranger: (await tokenFor(t, w.stranger, w.otherWorkspaceId)).key,
  };
  url = `/api/v1/workspaces/${w.slug}/projects/${team.id}/issues`;
});
afterAll(() => t.close());

const countIssues = async () =>
  (await t.db.select({ n: count() }).from(issues).where(eq(issues.projectId, team.id)))[0]?.n ?? 0;

describe("public API work items", () => {
  it("creates, reads, updates and deletes a work item, emitting the same events as the web API", async () => {
    const [started] = await t.db
      .select()
      .from(states)
      .where(and(eq(states.projectId, team.id), eq(states.group, "started")));
    let itemId = "";
    const seen = await eventsDuring(t, async () => {
      const created = await v1(t.app, keys.member).post(`${url}/`, {
        name: "From a script",
        description_html: "<p>hello</p>",
        priority: "high",
        assignees: [w.member.id],
        state: started?.id,
      });
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json();
      expect(body).toMatchObject({
        name: "From a script",
        priority: "high",
        project: team.id,
        workspace: w.workspaceId,
        state: started?.id,
        assignees: [w.member.id],
        labels: [],
        created_by: w.member.id,
      });
      expect(body.sequence_id).toBeGreaterThan(0);
      itemId = body.id;

      const got = await v1(t.app, keys.guest).get(`${url}/${itemId}/?expand=assignees,state&fields=id,assignees,state`);
      // The guest sees it only if guests see all; either way no 500.
      expect([200, 404]).toContain(got.statusCode);
      const full = await v1(t.app, keys.admin).get(`${url}/${itemId}/?expand=assignees,state`);
      expect(full.json().assignees[0]).toMatchObject({ id: w.member.id, display_name: w.member.displayName });
      expect(full.json().state).toMatchObject({ id: started?.id, group: "started" });

      const patched = await v1(t.app, keys.member).patch(`${url}/${itemId}/`, { name: "Renamed", priority: "low" });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json()).toMatchObject({ name: "Renamed", priority: "low" });
    });
    const types = seen.map((e) => e.type);
    expect(types).toContain("issue.created");
    expect(types).toContain("issue.updated");
    expect(seen.find((e) => e.type === "issue.created")?.actor_id).toBe(w.member.id);

    // Delete: project admin or the creator; a guest is refused.
    expect((await v1(t.app, keys.guest).delete(`${url}/${itemId}/`)).statusCode).toBe(403);
    const deleted = await eventsDuring(t, async () => {
      expect((await v1(t.app, keys.member).delete(`${url}/${itemId}/`)).statusCode).toBe(204);
    });
    expect(deleted.map((e) => e.type)).toContain("issue.deleted");
    expect((await v1(t.app, keys.admin).get(`${url}/${itemId}/`)).statusCode).toBe(404);
  });

  it("the work-items/ alias and the key path PROJECT-SEQ", async () => {
    const made = (await v1(t.app, keys.admin).post(`${url}/`, { name: "Keyed" })).json();
    const key = `${team.identifier}-${made.sequence_id}`;
    const byKey = await v1(t.app, keys.admin).get(`/api/v1/workspaces/${w.slug}/issues/${key}/`);
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json().id).toBe(made.id);
    const lower = await v1(t.app, keys.admin).get(`/api/v1/workspaces/${w.slug}/work-items/${key.toLowerCase()}/`);
    expect(lower.json().id).toBe(made.id);
    const alias = await v1(t.app, keys.admin).get(
      `/api/v1/workspaces/${w.slug}/projects/${team.id}/work-items/${made.id}/`,
    );
    expect(alias.json().id).toBe(made.id);
    expect(
      (await v1(t.app, keys.admin).get(`/api/v1/workspaces/${w.slug}/issues/${team.identifier}-99999/`)).statusCode,
    ).toBe(404);
    expect((await v1(t.app, keys.admin).get(`/api/v1/workspaces/${w.slug}/issues/nonsense/`)).statusCode).toBe(404);
  });

  it("pages with cursor and per_page as the reference", async () => {
    const p = await createProject(t, w.admin, w.slug);
    const purl = `/api/v1/workspaces/${w.slug}/projects/${p.id}/issues`;
    for (let i = 1; i <= 5; i++) {
      expect((await v1(t.app, keys.admin).post(`${purl}/`, { name: `Item ${i}` })).statusCode).toBe(201);
    }
    const first = (await v1(t.app, keys.admin).get(`${purl}/?per_page=2&order_by=sequence_id`)).json();
    expect(first).toMatchObject({
      next_cursor: "2:1:0",
      prev_cursor: "2:-1:1",
      next_page_results: true,
      prev_page_results: false,
      count: 2,
      total_pages: 3,
      total_results: 5,
      extra_stats: null,
    });
    expect(first.results.map((r: { name: string }) => r.name)).toEqual(["Item 1", "Item 2"]);
    const second = (
      await v1(t.app, keys.admin).get(`${purl}/?per_page=2&order_by=sequence_id&cursor=${first.next_cursor}`)
    ).json();
    expect(second.results.map((r: { name: string }) => r.name)).toEqual(["Item 3", "Item 4"]);
    expect(second.prev_page_results).toBe(true);
    const last = (await v1(t.app, keys.admin).get(`${purl}/?per_page=2&order_by=sequence_id&cursor=2:2:0`)).json();
    expect(last).toMatchObject({ count: 1, next_page_results: false });
    const newest = (await v1(t.app, keys.admin).get(`${purl}/?per_page=1`)).json();
    expect(newest.results[0].name).toBe("Item 5");
    const picked = (await v1(t.app, keys.admin).get(`${purl}/?per_page=1&fields=id,name`)).json();
    expect(Object.keys(picked.results[0]).sort()).toEqual(["id", "name"]);
    expect((await v1(t.app, keys.admin).get(`${purl}/?order_by=bogus`)).statusCode).toBe(400);
    // The web API's filters apply.
    await v1(t.app, keys.admin).patch(`${purl}/${first.results[0].id}/`, { priority: "urgent" });
    const urgent = (await v1(t.app, keys.admin).get(`${purl}/?priority=urgent`)).json();
    expect(urgent.results.map((r: { name: string }) => r.name)).toEqual(["Item 1"]);
    expect(urgent.total_results).toBe(1);
    const searched = (await v1(t.app, keys.admin).get(`${purl}/?search=Item%203`)).json();
    expect(searched.results.map((r: { name: string }) => r.name)).toContain("Item 3");
    expect((await v1(t.app, keys.admin).get(`${purl}/?priority=asap`)).statusCode).toBe(400);
  });

  it("roles, other workspaces and bad input", async () => {
    const before = await countIssues();
    expect((await v1(t.app, keys.guest).post(`${url}/`, { name: "Guest" })).statusCode).toBe(403);
    expect((await v1(t.app, keys.stranger).post(`${url}/`, { name: "Stranger" })).statusCode).toBe(404);
    const foreign = await createProject(t, w.stranger, w.otherSlug);
    const made = await v1(t.app, keys.stranger).post(
      `/api/v1/workspaces/${w.otherSlug}/projects/${foreign.id}/issues/`,
      {
        name: "Theirs",
      },
    );
    expect(made.statusCode).toBe(201);
    // The admin's token cannot reach the other workspace's item, by any path.
    expect(
      (
        await v1(t.app, keys.admin).get(
          `/api/v1/workspaces/${w.otherSlug}/projects/${foreign.id}/issues/${made.json().id}/`,
        )
      ).statusCode,
    ).toBe(404);
    expect((await v1(t.app, keys.admin).get(`${url}/${made.json().id}/`)).statusCode).toBe(404);
    for (const body of [
      {},
      { name: "" },
      { name: "x", priority: "asap" },
      { name: "x", state: "not-an-id" },
      { name: "x", assignees: "me" },
      { name: "x", start_date: "2030-02-01", target_date: "2030-01-01" },
      { name: "x", state: "00000000-0000-4000-8000-000000000000" },
    ]) {
      const res = await v1(t.app, keys.admin).post(`${url}/`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe("string");
    }
    expect(await countIssues()).toBe(before);
    const item = (await v1(t.app, keys.admin).post(`${url}/`, { name: "Stable" })).json();
    const bad = await v1(t.app, keys.admin).patch(`${url}/${item.id}/`, { name: "" });
    expect(bad.statusCode).toBe(400);
    expect((await v1(t.app, keys.admin).get(`${url}/${item.id}/`)).json().name).toBe("Stable");
  });
});
