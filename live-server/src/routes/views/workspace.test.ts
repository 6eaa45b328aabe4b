/**
 * Workspace views and the workspace work-item list: views CRUD under /views/ (with lock and
 * access), GET /issues/ across every project the caller can see (never a private project they
 * are not in, never another's item in a project where they are a restricted guest), with
 * filters including project, grouping and pagination; the caller's workspace-views/ props.
 */
import { NETWORK, ROLE } from "@tideline/shared";
import { and, count, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestApp, type TestApp } from "../../../test/harness.ts";
import { issues, issueViews, workspaceMembers } from "../../db/schema.ts";
import { createFixture, createIssue, eventsOf, type Fixture } from "../issues/test-support.ts";
import { addMember, createProject } from "../projects/test-support.ts";

let t: TestApp;
let f: Fixture;
let ws: string;
/** A private project of the admin's that no one else is in. */
let secret: { id: string; url: string };
/** A project where the guest may see everything (guest_view_all_features on). */
let open: { id: string; url: string };

beforeAll(async () => {
  t = await createTestApp();
  f = await createFixture(t);
  ws = `/api/workspaces/${f.w.slug}`;
  const p = await createProject(t, f.w.admin, f.w.slug, { network: NETWORK.private });
  secret = { id: p.id, url: `${ws}/projects/${p.id}` };
  const o = await createProject(t, f.w.admin, f.w.slug);
  open = { id: o.id, url: `${ws}/projects/${o.id}` };
  const opened = await client(t.app, f.w.admin).patch(`${open.url}/`, { guest_view_all_features: true });
  expect(opened.statusCode, opened.body).toBe(200);
  await addMember(t, f.w.admin, f.w.slug, o.id, f.w.member, ROLE.member);
  await addMember(t, f.w.admin, f.w.slug, o.id, f.w.guest, ROLE.guest);
});
afterAll(() => t.close());

type Item = { id: string; project_id: string };
const ids = (list: { id: string }[]) => list.map((v) => v.id);

async function countWorkspaceViews(): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(issueViews)
    .where(and(eq(issueViews.workspaceId, f.w.workspaceId), isNull(issueViews.projectId)));
  return row?.n ?? 0;
}

describe("workspace views", () => {
  it("creates with the spreadsheet layout and -created_at by default, reads, lists, changes and deletes", async () => {
    const api = client(t.app, f.w.member);
    const created = await api.post(`${ws}/views/`, { name: "Everything urgent", filters: { priority: ["urgent"] } });
    expect(created.statusCode, created.body).toBe(201);
    const view = created.json();
    expect(view).toMatchObject({
      project: null,
      workspace: f.w.workspaceId,
      filters: { priority: ["urgent"] },
      display_filters: { layout: "spreadsheet", order_by: "-created_at" },
      access: 1,
      owned_by: f.w.member.id,
    });
    const [event] = eventsOf(f, "view.created", view.id);
    expect(event).toMatchObject({ workspace_id: f.w.workspaceId, project_id: null });

    expect((await client(t.app, f.w.guest).get(`${ws}/views/${view.id}/`)).statusCode).toBe(200);
    expect(ids((await client(t.app, f.w.outsider).get(`${ws}/views/`)).json())).toContain(view.id);
    // Project view lists don't show workspace views.
    expect(ids((await client(t.app, f.w.member).get(`${f.project.url}/views/`)).json())).not.toContain(view.id);

    const patched = await client(t.app, f.w.admin).patch(`${ws}/views/${view.id}/`, {
      display_filters: { layout: "kanban", group_by: "project" },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().display_filters).toMatchObject({ layout: "kanban", group_by: "project" });
    expect(eventsOf(f, "view.updated", view.id)).toHaveLength(1);

    const locked = await api.post(`${ws}/views/${view.id}/lock/`);
    expect(locked.json().is_locked).toBe(true);
    expect((await api.post(`${ws}/views/${view.id}/lock/`)).json().code).toBe("VIEW_ALREADY_LOCKED");
    expect((await api.patch(`${ws}/views/${view.id}/`, { name: "x" })).json().code).toBe("VIEW_LOCKED");
    expect((await api.delete(`${ws}/views/${view.id}/lock/`)).json().is_locked).toBe(false);

    expect((await api.delete(`${ws}/views/${view.id}/`)).statusCode).toBe(204);
    expect(eventsOf(f, "view.deleted", view.id)).toHaveLength(1);
    expect((await api.get(`${ws}/views/${view.id}/`)).statusCode).toBe(404);
  });

  it("keeps a private workspace view to its owner", async () => {
    const view = (await client(t.app, f.w.member).post(`${ws}/views/`, { name: "Mine", access: 0 })).json();
    for (const user of [f.w.admin, f.w.outsider, f.w.guest]) {
      expect((await client(t.app, user).get(`${ws}/views/${view.id}/`)).statusCode).toBe(404);
      expect(ids((await client(t.app, user).get(`${ws}/views/`)).json())).not.toContain(view.id);
    }
    expect((await client(t.app, f.w.member).get(`${ws}/views/${view.id}/`)).statusCode).toBe(200);
    const pub = await client(t.app, f.w.member).post(`${ws}/views/${view.id}/access/`, { access: 1 });
    expect(pub.json().access).toBe(1);
    expect((await client(t.app, f.w.outsider).get(`${ws}/views/${view.id}/`)).statusCode).toBe(200);
  });

  it("refuses guests (403), strangers (404), anonymous (401) and bad input (400), storing nothing", async () => {
    const before = await countWorkspaceViews();
    expect((await client(t.app, f.w.guest).post(`${ws}/views/`, { name: "No" })).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).post(`${ws}/views/`, { name: "No" })).statusCode).toBe(404);
    expect((await client(t.app).post(`${ws}/views/`, { name: "No" })).statusCode).toBe(401);
    expect((await client(t.app, f.w.member).post(`${ws}/views/`, { filters: { project: ["x"] } })).statusCode).toBe(
      400,
    );
    expect(await countWorkspaceViews()).toBe(before);

    const view = (await client(t.app, f.w.member).post(`${ws}/views/`, { name: "Kept" })).json();
    const url = `${ws}/views/${view.id}/`;
    expect((await client(t.app, f.w.outsider).patch(url, { name: "No" })).statusCode).toBe(403);
    expect((await client(t.app, f.w.outsider).delete(url)).statusCode).toBe(403);
    expect((await client(t.app, f.w.guest).patch(url, { name: "No" })).statusCode).toBe(403);
    expect((await client(t.app, f.w.stranger).get(url)).statusCode).toBe(404);
    expect(
      (await client(t.app, f.w.stranger).get(`/api/workspaces/${f.w.otherSlug}/views/${view.id}/`)).statusCode,
    ).toBe(404);
    expect((await client(t.app).get(url)).statusCode).toBe(401);
    expect((await client(t.app, f.w.member).patch(url, { access: 3 })).statusCode).toBe(400);
    const [row] = await t.db.select().from(issueViews).where(eq(issueViews.id, view.id));
    expect(row).toMatchObject({ name: "Kept", access: 1 });
    // A workspace admin may delete anyone's view.
    expect((await client(t.app, f.w.admin).delete(url)).statusCode).toBe(204);
  });
});

describe("GET /issues/ (the workspace list)", () => {
  let shown: Item;
  let hiddenSecret: Item;
  let openItem: Item;
  let guestOwn: Item;

  beforeAll(async () => {
    shown = await createIssue(t, f.w.member, f.project.url, { name: "In the team project", priority: "high" });
    await createIssue(t, f.w.member, f.project.url, { name: "Another", priority: "low" });
    hiddenSecret = await createIssue(t, f.w.admin, secret.url, { name: "Secret", priority: "high" });
    openItem = await createIssue(t, f.w.member, open.url, { name: "Open to guests", priority: "urgent" });
    guestOwn = await createIssue(t, f.w.member, f.project.url, { name: "The guest's own", priority: "medium" });
    await t.db.update(issues).set({ createdById: f.w.guest.id }).where(eq(issues.id, guestOwn.id));
    // Neither archived, deleted nor draft items show.
    const archived = await createIssue(t, f.w.member, f.project.url, { name: "Archived" });
    await t.db.update(issues).set({ archivedAt: new Date() }).where(eq(issues.id, archived.id));
    const deleted = await createIssue(t, f.w.member, f.project.url, { name: "Deleted" });
    await t.db.update(issues).set({ deletedAt: new Date() }).where(eq(issues.id, deleted.id));
  });

  const list = async (user = f.w.member, query = "") => {
    const res = await client(t.app, user).get(`${ws}/issues/${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it("lists every project the caller is in, never a private project they are not in", async () => {
    const member = ids((await list()).results);
    expect(member).toEqual(expect.arrayContaining([shown.id, openItem.id, guestOwn.id]));
    expect(member).not.toContain(hiddenSecret.id);
    expect(member).toHaveLength(4);
    const admin = ids((await list(f.w.admin)).results);
    expect(admin).toContain(hiddenSecret.id);
    // The outsider is in no project: nothing.
    expect((await list(f.w.outsider)).results).toEqual([]);
  });

  it("keeps a restricted guest to their own items, per project", async () => {
    const guest = ids((await list(f.w.guest)).results);
    // Own item where restricted; everything where guest_view_all_features is on.
    expect(guest.sort()).toEqual([guestOwn.id, openItem.id].sort());
  });

  it("orders newest first by default and filters by project and the other filters", async () => {
    const all = (await list()).results as (Item & { created_at: string })[];
    const created = all.map((i) => i.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const byProject = await list(f.w.member, `?project=${open.id}`);
    expect(ids(byProject.results)).toEqual([openItem.id]);
    const secretFilter = await list(f.w.member, `?project=${secret.id}`);
    expect(secretFilter.results).toEqual([]);
    const high = await list(f.w.admin, "?priority=high");
    expect(ids(high.results).sort()).toEqual([shown.id, hiddenSecret.id].sort());
    const searched = await list(
      f.w.member,
      `?search=${f.project.identifier}-${(shown as unknown as { sequence_id: number }).sequence_id}`,
    );
    expect(ids(searched.results)).toEqual([shown.id]);
  });

  it("serves the built-in views as filters: assigned, created, subscribed", async () => {
    const mine = await createIssue(t, f.w.admin, open.url, { name: "For the member", assignee_ids: [f.w.member.id] });
    const assigned = await list(f.w.member, `?assignees=${f.w.member.id}`);
    expect(ids(assigned.results)).toEqual([mine.id]);
    const created = await list(f.w.admin, `?created_by=${f.w.admin.id}`);
    expect(ids(created.results)).toEqual(expect.arrayContaining([hiddenSecret.id, mine.id]));
    expect(ids(created.results)).not.toContain(shown.id);
    // The assignee is subscribed automatically.
    const subscribed = await list(f.w.member, `?subscriber=${f.w.member.id}`);
    expect(ids(subscribed.results)).toContain(mine.id);
    await t.db.update(issues).set({ deletedAt: new Date() }).where(eq(issues.id, mine.id));
  });

  it("groups (by project, by priority) and pages", async () => {
    const byProject = await list(f.w.member, "?group_by=project");
    expect(byProject.grouped_by).toBe("project_id");
    expect(byProject.results[f.project.id].total_results).toBe(3);
    expect(byProject.results[open.id].total_results).toBe(1);
    expect(byProject.results[secret.id]).toBeUndefined();
    const byPriority = await list(f.w.member, "?group_by=priority");
    expect(Object.keys(byPriority.results)).toEqual(["urgent", "high", "medium", "low", "none"]);
    expect(byPriority.results.none.total_results).toBe(0);
    const byState = await list(f.w.member, "?group_by=state&sub_group_by=priority");
    expect(byState.sub_grouped_by).toBe("priority");

    // The layout rules and expand of the project list apply here too.
    const calendar = await list(f.w.member, "?layout=calendar&group_by=priority");
    expect(calendar.grouped_by).toBe("target_date");
    const timeline = await list(f.w.member, "?layout=gantt_chart&group_by=priority&expand=issue_relation");
    expect(timeline.grouped_by).toBeNull();
    expect(timeline.results[0].issue_relation).toEqual([]);

    const first = await list(f.w.member, "?per_page=3");
    expect(first).toMatchObject({ total_count: 4, count: 3, next_page_results: true, total_pages: 2 });
    const second = await list(f.w.member, `?cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ count: 1, next_page_results: false, prev_page_results: true });
    const seen = [...ids(first.results), ...ids(second.results)];
    expect(new Set(seen).size).toBe(4);
  });

  it("refuses anonymous (401), strangers (404) and bad queries (400)", async () => {
    expect((await client(t.app).get(`${ws}/issues/`)).statusCode).toBe(401);
    expect((await client(t.app, f.w.stranger).get(`${ws}/issues/`)).statusCode).toBe(404);
    for (const q of ["?group_by=colour", "?priority=burning", "?cursor=x", "?order_by=shoe_size", "?project=nope"]) {
      expect((await client(t.app, f.w.member).get(`${ws}/issues/${q}`)).statusCode, q).toBe(400);
    }
  });
});

describe("workspace-views/ (the caller's own workspace view properties)", () => {
  it("answers defaults, stores what is sent, per member", async () => {
    const before = (await client(t.app, f.w.member).get(`${ws}/workspace-views/`)).json();
    expect(before.view_props.display_filters).toMatchObject({ layout: "spreadsheet", order_by: "-created_at" });
    const saved = await client(t.app, f.w.member).post(`${ws}/workspace-views/`, {
      view_props: { filters: { priority: ["urgent"] }, display_properties: { labels: false } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().view_props).toMatchObject({
      filters: { priority: ["urgent"] },
      display_properties: { labels: false },
      display_filters: { layout: "spreadsheet" },
    });
    const again = (await client(t.app, f.w.member).get(`${ws}/workspace-views/`)).json();
    expect(again.view_props.filters).toEqual({ priority: ["urgent"] });
    const other = (await client(t.app, f.w.admin).get(`${ws}/workspace-views/`)).json();
    expect(other.view_props.filters).toEqual({});
  });

  it("refuses bad input (400, nothing stored), strangers (404), anonymous (401)", async () => {
    const [before] = await t.db
      .select()
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, f.w.workspaceId), eq(workspaceMembers.memberId, f.w.admin.id)));
    const bad = await client(t.app, f.w.admin).post(`${ws}/workspace-views/`, {
      view_props: { filters: { priority: ["burning"] } },
    });
    expect(bad.statusCode).toBe(400);
    const [after] = await t.db
      .select()
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, f.w.workspaceId), eq(workspaceMembers.memberId, f.w.admin.id)));
    expect(after?.viewProps).toEqual(before?.viewProps);
    expect((await client(t.app, f.w.stranger).post(`${ws}/workspace-views/`, { view_props: {} })).statusCode).toBe(404);
    expect((await client(t.app).get(`${ws}/workspace-views/`)).statusCode).toBe(401);
  });
});
